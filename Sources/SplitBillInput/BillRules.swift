import Foundation
import SplitBillCore
@_spi(Readers) import SplitBillModel
import SplitBillText

/// A value from the defaults chain: set, unset, or given but invalid.
enum Resolved<Value: Sendable>: Sendable {
  case unset
  case value(Value)
  /// Given in the file's defaults but invalid; bills that need it are invalid too.
  case invalid(SourceLocation)
}

/// What a document's header resolves to: defaults from the file over the command line's, and the roster.
struct DocumentContext: Sendable {
  var file: String
  var currency: Resolved<Currency>
  var tip: Resolved<DefaultTip>
  var leftover: Resolved<LeftoverPolicy>
  var rounding: Resolved<RoundingMode>
  /// The document's `rates:`, when it has some: what its records carry (``Bill/rates``).
  var rates: RecordRates?
  /// Its `defaults: cash_rounding:` rules.
  var cashRules: [CashRule] = []
  /// `defaults: category:`, when given.
  var category: String?
  /// The currencies kept in whole units: the run's (`--whole-units`) and the document's
  /// (`defaults: whole_units:`).
  var wholeUnits: Set<Currency> = []

  /// `currency` as this document keeps it: in whole units when ``wholeUnits`` names it.
  func kept(_ currency: Currency) -> Currency {
    currency.kept(wholeUnits: wholeUnits)
  }
  /// The `people:` roster, NFC names, when given.
  var roster: [String]? = nil {
    didSet { rosterNames = roster.map(Set.init) }
  }
  private var rosterNames: Set<String>?

  init(
    file: String, currency: Resolved<Currency>, tip: Resolved<DefaultTip>, leftover: Resolved<LeftoverPolicy>,
    rounding: Resolved<RoundingMode>
  ) {
    self.file = file
    self.currency = currency
    self.tip = tip
    self.leftover = leftover
    self.rounding = rounding
  }

  /// Whether `name` may take part: always without a roster.
  func admits(_ name: String) -> Bool {
    guard let roster else { return true }
    // A few names are quicker compared than hashed.
    return roster.count <= 8 ? roster.contains(name) : rosterNames?.contains(name) ?? false
  }
}

/// The rules of the bill format, version 1, in one place: every reader hands its bills here as
/// ``BillFields``, and every problem a bill can have is found and worded here.
///
/// A bill is first read ``Recognizing`` (no message is built, the first problem stops it), and only
/// a bill that stops is read again ``Diagnosing``, which finds every problem. Both are this code.
/// What repeats from bill to bill (names in NFC, dates, currencies, tips, weights, choices) is made
/// once per distinct text, looked up by its bytes. One thread's: each reading thread has its own.
struct BillRules {
  let options: ReadOptions
  var names = ByteKeyedCache<String>()
  private var dates = ByteKeyedCache<CalendarDate>()
  private var currencies = ByteKeyedCache<Currency>(limit: 256)
  private var tips = ByteKeyedCache<DefaultTip>(limit: 256)
  private var weights = ByteKeyedCache<Weight>(limit: 256)
  private var leftovers = ByteKeyedCache<LeftoverPolicy>(limit: 16)
  private var roundings = ByteKeyedCache<RoundingMode>(limit: 16)

  init(options: ReadOptions) { self.options = options }

  // MARK: - Bills

  /// The bill, if it is valid; `nil` when it has a problem (read it again with ``diagnose(_:context:)``).
  mutating func recognize<Fields: BillFields & ~Copyable & ~Escapable>(
    _ fields: borrowing Fields, context: DocumentContext
  ) -> Bill? {
    var policy = Recognizing()
    do {
      return try bill(fields, context: context, policy: &policy).bill
    } catch {
      return nil
    }
  }

  /// The bill, or every problem found in it.
  mutating func diagnose<Fields: BillFields & ~Copyable & ~Escapable>(
    _ fields: borrowing Fields, context: DocumentContext
  )
    -> Result<Bill, InvalidBill>
  {
    var policy = Diagnosing()
    let (id, bill) = bill(fields, context: context, policy: &policy)
    if let bill, !policy.foundErrors { return .success(bill) }
    return .failure(InvalidBill(id: id, source: fields.start, diagnostics: policy.problems))
  }

  #if DEBUG
    /// The two policies are one set of rules and must agree: a bill recognised is the bill
    /// diagnosed, and a bill not recognised has an error. Debug builds, and so the test suite,
    /// read every bill both ways and stop here if they do not.
    static func checkAgreement(_ recognized: Result<Bill, InvalidBill>?, _ diagnosed: Result<Bill, InvalidBill>) {
      switch (recognized, diagnosed) {
      case (.some(let bill), let diagnosed):
        precondition(bill == diagnosed, "recognised \(bill), diagnosed \(diagnosed)")
      case (nil, .success(let bill)):
        preconditionFailure("not recognised, yet diagnosed valid: \(bill)")
      case (nil, .failure(let invalid)):
        precondition(invalid.diagnostics.contains { $0.severity == .error }, "invalid without an error: \(invalid)")
      }
    }
  #endif

