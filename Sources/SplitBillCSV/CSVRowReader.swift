@_spi(ByteWriters) import SplitBillBytes
import SplitBillFiles

#if canImport(Glibc)
  import Glibc
#endif

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
    }
    package var kind: Kind
    package var line: Int
    package var column: Int
  }

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
    package func width(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
      let text = unsafe UnsafeBufferPointer(rebasing: bytes[range])
      var width = unsafe range.count - ByteScan.continuationBytes(text) + 1
      if quoted { width += unsafe 2 + text.reduce(0) { $0 + ($1 == 0x22 ? 1 : 0) } }
      return width
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
      unsafe bytes.withUnsafeBufferPointer { bytes in
        for index in cells.indices {
          cells[index].column = column
          column += unsafe cells[index].width(in: bytes)
        }
      }
    }
  }

  @inline(__always)
  private mutating func advance() -> UInt8? {
    guard let byte = input.next() else { return nil }
    ByteReader.move(line: &line, column: &column, past: byte)
    return byte
  }

  /// Reads `bytes`, a line without its `\n`, into `row` as the loop below would, when nothing in it
  /// needs that loop: no carriage return but a last one (the line end), no quote inside an
  /// unquoted cell, no quoted cell left open (a newline inside quotes) or followed by more text.
  /// `false`, leaving `row` empty, otherwise. Columns are left for ``Row/settleColumns()``.
  ///
  /// The line is copied into the row once and its cells' text moved into place there (undoing
  /// quotes only ever shortens it): one copy a row rather than one a cell.
  private static func plainRow(
    _ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8, line: Int, into row: inout Row
  ) -> Bool {
    var count = bytes.count
    guard let base = bytes.baseAddress, count > 0 else {
      row.cells.append(Cell(range: 0..<0, line: line, column: 1, quoted: false))
      return true
    }
    if unsafe base[count - 1] == 0x0D { count -= 1 }
    guard unsafe memchr(base, 0x0D, count) == nil else { return false }
    unsafe row.bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    var cells = row.cells
    row.cells = []
    let length = unsafe row.bytes.withUnsafeMutableBufferPointer { text in
      unsafe Self.splitPlainRow(text, count: count, separator: separator, line: line, into: &cells)
    }
    row.cells = cells
    guard let length else {
      row.bytes.removeAll(keepingCapacity: true)
      row.cells.removeAll(keepingCapacity: true)
      return false
    }
    row.bytes.removeLast(count - length)
    row.columnsPending = true
    return true
  }

  /// The cells of ``plainRow(_:separator:line:into:)``, the line's `count` bytes being `text`,
  /// whose cells are moved to the front as they are read; gives the length of their text (`nil`
  /// when the line is not plain).
  private static func splitPlainRow(
    _ text: UnsafeMutableBufferPointer<UInt8>, count: Int, separator: UInt8, line: Int, into cells: inout [Cell]
  ) -> Int? {
    guard let text = text.baseAddress else { return nil }
    let quote: UInt8 = 0x22
    var read = 0
    var written = 0
    // Moves text[read..<end] to `written`.
    func take(upTo end: Int) {
      if written != read { unsafe (text + written).update(from: text + read, count: end - read) }
      written += end - read
      read = end
    }
    while true {
      let cellStart = written
      let quoted = unsafe read < count && text[read] == quote
      if quoted {
        read += 1
        while true {
          guard let found = unsafe memchr(text + read, Int32(quote), count - read) else { return nil }
          unsafe take(upTo: UnsafeMutableRawPointer(found) - UnsafeMutableRawPointer(text))
          read += 1  // the quote: a doubled one stands for itself, else it closes the cell
          guard unsafe read < count && text[read] == quote else { break }
          take(upTo: read + 1)
        }
        guard unsafe read == count || text[read] == separator else { return nil }
      } else {
        // The cell ends at the first separator (or the line's end); a quote before it is not plain.
        var end = read
        while true {
          if count - end >= 8 {
            let word = unsafe UnsafeRawPointer(text + end).loadUnaligned(as: UInt64.self)
            let found = ByteScan.matches(separator, in: word) | ByteScan.matches(quote, in: word)
            guard found != 0 else {
              end += 8
              continue
            }
            end += found.trailingZeroBitCount / 8
          } else {
            while unsafe end < count && text[end] != separator && text[end] != quote { end += 1 }
          }
          break
        }
        if unsafe end < count && text[end] == quote { return nil }
        take(upTo: end)
      }
      // The column is counted later, if at all (Row.settleColumns).
      cells.append(Cell(range: cellStart..<written, line: line, column: 0, quoted: quoted))
      guard read < count else { return written }
      read += 1  // the separator
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
    guard unsafe input.takeBufferedLine({ unsafe Self.plainRow($0, separator: separator, line: line, into: &row) })
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
      row.cells.append(cell)
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
