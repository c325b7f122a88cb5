@_spi(ByteWriters) import SplitBillBytes
import SplitBillCore
@_spi(Readers) import SplitBillModel

/// A CSV row's fields: cells, in the columns the header names. The diners cell is written in the
/// diner-list grammar (``DinerList``): `3`, `Ana;Ben;Chloé` or `Ana:2;Ben:1`.
///
/// Cells are read in place, in the row's bytes. Their locations need the row's columns counted
/// (``CSVBillReader/Row/settleColumns()``), which a row split in place leaves undone: the rules
/// ask for none while recognising, and the reader settles them before diagnosing.
///
/// A view of the row: it borrows the row's bytes and cells as `Span`s, so it cannot outlive them.
struct CSVRowFields: BillFields, ~Copyable, ~Escapable {
  /// A cell's text, or a part of a diners cell.
  struct Text {
    /// Where the text lies in the row's bytes.
    var start: Int32
    var end: Int32
    /// The byte whose column is the text's location (a weight's, before its spaces).
    var at: Int32
    var cell: Int16
    /// Whether the text is part of a cell of names (diners, paid_by, shares), located by its place
    /// in the cell.
    var inList: Bool
  }

  /// Which column holds each key, from the header: five bits a key, twelve keys a word, so that
  /// the layout is a few words, copied for nothing (a header has at most one column per key).
  struct Layout: Sendable {
    /// For each key, at bits `5 * (rawValue % 12)` of word `rawValue / 12`, its column; 31 when
    /// the file has none.
    private var columns: (UInt64, UInt64) = (~0, ~0)
    /// For each column, likewise, its key's raw value.
    private var keys: (UInt64, UInt64) = (0, 0)
    /// How many columns the header has.
    let columnCount: Int
    /// Whether the header has a column of an itemized bill's keys (discount, tax, ...).
    let hasReceiptColumns: Bool

    /// The layout of a header whose columns are `keys`, each a different key of the format.
    init(keys: [BillKey]) {
      precondition(BillKey.allCases.count <= 24 && keys.count <= 24, "a key's column is one of 24")
      columnCount = keys.count
      hasReceiptColumns = keys.contains { BillKey.receiptKeys.contains($0) }
      for (column, key) in keys.enumerated() {
        Self.set(&columns, at: key.rawValue, to: UInt64(column))
        Self.set(&self.keys, at: column, to: UInt64(key.rawValue))
      }
    }

    private static func set(_ words: inout (UInt64, UInt64), at index: Int, to value: UInt64) {
      let shift = UInt64(5 * (index % 12))
      if index < 12 {
        words.0 = words.0 & ~(31 << shift) | value << shift
      } else {
        words.1 = words.1 & ~(31 << shift) | value << shift
      }
    }

    @inline(__always)
    private static func get(_ words: (UInt64, UInt64), at index: Int) -> Int {
      Int(((index < 12 ? words.0 : words.1) >> UInt64(5 * (index % 12))) & 31)
    }

    /// The column that holds `key`, if the file has one.
    @inline(__always)
    func column(of key: BillKey) -> Int? {
      let column = Self.get(columns, at: key.rawValue)
      return column == 31 ? nil : column
    }

    /// The key in `column`, a column of the header.
    func key(in column: Int) -> BillKey? { BillKey(rawValue: Self.get(keys, at: column)) }

    var givesID: Bool { column(of: .id) != nil }
  }

  private let bytes: Span<UInt8>
  private let cells: Span<CSVBillReader.Cell>
  private let layout: Layout
  private let file: SourceFile
  private let line: Int
  let index: Int
  /// Whether commas are decimal points (`--decimal-comma`): then only `;` separates diners.
  private let decimalComma: Bool
  /// Keys (bits by raw value) whose cell is not valid UTF-8: reported, and read as not given.
  private var invalidUTF8: UInt32 = 0
  /// When diagnosing: how far into the diners cell columns were counted, so that locating each
  /// of its parts in turn costs the bytes between them, not all the bytes before each (a cell of
  /// 32,000 bad weights took seconds).
  private let counted: CountedColumns?
  /// The bills file's items file, read whole, when it has one.
  private let itemTable: ItemTable?

