@_spi(ByteWriters) import SplitBillBytes
import SplitBillCSV
import SplitBillCore
import SplitBillFiles
import SplitBillModel
import SplitBillText

#if canImport(Glibc)
  import Glibc
#endif

/// Reads bills from CSV or TSV: a header row naming columns like the YAML keys, then one bill a row.
///
/// RFC 4180 quoting (delimiters, quotes and newlines inside quotes), a UTF-8 BOM, CRLF or LF line
/// ends. The delimiter is `--delimiter`, else tab for `.tsv`, else whichever of `,` `;` tab occurs
/// most in the header line (`,` on a tie). An empty cell is an absent value.
struct CSVBillReader {
  let file: String
  let sourceFile: SourceFile
  let input: ByteReader
  var delimiter: UInt8?
  /// The rules each row is read through, on the reading thread, and what they take from the
  /// command line (a CSV file has no header of defaults).
  var rules: BillRules
  let context: DocumentContext
  /// The items file beside this bills file, read whole first, when there is one.
  var itemTable: ItemTable?

  private(set) var line = 1
  private var column = 1

  init(file: String, input: ByteReader, delimiter: UInt8?, rules: BillRules, context: DocumentContext) {
    self.file = file
    self.sourceFile = SourceFile(file)
    self.input = input
    self.delimiter = delimiter
    self.rules = rules
    self.context = context
  }

  /// One cell: where its text lies in the row's bytes, where it started, and whether it was quoted.
  struct Cell: Equatable {
    var range: Range<Int>
    var line: Int
    var column: Int
    var quoted: Bool

    /// The columns the cell took in its line, the separator after it included: its text (in
    /// `bytes`, the row's), and for a quoted cell its quotes, the inner ones doubled.
    func width(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
      let text = unsafe UnsafeBufferPointer(rebasing: bytes[range])
      var width = unsafe range.count - ByteScan.continuationBytes(text) + 1
      if quoted { width += unsafe 2 + text.reduce(0) { $0 + ($1 == 0x22 ? 1 : 0) } }
      return width
    }
  }

  /// A row: its cells' text one after the other in `bytes` (quotes undone), or the problem that
  /// made it unreadable.
  struct Row: Equatable {
    var bytes: [UInt8] = []
    var cells: [Cell] = []
    var line: Int
    var problem: Diagnostic?
    /// Whether the problem is a quote never closed: the rest of the file is in the cell.
    var unterminated = false
    /// Set when the cells' columns are not counted yet (``settleColumns()``): a row split in place
    /// counts them only if something needs them, a diagnostic, and plain bills need none.
    var columnsPending = false

    func text(of cell: Cell) -> ArraySlice<UInt8> { bytes[cell.range] }

