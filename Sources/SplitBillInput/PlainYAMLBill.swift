import SplitBillCore

/// ``PlainBill`` for YAML bills: fields are the pairs of the bill's mapping, scalars but for the
/// diners (a head count, a list of names, or a mapping of names to weights).
struct PlainYAMLBill {
  private var plain: PlainBill
  private let fields: YAMLFields

  init(validator: BillValidator, fields: YAMLFields) {
    self.plain = PlainBill(validator: validator)
    self.fields = fields
  }

  /// The bill `node`, the `index`-th of its file, and whether it gives an id (which is then
  /// checked for repeats); `nil` when it must be validated the full way.
  mutating func bill(_ node: YAMLNode, index: Int, context: DocumentContext) -> (bill: Bill, explicitID: Bool)? {
    guard case .mapping(let pairs) = node.kind, pairs.count <= BillKey.allCases.count else { return nil }
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: BillKey.allCases.count) { slots in
      // Where each key's pair is (-1: not given); a key outside the format or given twice is
      // for the full way to report.
      slots.initialize(repeating: -1)
      for (position, pair) in pairs.enumerated() {
        guard case .scalar(let name, _) = pair.key.kind, let key = BillKey(name: name), slots[key.rawValue] < 0
        else { return nil }
        slots[key.rawValue] = position
      }
      func value(_ key: BillKey) -> YAMLNode? {
        let position = slots[key.rawValue]
        guard position >= 0, !pairs[position].value.isNull else { return nil }
        return pairs[position].value
      }
      func field(_ key: BillKey) -> PlainBill.Field<String>? {
        guard let node = value(key) else { return .absent }
        guard case .scalar(let text, _) = node.kind else { return nil }
        return .given(text)
      }
      let roster = context.roster
      let bill = plain.bill(
        defaultID: "\(context.file)#\(index)", at: fields.location(node.line, node.column), context: context,
        field: field,
        diners: { plain in
          guard let node = value(.diners) else { return .absent }
          return Self.diners(node, roster: roster, &plain).map { .given($0) }
        })
      return bill.map { ($0, slots[BillKey.id.rawValue] >= 0) }
    }
  }

  /// The diners node as ``YAMLFields`` and the validator read it.
  private static func diners(_ node: YAMLNode, roster: [String]?, _ plain: inout PlainBill) -> Diners? {
    var list: [Diner] = []
    switch node.kind {
    case .scalar(let text, _):
      var digits = text.utf8[...]
      while let first = digits.first, first == 0x20 || first == 0x09 { digits.removeFirst() }
      while let last = digits.last, last == 0x20 || last == 0x09 { digits.removeLast() }
      return PlainBill.headCount(digits).map { .anonymous(count: $0) }
    case .sequence(let items):
      list.reserveCapacity(items.count)
      for item in items {
        guard case .scalar(let name, _) = item.kind, plain.diner(name, weight: .one, roster: roster, to: &list)
        else { return nil }
      }
    case .mapping(let pairs):
      list.reserveCapacity(pairs.count)
      for (key, value) in pairs {
        guard case .scalar(let name, _) = key.kind, case .scalar(let text, _) = value.kind else { return nil }
        var weight = Weight.one
        if !value.isNull && !text.isEmpty {
          guard let parsed = plain.weight(text) else { return nil }
          weight = parsed
        }
        guard plain.diner(name, weight: weight, roster: roster, to: &list) else { return nil }
      }
    }
    return list.isEmpty ? nil : .named(list)
  }
}
