import SplitBillCore

/// The common case of a CSV row made cheap: a row whose every field is plainly valid becomes a
/// ``Bill`` straight from the row's bytes, without the located fields (``RawBill``) the validator
/// reads, which cost more than the rest of the bill's work together.
///
/// It recognises, it does not diagnose: anything it does not accept (a problem of any kind, and a
/// few rare valid forms, such as a single diner whose name is not ASCII, more than 16 diners or a
/// file with a roster) gives `nil`, and the row goes the full way, through
/// ``BillValidator/validate(_:context:)``, the one place that writes diagnostics. Either way the
/// bill is the same: a test reads generated files both ways, valid and broken rows alike, and
/// compares every bill and diagnostic.
struct PlainCSVBill {
  let validator: BillValidator
  let context: DocumentContext
  /// For each ``BillKey`` (by raw value), the column that holds it, if any.
  let columns: [Int?]
  /// How many columns the header has.
  let columnCount: Int
  // What repeats from row to row is made once: names in NFC, currencies, tips, dates, weights,
  // choices (`nil`: not plainly valid).
  private var names = ByteKeyedCache<String>()
  private var dates = ByteKeyedCache<CalendarDate>()
  private var currencies = ByteKeyedCache<Currency>(limit: 256)
  private var tips = ByteKeyedCache<DefaultTip>(limit: 256)
  private var weights = ByteKeyedCache<Weight>(limit: 256)
  private var leftovers = ByteKeyedCache<LeftoverPolicy>(limit: 16)
  private var roundings = ByteKeyedCache<RoundingMode>(limit: 16)

  init(validator: BillValidator, context: DocumentContext, keys: [BillKey?]) {
    self.validator = validator
    self.context = context
    self.columnCount = keys.count
    var columns = [Int?](repeating: nil, count: BillKey.allCases.count)
    for (column, key) in keys.enumerated() {
      if let key { columns[key.rawValue] = column }
    }
    self.columns = columns
  }

  /// The bill in `row`, the `index`-th of the file starting at `location`; `nil` when the row must
  /// be validated the full way.
  mutating func bill(_ row: CSVBillReader.Row, index: Int, at location: SourceLocation) -> Bill? {
    guard row.problem == nil, row.cells.count == columnCount, context.roster == nil else { return nil }
    let options = validator.options

    // A cell's bytes; `nil` for a column the file does not have or an empty cell (absent).
    func bytes(_ key: BillKey) -> ArraySlice<UInt8>? {
      guard let column = columns[key.rawValue] else { return nil }
      let range = row.cells[column].range
      return range.isEmpty ? nil : row.bytes[range]
    }
    // `.some(nil)` stands for a cell that is there but not valid UTF-8.
    func text(_ key: BillKey) -> String?? {
      guard let bytes = bytes(key) else { return .none }
      return .some(CSVBillReader.string(validating: bytes))
    }

    var id = "\(context.file)#\(index)"
    if let given = text(.id) {
      guard let given = given?.trimmingSpaces, !given.isEmpty else { return nil }
      id = given
    }
    var date: CalendarDate?
    if let given = bytes(.date) {
      guard let parsed = dates.value(for: given, make: { Self.string($0).flatMap(CalendarDate.init(iso:)) }) else {
        return nil
      }
      date = parsed
    }
    var description: String?
    if let given = text(.description) {
      guard let given else { return nil }
      description = given
    }
    var notes: String?
    if let given = text(.notes) {
      guard let given else { return nil }
      notes = given
    }

    let currency: Currency
    if let given = bytes(.currency) {
      guard let parsed = currencies.value(for: given, make: { Self.string($0).flatMap { try? Currency(code: $0) } })
      else { return nil }
      currency = parsed
    } else {
      switch context.currency {
      case .value(let value): currency = value
      case .unset: currency = .usd
      case .invalid: return nil
      }
    }
    guard let amountText = text(.amount), let amountText,
      let amount = try? Money(parsing: amountText, currency: currency, decimalComma: options.decimalComma)
    else { return nil }

    let tip: TipChoice
    let tipSource: TipSource
    switch (bytes(.tip), text(.tipAmount)) {
    case (.some, .some): return nil
    case (.none, .some(let given)):
      guard let given, let fixed = try? Money(parsing: given, currency: currency, decimalComma: options.decimalComma)
      else { return nil }
      (tip, tipSource) = (.fixed(fixed), .fixed)
    case (.some(let given), .none):
      switch tips.value(
        for: given, make: { Self.string($0).flatMap { Self.tip($0, decimalComma: options.decimalComma) } })
      {
      case .advisor: (tip, tipSource) = (.advisor, .advisor)
      case .percent(let percent): (tip, tipSource) = (.percent(percent), .percent)
      case nil: return nil
      }
    case (.none, .none):
      switch context.tip {
      case .value(.percent(let percent)): (tip, tipSource) = (.percent(percent), .default)
      case .value(.advisor): (tip, tipSource) = (.advisor, .advisor)
      case .unset, .invalid: return nil
      }
    }

    guard let dinersBytes = bytes(.diners), let diners = diners(dinersBytes) else { return nil }
    var payer: String?
    if let given = bytes(.paidBy) {
      guard let name = name(given) else { return nil }
      payer = name
    }
    guard let leftover = choice(bytes(.leftover), &leftovers, context.leftover, otherwise: .balanced),
      let rounding = choice(bytes(.rounding), &roundings, context.rounding, otherwise: .halfUp)
    else { return nil }
    if leftover == .payer {
      guard let payer, case .named(let list) = diners, list.contains(where: { $0.name == payer }) else { return nil }
    }

    var defaultTip: Percent?
    if case .value(.percent(let percent)) = context.tip { defaultTip = percent }
    return Bill(
      id: id, source: location, date: date, description: description, notes: notes,
      terms: BillTerms(amount: amount, tip: tip, diners: diners, payer: payer, leftover: leftover, rounding: rounding),
      tipSource: tipSource, defaultTip: defaultTip)
  }