  /// Reads `fields` under `policy`: the bill's id (its own or the default), and the bill unless
  /// a problem was reported.
  private mutating func bill<Fields: BillFields & ~Copyable & ~Escapable, Policy: ProblemPolicy>(
    _ fields: borrowing Fields, context: DocumentContext, policy: inout Policy
  ) throws(Policy.Stop) -> (id: String, bill: Bill?) {
    try fields.reportReaderProblems(to: &policy)

    var givenID: String?
    if let text = try Self.text(.id, fields, &policy) {
      let given = fields.string(text).trimmingSpaces
      if given.isEmpty {
        try policy.report(
          .error(.emptyID, at: fields.location(of: text))
        )
      } else {
        givenID = given
      }
    }
    let id = givenID ?? "\(context.file)#\(fields.index)"
    let itemList = fields.mayHaveItems ? fields.items(ofBill: id) : .absent
    let itemsGiven: Bool
    if case .absent = itemList { itemsGiven = false } else { itemsGiven = true }
    var date: CalendarDate?
    if let text = try Self.text(.date, fields, &policy) {
      date = dates.value(for: fields.bytes(text)) { CalendarDate(iso: fields.string(text)) }
      if date == nil { try policy.report(.error(.badDate(fields.string(text)), at: fields.location(of: text))) }
    }
    var recurrence: Recurrence?
    switch fields.value(.repeat) {
    case .absent, .null: break
    default:
      let dateGiven: Bool
      switch fields.value(.date) {
      case .absent, .null: dateGiven = false
      default: dateGiven = true
      }
      recurrence = try self.recurrence(fields, date: date, dateGiven: dateGiven, &policy)
    }
    let description = try Self.text(.description, fields, &policy).map { fields.string($0) }
    var category = context.category
    if let text = try Self.text(.category, fields, &policy) {
      let given = fields.string(text).trimmingSpaces
      category = given.isEmpty ? nil : given
    }
    let notes = try Self.text(.notes, fields, &policy).map { fields.string($0) }

    // Currency first: amounts are read in its digits.
    var currency: Currency?
    var currencyKnown = true
    if let text = try Self.text(.currency, fields, &policy) {
      currency = currencies.value(for: fields.bytes(text)) { try? Currency(code: fields.string(text)) }
      if currency == nil { currency = try parseCurrency(fields.string(text), at: fields.location(of: text), &policy) }
      // (Not `map(context.kept)`: a method taken as a closure copies the context, a bill at a time.)
      if let read = currency, !context.wholeUnits.isEmpty { currency = context.kept(read) }
      currencyKnown = currency != nil
    } else {
      switch context.currency {
      case .value(let value): currency = value
      case .unset:
        currencyKnown = false
        // Missing, not given in a shape or bytes already reported.
        switch fields.value(.currency) {
        case .absent where !fields.isUnreadable(.currency), .null:
          try policy.report(.error(.noCurrency(inCSV: fields.isCSVRow, kind: .bill), at: fields.start))
        default: break
        }
      case .invalid(let location):
        currencyKnown = false
        try policy.report(
          .error(.invalidDefault(key: "currency", at: location), at: fields.start))
      }
    }

    var rate: BillRate?
    if let text = try Self.text(.rate, fields, &policy), let currency {
      switch BillRate.parse(fields.string(text).trimmingSpaces, billCurrency: currency) {
      case .success(let value): rate = value
      case .failure(let problem): try policy.report(.error(.rate(problem), at: fields.location(of: text)))
      }
    }

    var amount: Money?
    switch fields.value(.amount) {
    case .text(let text):
      if let currency { amount = try money(text, fields, currency: currency, field: "amount", &policy) }
    case .null:
      // An itemized bill's amount cell may be left empty.
      if !itemsGiven { try policy.report(.error(.emptyAmount, at: fields.valueLocation(.amount))) }
    case .entries, .unexpected:
      _ = try Self.text(.amount, fields, &policy)
    case .absent:
      if !itemsGiven && !fields.isMisspelt(.amount) {
        try policy.report(.error(.missingKey(.amount), at: fields.start))
      }
    }

    // Tip: exactly one of the bill's tip / tip_amount, else the defaults.
    var ownPercent: Percent?
    var askAdvisor = false
    var ownTipGiven = false
    if let text = try Self.text(.tip, fields, &policy) {
      ownTipGiven = true
      let decimalComma = options.decimalComma
      var parsed = tips.value(for: fields.bytes(text)) {
        TipText.parse(fields.string(text), decimalComma: decimalComma)
      }
      if parsed == nil { parsed = try parseTip(fields.string(text), at: fields.location(of: text), &policy) }
      switch parsed {
      case .percent(let percent): ownPercent = percent
      case .advisor: askAdvisor = true
      case nil: break
      }
    }
    var fixedTip: Money?
    if let text = try Self.text(.tipAmount, fields, &policy) {
      if ownTipGiven {
        try policy.report(.error(.bothTips, at: fields.keyLocation(.tipAmount)))
      }
      ownTipGiven = true
      if let currency { fixedTip = try money(text, fields, currency: currency, field: "tip_amount", &policy) }
    }
    var tip: TipChoice?
    var tipSource = TipSource.percent
    if let fixedTip {
      tip = .fixed(fixedTip)
      tipSource = .fixed
    } else if let ownPercent {
      tip = .percent(ownPercent)
    } else if askAdvisor {
      tip = .advisor
      tipSource = .advisor
    } else if !ownTipGiven {
      switch context.tip {
      case .value(.percent(let percent)):
        tip = .percent(percent)
        tipSource = .default
      case .value(.advisor):
        tip = .advisor
        tipSource = .advisor
      case .invalid(let location):
        try policy.report(
          .error(.invalidDefault(key: "tip", at: location), at: fields.start))
      case .unset:
        try policy.report(.error(.noTip(inCSV: fields.isCSVRow), at: fields.start))
      }
    }

    // Exact shares name the diners, with their parts of the amount.
    var diners: Diners?
    var sharesGiven = false
    switch fields.value(.shares) {
    case .absent, .null:
      diners = try self.diners(fields, context: context, &policy)
    case .entries:
      sharesGiven = true
      switch fields.value(.diners) {
      case .absent, .null: break
      default: try policy.report(.error(.sharesWithDiners, at: fields.keyLocation(.shares)))
      }
      if let currency, let parts = try namedAmounts(.shares, fields, context: context, currency: currency, &policy) {
        diners = .exact(parts.map { Diner(name: $0.name, part: $0.amount) })
      }
    case .text, .unexpected:
      try policy.report(.error(.sharesShape(fields.shape(of: .shares)), at: fields.valueLocation(.shares)))
    }
    var payer: String?
    var payers: [PayerPart] = []
    switch fields.value(.paidBy) {
    case .text(let text):
      let name = name(text, fields)
      if name.isEmpty {
        try policy.report(.error(.emptyPayer, at: fields.location(of: text)))
      } else {
        try checkRoster(name, role: "paid_by", at: fields.location(of: text), context: context, &policy)
        payer = name
      }
    case .entries:
      if let currency, let parts = try namedAmounts(.paidBy, fields, context: context, currency: currency, &policy) {
        payers = parts.map { PayerPart(person: $0.name, amount: $0.amount) }
        // One payer with an amount is the one payer (whose amount is checked as a sum of one).
        if payers.count == 1 { payer = payers[0].person }
      }
    case .absent, .null:
      break
    case .unexpected:
      try policy.report(
        .error(.notSingleValue(key: "paid_by", shape: fields.shape(of: .paidBy)), at: fields.valueLocation(.paidBy)))
    }
    let leftover =
      try Self.choice(.leftover, fields, &leftovers, fallback: context.leftover, &policy) ?? .balanced
    let rounding = try Self.choice(.rounding, fields, &roundings, fallback: context.rounding, &policy) ?? .halfUp

    // An itemized bill's amount is what its receipt comes to before tip (a function of its own:
    // nearly every bill has no items, and this one stays short for them).
    var receipt: Receipt?
    if itemsGiven || fields.givesReceiptKeys {
      (receipt, amount) = try itemized(
        itemList, fields, amount: amount, currency: currency, tip: tip, diners: diners, leftover: leftover,
        rounding: rounding, &policy)
    }

    // The payer policy's rule is the split's own (Core).
    if leftover == .payer, let diners {
      do throws(SplitError) {
        _ = try BillTerms.payerIndex(
          leftover: leftover, payer: payer, diners: diners, severalPayers: payers.count > 1)
      } catch {
        try policy.report(
          .error(.split(error), at: payer == nil && payers.isEmpty ? fields.start : fields.valueLocation(.paidBy)))
      }
    }
    // The split's sum rules (Core), said here where the parts were written: exact shares against
    // the amount; several payers against the total, when the file already tells it.
    if sharesGiven, let amount, let diners {
      do throws(SplitError) {
        try BillTerms.checkParts(of: diners, amount: amount)
      } catch {
        try policy.report(.error(.split(error), at: fields.valueLocation(.shares)))
      }
    }
    if !payers.isEmpty, let amount, let tip,
      let total = BillTerms(
        amount: amount, tip: tip, diners: .anonymous(count: 1), leftover: leftover, rounding: rounding,
        receipt: receipt
      )
      .knownTotal
    {
      do throws(SplitError) {
        try BillTerms.checkPayers(payers, total: total)
      } catch {
        try policy.report(.error(.split(error), at: fields.valueLocation(.paidBy)))
      }
    }

    guard !policy.foundErrors, let amount, let tip, let diners, currencyKnown else { return (id, nil) }
    // The advisor starts from the tip this bill would have had without 'ai': the file's or the
    // command line's default percentage.
    var defaultTip: Percent?
    if case .value(.percent(let percent)) = context.tip { defaultTip = percent }
    var bill = Bill(
      id: id, source: fields.start, date: date, description: description, notes: notes,
      terms: BillTerms(
        amount: amount, tip: tip, diners: diners, payer: payer, payers: payers, leftover: leftover, rounding: rounding,
        receipt: receipt),
      tipSource: tipSource, defaultTip: defaultTip,
      rates: rate.map { RecordRates(own: $0, file: context.rates?.file ?? RateTable()) } ?? context.rates)
    if let recurrence { bill.recurrence = recurrence }
    if let category { bill.category = category }
    return (id, bill)
  }

