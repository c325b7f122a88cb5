/// A problem or a remark about a row of an export, located like a compiler's diagnostic: a stable
/// `code` (`splitwise.cells-sum`) for programs, a message for people, and where in the file (a
/// CSV line and column; a JSON export has no lines worth showing, so its issues name the
/// expense instead and have no line).
public struct ImportIssue: Error, Hashable, Sendable {
  /// Errors stop the import (or skip their row with `--skip-invalid`); warnings and notes never do.
  public enum Severity: String, Sendable {
    case error, warning, note
  }

  /// How grave it is.
  public var severity: Severity
  /// Stable, `source.problem`; docs/import.md lists them.
  public var code: String
  /// What is wrong, for people.
  public var message: String
  /// 1-based line and column, when the export has lines.
  public var line: Int?
  public var column: Int?

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
