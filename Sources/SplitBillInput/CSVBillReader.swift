import SplitBillCore

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
  /// When set, plain rows are recognised as bills on this thread (``PlainCSVBill``) and only the
  /// others are handed on as fields to validate.
  var recognizer: (validator: BillValidator, context: DocumentContext)?
  /// Whether a row that is a whole buffered line is split in place (``plainRow(_:separator:line:into:)``);
  /// off only in tests, which compare both ways of reading.
  var splitsBufferedLines = true

  private var line = 1
  private var column = 1

  init(file: String, input: ByteReader, delimiter: UInt8?) {
    self.file = file
    self.sourceFile = SourceFile(file)
    self.input = input
    self.delimiter = delimiter
  }

  /// One cell: where its text lies in the row's bytes, where it started, and whether it was quoted.
  struct Cell: Equatable {
    var range: Range<Int>
    var line: Int
    var column: Int
    var quoted: Bool
  }

  /// A row: its cells' text one after the other in `bytes` (quotes undone), or the problem that
  /// made it unreadable.
  struct Row: Equatable {
    var bytes: [UInt8] = []
    var cells: [Cell] = []
    var line: Int
    var problem: Diagnostic?
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
      bytes.withUnsafeBufferPointer { bytes in
        for index in cells.indices {
          cells[index].column = column
          let range = cells[index].range
          let text = UnsafeBufferPointer(rebasing: bytes[range])
          column += range.count - CSVBillReader.continuationBytes(text) + 1
          if cells[index].quoted { column += 2 + text.reduce(0) { $0 + ($1 == 0x22 ? 1 : 0) } }
        }
      }
    }
  }

  mutating func read(_ emit: (consuming ReaderEvent) -> Void) {
    // A UTF-8 byte order mark is skipped.
    if input.buffered.starts(with: [0xEF, 0xBB, 0xBF]) {
      _ = input.next()
      _ = input.next()
      _ = input.next()
    }
    if delimiter == nil { delimiter = Self.sniffDelimiter(input.buffered) }
    var header = Row(line: line)
    guard nextRow(into: &header), !header.cells.isEmpty else {
      emit(.document(DocumentHeader(file: file)))
      return
    }
    if let problem = header.problem {
      emit(.failure(problem))
      return
    }
    header.settleColumns()
    var columns: [String?] = []
    var failures: [Diagnostic] = []
    var seen: [String: SourceLocation] = [:]
    for cell in header.cells {
      let location = SourceLocation(in: sourceFile, line: cell.line, column: cell.column)
      let name = String(decoding: header.text(of: cell), as: UTF8.self).trimmingSpaces.lowercased()
      if !BillField.billKeys.contains(name) {
        var message = "unknown column '\(name)' in the header"
        if let guess = Spelling.suggestion(for: name, among: BillField.billKeys) {
          message += "; did you mean '\(guess)'?"
        } else {
          message += ": expected columns among \(BillField.billKeys.joined(separator: ", "))"
        }
        failures.append(.error(message, at: location))
      } else if let first = seen[name] {
        failures.append(.error("duplicate column '\(name)' in the header (first at \(first))", at: location))
      }
      seen[name] = seen[name] ?? location
      columns.append(name)
    }
    if !seen.keys.contains("amount") && failures.isEmpty {
      failures.append(
        .error("the header has no 'amount' column", at: SourceLocation(in: sourceFile, line: header.line, column: 1)))
    }
    guard failures.isEmpty else {
      for failure in failures { emit(.failure(failure)) }
      return
    }
    emit(.document(DocumentHeader(file: file)))
    let keys = columns.map { $0.flatMap(BillKey.init(name:)) }
    var plain = recognizer.map { PlainCSVBill(validator: $0.validator, context: $0.context, keys: keys) }
    let explicitID = keys.contains(.id)
    var index = 0
    var row = Row(line: line)
    row.bytes.reserveCapacity(256)
    row.cells.reserveCapacity(16)
    while nextRow(into: &row) {
      if row.problem == nil && row.cells.count == 1 && row.cells[0].range.isEmpty && !row.cells[0].quoted { continue }
      index += 1
      if let bill = plain?.bill(row, index: index, at: SourceLocation(in: sourceFile, line: row.line, column: 1)) {
        emit(.recognized(bill, explicitID: explicitID))
        continue
      }
      emit(.bill(bill(from: row, columns: columns, keys: keys, index: index)))
      if row.problem?.message.hasPrefix("unterminated") == true { return }
    }
    if let error = input.readError {
      emit(
        .failure(
          .error(
            "reading stopped: \(String(cString: strerror(error)))",
            at: SourceLocation(in: sourceFile, line: line, column: column))))
    }
  }

  /// Every row, the header included, as ``read(_:)`` sees them (for tests; `delimiter` must be set).
  mutating func forEachRow(_ body: (Row) -> Void) {
    var row = Row(line: line)
    while nextRow(into: &row) {
      row.settleColumns()
      body(row)
    }
  }

  private func bill(from row: Row, columns: [String?], keys: [BillKey?], index: Int) -> RawBill {
    var row = row
    row.settleColumns()
    let start = SourceLocation(in: sourceFile, line: row.line, column: 1)
    var raw = RawBill(location: start, index: index, fields: [:], problems: row.problem.map { [$0] } ?? [])
    if row.problem == nil && row.cells.count != columns.count {
      raw.problems.append(
        .error("row has \(row.cells.count) cells but the header has \(columns.count) columns", at: start))
    }
    guard raw.problems.isEmpty else {
      raw.unreadable = true
      return raw
    }
    for ((cell, name), key) in zip(zip(row.cells, columns), keys) {
      guard let name, let key else { continue }
      let location = SourceLocation(in: sourceFile, line: cell.line, column: cell.column)
      let bytes = row.text(of: cell)
      guard let text = Self.string(validating: bytes) else {
        raw.problems.append(.error("invalid UTF-8 in column '\(name)': the file must be UTF-8 text", at: location))
        continue
      }
      let value: RawValue
      if text.isEmpty {
        value = .absent
      } else if key == .diners {
        value = Self.diners(bytes, text: text, at: location, quoted: cell.quoted)
      } else {
        value = .text(LocatedText(text: text, location: location))
      }
      raw.fields[key] = RawField(key: name, keyLocation: location, value: value, location: location)
    }
    return raw
  }

  /// The bytes as a string, or `nil` if they are not valid UTF-8. ASCII (most cells) is checked in
  /// a plain loop; the generic validation is slow enough to show in a profile.
  static func string(validating bytes: ArraySlice<UInt8>) -> String? {
    bytes.withUnsafeBufferPointer { string(validating: $0) }
  }

  /// The same for bytes in memory.
  static func string(validating bytes: UnsafeBufferPointer<UInt8>) -> String? {
    bytes.allSatisfy { $0 < 0x80 } ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
  }

  /// `3`, `Ana;Ben;Chloé` or `Ana:2;Ben:1` (a name without `:` has weight 1). `bytes` is the
  /// cell's valid UTF-8, `text` the same as a string. Columns count Unicode scalars, as the scanner
  /// does.
  static func diners(_ bytes: ArraySlice<UInt8>, text: String, at location: SourceLocation, quoted: Bool) -> RawValue {
    let semicolon: UInt8 = 0x3B
    let colon: UInt8 = 0x3A
    var column = location.column + (quoted ? 1 : 0)
    if !bytes.contains(semicolon) && !bytes.contains(colon) {
      // One item: a head count, or a single name.
      let trimmed = text.trimmingSpaces
      if !trimmed.isEmpty && trimmed.allSatisfy(\.isNumber) || Int(trimmed) != nil {
        return .text(LocatedText(text: trimmed, location: location))
      }
      return .list([
        LocatedText(text: text, location: SourceLocation(in: location.sourceFile, line: location.line, column: column))
      ])
    }
    func scalars(_ part: ArraySlice<UInt8>) -> Int { part.reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) } }
    // Items are taken in place (no array of pieces); a list without weights is the only array built.
    let count = bytes.reduce(1) { $0 + ($1 == semicolon ? 1 : 0) }
    var names: [LocatedText] = []
    names.reserveCapacity(count)
    var weights: [LocatedText] = []
    var start = bytes.startIndex
    while true {
      let end = bytes[start...].firstIndex(of: semicolon) ?? bytes.endIndex
      let item = bytes[start..<end]
      let itemLocation = SourceLocation(in: location.sourceFile, line: location.line, column: column)
      column += scalars(item) + 1
      if let colonIndex = item.firstIndex(of: colon) {
        if weights.isEmpty {
          // The first weight: the items before it had none.
          weights.reserveCapacity(count)
          for name in names { weights.append(LocatedText(text: "", location: name.location)) }
        }
        let namePart = item[..<colonIndex]
        names.append(LocatedText(text: String(decoding: namePart, as: UTF8.self), location: itemLocation))
        let weightLocation = SourceLocation(
          in: location.sourceFile, line: location.line, column: itemLocation.column + scalars(namePart) + 1)
        let weight = String(decoding: item[(colonIndex + 1)...], as: UTF8.self).trimmingSpaces
        weights.append(LocatedText(text: weight, location: weightLocation))
      } else {
        names.append(LocatedText(text: String(decoding: item, as: UTF8.self), location: itemLocation))
        if !weights.isEmpty { weights.append(LocatedText(text: "", location: itemLocation)) }
      }
      guard end < bytes.endIndex else { break }
      start = end + 1
    }
    return weights.isEmpty ? .list(names) : .pairs(Array(zip(names, weights)))
  }

  /// The delimiter the header line uses most: `,`, `;` or tab.
  static func sniffDelimiter(_ bytes: ArraySlice<UInt8>) -> UInt8 {
    var counts: [UInt8: Int] = [0x2C: 0, 0x3B: 0, 0x09: 0]
    var quoted = false
    for byte in bytes {
      if byte == 0x22 { quoted.toggle() }
      if !quoted && (byte == 0x0A || byte == 0x0D) { break }
      if !quoted, counts[byte] != nil { counts[byte, default: 0] += 1 }
    }
    let best = [UInt8(0x2C), 0x3B, 0x09].max { (counts[$0] ?? 0) < (counts[$1] ?? 0) } ?? 0x2C
    return (counts[best] ?? 0) > (counts[0x2C] ?? 0) ? best : 0x2C
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
    if base[count - 1] == 0x0D { count -= 1 }
    guard memchr(base, 0x0D, count) == nil else { return false }
    row.bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    var cells = row.cells
    row.cells = []
    let length = row.bytes.withUnsafeMutableBufferPointer { text in
      Self.splitPlainRow(text, count: count, separator: separator, line: line, into: &cells)
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
      if written != read { (text + written).update(from: text + read, count: end - read) }
      written += end - read
      read = end
    }
    while true {
      let cellStart = written
      let quoted = read < count && text[read] == quote
      if quoted {
        read += 1
        while true {
          guard let found = memchr(text + read, Int32(quote), count - read) else { return nil }
          take(upTo: UnsafeMutableRawPointer(found) - UnsafeMutableRawPointer(text))
          read += 1  // the quote: a doubled one stands for itself, else it closes the cell
          guard read < count && text[read] == quote else { break }
          take(upTo: read + 1)
        }
        guard read == count || text[read] == separator else { return nil }
      } else {
        // The cell ends at the first separator (or the line's end); a quote before it is not plain.
        var end = read
        while true {
          if count - end >= 8 {
            let word = UnsafeRawPointer(text + end).loadUnaligned(as: UInt64.self)
            let found = Self.matches(separator, in: word) | Self.matches(quote, in: word)
            guard found != 0 else {
              end += 8
              continue
            }
            end += found.trailingZeroBitCount / 8
          } else {
            while end < count && text[end] != separator && text[end] != quote { end += 1 }
          }
          break
        }
        if end < count && text[end] == quote { return nil }
        take(upTo: end)
      }
      // The column is counted later, if at all (Row.settleColumns).
      cells.append(Cell(range: cellStart..<written, line: line, column: 0, quoted: quoted))
      guard read < count else { return written }
      read += 1  // the separator
    }
  }

  private static let lowBits: UInt64 = 0x0101_0101_0101_0101
  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The high bit of each of the eight bytes of `word` (little-endian) that is `byte`, and perhaps
  /// of bytes after the first such one: the lowest bit set always marks the first.
  @inline(__always)
  private static func matches(_ byte: UInt8, in word: UInt64) -> UInt64 {
    let differences = UInt64(littleEndian: word) ^ (lowBits &* UInt64(byte))
    return (differences &- lowBits) & ~differences & highBits
  }

  /// How many of `bytes` continue a UTF-8 sequence (`10xxxxxx`), eight at a time.
  static func continuationBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var found = 0
    var position = 0
    while bytes.count - position >= 8 {
      let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
      found += (word & ~(word << 1) & highBits).nonzeroBitCount
      position += 8
    }
    while position < bytes.count {
      if base[position] & 0xC0 == 0x80 { found += 1 }
      position += 1
    }
    return found
  }

  /// Reads the next row into `row`, reusing its storage (a row's bytes and cells are two arrays
  /// that would otherwise be allocated for every bill); `false` at the end of the input.
  private mutating func nextRow(into row: inout Row) -> Bool {
    guard input.peek() != nil else { return false }
    let separator = delimiter ?? 0x2C
    let quote: UInt8 = 0x22
    row.bytes.removeAll(keepingCapacity: true)
    row.cells.removeAll(keepingCapacity: true)
    row.line = line
    row.problem = nil
    row.columnsPending = false
    // Most rows: a whole line in the buffer, with no quote and no carriage return but the last.
    if splitsBufferedLines, input.takeBufferedLine({ Self.plainRow($0, separator: separator, line: line, into: &row) })
    {
      line += 1
      column = 1
      return true
    }
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
            "unterminated quoted cell: the quote opened here is never closed",
            at: SourceLocation(in: sourceFile, line: openLine, column: openColumn))
          row.cells.append(cell)
          return true
        }
        // After the closing quote: a delimiter, a line end, or the end of input.
        if let byte = input.peek(), byte != separator, byte != 0x0A, byte != 0x0D {
          if row.problem == nil {
            row.problem = .error(
              "unexpected text after a closing quote: a quoted cell ends at the quote (write \"\" for a quote inside it)",
              at: SourceLocation(in: sourceFile, line: line, column: column))
          }
          var ignored: [UInt8] = []
          input.consume(upTo: (separator, 0x0A, 0x0D, separator), into: &ignored, line: &line, column: &column)
        }
      } else {
        while true {
          input.consume(upTo: (separator, 0x0A, 0x0D, quote), into: &row.bytes, line: &line, column: &column)
          guard input.peek() == quote else { break }
          if row.problem == nil {
            row.problem = .error(
              "a quote inside an unquoted cell: quote the whole cell and double the quote (\"a \"\"b\"\" c\")",
              at: SourceLocation(in: sourceFile, line: line, column: column))
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