  /// A bill's `repeat`: `month`, or `{every: month, until: 2026-12-31, skip: [2026-08]}` (in CSV
  /// `every: month; until: 2026-12-31; skip: 2026-08 2026-10`); checked against the bill's
  /// `date`, its first instance.
  private func recurrence<Fields: BillFields & ~Copyable & ~Escapable, Policy: ProblemPolicy>(
    _ fields: borrowing Fields, date: CalendarDate?, dateGiven: Bool, _ policy: inout Policy
  ) throws(Policy.Stop) -> Recurrence? {
    var unit: Recurrence.Unit?
    var until: CalendarDate?
    var untilAt = fields.valueLocation(.repeat)
    var count: Int?
    var skips: [(text: String, at: SourceLocation)] = []
    var failed = false
    func report(_ problem: RecurrenceProblem, at location: SourceLocation) throws(Policy.Stop) {
      failed = true
      try policy.report(.error(.recurrence(problem), at: location))
    }
    func readUnit(_ text: String, at location: SourceLocation) throws(Policy.Stop) {
      let word = text.trimmingSpaces.lowercased()
      if let found = Recurrence.Unit(rawValue: word.hasSuffix("ly") ? String(word.dropLast(2)) : word) {
        unit = found
      } else {
        let units = Recurrence.Unit.allCases.map(\.rawValue)
        let guess = Spelling.suggestion(for: word, among: units).map { " (did you mean '\($0)'?)" } ?? ""
        try report(.syntax("every '\(EchoedText.quote(text))' is not week, month or year\(guess)"), at: location)
      }
    }
    switch fields.value(.repeat) {
    case .absent, .null: return nil
    case .text(let text): try readUnit(fields.string(text), at: fields.location(of: text))
    case .unexpected: try report(.syntax("is \(fields.shape(of: .repeat))"), at: fields.valueLocation(.repeat))
    case .entries:
      var cursor = 0
      var given: [String: SourceLocation] = [:]
      while let (name, value) = fields.nextEntry(.repeat, &cursor) {
        let key = fields.string(name).trimmingSpaces
        let at = value.map { fields.location(of: $0) } ?? fields.location(of: name)
        // A key given twice is an error, as in the bill itself: never the last one silently.
        if let first = given[key] {
          failed = true
          try policy.report(
            .error(.repeatedKey(key, place: "repeat", first: first), at: fields.location(of: name)))
          continue
        }
        given[key] = fields.location(of: name)
        guard let value else {
          try report(.syntax("gives \(key.isEmpty ? "an empty key" : "'\(EchoedText.quote(key))'") no value"), at: at)
          continue
        }
        let list = fields.listItems(value)
        if list != nil, key != "skip" {
          try report(.syntax("gives \(EchoedText.quote(key)) a list"), at: at)
          continue
        }
        let text = list == nil ? fields.string(value).trimmingSpaces : ""
        switch key {
        case "every": try readUnit(text, at: at)
        case "until":
          until = CalendarDate(iso: text)
          untilAt = at
          if until == nil { try report(.syntax("until: \(Problem.badDate(text).message)"), at: at) }
        case "count":
          count = Int(text)
          if let count, count >= 1 { break }
          count = nil
          try report(.badCount(text), at: at)
        case "skip":
          if let items = list {
            skips += items.map { (fields.string($0).trimmingSpaces, fields.location(of: $0)) }
          } else {
            skips += text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map { (String($0), at) }
          }
        default:
          let keys = ["every", "until", "count", "skip"]
          let guess = Spelling.suggestion(for: key, among: keys).map { " (did you mean '\($0)'?)" } ?? ""
          try report(.syntax("has the key '\(EchoedText.quote(key))'\(guess)"), at: fields.location(of: name))
        }
      }
      if unit == nil && !failed { try report(.syntax("has no every"), at: fields.valueLocation(.repeat)) }
    }
    if until != nil && count != nil { try report(.untilAndCount, at: untilAt) }
    if !dateGiven { try report(.needsDate, at: fields.keyLocation(.repeat)) }
    guard !failed, let unit, let date else { return nil }
    if let until, until < date { try report(.untilBeforeDate(until: until, date: date), at: untilAt) }
    let end: Recurrence.End
    if let until {
      end = .until(until)
    } else if let count {
      end = .count(count)
    } else if options.repeatsThrough != nil {
      end = .open
    } else {
      try report(.syntax("has no until or count"), at: fields.valueLocation(.repeat))
      return nil
    }
    var rule = Recurrence(every: unit, end: end)
    // Counted, not made: the instances are made once, by the stream, within the run's limit.
    guard rule.instanceCount(from: date, through: options.repeatsThrough) <= Recurrence.instanceLimit else {
      try report(.tooMany, at: fields.valueLocation(.repeat))
      return nil
    }
    // The instances' keys and days are made only for a rule that skips some.
    guard !skips.isEmpty else { return failed ? nil : rule }
    let dates = rule.allDates(from: date, through: options.repeatsThrough) ?? []
    let keys = dates.map(rule.instanceKey(of:))
    let known = Set(keys)
    let days = Set(dates)
    for (text, at) in skips {
      // A date names the instance on that day; a month or a year, the instance in it.
      if let key = rule.instanceKey(named: text), known.contains(key),
        CalendarDate(iso: text).map(days.contains) ?? true
      {
        rule.skipped.insert(key)
      } else {
        // The nearest instance: by days for a date, else the next period (or the last).
        let example =
          if let day = CalendarDate(iso: text) {
            dates.min { abs($0.daysSinceEpoch - day.daysSinceEpoch) < abs($1.daysSinceEpoch - day.daysSinceEpoch) }?
              .description
          } else {
            keys.first { $0 >= text } ?? keys.last
          }
        try report(.skipNotInstance(text, unit: unit, example: example), at: at)
      }
    }
    return failed ? nil : rule
  }

