import SplitBillFiles
import SplitBillInput
import SplitBillJSON
import SplitBillModel
import SplitBillReports

/// The problems of bill files written out as `check` and `report` show them, for a program that
/// shows them too: like a compiler's (`file:line:column: error: …` with the source line and a
/// caret under the column), as GitHub Actions annotations, or as JSON.
extension CheckOutcome {
  /// Every problem like a compiler's, with its source line and a caret, then a line for each code
  /// whose problems past the first 1,000 were only counted. `color`: ANSI colours, for a terminal.
  public func listing(color: Bool = false) -> String { ProblemListing.collect { list(color: color, to: $0) } }

  /// ``listing(color:)`` handed to `write` a problem at a time: thousands of problems are never
  /// one string.
  public func list(color: Bool = false, to write: (String) -> Void) {
    ProblemListing.write(
      diagnostics, standardInput: standardInput, omittedErrors: omittedErrors, omittedWarnings: omittedWarnings,
      color: color, to: write)
  }

  /// Every problem as a GitHub Actions workflow command (`::error file=…,line=…::…`), one a line.
  public func annotations() -> String { ProblemListing.collect { annotations(to: $0) } }

  /// ``annotations()`` handed to `write` a line at a time.
  public func annotations(to write: (String) -> Void) {
    for diagnostic in diagnostics { write(DiagnosticFormatter.github(diagnostic)) }
    for (severity, code, count) in ProblemListing.omitted(errors: omittedErrors, warnings: omittedWarnings) {
      write(
        "::\(severity.rawValue)::"
          + DiagnosticFormatter.escapeData(DiagnosticFormatter.omittedText(count, code: code, severity: severity))
          + "\n")
    }
  }

  /// The counts and every problem as one JSON object (`files`, `bills`, `payments`, `errors`,
  /// `warnings`, `diagnostics`, `omitted_warnings`, `omitted_errors`), indented, with a line end.
  public func json() -> String { ProblemListing.collect { json(to: $0) } }

  /// ``json()`` handed to `write` a piece at a time.
  public func json(to write: (String) -> Void) {
    func counts(_ omitted: [(code: String, count: Int)]) -> JSON {
      .array(omitted.map { code, count in .object([("code", .string(code)), ("count", .int(count))]) })
    }
    let value = JSON.object([
      ("files", .int(files)),
      ("bills", .int(bills)),
      ("payments", .int(payments)),
      ("errors", .int(errors)),
      ("warnings", .int(warnings)),
      ("diagnostics", .array(diagnostics.map(DiagnosticFormatter.json))),
      ("omitted_warnings", counts(omittedWarnings)),
      ("omitted_errors", counts(omittedErrors)),
    ])
    withoutActuallyEscaping(write) { write in
      var sink = ClosureSink(body: write)
      value.write(to: &sink)
      sink.write("\n")
    }
  }
}

extension ReportProblems {
  /// Every problem like a compiler's, with its source line and a caret, then a line for each code
  /// whose problems past the first 1,000 were only counted (``messages`` are not included).
  /// `color`: ANSI colours, for a terminal.
  public func listing(color: Bool = false) -> String { ProblemListing.collect { list(color: color, to: $0) } }

  /// ``listing(color:)`` handed to `write` a problem at a time: thousands of problems are never
  /// one string.
  public func list(color: Bool = false, to write: (String) -> Void) {
    ProblemListing.write(
      diagnostics, standardInput: standardInput, omittedErrors: omittedErrors, omittedWarnings: omittedWarnings,
      color: color, to: write)
  }
}

/// A sink that hands each piece to a closure.
private struct ClosureSink: OutputSink {
  let body: (String) -> Void
  mutating func write(_ text: String) { body(text) }
  mutating func write(bytes: [UInt8]) { body(String(decoding: bytes, as: UTF8.self)) }
}

/// What the listings share.
enum ProblemListing {
  /// What `write` hands out, as one string (the String-returning forms of the listings).
  static func collect(_ write: ((String) -> Void) -> Void) -> String {
    var text = ""
    write { text += $0 }
    return text
  }

  static func write(
    _ diagnostics: [Diagnostic], standardInput: StandardInputCopy?, omittedErrors: [(code: String, count: Int)],
    omittedWarnings: [(code: String, count: Int)], color: Bool, to write: (String) -> Void
  ) {
    let lines = SourceLines.fetch(diagnostics.compactMap(\.location), standardInput: standardInput)
    for diagnostic in diagnostics { write(DiagnosticFormatter.text(diagnostic, lines: lines, color: color)) }
    for (severity, code, count) in omitted(errors: omittedErrors, warnings: omittedWarnings) {
      write(DiagnosticFormatter.omitted(count, code: code, severity: severity))
    }
  }

  /// Problems past the first of their kind, counted: errors first, as they are listed.
  static func omitted(errors: [(code: String, count: Int)], warnings: [(code: String, count: Int)]) -> [(
    severity: Diagnostic.Severity, code: String, count: Int
  )] {
    errors.map { (.error, $0.code, $0.count) } + warnings.map { (.warning, $0.code, $0.count) }
  }
}