  /// Columns counted so far in one cell: up to byte `offset`, `scalars` of them.
  final class CountedColumns {
    var cell = -1
    var offset = 0
    var scalars = 0
  }

  /// The fields of a row whose cells are `cells` over `bytes`, one per column of `layout`.
  @_lifetime(copy bytes, copy cells)
  init(
    bytes: Span<UInt8>, cells: Span<CSVBillReader.Cell>, layout: Layout,
    file: SourceFile, line: Int, index: Int, decimalComma: Bool, diagnosing: Bool = false, itemTable: ItemTable? = nil
  ) {
    self.itemTable = itemTable
    self.decimalComma = decimalComma
    counted = diagnosing ? CountedColumns() : nil
    self.bytes = bytes
    self.cells = cells
    self.layout = layout
    self.file = file
    self.line = line
    self.index = index
    // Nearly every row is valid as a whole, and then so is each cell, unless a character
    // straddles two cells: the one after it would then start with a continuation byte.
    if ByteScan.isValidUTF8(bytes), !Self.splitsACharacter(bytes, cells) { return }
    for column in cells.indices {
      if !ByteScan.isValidUTF8(bytes.extracting(cells[column].range)), let key = layout.key(in: column) {
        invalidUTF8 |= 1 << key.rawValue
      }
    }
  }

  /// Whether a cell starts with a byte that continues a character: one cut by a separator.
  private static func splitsACharacter(_ bytes: Span<UInt8>, _ cells: Span<CSVBillReader.Cell>) -> Bool {
    for column in cells.indices {
      let start = cells[column].range.lowerBound
      if start < bytes.count && bytes[start] & 0xC0 == 0x80 { return true }
    }
    return false
  }

  /// Whether any of the bytes `isWanted`.
  @inline(__always)
  private static func contains(_ bytes: Span<UInt8>, where isWanted: (UInt8) -> Bool) -> Bool {
    for index in bytes.indices where isWanted(bytes[index]) { return true }
    return false
  }

  var start: SourceLocation { SourceLocation(in: file, line: line, column: 1) }
  var isCSVRow: Bool { true }
  func isUnreadable(_ key: BillKey) -> Bool { invalidUTF8 & (1 << key.rawValue) != 0 }
  var givesID: Bool { layout.givesID }
  func isMisspelt(_ key: BillKey) -> Bool { false }

  func reportReaderProblems<Policy: ProblemPolicy>(to policy: inout Policy) throws(Policy.Stop) {
    guard invalidUTF8 != 0 else { return }
    for column in cells.indices {
      guard let key = layout.key(in: column), invalidUTF8 & (1 << key.rawValue) != 0 else { continue }
      try policy.report(
        .error(.invalidUTF8InColumn(key.name), at: cellLocation(column)))
    }
  }

  @inline(__always)
  func value(_ key: BillKey) -> FieldValue<Text> {
    guard let column = layout.column(of: key), invalidUTF8 & (1 << key.rawValue) == 0 else { return .absent }
    let range = cells[column].range
    guard !range.isEmpty else { return .null }
    let whole = Text(
      start: Int32(range.lowerBound), end: Int32(range.upperBound), at: Int32(range.lowerBound), cell: Int16(column),
      inList: false)
    guard key.takesEntries else { return .text(whole) }
    let cell = bytes.extracting(range)
    switch key {
    case .shares: return .entries
    // One name, or names with amounts (`Ana:60.00;Ben:50.59`).
    case .paidBy: return Self.contains(cell) { $0 == 0x3A || $0 == 0x3D || $0 == 0x3B } ? .entries : .text(whole)
    // `month`, or `every: month; until: 2026-12-31`.
    case .repeat: return Self.contains(cell) { $0 == 0x3A || $0 == 0x3D } ? .entries : .text(whole)
    default: break
    }
    guard let count = DinerList.headCount(in: cell, decimalComma: decimalComma) else { return .entries }
    var text = whole
    text.start += Int32(count.lowerBound)
    text.end = Int32(range.lowerBound + count.upperBound)
    return .text(text)
  }

