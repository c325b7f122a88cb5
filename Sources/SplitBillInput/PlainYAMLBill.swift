import SplitBillCore

/// ``PlainBill`` for YAML bills, read from their flat events (``YAMLFlatBill``): a mapping of
/// keys to scalars, but for the diners (a head count, a list of names, or a mapping of names to
/// weights).
struct PlainYAMLBill {
  private var plain: PlainBill
  private let fields: YAMLFields

  init(validator: BillValidator, fields: YAMLFields) {
    self.plain = PlainBill(validator: validator)
    self.fields = fields
  }

  /// The bill in `flat`, the `index`-th of its file, and whether it gives an id (which is then
  /// checked for repeats); `nil` when it must be validated the full way.
  mutating func bill(_ flat: YAMLFlatBill, index: Int, context: DocumentContext) -> (bill: Bill, explicitID: Bool)? {
    let events = flat.events
    guard let first = events.first, first.kind == .mappingStart else { return nil }
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: BillKey.allCases.count) { slots in
      // Where each key's value starts (-1: not given); a key outside the format, given twice or
      // not a scalar is for the full way to report.
      slots.initialize(repeating: -1)
      var position = 1
      while position < events.count - 1 {
        guard events[position].kind == .scalar || events[position].kind == .plainScalar,
          let key = BillKey(utf8: flat.text(at: position)), slots[key.rawValue] < 0
        else { return nil }
        slots[key.rawValue] = position + 1
        position = flat.end(ofNodeAt: position + 1)
      }
      // The position of a key's value, unless it is absent or null.
      func value(_ key: BillKey) -> Int? {
        let position = slots[key.rawValue]
        guard position >= 0, !flat.isNull(at: position) else { return nil }
        return position
      }
      func field(_ key: BillKey) -> PlainBill.Field<ArraySlice<UInt8>>? {
        guard let position = value(key) else { return .absent }
        guard events[position].kind == .scalar || events[position].kind == .plainScalar else { return nil }
        return .given(flat.text(at: position))
      }
      let roster = context.roster
      let bill = plain.bill(
        defaultID: "\(context.file)#\(index)",
        at: fields.location(Int(first.line), Int(first.column)), context: context, field: field,
        diners: { plain in
          guard let position = value(.diners) else { return .absent }
          return Self.diners(flat, at: position, roster: roster, &plain).map { .given($0) }
        })
      return bill.map { ($0, slots[BillKey.id.rawValue] >= 0) }
    }
  }

  /// The diners node at `position`, as ``YAMLFields`` and the validator read it.
  private static func diners(_ flat: YAMLFlatBill, at position: Int, roster: [String]?, _ plain: inout PlainBill)
    -> Diners?
  {
    let events = flat.events
    let isScalar = { (position: Int) in events[position].kind == .scalar || events[position].kind == .plainScalar }
    var list: [Diner] = []
    switch events[position].kind {
    case .scalar, .plainScalar:
      return PlainBill.headCount(PlainBill.trimmingBlanks(flat.text(at: position))).map { .anonymous(count: $0) }
    case .sequenceStart:
      var item = position + 1
      while events[item].kind != .sequenceEnd {
        guard isScalar(item), plain.diner(flat.text(at: item), weight: .one, roster: roster, to: &list) else {
          return nil
        }
        item += 1
      }
    case .mappingStart:
      var item = position + 1
      while events[item].kind != .mappingEnd {
        guard isScalar(item), isScalar(item + 1) else { return nil }
        var weight = Weight.one
        let text = flat.text(at: item + 1)
        if !flat.isNull(at: item + 1) && !text.isEmpty {
          guard let parsed = plain.weight(text) else { return nil }
          weight = parsed
        }
        guard plain.diner(flat.text(at: item), weight: weight, roster: roster, to: &list) else { return nil }
        item += 2
      }
    case .sequenceEnd, .mappingEnd:
      return nil
    }
    return list.isEmpty ? nil : .named(list)
  }
}
