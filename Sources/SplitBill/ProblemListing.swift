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
  public func listing(color: Bool = false) -> String {
    ProblemListing.text(
      diagnostics, standardInput: standardInput, omittedErrors: omittedErrors, omittedWarnings: omittedWarnings,
      color: color)
  }

  /// Every problem as a GitHub Actions workflow command (`::error file=…,line=…::…`), one a line.
  public func annotations() -> String {
    var text = diagnostics.map(DiagnosticFormatter.github).joined()
    for (severity, code, count) in ProblemListing.omitted(errors: omittedErrors, warnings: omittedWarnings) {
      text +=
        "::\(severity.rawValue)::"
        + DiagnosticFormatter.escapeData(DiagnosticFormatter.omittedText(count, code: code, severity: severity)) + "\n"
    }
    return text
  }

  /// The counts and every problem as one JSON object (`files`, `bills`, `payments`, `errors`,
  /// `warnings`, `diagnostics`, `omitted_warnings`, `omitted_errors`), indented, with a line end.
  public func json() -> String {
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
    var sink = StringSink()
    value.write(to: &sink)
    sink.write("\n")
    return sink.text
  }
}

extension ReportProblems {
  /// Every problem like a compiler's, with its source line and a caret, then a line for each code
  /// whose problems past the first 1,000 were only counted (``messages`` are not included).
  /// `color`: ANSI colours, for a terminal.
  public func listing(color: Bool = false) -> String {
    ProblemListing.text(
      diagnostics, standardInput: standardInput, omittedErrors: omittedErrors, omittedWarnings: omittedWarnings,
      color: color)
  }
}

/// What the listings share.
enum ProblemListing {
  static func text(
    _ diagnostics: [Diagnostic], standardInput: StandardInputCopy?, omittedErrors: [(code: String, count: Int)],
    omittedWarnings: [(code: String, count: Int)], color: Bool
  ) -> String {
    let lines = SourceLines.fetch(diagnostics.compactMap(\.location), standardInput: standardInput)
    var text = diagnostics.map { DiagnosticFormatter.text($0, lines: lines, color: color) }.joined()
    for (severity, code, count) in omitted(errors: omittedErrors, warnings: omittedWarnings) {
      text += DiagnosticFormatter.omitted(count, code: code, severity: severity)
    }
    return text
  }

  /// Problems past the first of their kind, counted: errors first, as they are listed.
  static func omitted(errors: [(code: String, count: Int)], warnings: [(code: String, count: Int)]) -> [(
    severity: Diagnostic.Severity, code: String, count: Int
  )] {
    errors.map { (.error, $0.code, $0.count) } + warnings.map { (.warning, $0.code, $0.count) }
  }
}
