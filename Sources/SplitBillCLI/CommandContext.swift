import Foundation
import SplitBillFiles
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

extension CommandContext {
  /// The width help is wrapped to: the terminal's (`COLUMNS`, else the terminal's own size) when
  /// standard output is one, else 80; between 40 and 160.
  var helpWidth: Int {
    guard stdoutIsTerminal else { return 80 }
    let columns = environment["COLUMNS"].flatMap { Int($0) } ?? SystemCalls.terminalWidth(of: 1) ?? 80
    return min(max(columns, 40), 160)
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

  /// ``help(width:)`` at 80 columns.
  var help: String { help(width: 80) }

  /// `splitbill NAME --help`, wrapped to `width` columns (the terminal's, 80 when not a
  /// terminal): this command's options only, by section, each option's text beside its name with
  /// a hanging indent (under it, when the names are too wide for that). Examples stay whole lines,
  /// to be copied.
  func help(width: Int) -> String {
    var lines = HelpText.wrap("splitbill \(name): \(summary)", width: width) + [""]
    lines += HelpText.wrap("Usage: \(usage)", width: width, indent: 2) + [""]
    if !details.isEmpty {
      lines +=
        details.split(separator: "\n", omittingEmptySubsequences: false).flatMap {
          HelpText.wrap(String($0), width: width)
        } + [""]
    }
    let all = allOptions + [Self.helpOption]
    let labels = all.map(\.label)
    let labelWidth = labels.map(\.count).max() ?? 0
    var sections: [String?] = [nil]
    for option in all where !sections.contains(option.section) { sections.append(option.section) }
    // A command with no options of its own (schema, version) shows no empty "Options:" heading.
    for section in sections where all.contains(where: { $0.section == section }) {
      lines.append((section ?? "Options") + ":")
      for (label, option) in zip(labels, all) where option.section == section {
        lines += HelpText.option(label, option.help, labelWidth: labelWidth, width: width)
      }
      lines.append("")
    }
    if !examples.isEmpty {
      lines += ["Examples:"] + examples.flatMap { HelpText.command($0, width: width) } + [""]
    }
    lines.append("Exit codes: splitbill help exit-codes")
    return lines.joined(separator: "\n") + "\n"
  }
}

/// Help text wrapped to a width, at spaces.
enum HelpText {
  /// `text` as lines of at most `width` columns (a word longer than that stands alone), its
  /// leading spaces kept on the first line and `indent` more on the others.
  static func wrap(_ text: String, width: Int, indent extra: Int = 0) -> [String] {
    let lead = text.prefix { $0 == " " }
    guard TerminalText.width(text) > width else { return [text] }
    let continued = String(lead) + String(repeating: " ", count: extra)
    var lines: [String] = []
    var line = String(lead)
    for word in text.dropFirst(lead.count).split(separator: " ") {
      let start = lines.isEmpty ? String(lead) : continued
      if line != start, TerminalText.width(line) + 1 + TerminalText.width(String(word)) > width {
        lines.append(line)
        line = continued + word
      } else {
        line += (line == start ? "" : " ") + word
      }
    }
    lines.append(line)
    return lines
  }

  /// A shell command as lines of at most `width` columns: broken between words (never inside
  /// quotes), each line but the last ending in ` \\` so that it still pastes as one command.
  static func command(_ text: String, width: Int) -> [String] {
    guard TerminalText.width(text) + 2 > width else { return ["  " + text] }
    var words: [String] = []
    var word = ""
    var quote: Character?
    for character in text {
      if let open = quote {
        if character == open { quote = nil }
      } else if character == "'" || character == "\"" {
        quote = character
      } else if character == " " {
        if !word.isEmpty { words.append(word) }
        word = ""
        continue
      }
      word.append(character)
    }
    if !word.isEmpty { words.append(word) }
    var lines: [String] = []
    var line = "  "
    for word in words {
      let start = lines.isEmpty ? "  " : "      "
      if line != start, TerminalText.width(line) + 1 + TerminalText.width(word) + 2 > width {
        lines.append(line + " \\")
        line = "      " + word
      } else {
        line += (line == start ? "" : " ") + word
      }
    }
    lines.append(line)
    return lines
  }

  /// An option's lines: `  LABEL  text`, the text wrapped under itself; under the label, indented
  /// by 8, when beside it would leave fewer than 30 columns.
  static func option(_ label: String, _ text: String, labelWidth: Int, width: Int) -> [String] {
    let column = 2 + labelWidth + 2
    if width - column >= 30 {
      let wrapped = wrap(text, width: width - column)
      return wrapped.enumerated().map { index, part in
        (index == 0
          ? "  " + TerminalText.pad(label, to: labelWidth, alignment: .left) + "  "
          : String(repeating: " ", count: column))
          + part
      }
    }
    return ["  " + label] + wrap(String(repeating: " ", count: 8) + text, width: width)
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
