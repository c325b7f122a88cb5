@_spi(ByteWriters) import SplitBillBytes
import SplitBillFiles

/// The project's one CSV tokenizer: the rows of a CSV file, read one at a time from a
/// ``ByteReader`` (a file in chunks, or bytes in memory). Bills, items and payments files are read
/// through it row by row; exports and rates files (``CSVTable``) whole.
///
/// RFC 4180 quoting (delimiters, doubled quotes and line breaks inside quotes), a UTF-8 byte order
/// mark, CRLF, LF or a lone CR ending a row. Lines and columns are 1-based, columns counting
/// Unicode scalars. What is wrong with a row's quoting is its ``Row/problem``, for the reader to
/// report or pass over; the cells keep their text either way.
package struct CSVRowReader {
  package let input: ByteReader
  /// The delimiter: given, or sniffed from the header line by ``start()``.
  package var delimiter: UInt8?
  /// Where the next row starts.
  package private(set) var line = 1
  package private(set) var column = 1

  package init(input: ByteReader, delimiter: UInt8?) {
    self.input = input
    self.delimiter = delimiter
  }

  /// What is wrong with a row's quoting, and where.
  package struct Problem: Equatable, Sendable {
    package enum Kind: Sendable {
      /// A quote opened and never closed: the rest of the input is in the cell.
      case unterminatedQuote
      /// Text after a quoted cell's closing quote.
      case textAfterQuote
      /// A quote inside a cell that does not start with one.
      case strayQuote
      /// More cells than ``CSVRowReader/maximumCells``: where the first cell past them starts
      /// (the rest of the row is read past, not kept).
      case tooManyCells
    }
    package var kind: Kind
    package var line: Int
    package var column: Int
  }

  /// The most cells a row keeps: a row of ten million cells (20 MB of commas) costs its reading
  /// time, not gigabytes. Far above any export's width (a Splitwise export has a column a member).
  package static let maximumCells = 10_000

  /// Skips a UTF-8 byte order mark and, unless one was given, settles the delimiter from the
  /// header line (``CSVDelimiter``). Called once, before the first row.
  package mutating func start() {
    if ByteOrderMark.starts(input.buffered) {
      for _ in ByteOrderMark.bytes { _ = input.next() }
    }
    if delimiter == nil { delimiter = CSVDelimiter.sniff(input.buffered) }
  }

  /// One cell: where its text lies in the row's bytes, where it started, and whether it was quoted.
  package struct Cell: Equatable, Sendable {
    package var range: Range<Int>
    package var line: Int
    package var column: Int
    package var quoted: Bool

    package init(range: Range<Int>, line: Int, column: Int, quoted: Bool) {
      self.range = range
      self.line = line
      self.column = column
      self.quoted = quoted
    }

    /// The columns the cell took in its line, the separator after it included: its text (in
    /// `bytes`, the row's), and for a quoted cell its quotes, the inner ones doubled.
    package func width(in bytes: Span<UInt8>) -> Int {
      let text = bytes.extracting(range)
      var width = 1
      var quotes = 0
      for index in text.indices {
        if text[index] & 0xC0 != 0x80 { width += 1 }
        if text[index] == 0x22 { quotes += 1 }
      }
      return quoted ? width + 2 + quotes : width
    }
  }

  /// A row: its cells' text one after the other in `bytes` (quotes undone), or the problem that
  /// made it unreadable.
  package struct Row: Equatable, Sendable {
    package var bytes: [UInt8] = []
    package var cells: [Cell] = []
    package var line: Int
    /// The first thing wrong with the row's quoting (a quote never closed overrides it).
    package var problem: Problem?
    /// Set when the cells' columns are not counted yet (``settleColumns()``): a row split in place
    /// counts them only if something needs them, a diagnostic, and plain bills need none.
    package var columnsPending = false

    package init(line: Int) { self.line = line }

    /// Whether the problem is a quote never closed: the rest of the file is in the cell.
    package var unterminated: Bool { problem?.kind == .unterminatedQuote }

    /// Whether the row is an empty line (one empty cell, unquoted): readers skip it.
    package var isEmptyLine: Bool { problem == nil && cells.count == 1 && cells[0].range.isEmpty && !cells[0].quoted }

    package func text(of cell: Cell) -> ArraySlice<UInt8> { bytes[cell.range] }

    /// Counts the cells' columns of a row split in place, from their text: a quoted cell stood
    /// in the line as its text, its quotes doubled, between quotes; cells are one separator apart.
    package mutating func settleColumns() {
      guard columnsPending else { return }
      columnsPending = false
      var column = 1
      for index in cells.indices {
        cells[index].column = column
        column += cells[index].width(in: bytes.span)
      }
    }
  }

  @inline(__always)
  private mutating func advance() -> UInt8? {
    guard let byte = input.next() else { return nil }
    ByteReader.move(line: &line, column: &column, past: byte)
    return byte
  }

  /// Reads `line` (without its `\n`) into `row` as ``scanRow(into:)`` would, when nothing in it
  /// needs that loop (``DelimitedLine``: no carriage return but a last one, no quote inside an
  /// unquoted cell, no quoted cell left open or followed by more text). `false`, leaving `row`
  /// empty, otherwise. Columns are left for ``Row/settleColumns()``.
  private static func plainRow(_ line: Span<UInt8>, separator: UInt8, line number: Int, into row: inout Row) -> Bool {
    var cells = RowCells(cells: row.cells, line: number)
    row.cells = []
    let plain = DelimitedLine.split(line, separator: separator, appendingTo: &row.bytes, fields: &cells)
    row.cells = cells.cells
    guard plain else {
      row.cells.removeAll(keepingCapacity: true)
      return false
    }
    row.columnsPending = true
    if row.cells.count > maximumCells {
      // A plain line fits the reader's buffer (64 KiB), so its cells were few enough to make;
      // the row is cut to the limit like a scanned one. Where the first cell past it starts.
      row.settleColumns()
      let past = row.cells[maximumCells]
      row.problem = Problem(kind: .tooManyCells, line: past.line, column: past.column)
      row.cells.removeSubrange(maximumCells...)
    }
    return true
  }

  /// A plain row's cells as ``DelimitedLine`` hands them over.
  private struct RowCells: DelimitedFields {
    var cells: [Cell]
    let line: Int

    mutating func append(field range: Range<Int>, quoted: Bool) {
      // Past the limit no cell is kept but the first, which says where the row went past it.
      guard cells.count <= CSVRowReader.maximumCells else { return }
      // The column is counted later, if at all (Row.settleColumns).
      cells.append(Cell(range: range, line: line, column: 0, quoted: quoted))
    }
  }

  /// Reads the next row into `row`, reusing its storage (a row's bytes and cells are two arrays
  /// that would otherwise be allocated for every bill); `false` at the end of the input.
  ///
  /// Most rows are a whole line in the buffer with no quote and no carriage return but the last:
  /// they are split in place (``plainRow(_:separator:line:into:)``); the others are scanned
  /// (``scanRow(into:)``), which reads any row the same way.
  package mutating func nextRow(into row: inout Row) -> Bool {
    guard input.peek() != nil else { return false }
    let separator = delimiter ?? 0x2C
    Self.clear(&row, line: line)
    guard input.takeBufferedLine({ Self.plainRow($0, separator: separator, line: line, into: &row) })
    else {
      return scanRow(into: &row)
    }
    line += 1
    column = 1
    return true
  }

  private static func clear(_ row: inout Row, line: Int) {
    row.bytes.removeAll(keepingCapacity: true)
    row.cells.removeAll(keepingCapacity: true)
    row.line = line
    row.problem = nil
    row.columnsPending = false
  }

  /// Reads the next row into `row` byte by byte; `false` at the end of the input.
  package mutating func scanRow(into row: inout Row) -> Bool {
    guard input.peek() != nil else { return false }
    let separator = delimiter ?? 0x2C
    let quote: UInt8 = 0x22
    Self.clear(&row, line: line)
    while true {
      var cell = Cell(range: row.bytes.count..<row.bytes.count, line: line, column: column, quoted: false)
      if input.peek() == quote {
        cell.quoted = true
        let openLine = line
        let openColumn = column
        _ = advance()
        var closed = false
        while true {
          input.consume(upTo: (quote, quote, quote, quote), into: &row.bytes, line: &line, column: &column)
          guard advance() != nil else { break }  // the quote, or the end of the input
          guard input.peek() == quote else {
            closed = true
            break
          }
          _ = advance()
          row.bytes.append(quote)
        }
        cell.range = cell.range.lowerBound..<row.bytes.count
        if !closed {
          row.problem = Problem(kind: .unterminatedQuote, line: openLine, column: openColumn)
          row.cells.append(cell)
          return true
        }
        // After the closing quote: a delimiter, a line end, or the end of input. Text there is a
        // problem, and is kept in the cell (an export is read leniently; a bill row with a problem
        // is rejected whatever its text).
        if let byte = input.peek(), byte != separator, byte != 0x0A, byte != 0x0D {
          if row.problem == nil { row.problem = Problem(kind: .textAfterQuote, line: line, column: column) }
          input.consume(upTo: (separator, 0x0A, 0x0D, separator), into: &row.bytes, line: &line, column: &column)
          cell.range = cell.range.lowerBound..<row.bytes.count
        }
      } else {
        while true {
          input.consume(upTo: (separator, 0x0A, 0x0D, quote), into: &row.bytes, line: &line, column: &column)
          guard input.peek() == quote else { break }
          if row.problem == nil { row.problem = Problem(kind: .strayQuote, line: line, column: column) }
          row.bytes.append(quote)
          _ = advance()
        }
        cell.range = cell.range.lowerBound..<row.bytes.count
      }
      if row.cells.count < Self.maximumCells {
        row.cells.append(cell)
      } else {
        // Past the limit: said once, and the cell's bytes dropped as it ends.
        if row.problem?.kind != .tooManyCells, row.problem?.kind != .unterminatedQuote {
          row.problem = Problem(kind: .tooManyCells, line: cell.line, column: cell.column)
        }
        row.bytes.removeSubrange(cell.range.lowerBound...)
      }
      switch input.peek() {
      case separator:
        _ = advance()
      case 0x0D:
        _ = advance()
        if input.peek() == 0x0A {
          _ = advance()
        } else {
          line += 1
          column = 1
        }
        return true
      case 0x0A:
        _ = advance()
        return true
      default:
        return true
      }
    }
  }
}
