import Foundation
import SplitBillReports

/// What a command may touch: its output streams and environment. Tests pass string sinks.
package struct CommandContext {
  /// Results.
  package var stdout: any OutputSink
  /// Messages and diagnostics.
  package var stderr: any OutputSink
  /// The process environment (`NO_COLOR`, `GEMINI_API_KEY`, `XDG_CACHE_HOME`…).
  package var environment: [String: String]
  /// Whether standard output is a terminal (colour, progress).
  package var stdoutIsTerminal: Bool
  /// Whether standard error is a terminal.
  package var stderrIsTerminal: Bool
  /// Whether standard input is a terminal (else `report` and `check` read it when given no PATH).
  package var stdinIsTerminal = true

  /// Creates a context.
  package init(
    stdout: any OutputSink, stderr: any OutputSink, environment: [String: String] = [:],
    stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false
  ) {
    self.stdout = stdout
    self.stderr = stderr
    self.environment = environment
    self.stdoutIsTerminal = stdoutIsTerminal
    self.stderrIsTerminal = stderrIsTerminal
  }

  /// Whether diagnostics on standard output / standard error are coloured (``setColor(_:)``).
  package var colorsStdout = false
  package var colorsStderr = false

  /// `arguments` with `-` (standard input) as the one PATH when none is given and something is
  /// piped in: `cat trip.csv | splitbill report`.
  func readingStandardInput(_ arguments: ParsedArguments) -> ParsedArguments {
    guard arguments.positionals.isEmpty, !stdinIsTerminal else { return arguments }
    var arguments = arguments
    arguments.positionals = ["-"]
    return arguments
  }

  /// Writes a line to standard error.
  mutating func message(_ text: String) { stderr.write(text + "\n") }

  /// Decides colour from `--color`: `always` and `never` as said; `auto` colours a stream that is a
  /// terminal, unless `NO_COLOR` is set (and not empty); `CLICOLOR_FORCE` (not `0`) colours even
  /// when it is not a terminal.
  mutating func setColor(_ choice: ColorChoice) {
    switch choice {
    case .always: (colorsStdout, colorsStderr) = (true, true)
    case .never: (colorsStdout, colorsStderr) = (false, false)
    case .auto:
      if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" {
        (colorsStdout, colorsStderr) = (true, true)
      } else if let no = environment["NO_COLOR"], !no.isEmpty {
        (colorsStdout, colorsStderr) = (false, false)
      } else {
        (colorsStdout, colorsStderr) = (stdoutIsTerminal, stderrIsTerminal)
      }
    }
  }
}

/// `--color auto|always|never`.
package enum ColorChoice: String, CaseIterable, Sendable {
  case auto, always, never
}

/// A failure that ends a command with a message on stderr and a specific exit code.
struct CommandFailure: Error {
  var message: String
  var code: ExitCode
}

/// One subcommand: its help and what it runs.
struct Command: Sendable {
  var name: String
  var summary: String
  var usage: String
  var options: [OptionSpec]
  var details: String = ""
  var examples: [String]
  var run: @Sendable (ParsedArguments, inout CommandContext) async throws -> ExitCode
  /// What the positional arguments are, for completions and the man page: file extensions
  /// (`[""]` any file, `["/"]` directories too), or words (`splitwise`, `bash`).
  var operands: [String] = []
  var operandWords: [String] = []

  /// The options every command takes.
  static let globalOptions: [OptionSpec] = [
    .flag(
      "--no-config", "Ignore the configuration files ($XDG_CONFIG_HOME/splitbill/config.yaml, ./splitbill.yaml)."
    ).under("Global options"),
    .value(
      "--color", "WHEN", "Colour diagnostics: auto (on a terminal, unless NO_COLOR is set), always or never.",
      choices: ColorChoice.allCases.map(\.rawValue)
    ).under("Global options"),
  ]

  /// This command's options and the global ones.
  var allOptions: [OptionSpec] { options + Self.globalOptions }

  /// `splitbill NAME --help`: this command's options only, by section.
  var help: String {
    var lines = ["splitbill \(name): \(summary)", "", "Usage: \(usage)", ""]
    if !details.isEmpty { lines += [details, ""] }
    let all = allOptions + [Self.helpOption]
    let labels = all.map(\.label)
    let width = labels.map(\.count).max() ?? 0
    var sections: [String?] = [nil]
    for option in all where !sections.contains(option.section) { sections.append(option.section) }
    // A command with no options of its own (schema, version) shows no empty "Options:" heading.
    for section in sections where all.contains(where: { $0.section == section }) {
      lines.append((section ?? "Options") + ":")
      for (label, option) in zip(labels, all) where option.section == section {
        lines.append("  " + TerminalText.pad(label, to: width, alignment: .left) + "  " + option.help)
      }
      lines.append("")
    }
    if !examples.isEmpty {
      lines += ["Examples:"] + examples.map { "  " + $0 } + [""]
    }
    lines.append("Exit codes: splitbill help exit-codes")
    return lines.joined(separator: "\n") + "\n"
  }
}

extension Command {
  static let helpOption = OptionSpec.flag("--help", short: "-h", "Show this help.").under("Global options")
}

extension OptionSpec {
  /// `-o, --output FILE`, as help shows it.
  var label: String {
    [short, name].compactMap { $0 }.joined(separator: ", ") + (valueName.map { " " + $0 } ?? "")
  }
}

/// `splitbill help exit-codes` (and the man page's EXIT STATUS).
let exitCodes: [(code: ExitCode, meaning: String)] = [
  (.success, "success"),
  (.invalidBills, "invalid bills found (the valid ones were still processed), or an import with invalid rows"),
  (.usage, "usage error: an unknown option, a bad value, no command"),
  (.noInput, "an input cannot be read, or holds nothing (unless --allow-empty)"),
  (.unavailable, "a required AI provider is unavailable (--require-ai)"),
  (.internalError, "internal error: a reconciliation identity failed, which must never happen"),
  (.cannotCreate, "an output cannot be written (or exists, without --force)"),
  (.ioError, "standard output or standard error cannot be written: what was printed is not the whole output"),
]

let exitCodeHelp =
  "Exit codes:\n"
  + exitCodes.map { "  \(String($0.code.rawValue).padding(toLength: 3, withPad: " ", startingAt: 0)) \($0.meaning)" }
  .joined(separator: "\n") + "\n"
