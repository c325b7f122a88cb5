import SplitBillCore
@_spi(Readers) import SplitBillModel
import SplitBillText
@_spi(Readers) import SplitBillYAML

/// A YAML bill's fields, read from its events (``YAMLFlatBill``): a mapping of keys to scalars,
/// but for the diners (a head count, a list of names, or a mapping of names to weights).
///
/// Keys are found once, when the fields are made; a key outside the format, a key given twice or
/// one that is not a plain name is a reader problem, worded then (it is rare).
///
/// A view of the flat bill: it borrows the bill's text and the reading function's key slots as
/// spans, so it cannot outlive them.
struct YAMLBillFields: BillFields, ~Copyable, ~Escapable {
  /// A scalar, by its event's position.
  typealias Text = Int32

  private let flat: YAMLFlatBill
  private let text: Span<UInt8>
  private let file: SourceFile
  let index: Int
  /// For each key (by raw value), where its value's event is; -1 when not given. (Room on the
  /// reading function's stack, ``Slots``: an inline array here was copied whole at every look-up.)
  private var slots: MutableSpan<Int32>
  private var keyProblems: [Diagnostic] = []
  private var misspelt: Set<BillKey> = []
  /// Whether an itemized bill's own keys (``BillKey/receiptKeys``) are given, noted as the keys
  /// are found (asked of every bill).
  private(set) var givesReceiptKeys = false

  /// Room for ``slots``, one for each key.
  private typealias Slots = InlineArray<24, Int32>

  /// The fields of `flat`, whose first event starts a mapping, `text` being `flat.text`'s bytes
  /// and `room` a slot for every key, each -1.
  @_lifetime(copy text, copy room)
  private init(flat: YAMLFlatBill, text: Span<UInt8>, room: consuming MutableSpan<Int32>, file: SourceFile, index: Int)
  {
    precondition(room.count >= BillKey.allCases.count, "a slot for every key")
    slots = room
    self.flat = flat
    self.text = text
    self.file = file
    self.index = index
    let events = flat.events
    var position = 1
    while position < events.count - 1 {
      let valueStart = flat.end(ofNodeAt: position)
      defer { position = flat.end(ofNodeAt: valueStart) }
      // Only a problem needs the key's place.
      guard Self.isScalar(events[position].kind) else {
        keyProblems.append(.error(.keyShape(describe(at: position)), at: location(of: Int32(position))))
        continue
      }
      let name = flat.text(at: position)
      guard let key = BillKey(utf8: name) else {
        let (problem, guess) = BillRules.unknownKey(
          String(decoding: name, as: UTF8.self), allowed: BillField.billKeys, place: "bill",
          at: location(of: Int32(position)))
        keyProblems.append(problem)
        if let guess, let key = BillKey(name: guess) { misspelt.insert(key) }
        continue
      }
      guard slots[key.rawValue] < 0 else {
        keyProblems.append(
          .error(
            .repeatedKey(key.name, place: "bill", first: self.keyLocation(key)), at: location(of: Int32(position))))
        continue
      }
      slots[key.rawValue] = Int32(valueStart)
      if key.rawValue > BillKey.items.rawValue { givesReceiptKeys = true }  // as receiptKeys says
    }
  }

  /// Reads the bill `flat`, the `index`-th of its file, and says whether it gives an id.
  static func read(
    _ flat: YAMLFlatBill, index: Int, file: SourceFile, context: DocumentContext, rules: inout BillRules
  ) -> (Result<Bill, InvalidBill>, givesID: Bool) {
    guard let first = flat.events.first, first.kind == .mappingStart else {
      let start = SourceLocation(
        in: file, line: Int(flat.events.first?.line ?? 1), column: Int(flat.events.first?.column ?? 1))
      let shape = flat.events.isEmpty ? "nothing" : flat.describe(at: 0)
      let problem = Diagnostic.error(.billShape(shape), at: start)
      return (.failure(InvalidBill(id: "\(context.file)#\(index)", source: start, diagnostics: [problem])), false)
    }
    var slots = Slots(repeating: -1)
    let fields = YAMLBillFields(flat: flat, text: flat.text.span, room: slots.mutableSpan, file: file, index: index)
    let recognized: Result<Bill, InvalidBill>? = rules.recognize(fields, context: context).map { .success($0) }
    #if DEBUG
      BillRules.checkAgreement(recognized, rules.diagnose(fields, context: context))
    #endif
    guard let recognized else { return (rules.diagnose(fields, context: context), fields.givesID) }
    return (recognized, fields.givesID)
  }

  var start: SourceLocation { location(of: 0) }
  var isCSVRow: Bool { false }
  var givesID: Bool { slots[BillKey.id.rawValue] >= 0 }
  func isMisspelt(_ key: BillKey) -> Bool { misspelt.contains(key) }