    /// Counts the cells' columns of a row split in place, from their text: a quoted cell stood
    /// in the line as its text, its quotes doubled, between quotes; cells are one separator apart.
    mutating func settleColumns() {
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

  /// Reads the header row, after a byte order mark (and settles the delimiter): `nil` when the
  /// input has none.
  private mutating func readHeader() -> Row? {
    // A UTF-8 byte order mark is skipped.
    if ByteOrderMark.starts(input.buffered) {
      for _ in ByteOrderMark.bytes { _ = input.next() }
    }
    if delimiter == nil { delimiter = CSVDelimiter.sniff(input.buffered) }
    var header = Row(line: line)
    guard nextRow(into: &header), !header.cells.isEmpty else { return nil }
    return header
  }

  /// A header's column names as the reader matches them: trimmed and lowercased.
  private static func columnNames(_ header: Row) -> [String] {
    header.cells.map { String(decoding: header.text(of: $0), as: UTF8.self).trimmingSpaces.lowercased() }
  }

  /// Whether a header with these names is a payments file's: `from` and `to`, and no `diners`.
  static func namesPayments(_ names: [String]) -> Bool {
    names.contains("from") && names.contains("to") && !names.contains("diners")
  }

  /// The delimiter and column names of the header that starts `bytes` (the file `file`), read as
  /// ``read(_:)`` reads them; `nil` when there is no header or it does not parse. `add` plans its
  /// rows with it, and piped input is told CSV by it.
  static func headerColumns(of bytes: [UInt8], file: String, delimiter: UInt8?) -> (
    delimiter: UInt8, names: [String]
  )? {
    let rules = BillRules(options: ReadOptions())
    var reader = CSVBillReader(
      file: file, input: ByteReader(bytes: bytes), delimiter: delimiter, rules: rules,
      context: rules.context(for: DocumentHeader(file: file)).0)
    return reader.headerColumns()
  }

  /// The header's delimiter and column names (``columnNames(_:)``), read as ``read(_:)`` reads
  /// them; `nil` when there is no header or it does not parse (an unterminated quote).
  mutating func headerColumns() -> (delimiter: UInt8, names: [String])? {
    guard var header = readHeader(), header.problem == nil else { return nil }
    header.settleColumns()
    return (delimiter ?? 0x2C, Self.columnNames(header))
  }

  mutating func read(_ emit: (consuming ReaderEvent) -> Void) {
    guard var header = readHeader() else {
      emit(.document(DocumentHeader(file: file)))
      return
    }
    if let problem = header.problem {
      emit(.failure(problem))
      return
    }
    header.settleColumns()
    let names = Self.columnNames(header)
    if Self.namesPayments(names) {
      return readPayments(header, names: names, emit)
    }
    let headerStart = SourceLocation(in: sourceFile, line: header.line, column: 1)
    if names.contains("bill") && names.contains("price") && !names.contains("amount") {
      emit(
        .failure(
          .error(
            .itemsFile(
              "\(file) is an items file (bill,name,price,...): it is read with its bills file, the same name without '.items'"
            ), at: headerStart)))
      return
    }
    if let itemTable, !names.contains("id") {
      emit(
        .failure(
          .error(
            .itemsFile("\(itemTable.path) gives items by bill id, but this bills file has no id column"),
            at: headerStart)))
    }
    var keys: [BillKey] = []
    var failures: [Diagnostic] = []
    var seen: [String: SourceLocation] = [:]
    for cell in header.cells {
      let location = SourceLocation(in: sourceFile, line: cell.line, column: cell.column)
      // Column names are matched without regard to case; a message shows what was written.
      let written = String(decoding: header.text(of: cell), as: UTF8.self).trimmingSpaces
      let name = written.lowercased()
      if BillKey(name: name) == .items {
        failures.append(
          .error(
            .itemsFile(
              "column 'items': a CSV bill's items are rows of its items file (bill,name,price,quantity,for) beside it"),
            at: location))
      } else if let key = BillKey(name: name), seen[name] == nil {
        keys.append(key)
      } else if seen[name] == nil {
        let guess = Spelling.suggestion(for: name, among: BillField.billKeys)
        failures.append(.error(.unknownColumn(written, guess: guess), at: location))
      } else if let first = seen[name] {
        failures.append(.error(.repeatedColumn(name, first: first), at: location))
      }
      seen[name] = seen[name] ?? location
    }
    if !seen.keys.contains("amount") && failures.isEmpty && itemTable == nil {
      failures.append(
        .error(.noAmountColumn, at: SourceLocation(in: sourceFile, line: header.line, column: 1)))
    }
    guard failures.isEmpty else {
      for failure in Diagnostic.coalesced(failures) { emit(.failure(failure)) }
      return
    }
    emit(.document(DocumentHeader(file: file)))
    let layout = CSVRowFields.Layout(keys: keys)
    var index = 0
    var row = Row(line: line)
    row.bytes.reserveCapacity(256)
    row.cells.reserveCapacity(16)
    while nextRow(into: &row) {
      if row.problem == nil && row.cells.count == 1 && row.cells[0].range.isEmpty && !row.cells[0].quoted { continue }
      index += 1
      emit(.bill(bill(in: &row, layout: layout, index: index), givesID: layout.givesID))
      if row.unterminated { return }
    }
    emitReadError(emit)
  }

  /// Reads a payments file (its header is `header`, whose cells name `names`): one payment a row,
  /// handed on as its cells for the payment rules.
  private mutating func readPayments(_ header: Row, names: [String], _ emit: (consuming ReaderEvent) -> Void) {
    var failures: [Diagnostic] = []
    var seen: [String: SourceLocation] = [:]
    for (cell, name) in zip(header.cells, names) {
      let location = SourceLocation(in: sourceFile, line: cell.line, column: cell.column)
      if let first = seen[name] {
        failures.append(.error(.repeatedColumn(name, first: first), at: location))
      } else if !PaymentField.keys.contains(name) {
        let written = String(decoding: header.text(of: cell), as: UTF8.self).trimmingSpaces
        let guess = Spelling.suggestion(for: name, among: PaymentField.keys)
        failures.append(.error(.unknownPaymentColumn(written, guess: guess), at: location))
      }
      seen[name] = seen[name] ?? location
    }
    if seen["amount"] == nil && failures.isEmpty {
      failures.append(.error(.noAmountColumn, at: SourceLocation(in: sourceFile, line: header.line, column: 1)))
    }
    guard failures.isEmpty else {
      for failure in Diagnostic.coalesced(failures) { emit(.failure(failure)) }
      return
    }
    emit(.document(DocumentHeader(file: file)))
    var index = 0
    var row = Row(line: line)
    while nextRow(into: &row) {
      if row.problem == nil && row.cells.count == 1 && row.cells[0].range.isEmpty && !row.cells[0].quoted { continue }
      index += 1
      row.settleColumns()
      let start = SourceLocation(in: sourceFile, line: row.line, column: 1)
      if row.problem != nil || row.cells.count != names.count {
        let problem = row.problem ?? .error(.cellCount(cells: row.cells.count, columns: names.count), at: start)
        emit(.payment(RawRecord(index: index, start: start, entries: [], problem: problem, isCSVRow: true)))
      } else {
        let entries = zip(row.cells, names).map { cell, name in
          let location = SourceLocation(in: sourceFile, line: cell.line, column: cell.column)
          let text = String(decoding: row.text(of: cell), as: UTF8.self)
          return RawRecord.Entry(
            key: name, keyLocation: location, value: text.isEmpty ? .null : .text(text), valueLocation: location)
        }
        emit(.payment(RawRecord(index: index, start: start, entries: entries, problem: nil, isCSVRow: true)))
      }
      if row.unterminated { return }
    }
    emitReadError(emit)
  }

  /// Says so if reading stopped on an error (not at the end of the file).
  private func emitReadError(_ emit: (consuming ReaderEvent) -> Void) {
    guard let error = input.readError else { return }
    unsafe emit(
      .failure(
        .error(
          .readingStopped(reason: String(cString: strerror(error))),
          at: SourceLocation(in: sourceFile, line: line, column: column))))
  }

  /// The bill in `row`, the `index`-th of the file, read through the rules.
  private mutating func bill(in row: inout Row, layout: CSVRowFields.Layout, index: Int) -> Result<Bill, InvalidBill> {
    let start = SourceLocation(in: sourceFile, line: row.line, column: 1)
    if row.problem != nil || row.cells.count != layout.columnCount {
      let problem =
        row.problem
        ?? .error(.cellCount(cells: row.cells.count, columns: layout.columnCount), at: start)
      return .failure(InvalidBill(id: "\(context.file)#\(index)", source: start, diagnostics: [problem]))
    }
    let recognized = recognize(row, layout: layout, index: index)
    #if DEBUG
      // Debug builds (the test suite) read every row both ways (``BillRules/checkAgreement``).
      row.settleColumns()
      BillRules.checkAgreement(recognized.map { .success($0) }, diagnose(row, layout: layout, index: index))
    #endif
    if let recognized { return .success(recognized) }
    // Diagnostics are located: count the columns a row split in place left uncounted.
    row.settleColumns()
    return diagnose(row, layout: layout, index: index)
  }

  private mutating func recognize(_ row: Row, layout: CSVRowFields.Layout, index: Int) -> Bill? {
    let context = self.context
    return withFields(of: row, layout: layout, index: index) { rules, fields in
      rules.recognize(fields, context: context)
    }
  }

  private mutating func diagnose(_ row: Row, layout: CSVRowFields.Layout, index: Int) -> Result<Bill, InvalidBill> {
    let context = self.context
    return withFields(of: row, layout: layout, index: index, diagnosing: true) { rules, fields in
      rules.diagnose(fields, context: context)
    }
  }

  /// Calls `body` with the rules and the fields of `row`, a view of its bytes.
  private mutating func withFields<Result>(
    of row: Row, layout: CSVRowFields.Layout, index: Int, diagnosing: Bool = false,
    _ body: (inout BillRules, borrowing CSVRowFields) -> Result
  ) -> Result {
    let file = sourceFile
    return unsafe row.bytes.withUnsafeBufferPointer { bytes in
      unsafe row.cells.withUnsafeBufferPointer { cells in
        let fields = unsafe CSVRowFields(
          bytes: bytes, cells: cells, layout: layout, file: file, line: row.line, index: index,
          decimalComma: rules.options.decimalComma, diagnosing: diagnosing, itemTable: itemTable)
        return body(&rules, fields)
      }
    }
  }

  // MARK: - Scanning

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
  mutating func nextRow(into row: inout Row) -> Bool {
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
    row.unterminated = false
    row.columnsPending = false
  }

  /// Reads the next row into `row` byte by byte; `false` at the end of the input.
  mutating func scanRow(into row: inout Row) -> Bool {
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
          row.problem = .error(
            .unterminatedQuote, at: SourceLocation(in: sourceFile, line: openLine, column: openColumn))
          row.unterminated = true
          row.cells.append(cell)
          return true
        }
        // After the closing quote: a delimiter, a line end, or the end of input.
        if let byte = input.peek(), byte != separator, byte != 0x0A, byte != 0x0D {
          if row.problem == nil {
            row.problem = .error(.textAfterQuote, at: SourceLocation(in: sourceFile, line: line, column: column))
          }
          var ignored: [UInt8] = []
          input.consume(upTo: (separator, 0x0A, 0x0D, separator), into: &ignored, line: &line, column: &column)
        }
      } else {
        while true {
          input.consume(upTo: (separator, 0x0A, 0x0D, quote), into: &row.bytes, line: &line, column: &column)
          guard input.peek() == quote else { break }
          if row.problem == nil {
            row.problem = .error(.strayQuote, at: SourceLocation(in: sourceFile, line: line, column: column))
          }
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
