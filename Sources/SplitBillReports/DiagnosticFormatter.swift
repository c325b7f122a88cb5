@_spi(ByteWriters) import SplitBillBytes
import SplitBillCore
import SplitBillFiles
import SplitBillJSON
import SplitBillModel

/// Renders diagnostics the way `splitbill check` prints them.
package enum DiagnosticFormatter {
  /// Compiler style, with the source line and a caret under the column:
  ///
  ///     trip.yaml:9:13: error: amount '12.345' has 3 decimals but EUR has 2
  ///         amount: 12.345
  ///                 ^
  ///
  /// `lines` holds source lines by file and line number (``SourceLines/fetch(_:standardInput:)``).
  /// Everything from the input is sanitized for the terminal.
  /// With `color`, as a compiler colours a terminal's: `error:` bold red, `warning:` bold yellow,
  /// `note:` bold cyan, the caret green (the text from the input is never coloured).
  ///
  /// A YAML error libyaml places after the last line (a list or mapping never closed) is shown at
  /// the end of the last line that is not blank, where the reader ran out.
  package static func text(_ diagnostic: Diagnostic, lines: [String: [Int: String]], color: Bool = false) -> String {
    if diagnostic.code.hasPrefix("yaml."), let location = diagnostic.location, !location.isWholeFile,
      (lines[location.file]?[location.line] ?? "").allSatisfy({ $0 == " " || $0 == "\t" }),
      let last = SourceLines.lastNonBlankLine(in: location.file, before: location.line)
    {
      let end = SourceLocation(file: location.file, line: last.line, column: last.text.count + 1)
      return text(
        severity: diagnostic.severity.rawValue, location: end, file: nil,
        message: diagnostic.message + " (the file ends after line \(last.line))",
        lines: [location.file: [last.line: last.text]],
        color: color)
    }
    return text(
      severity: diagnostic.severity.rawValue, location: diagnostic.location, file: nil, message: diagnostic.message,
      lines: lines, color: color)
  }

  /// The same for any message (`splitbill import`'s): `location` when it has one, else `file`
  /// alone when given.
  package static func text(
    severity: String, location: SourceLocation?, file: String?, message: String, lines: [String: [Int: String]],
    color: Bool = false
  ) -> String {
    var out = ""
    if let location {
      out += TerminalText.sanitize(location.description)
      out += ": "
    } else if let file {
      out += TerminalText.sanitize(file) + ": "
    }
    let paint = ["error": "\u{1B}[1;31m", "warning": "\u{1B}[1;33m", "note": "\u{1B}[1;36m"][severity]
    out += (color ? (paint ?? "") + severity + ":\u{1B}[0m" : severity + ":") + " \(TerminalText.sanitize(message))\n"
    if let location, let line = lines[location.file]?[location.line] {
      let (source, caretColumn) = excerpt(of: line, column: location.column)
      let shown = TerminalText.sanitize(source)
      out += "    " + shown + "\n"
      // Keep tabs under tabs so the caret lines up however wide the terminal draws them.
      let prefix = source.prefix(max(0, caretColumn - 1)).map { $0 == "\t" ? "\t" : " " }.joined()
      if shown == source { out += "    " + prefix + (color ? "\u{1B}[32m^\u{1B}[0m\n" : "^\n") }
    }
    return out
  }

  /// The characters of a line an excerpt shows: the whole line up to ``longestWholeLine``, otherwise a
  /// window of ``excerptWidth`` around `column` with an ellipsis at each cut end; and the caret's
  /// column within it.
  static func excerpt(of line: String, column: Int) -> (text: String, column: Int) {
    guard line.utf8.count > longestWholeLine else { return (line, column) }
    let characters = Array(line.prefix(max(column, 1) + longestWholeLine))
    guard characters.count > longestWholeLine else { return (line, column) }
    let start = max(0, min(column - 1 - excerptWidth / 3, characters.count - excerptWidth))
    let end = min(characters.count, start + excerptWidth)
    let cutAfter = end < characters.count || line.utf8.count > String(characters).utf8.count
    let text = (start > 0 ? "…" : "") + String(characters[start..<end]) + (cutAfter ? "…" : "")
    return (text, column - start + (start > 0 ? 1 : 0))
  }

  /// How many characters of a long line an excerpt shows.
  static let excerptWidth = 160
  /// The longest line an excerpt shows whole.
  static let longestWholeLine = 240

  /// GitHub Actions workflow commands: `::error file=…,line=…,col=…::message`.
  package static func github(_ diagnostic: Diagnostic) -> String {
    var properties: [String] = []
    if let location = diagnostic.location {
      properties.append("file=" + escapeProperty(location.file))
      if let (line, column) = location.position {
        properties.append("line=\(line)")
        properties.append("col=\(column)")
      }
    }
    let head = "::" + diagnostic.severity.rawValue + (properties.isEmpty ? "" : " " + properties.joined(separator: ","))
    return head + "::" + escapeData(diagnostic.message) + "\n"
  }

  /// The line that stands for problems of one kind counted but not shown (past
  /// `ProblemTally.keptPerKind` of one kind).
  package static func omitted(_ count: Int, code: String, severity: Diagnostic.Severity = .warning) -> String {
    severity.rawValue + ": " + omittedText(count, code: code, severity: severity) + "\n"
  }

  /// ``omitted(_:code:severity:)`` without the severity.
  package static func omittedText(_ count: Int, code: String, severity: Diagnostic.Severity = .warning) -> String {
    "\(count) more \(code) \(severity.rawValue)\(count == 1 ? "" : "s") not shown (the first "
      + "\(ProblemTally.keptPerKind) are above; the counts include them all)"
  }

  /// The `check --format json` object for one diagnostic.
  package static func json(_ diagnostic: Diagnostic) -> JSON {
    .object([
      ("file", .optional(diagnostic.location?.file)),
      ("line", diagnostic.location.map { .int($0.line) } ?? .null),
      ("column", diagnostic.location.map { .int($0.column) } ?? .null),
      ("severity", .string(diagnostic.severity.rawValue)),
      ("code", .string(diagnostic.code)),
      ("message", .string(diagnostic.message)),
    ])
  }

  /// Escapes a workflow command's message (`%`, CR, LF).
  package static func escapeData(_ text: String) -> String {
    text.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
  }

  /// Escapes a workflow command's property (also `:` and `,`).
  static func escapeProperty(_ text: String) -> String {
    escapeData(text).replacingAll(":", "%3A").replacingAll(",", "%2C")
  }
}

extension String {
  /// Replaces every `target` scalar (scalars, so `\r` inside `\r\n` is found too).
  func replacingAll(_ target: Unicode.Scalar, _ replacement: String) -> String {
    // Nearly always nothing to replace: an ASCII target is looked for in the bytes first.
    if target.isASCII, !ByteScan.contains(UInt8(target.value), in: self) { return self }
    var out = ""
    for scalar in unicodeScalars {
      if scalar == target { out += replacement } else { out.unicodeScalars.append(scalar) }
    }
    return out
  }
}