  /// A choice given in the cell, else by the defaults, else `otherwise`; `nil` if invalid.
  private func choice<T: RawRepresentable>(
    _ given: ArraySlice<UInt8>?, _ cache: inout ByteKeyedCache<T>, _ fallback: Resolved<T>, otherwise: T
  ) -> T? where T.RawValue == String {
    if let given { return cache.value(for: given, make: { Self.string($0).flatMap(T.init(rawValue:)) }) }
    switch fallback {
    case .value(let value): return value
    case .unset: return otherwise
    case .invalid: return nil
    }
  }

  /// A diners cell as ``CSVBillReader/diners(_:text:at:quoted:)`` and the validator read it:
  /// `3`, `Ana;Ben` or `Ana:2;Ben:1`.
  private mutating func diners(_ bytes: ArraySlice<UInt8>) -> Diners? {
    let semicolon: UInt8 = 0x3B
    let colon: UInt8 = 0x3A
    let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    if !bytes.contains(semicolon) && !bytes.contains(colon) {
      // A head count; a single name only when it cannot be mistaken for one (no sign, no digit
      // first, ASCII: the full way decides the rest).
      let trimmed = bytes.drop(while: isBlank).reversed().drop(while: isBlank).reversed()
      guard let first = trimmed.first, first < 0x80 else { return nil }
      if trimmed.allSatisfy({ (0x30...0x39).contains($0) }) {
        guard trimmed.count <= 6, let count = Int(String(decoding: trimmed, as: UTF8.self)),
          (1...Diners.maximumCount).contains(count)
        else { return nil }
        return .anonymous(count: count)
      }
      guard !(0x30...0x39).contains(first), first != 0x2B, first != 0x2D, bytes.allSatisfy({ $0 < 0x80 }),
        let name = name(bytes)
      else { return nil }
      return .named([Diner(name: name)])
    }
    var list: [Diner] = []
    var start = bytes.startIndex
    while true {
      let end = bytes[start...].firstIndex(of: semicolon) ?? bytes.endIndex
      let item = bytes[start..<end]
      var weight = Weight.one
      var namePart = item
      if let colonIndex = item.firstIndex(of: colon) {
        namePart = item[..<colonIndex]
        let weightText = item[(colonIndex + 1)...]
        if weightText.contains(where: { !isBlank($0) }) {
          let decimalComma = validator.options.decimalComma
          guard
            let parsed = weights.value(
              for: weightText,
              make: { text in
                decimalComma && text.contains(0x2C)
                  ? nil : try? Weight(parsing: String(decoding: text, as: UTF8.self).trimmingSpaces)
              })
          else { return nil }
          weight = parsed
        }
      }
      guard let name = name(namePart), list.count < 16,
        !list.contains(where: { $0.name.utf8.count == name.utf8.count && $0.name == name })
      else { return nil }
      list.append(Diner(name: name, weight: weight))
      guard end < bytes.endIndex else { break }
      start = end + 1
    }
    return .named(list)
  }

  /// A name in NFC without surrounding spaces; `nil` if empty or not UTF-8.
  private mutating func name(_ bytes: ArraySlice<UInt8>) -> String? {
    let validator = validator
    return names.value(
      for: bytes,
      make: { bytes in
        guard let text = Self.string(bytes) else { return nil }
        let name = validator.names.normalized(text)
        return name.isEmpty ? nil : name
      })
  }

  /// The bytes as text, `nil` if not UTF-8.
  private static func string(_ bytes: ArraySlice<UInt8>) -> String? { CSVBillReader.string(validating: bytes) }

  /// A tip cell as the validator reads it: 'ai' in any case, or a percentage.
  private static func tip(_ text: String, decimalComma: Bool) -> DefaultTip? {
    if text.utf8.count == 2 && text.lowercased() == "ai" { return .advisor }
    return (try? Percent(parsing: text, decimalComma: decimalComma)).map(DefaultTip.percent)
  }
}