  func reportReaderProblems<Policy: ProblemPolicy>(to policy: inout Policy) throws(Policy.Stop) {
    for problem in keyProblems { try policy.report(problem) }
  }

  func value(_ key: BillKey) -> FieldValue<Int32> {
    let position = Int(slots[key.rawValue])
    guard position >= 0 else { return .absent }
    switch flat.events[position].kind {
    case .scalar, .plainScalar:
      return flat.isNull(at: position) ? .null : .text(Int32(position))
    case .sequenceStart where key == .repeat:
      return .unexpected
    case .sequenceStart, .mappingStart:
      return key.takesEntries && oddItem(at: position, listValues: key == .repeat) == nil ? .entries : .unexpected
    case .sequenceEnd, .mappingEnd:
      return .absent
    }
  }

  func shape(of key: BillKey) -> String {
    let position = Int(slots[key.rawValue])
    guard position >= 0 else { return "nothing" }
    let container = flat.events[position].kind == .sequenceStart ? "a list" : "a mapping"
    guard let odd = oddItem(at: position, listValues: key == .repeat) else { return describe(at: position) }
    return "\(container) containing \(describe(at: odd))"
  }

  /// In the list or mapping at `position`, the first item that is not a scalar (in a mapping:
  /// the value, else the key; with `listValues`, a value may be a list of scalars), if any.
  private func oddItem(at position: Int, listValues: Bool) -> Int? {
    let events = flat.events
    var item = position + 1
    if events[position].kind == .sequenceStart {
      while events[item].kind != .sequenceEnd {
        guard Self.isScalar(events[item].kind) else { return item }
        item += 1
      }
    } else if events[position].kind == .mappingStart {
      while events[item].kind != .mappingEnd {
        let valueStart = flat.end(ofNodeAt: item)
        if Self.isScalar(events[item].kind), Self.isScalar(events[valueStart].kind) {
          item = valueStart + 1
          continue
        }
        // A list of scalars as a value, where the key takes one (`skip: [2026-08]`).
        let valueEnd = flat.end(ofNodeAt: valueStart)
        let isList =
          listValues && events[valueStart].kind == .sequenceStart
          && (valueStart + 1..<valueEnd - 1).allSatisfy { Self.isScalar(events[$0].kind) }
        guard Self.isScalar(events[item].kind), isList else {
          return Self.isScalar(events[valueStart].kind) || isList ? item : valueStart
        }
        item = valueEnd
      }
    }
    return nil
  }

  func nextEntry(_ key: BillKey, _ cursor: inout Int) -> (name: Int32, value: Int32?)? {
    let position = Int(slots[key.rawValue])
    guard position >= 0 else { return nil }
    let events = flat.events
    if cursor == 0 { cursor = position + 1 }
    switch events[position].kind {
    case .sequenceStart:
      guard events[cursor].kind != .sequenceEnd else { return nil }
      defer { cursor += 1 }
      return (Int32(cursor), nil)
    case .mappingStart:
      guard events[cursor].kind != .mappingEnd else { return nil }
      defer { cursor = flat.end(ofNodeAt: cursor + 1) }
      // A null weight is no weight: one.
      return (Int32(cursor), flat.isNull(at: cursor + 1) ? nil : Int32(cursor + 1))
    default:
      return nil
    }
  }

  func entryCount(_ key: BillKey) -> Int {
    let position = Int(slots[key.rawValue])
    guard position >= 0 else { return 0 }
    let items = flat.end(ofNodeAt: position) - position - 2
    return flat.events[position].kind == .mappingStart ? items / 2 : max(items, 0)
  }

  func listItems(_ value: Int32) -> [Int32]? {
    let position = Int(value)
    guard flat.events[position].kind == .sequenceStart else { return nil }
    return (position + 1..<flat.end(ofNodeAt: position) - 1).map { Int32($0) }
  }

  @_lifetime(copy self)
  func bytes(_ text: Int32) -> Span<UInt8> { self.text.extracting(flat.textRange(at: Int(text))) }

  func location(of text: Int32) -> SourceLocation {
    let event = flat.events[Int(text)]
    return SourceLocation(in: file, line: Int(event.line), column: Int(event.column))
  }

  func keyLocation(_ key: BillKey) -> SourceLocation {
    let position = slots[key.rawValue]
    return position > 0 ? location(of: position - 1) : start
  }

  func valueLocation(_ key: BillKey) -> SourceLocation {
    let position = slots[key.rawValue]
    guard position > 0 else { return start }
    return flat.isNull(at: Int(position)) ? keyLocation(key) : location(of: position)
  }

  private func describe(at position: Int) -> String { flat.describe(at: position) }

  var mayHaveItems: Bool { slots[BillKey.items.rawValue] >= 0 }

