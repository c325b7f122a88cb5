/// One category's spending in one currency: its bills, their total, and what each named diner
/// consumed of it.
public struct CategoryTotals: Hashable, Sendable {
  /// The category as written on the bills; `nil` for the bills without one.
  public var category: String?
  /// The currency.
  public var currency: Currency
  /// Bills in the category (of the period).
  public var bills = 0
  /// Σ totals of its bills, tips included.
  public var total: Int64 = 0
  /// Each named diner's Σ shares in it, by name; a head-count bill's shares are in ``total`` only.
  public var people: [Consumption] = []

  /// One person's part of a category.
  public struct Consumption: Hashable, Sendable {
    /// The person.
    public var person: String
    /// Σ their shares.
    public var consumed: Int64
  }

  /// An empty total.
  public init(category: String?, currency: Currency) {
    self.category = category
    self.currency = currency
  }

  /// What the bills' named diners consumed together; ``total`` less this is the head-count
  /// bills' part.
  public var namedConsumption: Int64 { people.reduce(0) { $0 + $1.consumed } }
}

/// Accumulates spending by category, a bill at a time.
///
/// Only bills with a category are added: the bills without one are what the currency's totals
/// and each person's consumption (``ReportLedger``) leave once the categories are taken away, so a
/// run whose bills have no category pays nothing for this.
public struct CategoryLedger: Sendable {
  private struct Entry: Sendable {
    var totals: CategoryTotals
    var numbers = PersonNumbers()
    var consumed: [Int64] = []
  }

  private var entries: [Entry] = []
  private var positions: [CategoryKey: Int] = [:]
  private var overflowed = false

  private struct CategoryKey: Hashable, Sendable {
    var category: String?
    var currency: Currency
  }

  /// An empty ledger.
  public init() {}

  /// Whether any bill was added.
  public var isEmpty: Bool { entries.isEmpty }

  /// Adds one split bill of the period under `category` (`nil` only for a ledger that takes every
  /// bill, as the converted one does).
  public mutating func add(_ split: BillSplit, category: String?) {
    add(category: category, currency: split.currency, total: split.total.minorUnits) { body in
      guard !split.anonymousDiners else { return }
      for share in split.shares { body(share.person, share.amount.minorUnits) }
    }
  }

  /// Adds a bill's `total` and, through `shares`, each named diner's part.
  mutating func add(
    category: String?, currency: Currency, total: Int64, shares: ((String, Int64) -> Void) -> Void
  ) {
    let key = CategoryKey(category: category, currency: currency)
    let position: Int
    if let known = positions[key] {
      position = known
    } else {
      position = entries.count
      entries.append(Entry(totals: CategoryTotals(category: category, currency: currency)))
      positions[key] = position
    }
    entries[position].totals.bills += 1
    Self.add(&entries[position].totals.total, total, &overflowed)
    shares { person, units in
      let number = entries[position].numbers.number(of: person)
      if number == entries[position].consumed.count { entries[position].consumed.append(0) }
      Self.add(&entries[position].consumed[number], units, &overflowed)
    }
  }

  private static func add(_ sum: inout Int64, _ value: Int64, _ overflowed: inout Bool) {
    let (result, overflow) = sum.addingReportingOverflow(value)
    sum = result
    if overflow { overflowed = true }
  }

  /// Whether a sum left 64 bits (only possible with absurd inputs).
  public var hasOverflowed: Bool { overflowed }

  /// The categories added, each currency's by total (largest first) then name.
  public var categories: [CategoryTotals] {
    entries.map { entry in
      var totals = entry.totals
      totals.people = zip(entry.numbers.names, entry.consumed).map { .init(person: $0, consumed: $1) }
        .sorted { $0.person < $1.person }
      return totals
    }
    .sorted(by: CategoryTotals.reportOrder)
  }

  /// The categories with, in each currency, the bills without a category as one more entry (last):
  /// the currency's `totals` and each person's consumption (`people`, over the period's bills)
  /// less what the categories hold. Empty when no bill had a category.
  public func categories(totals: [CurrencyTotals], people: [PersonTotals]) -> [CategoryTotals] {
    let named = categories
    guard !named.isEmpty else { return [] }
    var result: [CategoryTotals] = []
    for currency in totals {
      let own = named.filter { $0.currency == currency.currency }
      result += own
      var rest = CategoryTotals(category: nil, currency: currency.currency)
      rest.bills = currency.bills - own.reduce(0) { $0 + $1.bills }
      rest.total = currency.totals - own.reduce(0) { $0 + $1.total }
      guard rest.bills > 0 else { continue }
      for person in people where person.currency == currency.currency {
        let categorized = own.reduce(Int64(0)) { sum, category in
          sum + (category.people.first { $0.person == person.person }?.consumed ?? 0)
        }
        let consumed = person.consumed - categorized
        if consumed != 0 { rest.people.append(.init(person: person.person, consumed: consumed)) }
      }
      result.append(rest)
    }
    return result
  }
}

