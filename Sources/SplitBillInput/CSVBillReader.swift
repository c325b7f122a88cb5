@_spi(ByteWriters) import SplitBillBytes
import SplitBillCSV
import SplitBillCore
import SplitBillFiles
@_spi(Readers) import SplitBillModel
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
  /// The file's rows, through the project's one CSV tokenizer.
  var rowReader: CSVRowReader
  var input: ByteReader { rowReader.input }
  var delimiter: UInt8? { rowReader.delimiter }
  /// The rules each row is read through, on the reading thread, and what they take from the
  /// command line (a CSV file has no header of defaults).
  var rules: BillRules
  let context: DocumentContext
  /// The items file beside this bills file, read whole first, when there is one.
  var itemTable: ItemTable?

  /// Where the next row starts.
  var line: Int { rowReader.line }

  init(file: String, input: ByteReader, delimiter: UInt8?, rules: BillRules, context: DocumentContext) {
    self.file = file
    self.sourceFile = SourceFile(file)
    self.rowReader = CSVRowReader(input: input, delimiter: delimiter)
    self.rules = rules
    self.context = context
  }

  typealias Cell = CSVRowReader.Cell
  typealias Row = CSVRowReader.Row

  /// Reads the header row, after a byte order mark (and settles the delimiter): `nil` when the
  /// input has none.
  private mutating func readHeader() -> Row? {
    rowReader.start()
    var header = Row(line: line)
    guard rowReader.nextRow(into: &header), !header.cells.isEmpty else { return nil }
    return header
  }

  /// What is wrong with a row's quoting, as a diagnostic of this file.
  func diagnostic(_ problem: CSVRowReader.Problem) -> Diagnostic {
    let location = SourceLocation(in: sourceFile, line: problem.line, column: problem.column)
    switch problem.kind {
    case .unterminatedQuote: return .error(.unterminatedQuote, at: location)
    case .textAfterQuote: return .error(.textAfterQuote, at: location)
    case .strayQuote: return .error(.strayQuote, at: location)
    case .tooManyCells: return .error(.tooManyCells(limit: CSVRowReader.maximumCells), at: location)
    }
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
      emit(.failure(diagnostic(problem)))
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
    while rowReader.nextRow(into: &row) {
      if row.isEmptyLine { continue }
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
    while rowReader.nextRow(into: &row) {
      if row.isEmptyLine { continue }
      index += 1
      row.settleColumns()
      let start = SourceLocation(in: sourceFile, line: row.line, column: 1)
      if row.problem != nil || row.cells.count != names.count {
        let problem =
          row.problem.map(diagnostic) ?? .error(.cellCount(cells: row.cells.count, columns: names.count), at: start)
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
    emit(
      .failure(
        .error(
          .readingStopped(reason: SystemCalls.errorText(error)),
          at: SourceLocation(in: sourceFile, line: line, column: rowReader.column))))
  }

  /// The bill in `row`, the `index`-th of the file, read through the rules.
  private mutating func bill(in row: inout Row, layout: CSVRowFields.Layout, index: Int) -> Result<Bill, InvalidBill> {
    let start = SourceLocation(in: sourceFile, line: row.line, column: 1)
    if row.problem != nil || row.cells.count != layout.columnCount {
      let problem =
        row.problem.map(diagnostic)
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
    let fields = CSVRowFields(
      bytes: row.bytes.span, cells: row.cells.span, layout: layout, file: file, line: row.line, index: index,
      decimalComma: rules.options.decimalComma, diagnosing: diagnosing, itemTable: itemTable)
    return body(&rules, fields)
  }

}