  /// A single-valued field's text: `nil` when it is not given or null; other shapes are reported.
  @inline(__always)
  static func text<Fields: BillFields & ~Copyable & ~Escapable, Policy: ProblemPolicy>(
    _ key: BillKey, _ fields: borrowing Fields, _ policy: inout Policy
  ) throws(Policy.Stop) -> Fields.Text? {
    switch fields.value(key) {
    case .text(let text): return text
    case .absent, .null: return nil
    case .entries, .unexpected:
      try policy.report(
        .error(.notSingleValue(key: key.name, shape: fields.shape(of: key)), at: fields.valueLocation(key)))
      return nil
    }
  }

  func money<Fields: BillFields & ~Copyable & ~Escapable, Policy: ProblemPolicy>(
    _ text: Fields.Text, _ fields: borrowing Fields, currency: Currency, field: String, _ policy: inout Policy
  ) throws(Policy.Stop) -> Money? {
    if let money = Money(utf8: fields.bytes(text), currency: currency, decimalComma: options.decimalComma) {
      return money
    }
    do {
      return try Money(parsing: fields.string(text), currency: currency, decimalComma: options.decimalComma)
    } catch {
      try policy.report(.error(.invalidMoney(field: field, error), at: fields.location(of: text)))
      return nil
    }
  }

