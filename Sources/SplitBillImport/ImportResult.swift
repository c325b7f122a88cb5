import SplitBillModel

/// What reading an export gave: the book, and the errors of the rows that could not be imported
/// (also in ``ImportedBook/skipped`` when they were skipped).
package struct ImportResult: Sendable {
  package var book: ImportedBook
  package var errors: [Diagnostic]
}

extension Diagnostic {
  /// A problem or a remark an importer found in the export `file`, located like a compiler's
  /// diagnostic when the export has lines (a CSV's line and column); a JSON export has none worth
  /// showing, so its diagnostics name the expense instead and have no location.
  init(
    in file: String, _ severity: Severity, _ code: ImportCode, _ message: String, line: Int? = nil, column: Int? = nil
  ) {
    self.init(
      severity, .imported(code, message), at: line.map { SourceLocation(file: file, line: $0, column: column ?? 1) })
  }
}
