import SplitBillCSV
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

extension CSVTable {
  /// An export's bytes as a table; a quote never closed (or a row past the cell limit) is an
  /// error where it starts. `rowHint` says what a row should hold, after the cell limit's message.
  static func export(
    _ bytes: [UInt8], file: String, rowHint: String? = nil, delimiter: UInt8? = nil
  ) throws(Diagnostic) -> CSVTable {
    do {
      return try CSVTable(bytes, delimiter: delimiter)
    } catch {
      throw Diagnostic(
        in: file, .error, .csvUnterminatedQuote,
        error.tooManyCells
          ? "a row of more than \(CSVRowReader.maximumCells) cells (this is the first past them)"
            + (rowHint.map { ": expected \($0)" } ?? "")
          : "a quote opened here is never closed: the rest of the file is in this cell",
        line: error.line, column: error.column)
    }
  }
}