  /// The name as every rule compares and prints it (``PersonName/normalized(_:)``), made once per
  /// spelling; a new one is noted with where it was first met (``spellings``).
  mutating func name<Fields: BillFields & ~Copyable & ~Escapable>(_ text: Fields.Text, _ fields: borrowing Fields)
    -> String
  {
    var made: String?
    let name =
      names.value(for: fields.bytes(text)) {
        made = PersonName.normalized(fields.string(text))
        return made
      } ?? ""
    if let made, !made.isEmpty, spellings.count < Self.spellingsNoted {
      spellings.append((made, fields.nameLocation(of: text)))
    }
    return name
  }

  /// Names as first met, in reading order (a name met under several spellings may be here more
  /// than once), for the run's check of names that look alike (``NearNames``); at most
  /// ``spellingsNoted``.
  var spellings: [(name: String, location: SourceLocation)] = []
  static let spellingsNoted = 2_000

  private static func choice<Fields: BillFields & ~Copyable & ~Escapable, Policy: ProblemPolicy, Choice>(
    _ key: BillKey, _ fields: borrowing Fields, _ cache: inout ByteKeyedCache<Choice>, fallback: Resolved<Choice>,
    _ policy: inout Policy
  ) throws(Policy.Stop) -> Choice? where Choice: RawRepresentable & CaseIterable & Sendable, Choice.RawValue == String {
    if let text = try Self.text(key, fields, &policy) {
      if let value = cache.value(for: fields.bytes(text), make: { Choice(rawValue: fields.string(text)) }) {
        return value
      }
      return try parseChoice(fields.string(text), Choice.self, key.name, at: fields.location(of: text), &policy)
    }
    switch fallback {
    case .value(let value): return value
    case .unset: return nil
    case .invalid(let location):
      try policy.report(
        .error(.invalidDefault(key: key.name, at: location), at: fields.start))
      return nil
    }
  }

  // MARK: - Diners