  var mayHaveItems: Bool { itemTable != nil }
  var givesReceiptKeys: Bool { layout.hasReceiptColumns }

  func items(ofBill id: String) -> ItemList {
    guard let itemTable, let rows = itemTable.claim(id, line: line), let first = rows.first else { return .absent }
    return .items(rows, first.start)
  }

  /// A CSV cell is a single value: nothing is of an unexpected shape.
  func shape(of key: BillKey) -> String { "a list" }

  func nextEntry(_ key: BillKey, _ cursor: inout Int) -> (name: Text, value: Text?)? {
    guard let column = layout.column(of: key) else { return nil }
    let range = cells[column].range
    guard let (name, weight) = DinerList.item(in: bytes.extracting(range), after: &cursor, decimalComma: decimalComma)
    else {
      return nil
    }
    func text(_ part: Range<Int>, at: Int) -> Text {
      Text(
        start: Int32(range.lowerBound + part.lowerBound), end: Int32(range.lowerBound + part.upperBound),
        at: Int32(range.lowerBound + at), cell: Int16(column), inList: true)
    }
    return (text(name, at: name.lowerBound), weight.map { text($0.text, at: $0.at) })
  }

  func entryCount(_ key: BillKey) -> Int {
    guard let column = layout.column(of: key) else { return 0 }
    let cell = bytes.extracting(cells[column].range)
    var count = 1
    for index in cell.indices where DinerList.isSeparator(cell[index], decimalComma: decimalComma) { count += 1 }
    return count
  }

  @inline(__always) @_lifetime(copy self)
  func bytes(_ text: Text) -> Span<UInt8> { bytes.extracting(Int(text.start)..<Int(text.end)) }

  func location(of text: Text) -> SourceLocation {
    let column = Int(text.cell)
    guard text.inList else { return cellLocation(column) }
    // A part of a diners cell: the cell's column, past its quote, and one column for each
    // Unicode scalar before the part (separators included).
    let cell = cells[column]
    let at = Int(text.at)
    var from = cell.range.lowerBound
    var scalars = 0
    if let counted, counted.cell == column, counted.offset <= at {
      from = counted.offset
      scalars = counted.scalars
    }
    let between = bytes.extracting(from..<at)
    scalars += between.count - ByteScan.continuationBytes(between)
    if let counted { (counted.cell, counted.offset, counted.scalars) = (column, at, scalars) }
    return SourceLocation(in: file, line: cell.line, column: cell.column + (cell.quoted ? 1 : 0) + scalars)
  }

  func keyLocation(_ key: BillKey) -> SourceLocation { valueLocation(key) }

  func valueLocation(_ key: BillKey) -> SourceLocation {
    guard let column = layout.column(of: key) else { return start }
    return cellLocation(column)
  }

  func nameLocation(of text: Text) -> SourceLocation {
    if counted != nil { return location(of: text) }
    // Recognizing: a row split in place has not counted its cells' columns. Count them up to
    // this cell from the text, as `CSVBillReader.Row.settleColumns` does.
    let target = Int(text.cell)
    var column = 1
    for index in 0..<target { column += cells[index].width(in: bytes) }
    let cell = cells[target]
    let before = bytes.extracting(cell.range.lowerBound..<max(cell.range.lowerBound, Int(text.at)))
    let scalars = text.inList ? before.count - ByteScan.continuationBytes(before) : 0
    return SourceLocation(in: file, line: cell.line, column: column + (cell.quoted ? 1 : 0) + scalars)
  }

  private func cellLocation(_ column: Int) -> SourceLocation {
    SourceLocation(in: file, line: cells[column].line, column: cells[column].column)
  }
}
