import SplitBillFiles

/// A whole CSV file as rows of cells, each cell with the line and column it starts at: what an
/// exported spreadsheet is read as. RFC 4180 quoting (delimiters, doubled quotes and line breaks
/// inside quotes), a UTF-8 BOM, CRLF or LF line ends. Exports are read whole (a 10,000-row
/// Splitwise export is about a megabyte; a rates file is smaller still); bill files keep their own
/// streaming reader.
package struct CSVTable {
  /// A quote opened at `line`, `column` and never closed: the rest of the file would be one cell.
  package struct UnclosedQuote: Error, Hashable, Sendable {
    package var line: Int
    package var column: Int
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

  /// Reads `bytes`; the delimiter is the one of `,` `;` tab that the first line uses most.
  /// Throws at a quote never closed, with where it opened.
  package init(_ bytes: [UInt8]) throws(UnclosedQuote) {
    let bytes = ByteOrderMark.dropped(from: bytes)
    let delimiter = CSVDelimiter.sniff(bytes)
    var line = 1
    var column = 1
    var index = bytes.startIndex
    var cells: [Cell] = []
    var rowLine = 1
    var field: [UInt8] = []

    func finishCell(startLine: Int, startColumn: Int) {
      cells.append(Cell(text: String(decoding: field, as: UTF8.self), line: startLine, column: startColumn))
      field.removeAll(keepingCapacity: true)
    }
    while index < bytes.endIndex {
      let startLine = line
      let startColumn = column
      if bytes[index] == 0x22 {
        index += 1
        column += 1
        var closed = false
        while index < bytes.endIndex {
          let byte = bytes[index]
          if byte == 0x22 {
            if index + 1 < bytes.endIndex && bytes[index + 1] == 0x22 {
              field.append(0x22)
              index += 2
              column += 2
              continue
            }
            index += 1
            column += 1
            closed = true
            break
          }
          field.append(byte)
          index += 1
          if byte == 0x0A {
            line += 1
            column = 1
          } else if byte & 0xC0 != 0x80 {
            column += 1
          }
        }
        guard closed else { throw UnclosedQuote(line: startLine, column: startColumn) }
      }
      // The rest of the cell, up to a delimiter or a line end (text after a closing quote is kept).
      while index < bytes.endIndex, bytes[index] != delimiter, bytes[index] != 0x0A, bytes[index] != 0x0D {
        field.append(bytes[index])
        if bytes[index] & 0xC0 != 0x80 { column += 1 }
        index += 1
      }
      finishCell(startLine: startLine, startColumn: startColumn)
      guard index < bytes.endIndex else { break }
      let end = bytes[index]
      index += 1
      if end == delimiter {
        column += 1
        if index == bytes.endIndex { finishCell(startLine: line, startColumn: column) }
        continue
      }
      if end == 0x0D, index < bytes.endIndex, bytes[index] == 0x0A { index += 1 }
      rows.append(Row(cells: cells, line: rowLine))
      cells = []
      line += 1
      column = 1
      rowLine = line
    }
    if !cells.isEmpty { rows.append(Row(cells: cells, line: rowLine)) }
  }

}