  private mutating func diners<Fields: BillFields & ~Copyable & ~Escapable, Policy: ProblemPolicy>(
    _ fields: borrowing Fields, context: DocumentContext, _ policy: inout Policy
  ) throws(Policy.Stop) -> Diners? {
    switch fields.value(.diners) {
    case .absent, .null:
      if let roster = context.roster, !roster.isEmpty {
        return .named(roster.map { Diner(name: $0) })
      }
      guard !fields.isMisspelt(.diners) else { return nil }
      try policy.report(
        .error(
          .missingKey(.diners), at: fields.value(.diners).isAbsent ? fields.start : fields.valueLocation(.diners)))
      return nil
    case .text(let text):
      let string = fields.string(text)
      guard let count = Int(string.trimmingSpaces) else {
        try policy.report(.error(.notAHeadCount(string), at: fields.location(of: text)))
        return nil
      }
      guard count >= 1 else {
        try policy.report(.error(.tooFewDiners(count), at: fields.location(of: text)))
        return nil
      }
      guard count <= Diners.maximumCount else {
        try policy.report(.error(.split(.tooManyDiners(count)), at: fields.location(of: text)))
        return nil
      }
      return .anonymous(count: count)
    case .unexpected:
      try policy.report(.error(.dinersShape(fields.shape(of: .diners)), at: fields.valueLocation(.diners)))
      return nil
    case .entries:
      break
    }

    // Weights first, then names: the problems come in that order (a pass of its own, unless the
    // first problem stops the rules anyway).
    var entries = 0
    var badWeights = 0
    var cursor = 0
    if !Policy.stopsAtFirstProblem {
      while let (name, weight) = fields.nextDiner(&cursor) {
        entries += 1
        if try self.weight(weight, of: name, fields, &policy) == nil { badWeights += 1 }
      }
      guard entries > badWeights else {
        if badWeights == 0 {
          try policy.report(
            .error(.noDiners, at: fields.valueLocation(.diners)))
        }
        return nil
      }
    }
    var diners: [Diner] = []
    diners.reserveCapacity(Policy.stopsAtFirstProblem ? fields.dinerCount : entries - badWeights)
    // Where each diner's name stood, for "listed twice (first at …)" (a repeat stops a policy
    // that stops at the first problem before anything is said).
    var places: [Fields.Text] = []
    if !Policy.stopsAtFirstProblem { places.reserveCapacity(entries - badWeights) }
    // Most tables are small: looking along the list beats hashing every name.
    var seen: Set<String>?
    var ignored = Diagnosing()
    cursor = 0
    while let (nameText, weightText) = fields.nextDiner(&cursor) {
      let weight: Weight?
      if Policy.stopsAtFirstProblem {
        entries += 1
        weight = try self.weight(weightText, of: nameText, fields, &policy)
      } else {
        // Its problem was reported above.
        weight = self.weight(weightText, of: nameText, fields, &ignored)
      }
      guard let weight else { continue }
      let name = self.name(nameText, fields)
      guard !name.isEmpty else {
        try policy.report(.error(.emptyDinerName, at: fields.location(of: nameText)))
        continue
      }
      // Names are in NFC here, so names of different byte lengths differ: that test is free, and
      // spares `==` its slow path for non-ASCII names.
      let repeated =
        seen?.contains(name)
        ?? diners.contains(where: { $0.name.utf8.count == name.utf8.count && $0.name == name })
      if repeated {
        let first =
          diners.firstIndex { $0.name == name }.flatMap { places.indices.contains($0) ? places[$0] : nil }
          ?? nameText
        try policy.report(
          .error(.repeatedDiner(name, first: fields.location(of: first)), at: fields.location(of: nameText)))
        continue
      }
      try checkRoster(name, role: "diner", at: fields.location(of: nameText), context: context, &policy)
      diners.append(Diner(name: name, weight: weight))
      if !Policy.stopsAtFirstProblem { places.append(nameText) }
      if seen != nil {
        seen?.insert(name)
      } else if diners.count == 16 {
        seen = Set(diners.map(\.name))
      }
    }
    if entries == 0 {
      try policy.report(
        .error(.noDiners, at: fields.valueLocation(.diners)))
    }
    return .named(diners)
  }

  /// The names and amounts under `key` (paid_by, shares) in `currency`; `nil` when any is wrong
  /// (each problem reported).
  private mutating func namedAmounts<Fields: BillFields & ~Copyable & ~Escapable, Policy: ProblemPolicy>(
    _ key: BillKey, _ fields: borrowing Fields, context: DocumentContext, currency: Currency, _ policy: inout Policy
  ) throws(Policy.Stop) -> [(name: String, amount: Money)]? {
    var parts: [(name: String, amount: Money)] = []
    var places: [Fields.Text] = []
    var given = NameIndex()
    var failed = false
    var cursor = 0
    while let (nameText, valueText) = fields.nextEntry(key, &cursor) {
      let name = self.name(nameText, fields)
      guard !name.isEmpty else {
        try policy.report(.error(key == .paidBy ? .emptyPayer : .emptyDinerName, at: fields.location(of: nameText)))
        failed = true
        continue
      }
      if let first = given.position(of: name) {
        try policy.report(
          .error(
            .repeatedName(key: key.name, name: name, first: fields.location(of: places[first])),
            at: fields.location(of: nameText)))
        failed = true
        continue
      }
      try checkRoster(name, role: key.name, at: fields.location(of: nameText), context: context, &policy)
      guard let valueText, !fields.bytes(valueText).isEmpty else {
        try policy.report(.error(.namedAmountMissing(key: key.name, name: name), at: fields.location(of: nameText)))
        failed = true
        continue
      }
      guard let amount = try money(valueText, fields, currency: currency, field: key.name, &policy) else {
        failed = true
        continue
      }
      parts.append((name, amount))
      places.append(nameText)
      given.append(name)
    }
    if parts.isEmpty && !failed {
      try policy.report(
        .error(key == .paidBy ? .emptyPayer : .sharesShape("an empty mapping"), at: fields.valueLocation(key)))
      return nil
    }
    return failed ? nil : parts
  }

