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

  /// Writes a line to standard error.
  mutating func message(_ text: String) { stderr.write(text + "\n") }
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

  /// `splitbill NAME --help`.
  var help: String {
    var lines = ["splitbill \(name): \(summary)", "", "Usage: \(usage)", ""]
    if !details.isEmpty { lines += [details, ""] }
    lines.append("Options:")
    let labels = options.map { option in
      [option.short, option.name].compactMap { $0 }.joined(separator: ", ")
        + (option.valueName.map { " " + $0 } ?? "")
    }
    let width = (labels.map(\.count) + ["-h, --help".count]).max() ?? 0
    for (label, option) in zip(labels, options) {
      lines.append("  " + TerminalText.pad(label, to: width, alignment: .left) + "  " + option.help)
    }
    lines.append("  " + TerminalText.pad("-h, --help", to: width, alignment: .left) + "  Show this help.")
    if !examples.isEmpty {
      lines += ["", "Examples:"] + examples.map { "  " + $0 }
    }
    lines += ["", exitCodeHelp]
    return lines.joined(separator: "\n") + "\n"
  }
}

let exitCodeHelp = """
  Exit codes: 0 success, 1 invalid bills found, 64 usage error, 66 an input cannot be read,
  69 a required AI provider is unavailable, 70 internal error (a reconciliation failed),
  73 an output cannot be written, 74 standard output or error cannot be written.
  """
