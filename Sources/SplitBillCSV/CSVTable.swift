import SplitBillFiles

/// A whole CSV file as rows of cells, each cell with the line and column it starts at: what an
/// exported spreadsheet is read as. RFC 4180 quoting (delimiters, doubled quotes and line breaks
/// inside quotes), a UTF-8 BOM, CRLF or LF line ends, read by the same tokenizer as bills files
/// (``CSVRowReader``). Exports are read whole (a 10,000-row Splitwise export is about a megabyte;
/// a rates file is smaller still); bills files are read a row at a time.
package struct CSVTable {
  /// Why a file cannot be read as a table, and where: a quote opened and never closed (the rest
  /// of the file would be one cell), or a row of more than ``CSVRowReader/maximumCells`` cells
  /// (where the first cell past them starts).
  package struct UnclosedQuote: Error, Hashable, Sendable {
    package var line: Int
    package var column: Int
    /// Whether it is a row past the cell limit, not a quote.
    package var tooManyCells = false
  }

  /// One cell: its text (quotes undone) and where it starts (1-based line, column in characters).
  package struct Cell {
    package var text: String
    package var line: Int
    package var column: Int
  }

  /// One row's cells and the line it starts on.
  package struct Row {
    package var cells: [Cell]
    package var line: Int

    /// Whether every cell is empty (a blank line, or a row of empty cells).
    package var isBlank: Bool { cells.allSatisfy { $0.text.isEmpty } }

    /// The cell in `column` (0-based), or an empty one just past the row's end.
    package func cell(_ column: Int) -> Cell {
      if column < cells.count { return cells[column] }
      let last = cells.last
      return Cell(text: "", line: last?.line ?? line, column: (last?.column ?? 0) + (last?.text.count ?? 0) + 1)
    }
  }

  package var rows: [Row] = []

  /// Reads `bytes` through ``CSVRowReader`` (`delimiter`, else the one of `,` `;` tab that the
  /// first line uses most). Lenient as exports need: text after a closing quote, or a quote inside
  /// an unquoted cell, is kept in the cell. Throws at a quote never closed, with where it opened.
  package init(_ bytes: [UInt8], delimiter: UInt8? = nil) throws(UnclosedQuote) {
    var reader = CSVRowReader(input: ByteReader(bytes: bytes), delimiter: delimiter)
    reader.start()
    var row = CSVRowReader.Row(line: 1)
    while reader.nextRow(into: &row) {
      if let problem = row.problem, problem.kind == .unterminatedQuote || problem.kind == .tooManyCells {
        throw UnclosedQuote(line: problem.line, column: problem.column, tooManyCells: problem.kind == .tooManyCells)
      }
      row.settleColumns()
      let cells = row.cells.map { cell in
        Cell(text: String(decoding: row.text(of: cell), as: UTF8.self), line: cell.line, column: cell.column)
      }
      rows.append(Row(cells: cells, line: row.line))
    }
  }
}
