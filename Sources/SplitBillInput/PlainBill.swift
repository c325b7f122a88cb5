import SplitBillCore

/// The common case made cheap: a bill whose every field is plainly valid becomes a ``Bill``
/// straight from what the reader has (a CSV row's bytes, a YAML bill's events copied flat),
/// without the located fields (``RawBill``) the validator reads: building those, a string and a
/// location per field, and validating them cost as much as all the rest of a bill's work.
///
/// It recognises, it does not diagnose: anything it does not accept (a problem of any kind, and a
/// few rare valid forms, such as a CSV cell naming a single diner who is not ASCII, more than 16
/// diners, or a weight written with a decimal comma) gives `nil`, and the bill goes the full way,
/// through ``BillValidator/validate(_:context:)``, the one place that writes diagnostics. Either
/// way the bill is the same: tests read generated files both ways, valid and broken bills alike,
/// and compare every bill and diagnostic. The formats' readers (``PlainCSVBill``,
/// ``PlainYAMLBill``) say where each field is; this says what the fields mean, as the validator
/// does.
struct PlainBill {
  let validator: BillValidator
  // What repeats from bill to bill is made once: names in NFC, dates, currencies, tips, weights,
  // choices (`nil`: not plainly valid).
  private var names = ByteKeyedCache<String>()
  private var dates = ByteKeyedCache<CalendarDate>()
  private var currencies = ByteKeyedCache<Currency>(limit: 256)
  private var tips = ByteKeyedCache<DefaultTip>(limit: 256)
  private var weights = ByteKeyedCache<Weight>(limit: 256)
  private var leftovers = ByteKeyedCache<LeftoverPolicy>(limit: 16)
  private var roundings = ByteKeyedCache<RoundingMode>(limit: 16)

  init(validator: BillValidator) { self.validator = validator }

  /// A field as the reader found it: not given (a missing key or column, an empty cell, a YAML
  /// null), or given. A field the reader cannot give plainly (a YAML list where a single value
  /// belongs) is `nil` instead, and so is the bill.
  enum Field<Value> {
    case absent
    case given(Value)
  }