  func items(ofBill id: String) -> ItemList {
    let position = Int(slots[BillKey.items.rawValue])
    guard position >= 0 else { return .absent }
    let events = flat.events
    let at = location(of: Int32(position))
    switch events[position].kind {
    case .sequenceStart: break
    case .scalar, .plainScalar:
      return flat.isNull(at: position) ? .items([], keyLocation(.items)) : .unexpected(describe(at: position), at)
    default: return .unexpected(describe(at: position), at)
    }
    var items: [ItemSource] = []
    var item = position + 1
    while events[item].kind != .sequenceEnd {
      defer { item = flat.end(ofNodeAt: item) }
      var source = ItemSource(start: location(of: Int32(item)))
      guard events[item].kind == .mappingStart else {
        source.problems.append(.error(.itemShape(key: nil, shape: describe(at: item)), at: source.start))
        items.append(source)
        continue
      }
      var key = item + 1
      var seen: [String: SourceLocation] = [:]
      while events[key].kind != .mappingEnd {
        let value = flat.end(ofNodeAt: key)
        defer { key = flat.end(ofNodeAt: value) }
        let keyLocation = location(of: Int32(key))
        guard Self.isScalar(events[key].kind) else {
          source.problems.append(.error(.keyShape(describe(at: key)), at: keyLocation))
          continue
        }
        let name = String(decoding: flat.text(at: key), as: UTF8.self)
        if let first = seen[name] {
          source.problems.append(.error(.repeatedKey(name, place: "item", first: first), at: keyLocation))
          continue
        }
        seen[name] = keyLocation
        guard ItemSource.keys.contains(name) else {
          let guess = Spelling.suggestion(for: name, among: ItemSource.keys)
          source.problems.append(.error(.unknownItemKey(name, guess: guess), at: keyLocation))
          continue
        }
        let valueLocation = location(of: Int32(value))
        if name == "for" {
          source.sharersLocation = valueLocation
          source.sharers = sharers(at: value, &source.problems)
          continue
        }
        guard Self.isScalar(events[value].kind) else {
          source.problems.append(.error(.itemShape(key: name, shape: describe(at: value)), at: valueLocation))
          continue
        }
        guard !flat.isNull(at: value) else { continue }
        let text = LocatedText(text: String(decoding: flat.text(at: value), as: UTF8.self), location: valueLocation)
        switch name {
        case "name": source.name = text
        case "price": source.price = text
        default: source.quantity = text
        }
      }
      items.append(source)
    }
    return .items(items, at)
  }

  /// An item's `for` at `position`: a name, a list of names, or a mapping of names to weights.
  private func sharers(at position: Int, _ problems: inout [Diagnostic]) -> [ItemSource.Sharer]? {
    let events = flat.events
    func text(_ position: Int) -> LocatedText {
      LocatedText(
        text: String(decoding: flat.text(at: position), as: UTF8.self), location: location(of: Int32(position)))
    }
    func bad(_ at: Int) -> [ItemSource.Sharer]? {
      problems.append(.error(.itemShape(key: "for", shape: describe(at: at)), at: location(of: Int32(at))))
      return nil
    }
    switch events[position].kind {
    case .scalar, .plainScalar:
      return flat.isNull(at: position) ? nil : [ItemSource.Sharer(name: text(position), weight: nil)]
    case .sequenceStart:
      var sharers: [ItemSource.Sharer] = []
      var item = position + 1
      while events[item].kind != .sequenceEnd {
        guard Self.isScalar(events[item].kind) else { return bad(item) }
        sharers.append(ItemSource.Sharer(name: text(item), weight: nil))
        item += 1
      }
      return sharers
    case .mappingStart:
      var sharers: [ItemSource.Sharer] = []
      var item = position + 1
      while events[item].kind != .mappingEnd {
        guard Self.isScalar(events[item].kind) else { return bad(item) }
        guard Self.isScalar(events[item + 1].kind) else { return bad(item + 1) }
        sharers.append(
          ItemSource.Sharer(name: text(item), weight: flat.isNull(at: item + 1) ? nil : text(item + 1)))
        item += 2
      }
      return sharers
    case .sequenceEnd, .mappingEnd:
      return nil
    }
  }

  private static func isScalar(_ kind: YAMLFlatBill.Kind) -> Bool { kind == .scalar || kind == .plainScalar }
}

extension YAMLFlatBill {
  /// What the node at `position` is, for messages ("a list", "a mapping", "'abc'").
  func describe(at position: Int) -> String {
    switch events[position].kind {
    case .scalar, .plainScalar: return "'\(String(decoding: text(at: position), as: UTF8.self))'"
    case .sequenceStart, .sequenceEnd: return "a list"
    case .mappingStart, .mappingEnd: return "a mapping"
    }
  }
}