extension CategoryTotals {
  /// By currency code, then total (largest first), then name; the bills without a category last.
  static func reportOrder(_ a: CategoryTotals, _ b: CategoryTotals) -> Bool {
    if a.currency != b.currency { return a.currency < b.currency }
    if (a.category == nil) != (b.category == nil) { return b.category == nil }
    if a.total != b.total { return a.total > b.total }
    return (a.category ?? "") < (b.category ?? "")
  }
}

/// Spending by category converted into the settlement currency (`--settle-in`): every bill of the
/// period, its total converted at its own rate and rounded to the unit (halves to even), its named
/// diners' shares converted by the same rate and rounded so that they add up to the converted
/// total (largest remainders first, then in the bill's order).
public struct ConvertedCategoryLedger: Sendable {
  /// The settlement currency.
  public let currency: Currency
  private var ledger = CategoryLedger()
  private var failed = false

  /// A ledger converting into `currency`.
  public init(currency: Currency) { self.currency = currency }

  /// Adds a bill of the period under `category`, converted by `factor` (minor units of the bill's
  /// currency to minor units of ``currency``).
  public mutating func add(_ split: BillSplit, category: String?, factor: ExactRatio) {
    guard let total = Self.convert(split.total.minorUnits, by: factor) else {
      failed = true
      return
    }
    let named = split.anonymousDiners ? [] : split.shares
    guard let parts = Self.apportion(named.map(\.amount.minorUnits), of: split.total.minorUnits, into: total) else {
      failed = true
      return
    }
    ledger.add(category: category, currency: currency, total: total) { body in
      for (share, part) in zip(named, parts) { body(share.person, part) }
    }
  }

  /// The converted categories (the bills without one included, as `nil`), by total; `nil` when a
  /// figure did not fit 64 bits.
  public var categories: [CategoryTotals]? {
    guard !failed, !ledger.hasOverflowed else { return nil }
    return ledger.categories
  }

  /// `units × factor`, to the nearest unit, halves to even; `nil` past 64 bits.
  static func convert(_ units: Int64, by factor: ExactRatio) -> Int64? {
    let (product, overflow) = Int128(units.magnitude).multipliedReportingOverflow(by: factor.numerator)
    guard !overflow else { return nil }
    let rounded = RoundingMode.halfEven.divide(product, by: factor.denominator)
    return Int64(exactly: units < 0 ? -rounded : rounded)
  }

  /// `parts` scaled to `converted` in proportion to `whole`: each `part × converted / whole` rounded
  /// down, then the units their exact sum rounds to (half up) handed out by largest remainder, ties
  /// to the earlier part; when the parts are the whole, they add up to `converted`.
  static func apportion(_ parts: [Int64], of whole: Int64, into converted: Int64) -> [Int64]? {
    guard whole != 0 else { return parts.map { _ in 0 } }
    if whole < 0 {
      guard whole != .min, converted != .min, !parts.contains(.min) else { return nil }
      return apportion(parts.map { -$0 }, of: -whole, into: -converted)?.map { -$0 }
    }
    let divisor = Int128(whole)
    var floors: [Int64] = []
    var remainders: [(index: Int, remainder: Int128)] = []
    var exactSum: Int128 = 0
    for (index, part) in parts.enumerated() {
      let (product, overflow) = Int128(part).multipliedReportingOverflow(by: Int128(converted))
      guard !overflow else { return nil }
      var (quotient, remainder) = product.quotientAndRemainder(dividingBy: divisor)
      if remainder < 0 {
        quotient -= 1
        remainder += divisor
      }
      guard let floor = Int64(exactly: quotient) else { return nil }
      floors.append(floor)
      remainders.append((index, remainder))
      exactSum += product
    }
    var (target, sumRemainder) = exactSum.quotientAndRemainder(dividingBy: divisor)
    if sumRemainder < 0 {
      target -= 1
      sumRemainder += divisor
    }
    if sumRemainder * 2 >= divisor { target += 1 }
    var missing = target - floors.reduce(Int128(0)) { $0 + Int128($1) }
    let order = remainders.sorted { $0.remainder != $1.remainder ? $0.remainder > $1.remainder : $0.index < $1.index }
    for entry in order where missing > 0 {
      floors[entry.index] += 1
      missing -= 1
    }
    return floors
  }
}