  /// The bill whose fields `field` gives, starting at `location`; `defaultID` is its id when it
  /// has none. `diners` reads the diners field (each format writes it its own way), with
  /// ``diner(_:weight:roster:to:)`` for each name.
  @inline(__always)
  mutating func bill<Text: PlainText>(
    defaultID: @autoclosure () -> String, at location: SourceLocation, context: DocumentContext,
    field: (BillKey) -> Field<Text>?, diners readDiners: (inout PlainBill) -> Field<Diners>?
  ) -> Bill? {
    let options = validator.options
    // The field's text; `.some(nil)` for a field not plainly given.
    func given(_ key: BillKey) -> Text?? {
      switch field(key) {
      case .absent: return .none
      case .given(let text): return .some(text)
      case nil: return .some(nil)
      }
    }
    // The field's text as a string; `.some(nil)` for one not plainly given or not UTF-8.
    func string(_ key: BillKey) -> String?? { given(key).map { $0?.validString } }

    let id: String
    if let text = given(.id) {
      // Trimmed as the validator trims it; nearly always there is nothing to trim.
      guard let text, let first = text.utf8Bytes.first, let last = text.utf8Bytes.last,
        let string = text.validString
      else { return nil }
      if Self.isBlank(first) || Self.isBlank(last) {
        let trimmed = string.trimmingSpaces
        guard !trimmed.isEmpty else { return nil }
        id = trimmed
      } else {
        id = string
      }
    } else {
      id = defaultID()
    }
    var date: CalendarDate?
    if let text = given(.date) {
      guard let text,
        let parsed = dates.value(for: text.utf8Bytes, make: { text.validString.flatMap(CalendarDate.init(iso:)) })
      else { return nil }
      date = parsed
    }
    var description: String?
    if let text = string(.description) {
      guard let text else { return nil }
      description = text
    }
    var notes: String?
    if let text = string(.notes) {
      guard let text else { return nil }
      notes = text
    }

    let currency: Currency
    if let text = given(.currency) {
      guard let text,
        let parsed = currencies.value(
          for: text.utf8Bytes, make: { text.validString.flatMap { try? Currency(code: $0) } })
      else { return nil }
      currency = parsed
    } else {
      switch context.currency {
      case .value(let value): currency = value
      case .unset: currency = .usd
      case .invalid: return nil
      }
    }
    guard let amountText = given(.amount), let amountText,
      let amount = amountText.withUTF8Buffer({
        Money(utf8: $0, currency: currency, decimalComma: options.decimalComma)
      })
    else { return nil }

    let tip: TipChoice
    let tipSource: TipSource
    switch (given(.tip), given(.tipAmount)) {
    case (.some, .some): return nil
    case (.none, .some(let text)):
      guard let text,
        let fixed = text.withUTF8Buffer({ Money(utf8: $0, currency: currency, decimalComma: options.decimalComma) })
      else { return nil }
      (tip, tipSource) = (.fixed(fixed), .fixed)
    case (.some(let text), .none):
      guard let text else { return nil }
      switch tips.value(
        for: text.utf8Bytes, make: { text.validString.flatMap { Self.tip($0, decimalComma: options.decimalComma) } })
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

    let diners: Diners
    switch readDiners(&self) {
    case .given(let given): diners = given
    case .absent:
      guard let roster = context.roster, !roster.isEmpty else { return nil }
      diners = .named(roster.map { Diner(name: $0) })
    case nil: return nil
    }
    var payer: String?
    if let text = given(.paidBy) {
      guard let text, let name = name(text), context.roster?.contains(name) ?? true else { return nil }
      payer = name
    }
    guard let leftover = choice(given(.leftover), &leftovers, context.leftover, otherwise: .balanced),
      let rounding = choice(given(.rounding), &roundings, context.rounding, otherwise: .halfUp)
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

  /// Adds the diner `name` with `weight` to `list`; `false` (the bill is not plain) for an empty
  /// name, a name given twice, one not in the roster, or a 17th diner.
  mutating func diner<Text: PlainText>(_ name: Text, weight: Weight, roster: [String]?, to list: inout [Diner])
    -> Bool
  {
    guard let name = self.name(name), list.count < 16, roster?.contains(name) ?? true,
      !list.contains(where: { $0.name.utf8.count == name.utf8.count && $0.name == name })
    else { return false }
    list.append(Diner(name: name, weight: weight))
    return true
  }

  /// A weight's text (not empty) as the validator reads it; `nil` if invalid or written with a
  /// decimal comma.
  mutating func weight<Text: PlainText>(_ text: Text) -> Weight? {
    let decimalComma = validator.options.decimalComma
    return weights.value(
      for: text.utf8Bytes,
      make: {
        decimalComma && text.utf8Bytes.contains(0x2C) ? nil : text.validString.flatMap { try? Weight(parsing: $0) }
      })
  }

  /// `bytes` without the spaces and tabs around them, as `trimmingSpaces` trims a string.
  static func trimmingBlanks(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var bytes = bytes
    while let first = bytes.first, isBlank(first) { bytes.removeFirst() }
    while let last = bytes.last, isBlank(last) { bytes.removeLast() }
    return bytes
  }

  /// The same for bytes in memory.
  static func trimmingBlanks(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0
    var end = bytes.count
    while start < end, isBlank(bytes[start]) { start += 1 }
    while end > start, isBlank(bytes[end - 1]) { end -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }

  private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

  /// A head count written as plain digits, from 1 to ``Diners/maximumCount``; `nil` for anything
  /// else (signs and other digits go the full way).
  static func headCount(_ digits: some Collection<UInt8>) -> Int? {
    guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    let count = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    return (1...Diners.maximumCount).contains(count) ? count : nil
  }

  /// A name in NFC without surrounding spaces; `nil` if empty or not UTF-8.
  private mutating func name<Text: PlainText>(_ text: Text) -> String? {
    let names = validator.names
    return self.names.value(
      for: text.utf8Bytes,
      make: {
        guard let string = text.validString else { return nil }
        let name = names.normalized(string)
        return name.isEmpty ? nil : name
      })
  }

  /// A choice given in the field, else by the defaults, else `otherwise`; `nil` if invalid.
  private func choice<T: RawRepresentable, Text: PlainText>(
    _ given: Text??, _ cache: inout ByteKeyedCache<T>, _ fallback: Resolved<T>, otherwise: T
  ) -> T? where T.RawValue == String {
    if let given {
      guard let given else { return nil }
      return cache.value(for: given.utf8Bytes, make: { given.validString.flatMap(T.init(rawValue:)) })
    }
    switch fallback {
    case .value(let value): return value
    case .unset: return otherwise
    case .invalid: return nil
    }
  }

  /// A tip as the validator reads it: 'ai' in any case, or a percentage.
  private static func tip(_ text: String, decimalComma: Bool) -> DefaultTip? {
    if text.utf8.count == 2 && text.lowercased() == "ai" { return .advisor }
    return (try? Percent(parsing: text, decimalComma: decimalComma)).map(DefaultTip.percent)
  }
}

/// A field's text as a reader holds it: a CSV cell's bytes, a YAML scalar's.
protocol PlainText {
  associatedtype UTF8Bytes: BidirectionalCollection<UInt8>
  /// The text's UTF-8 bytes (for CSV, as read: perhaps not valid UTF-8).
  var utf8Bytes: UTF8Bytes { get }
  /// The text as a string; `nil` if it is not valid UTF-8.
  var validString: String? { get }
  /// Calls `body` with the bytes in memory.
  func withUTF8Buffer<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result
}

extension ArraySlice: PlainText where Element == UInt8 {
  var utf8Bytes: ArraySlice<UInt8> { self }
  var validString: String? { CSVBillReader.string(validating: self) }
  func withUTF8Buffer<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    withUnsafeBufferPointer(body)
  }
}

extension UnsafeBufferPointer: PlainText where Element == UInt8 {
  var utf8Bytes: UnsafeBufferPointer<UInt8> { self }
  var validString: String? { CSVBillReader.string(validating: self) }
  func withUTF8Buffer<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result { body(self) }
}

extension String: PlainText {
  var utf8Bytes: String.UTF8View { utf8 }
  var validString: String? { self }
  func withUTF8Buffer<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    var text = self
    return text.withUTF8(body)
  }
}
