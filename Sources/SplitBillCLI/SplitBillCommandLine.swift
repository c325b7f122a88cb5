import Foundation
import SplitBillCore
import SplitBillFiles
import SplitBillInput
import SplitBillModel
import SplitBillReports
import SplitBillText

#if canImport(Glibc)
  import Glibc
#endif

/// The `splitbill` command line: parses arguments, runs one command, maps failures to exit codes.
package enum SplitBillCommandLine {
  /// The version `--version` prints.
  package static let version = "0.1.0"

  static let commands: [Command] = [
    ReportCommand.command, BalanceCommand.command, SuggestCommand.command,
    CalcCommand.command, CheckCommand.command, AddCommand.command, ImportCommand.command, ExportCommand.command,
    ScanCommand.command,
    SchemaCommand.command,
    InitCommand.command,
    CompletionsCommand.command, ManCommand.command, VersionCommand.command,
  ]

  /// What `splitbill help TOPIC` explains besides the commands.
  static let topics: [(name: String, summary: String, text: @Sendable () -> String)] = [
    ("exit-codes", "what each exit status means", { exitCodeHelp })
  ]

  /// Runs `splitbill` with `arguments` (without the program name) and returns the exit code.
  package static func run(_ arguments: [String], context: inout CommandContext) async -> Int32 {
    guard let first = arguments.first else {
      // No command: a short usage on stderr, as a mistake (the full help is `splitbill help`).
      context.stderr.write(shortUsage)
      return ExitCode.usage.rawValue
    }
    switch first {
    case "-h", "--help":
      context.stdout.write(overview(width: context.helpWidth))
      return 0
    case "-V", "--version":
      context.stdout.write("splitbill \(version)\n")
      return 0
    case "help":
      guard arguments.count > 1 else {
        context.stdout.write(overview(width: context.helpWidth))
        return 0
      }
      if let topic = topics.first(where: { $0.name == arguments[1] }) {
        context.stdout.write(topic.text())
        return 0
      }
      guard let command = commands.first(where: { $0.name == arguments[1] }) else {
        return usageFailure(unknownTopic(arguments[1]), command: nil, context: &context)
      }
      context.stdout.write(command.help(width: context.helpWidth))
      return 0
    default:
      break
    }
    guard let command = commands.first(where: { $0.name == first }) else {
      return usageFailure(unknownCommand(first), command: nil, context: &context)
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains(where: { $0 == "-h" || $0 == "--help" }) && !rest.contains("--") {
      context.stdout.write(command.help(width: context.helpWidth))
      return 0
    }
    var origins: [String: SourceLocation] = [:]
    do {
      var parsed = try ParsedArguments.parse(rest, specs: command.allOptions)
      try context.setColor(parsed.choice("--color", ColorChoice.self) ?? .auto)
      do {
        let applied = try Configuration.apply(to: parsed, command: command, context: &context)
        parsed = applied.arguments
        origins = applied.origins
        if parsed.flag("--verbose") {
          let read = applied.read.map { "\($0.path) (\($0.settings) setting\($0.settings == 1 ? "" : "s"))" }
          context.message(
            parsed.flag("--no-config")
              ? "config: none read (--no-config)"
              : "config: " + (read.isEmpty ? "no file found" : "read " + read.joined(separator: ", ")))
        }
      } catch {
        Configuration.report(error, &context)
        return ExitCode.usage.rawValue
      }
      return try await command.run(parsed, &context).rawValue
    } catch let error as UsageError {
      // A value from a configuration file is refused there, at its line.
      if let (option, location) = origins.first(where: { error.message.hasPrefix($0.key + ":") }) {
        let message = String(error.message.dropFirst(option.count + 1)).trimmingCharacters(in: .whitespaces)
        Configuration.report(
          ConfigProblem(.error(.configValue(key: String(option.dropFirst(2)), message: message), at: location)),
          &context)
        return ExitCode.usage.rawValue
      }
      return usageFailure(error, command: command, context: &context)
    } catch let failure as CommandFailure {
      context.message("error: " + failure.message)
      return failure.code.rawValue
    } catch {
      context.message("error: internal error: \(error)")
      return ExitCode.internalError.rawValue
    }
  }

  /// What bare `splitbill` prints.
  static var shortUsage: String {
    """
    Usage: splitbill <command> [options]
    Commands: \(commands.map(\.name).joined(separator: ", "))
    Try 'splitbill report samples/trip.yaml', or 'splitbill help' for the full help.

    """
  }

  static func unknownCommand(_ name: String) -> UsageError {
    var message = "unknown command '\(name)'"
    if let guess = Spelling.suggestion(for: name, among: commands.map(\.name)) {
      message += "; did you mean '\(guess)'?"
    }
    return UsageError(message)
  }

  /// `help NAME` for a NAME that is neither a command nor a topic.
  static func unknownTopic(_ name: String) -> UsageError {
    let names = commands.map(\.name) + topics.map(\.name)
    var message =
      "no help on '\(name)': expected a command (\(commands.map(\.name).joined(separator: ", "))) or a topic "
      + "(\(topics.map(\.name).joined(separator: ", ")))"
    if let guess = Spelling.suggestion(for: name, among: names) { message += "; did you mean '\(guess)'?" }
    return UsageError(message)
  }

  static func usageFailure(_ error: UsageError, command: Command?, context: inout CommandContext) -> Int32 {
    context.message("error: " + error.message)
    if let command {
      context.message("Usage: " + command.usage)
      context.message("See 'splitbill \(command.name) --help' for more information.")
    } else {
      context.message("See 'splitbill --help' for more information.")
    }
    return ExitCode.usage.rawValue
  }

  static var overview: String { overview(width: 80) }

  /// `splitbill help`, each command's and topic's summary wrapped to `width` beside its name.
  static func overview(width: Int) -> String {
    let nameWidth = (commands.map(\.name.count) + topics.map(\.name.count)).max() ?? 0
    let list = commands.flatMap { HelpText.option($0.name, $0.summary, labelWidth: nameWidth, width: width) }
    let topicList = topics.flatMap { HelpText.option($0.name, $0.summary, labelWidth: nameWidth, width: width) }
    return """
      splitbill: settle restaurant bills exactly, one at a time or in batches.

      Usage: splitbill <command> [options]
             splitbill help <command>|<topic>
             splitbill -V | --version

      Commands:
      \(list.joined(separator: "\n"))

      Help topics (splitbill help TOPIC):
      \(topicList.joined(separator: "\n"))

      Examples:
        splitbill report samples/trip.yaml
        splitbill report expenses/ --last-week -o weekly.html -o weekly.journal
        splitbill check samples/invalid --format github
        splitbill calc 84.50 --tip 18 --split 3
        splitbill calc --interactive
        splitbill suggest "Lovely waiter, slow kitchen"
        splitbill import splitwise export.csv -o trip.yaml

      """
  }
}

extension SplitBillCommandLine {
  /// The process environment as a dictionary.
  package static func processEnvironment() -> [String: String] { SystemCalls.environment() }
}