  /// A diner's weight: one when none is given or its text is empty. (Inlined into each diner's
  /// reading: a call for each diner cost more than the look-up.)
  @inline(__always)
  mutating func weight<Fields: BillFields & ~Copyable & ~Escapable, Policy: ProblemPolicy>(
    _ text: Fields.Text?, of name: Fields.Text, _ fields: borrowing Fields, _ policy: inout Policy
  ) throws(Policy.Stop) -> Weight? {
    guard let text else { return .one }
    let bytes = fields.bytes(text)
    guard !bytes.isEmpty else { return .one }
    let decimalComma = options.decimalComma
    if let weight = weights.value(
      for: bytes, make: { try? Weight(parsing: fields.string(text), decimalComma: decimalComma) })
    {
      return weight
    }
    do {
      return try Weight(parsing: fields.string(text), decimalComma: decimalComma)
    } catch {
      try policy.report(
        .error(.invalidWeight(error, diner: fields.string(name)), at: fields.location(of: text)))
      return nil
    }
  }

  private mutating func checkRoster<Policy: ProblemPolicy>(
    _ name: String, role: String, at location: @autoclosure () -> SourceLocation, context: DocumentContext,
    _ policy: inout Policy
  ) throws(Policy.Stop) {
    guard !context.admits(name), let roster = context.roster else { return }
    let guess = Policy.stopsAtFirstProblem ? nil : suggestion(for: name, among: roster)
    try policy.report(.error(.notInRoster(role: role, name: name, roster: roster, guess: guess), at: location()))
  }

  /// "Did you mean" suggestions left to this reading: each compares a name with up to a thousand
  /// others, so past the first ``suggestionLimit`` (a file with thousands of unknown names) the
  /// errors list the roster instead, and a run's cost stays linear in its names.
  private var suggestionsLeft = BillRules.suggestionLimit
  static let suggestionLimit = 100

  /// ``Spelling/suggestion(for:among:)`` while suggestions are left, else `nil`.
  mutating func suggestion(for name: String, among candidates: [String]) -> String? {
    guard suggestionsLeft > 0 else { return nil }
    suggestionsLeft -= 1
    return Spelling.suggestion(for: name, among: candidates)
  }

  // MARK: - Texts shared by bills and defaults

  private func parseCurrency<Policy: ProblemPolicy>(
    _ text: String, at location: @autoclosure () -> SourceLocation, _ policy: inout Policy
  ) throws(Policy.Stop) -> Currency? {
    do {
      return try Currency(code: text)
    } catch {
      try policy.report(.error(.badCurrency(text), at: location()))
      return nil
    }
  }

  private func parseTip<Policy: ProblemPolicy>(
    _ text: String, at location: @autoclosure () -> SourceLocation, _ policy: inout Policy
  ) throws(Policy.Stop) -> DefaultTip? {
    do {
      return try TipText.parsing(text, decimalComma: options.decimalComma)
    } catch {
      try policy.report(.error(.invalidTip(error), at: location()))
      return nil
    }
  }

  static func parseChoice<Choice: RawRepresentable & CaseIterable, Policy: ProblemPolicy>(
    _ text: String, _ type: Choice.Type, _ key: String, at location: @autoclosure () -> SourceLocation,
    _ policy: inout Policy
  ) throws(Policy.Stop) -> Choice? where Choice.RawValue == String {
    if let value = Choice(rawValue: text) { return value }
    let choices = Choice.allCases.map(\.rawValue)
    try policy.report(
      .error(
        .invalidChoice(key: key, text: text, choices: choices, guess: Spelling.suggestion(for: text, among: choices)),
        at: location()))
    return nil
  }

  // MARK: - Document headers

