import SplitBillCore

/// ``PlainBill`` for CSV rows: fields are cells, in the columns the header names.
struct PlainCSVBill {
  private var plain: PlainBill
  private let context: DocumentContext
  /// For each ``BillKey`` (by raw value), the column that holds it, if any.
  private let columns: [Int?]
  /// How many columns the header has.
  private let columnCount: Int

  init(validator: BillValidator, context: DocumentContext, keys: [BillKey?]) {
    self.plain = PlainBill(validator: validator)
    self.context = context
    self.columnCount = keys.count
    var columns = [Int?](repeating: nil, count: BillKey.allCases.count)
    for (column, key) in keys.enumerated() {
      if let key { columns[key.rawValue] = column }
    }
    self.columns = columns
  }

  /// The bill in `row`, the `index`-th of the file, starting at `location`; `nil` when the row
  /// must be validated the full way.
  mutating func bill(_ row: CSVBillReader.Row, index: Int, at location: SourceLocation) -> Bill? {
    guard row.problem == nil, row.cells.count == columnCount else { return nil }
    let context = self.context
    let columns = self.columns
    // The row's text is read in place: a cell is a view of its bytes, not an array slice (whose
    // reference to the row's storage was counted up and down for every field).
    return row.bytes.withUnsafeBufferPointer { bytes in
      // A cell's bytes; absent for a column the file does not have or an empty cell.
      func cell(_ key: BillKey) -> PlainBill.Field<UnsafeBufferPointer<UInt8>> {
        guard let column = columns[key.rawValue] else { return .absent }
        let range = row.cells[column].range
        return range.isEmpty ? .absent : .given(UnsafeBufferPointer(rebasing: bytes[range]))
      }
      let roster = context.roster
      return plain.bill(
        defaultID: "\(context.file)#\(index)", at: location, context: context, field: cell,
        diners: { plain in
          guard case .given(let bytes) = cell(.diners) else { return .absent }
          return Self.diners(bytes, roster: roster, &plain).map { .given($0) }
        })
    }
  }

  /// A diners cell as ``CSVBillReader/diners(_:text:at:quoted:)`` and the validator read it:
  /// `3`, `Ana;Ben` or `Ana:2;Ben:1`.
  private static func diners(_ bytes: UnsafeBufferPointer<UInt8>, roster: [String]?, _ plain: inout PlainBill)
    -> Diners?
  {
    let semicolon: UInt8 = 0x3B
    let colon: UInt8 = 0x3A
    var list: [Diner] = []
    let semicolons = bytes.reduce(0) { $0 + ($1 == semicolon ? 1 : 0) }
    list.reserveCapacity(semicolons + 1)
    if semicolons == 0 && !bytes.contains(colon) {
      // A head count; a single name only when it cannot be mistaken for one (no sign, no digit
      // first, ASCII: the full way decides the rest).
      let text = PlainBill.trimmingBlanks(bytes)
      if let count = PlainBill.headCount(text) { return .anonymous(count: count) }
      guard let first = text.first, !(0x30...0x39).contains(first), first != 0x2B, first != 0x2D,
        bytes.allSatisfy({ $0 < 0x80 }), plain.diner(bytes, weight: .one, roster: roster, to: &list)
      else { return nil }
      return .named(list)
    }
    var start = 0
    while true {
      let end = bytes[start...].firstIndex(of: semicolon) ?? bytes.count
      let item = UnsafeBufferPointer(rebasing: bytes[start..<end])
      var weight = Weight.one
      var name = item
      if let colonIndex = item.firstIndex(of: colon) {
        name = UnsafeBufferPointer(rebasing: item[..<colonIndex])
        let weightText = PlainBill.trimmingBlanks(UnsafeBufferPointer(rebasing: item[(colonIndex + 1)...]))
        if !weightText.isEmpty {
          guard let parsed = plain.weight(weightText) else { return nil }
          weight = parsed
        }
      }
      guard plain.diner(name, weight: weight, roster: roster, to: &list) else { return nil }
      guard end < bytes.count else { break }
      start = end + 1
    }
    return .named(list)
  }
}
