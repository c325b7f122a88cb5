/// A problem or a remark about a row of an export, located like a compiler's diagnostic: a stable
/// `code` (`splitwise.cells-sum`) for programs, a message for people, and where in the file (a
/// CSV line and column; a JSON export has no lines worth showing, so its issues name the
/// expense instead and have no line).
package struct ImportIssue: Error, Hashable, Sendable {
  /// Errors stop the import (or skip their row with `--skip-invalid`); warnings and notes never do.
  package enum Severity: String, Sendable {
    case error, warning, note
  }

  package var severity: Severity
  /// Stable, `source.problem`; docs/import.md lists them.
  package var code: String
  package var message: String
  /// 1-based line and column, when the export has lines.
  package var line: Int?
  package var column: Int?

  package init(_ severity: Severity, _ code: String, _ message: String, line: Int? = nil, column: Int? = nil) {
    self.severity = severity
    self.code = code
    self.message = message
    self.line = line
    self.column = column
  }
}

/// What reading an export gave: the book, and the errors of the rows that could not be imported
/// (also in ``ImportedBook/skipped`` when they were skipped).
package struct ImportResult: Sendable {
  package var book: ImportedBook
  package var errors: [ImportIssue]
}