  /// What a document's header resolves to, with every problem in it.
  func context(for header: DocumentHeader) -> (DocumentContext, [Diagnostic]) {
    var diagnostics = header.problems
    if let version = header.version {
      if case .text("1") = version.shape {
      } else {
        diagnostics.append(.error(.unsupportedVersion(version.shape.description), at: version.location))
      }
    }
    let cli = options.defaults
    var policy = Diagnosing()
    // Whole units first: every currency below is read as the document keeps it.
    var wholeUnits = options.wholeUnits
    if let value = header.wholeUnits {
      var codes: [(String, SourceLocation)] = []
      switch value.shape {
      case .text(let text): codes = [(text, value.location)]
      case .list(let items): codes = items
      case .null: break
      case .unexpected(let shape):
        policy.report(.error(.wholeUnitsValue(shape), at: value.location))
      }
      for (code, location) in codes {
        guard let currency = try? Currency(code: code.trimmingSpaces) else {
          policy.report(.error(.wholeUnitsValue("'\(EchoedText.quote(code))'"), at: location))
          continue
        }
        wholeUnits.insert(currency)
      }
    }
    let keep = { (currency: Currency) in currency.kept(wholeUnits: wholeUnits) }
    var context = DocumentContext(
      file: header.file,
      currency: cli.currency.map { Resolved.value(keep($0)) } ?? .unset,
      tip: cli.tip.map(Resolved.value) ?? .unset,
      leftover: cli.leftover.map(Resolved.value) ?? .unset,
      rounding: cli.rounding.map(Resolved.value) ?? .unset)
    // The run's roster, unless the document gives its own (below).
    context.roster = options.people
    context.wholeUnits = wholeUnits
    // The defaults' single values; other shapes are reported.
    func text(_ key: BillKey) -> (String, SourceLocation)? {
      guard let value = header.defaults[key] else { return nil }
      switch value.shape {
      case .text(let text): return (text, value.location)
      case .null: return nil
      case .list, .unexpected:
        policy.report(.error(.notSingleValue(key: key.name, shape: value.shape.description), at: value.location))
        return nil
      }
    }
    if let (text, location) = text(.currency) {
      context.currency =
        parseCurrency(text, at: location, &policy).map { Resolved.value(keep($0)) } ?? .invalid(location)
    }
    if let (text, location) = text(.tip) {
      context.tip = parseTip(text, at: location, &policy).map(Resolved.value) ?? .invalid(location)
    }
    if let (text, location) = text(.leftover) {
      context.leftover =
        Self.parseChoice(text, LeftoverPolicy.self, "leftover", at: location, &policy).map(Resolved.value)
        ?? .invalid(location)
    }
    if !header.rates.isEmpty { context.rates = RecordRates(own: nil, file: RateTable(header.rates)) }
    switch header.cashRounding {
    case .unexpected(let shape, let location)?: policy.report(.error(.cashRoundingShape(shape), at: location))
    case .entries(let entries)?:
      for (code, location, value) in entries {
        guard let currency = (try? Currency(code: code)).map(keep) else {
          policy.report(.error(.cashRoundingCurrency(code), at: location))
          continue
        }
        guard case .text(let text) = value.shape,
          let increment = try? Money(parsing: text.trimmingSpaces, currency: currency), increment.minorUnits > 0
        else {
          policy.report(.error(.cashRoundingIncrement(currency, shape: value.shape.description), at: value.location))
          continue
        }
        context.cashRules.append(CashRule(currency: currency, increment: increment, location: location))
      }
    case nil: break
    }
    if let (text, _) = text(.category) {
      let category = text.trimmingSpaces
      context.category = category.isEmpty ? nil : category
    }
    if let (text, location) = text(.rounding) {
      context.rounding =
        Self.parseChoice(text, RoundingMode.self, "rounding", at: location, &policy).map(Resolved.value)
        ?? .invalid(location)
    }
    if let roster = header.roster {
      switch roster.shape {
      case .list(let names):
        var seen: [String: SourceLocation] = [:]
        var list: [String] = []
        for (name, location) in names {
          let normalized = PersonName.normalized(name)
          if normalized.isEmpty {
            policy.report(.error(.rosterEmptyName, at: location))
          } else if let first = seen[normalized] {
            policy.report(.error(.rosterRepeated(normalized, first: first), at: location))
          } else {
            seen[normalized] = location
            list.append(normalized)
          }
        }
        context.roster = list
      case .null: break
      case .text, .unexpected:
        policy.report(.error(.rosterShape(roster.shape.description), at: roster.location))
      }
    }
    return (context, diagnostics + policy.problems)
  }

  // MARK: - Keys

  /// The problem with an unknown key in `place` ("bill", "defaults"), and the key it looks like
  /// a typo of, if any.
  static func unknownKey(_ key: String, allowed: [String], place: String, at location: SourceLocation) -> (
    Diagnostic, guess: String?
  ) {
    let guess = Spelling.suggestion(for: key, among: allowed)
    return (.error(.unknownKey(key, place: place, allowed: allowed, guess: guess), at: location), guess)
  }

}

extension FieldValue {
  var isAbsent: Bool {
    if case .absent = self { return true }
    return false
  }
}

/// The one reading of a tip as text, for files, `--default-tip`, `calc --tip` and the terminal
/// screen: `ai` (in any case) for advice, else a percentage (`18`, `18%`, `12.5`).
package enum TipText {
  /// The tip `text` gives, or why it gives none.
  package static func parsing(_ text: String, decimalComma: Bool = false) throws(PercentError) -> DefaultTip {
    if text.utf8.count == 2 && text.lowercased() == "ai" { return .advisor }
    return .percent(try Percent(parsing: text, decimalComma: decimalComma))
  }

  /// The tip `text` gives, if any.
  package static func parse(_ text: String, decimalComma: Bool = false) -> DefaultTip? {
    try? parsing(text, decimalComma: decimalComma)
  }
}
