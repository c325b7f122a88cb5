/// One person's figures in one currency.
public struct PersonTotals: Hashable, Sendable {
  /// The person.
  public var person: String
  /// The currency.
  public var currency: Currency
  /// Sum of their shares, over bills with named diners.
  public var consumed: Int64 = 0
  /// Totals of the bills they paid, over bills with named diners.
  public var paid: Int64 = 0
  /// Over bills that have a payer: paid minus shares. Positive means others owe them.
  public var balance: Int64 = 0
  /// Leftover minor units they absorbed.
  public var absorbed: Int = 0
}

/// The reconciliation figures of one currency.
public struct CurrencyTotals: Hashable, Sendable {
  /// The currency.
  public var currency: Currency
  /// Bills split.
  public var bills = 0
  /// Σ amounts before tip.
  public var amounts: Int64 = 0
  /// Σ tips (including surpluses moved to the tip).
  public var tips: Int64 = 0
  /// Σ totals.
  public var totals: Int64 = 0
  /// Σ shares of every diner, anonymous ones included.
  public var shares: Int64 = 0
  /// Σ paid, over bills with named diners and a payer.
  public var paid: Int64 = 0
  /// Σ balances; zero whenever the books add up.
  public var balances: Int64 = 0
  /// Leftover units absorbed by diners.
  public var absorbed = 0
  /// Surplus moved to tips by `to-tip`.
  public var leftoverToTip: Int64 = 0
  /// Bills whose diners were a head count: in the totals, not in anyone's figures.
  public var anonymousBills = 0
  /// Bills with named diners but no payer: in consumed, not in balances.
  public var unpaidBills = 0
}

/// A reconciliation identity that did not hold, which must never happen.
public struct ReconciliationFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// The currency whose books do not add up.
  public var currency: String
  /// Which identity failed.
  public var identity: String

  public var description: String { "\(currency): \(identity) does not hold" }
}

/// Accumulates split bills into per-person and per-currency figures, a bill at a time.
///
/// Holds only aggregates (per person and currency), never the bills, so a run's memory depends on
/// the number of people and currencies, not of bills.
public struct ReportLedger: Sendable {
  private var people: [String: [String: PersonTotals]] = [:]
  private var currencies: [String: CurrencyTotals] = [:]
  private var namedTotals: [String: Int64] = [:]
  private var namedAbsorbed: [String: Int] = [:]
  /// Set when a sum left 64 bits (only possible with absurd inputs); reconciliation then fails.
  private var overflowed = false

  private static func add(_ sum: inout Int64, _ value: Int64, _ overflowed: inout Bool) {
    let (result, overflow) = sum.addingReportingOverflow(value)
    sum = result
    if overflow { overflowed = true }
  }

  /// An empty ledger.
  public init() {}

  /// Applies `change` to `person`'s figures in `book`, creating them at zero first.
  private static func update(
    _ book: inout [String: PersonTotals], _ person: String, _ currency: Currency, _ overflowed: inout Bool,
    _ change: (inout PersonTotals, inout Bool) -> Void
  ) {
    change(&book[person, default: PersonTotals(person: person, currency: currency)], &overflowed)
  }

  /// Adds one split bill.
  public mutating func add(_ split: BillSplit) {
    let currency = split.currency
    var totals = currencies[currency.code] ?? CurrencyTotals(currency: currency)
    let shareSum = split.shares.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
    let absorbed = split.shares.reduce(0) { $0 + $1.absorbed }
    totals.bills += 1
    Self.add(&totals.amounts, split.amount.minorUnits, &overflowed)
    Self.add(&totals.tips, split.tip.minorUnits, &overflowed)
    Self.add(&totals.totals, split.total.minorUnits, &overflowed)
    Self.add(&totals.shares, shareSum, &overflowed)
    totals.absorbed += absorbed
    Self.add(&totals.leftoverToTip, split.leftoverToTip.minorUnits, &overflowed)
    if split.anonymousDiners {
      totals.anonymousBills += 1
    } else {
      Self.add(&namedTotals[currency.code, default: 0], split.total.minorUnits, &overflowed)
      namedAbsorbed[currency.code, default: 0] += absorbed
      // Mutated in place: copying the book out and back would copy the whole dictionary per bill.
      for share in split.shares {
        Self.update(&people[currency.code, default: [:]], share.person, currency, &overflowed) { person, overflowed in
          Self.add(&person.consumed, share.amount.minorUnits, &overflowed)
          person.absorbed += share.absorbed
          if split.payer != nil { Self.add(&person.balance, -share.amount.minorUnits, &overflowed) }
        }
      }
      if let payer = split.payer {
        Self.update(&people[currency.code, default: [:]], payer, currency, &overflowed) { person, overflowed in
          Self.add(&person.paid, split.total.minorUnits, &overflowed)
          Self.add(&person.balance, split.total.minorUnits, &overflowed)
        }
        Self.add(&totals.paid, split.total.minorUnits, &overflowed)
      } else {
        totals.unpaidBills += 1
      }
    }
    currencies[currency.code] = totals
  }

  /// Per-currency figures, by currency code; `balances` is filled in from the people.
  public var currencyTotals: [CurrencyTotals] {
    currencies.keys.sorted().compactMap { code in
      guard var totals = currencies[code] else { return nil }
      totals.balances = (people[code] ?? [:]).values.reduce(0) { $0 + $1.balance }
      return totals
    }
  }

  /// Per-person figures, by currency code then name.
  public var personTotals: [PersonTotals] {
    people.keys.sorted().flatMap { code in (people[code] ?? [:]).values.sorted { $0.person < $1.person } }
  }

  /// The transfers that settle every currency, by currency code.
  public var settlements: [Settlement] {
    currencyTotals.map { totals in
      let balances = (people[totals.currency.code] ?? [:]).mapValues(\.balance)
      return Settlement.settle(balances, in: totals.currency)
    }
  }

  /// Checks every identity: Σ amounts + Σ tips = Σ totals = Σ shares; Σ consumed = Σ named totals;
  /// Σ paid = Σ paid by people; Σ balances = 0; Σ absorbed by people = units absorbed on named
  /// bills; and the settlements bring every balance to exactly zero.
  public func reconcile() throws(ReconciliationFailure) {
    if overflowed { throw ReconciliationFailure(currency: "all", identity: "every sum fits in 64 bits") }
    for totals in currencyTotals {
      let code = totals.currency.code
      let book = (people[code] ?? [:]).values
      func require(_ holds: Bool, _ identity: String) throws(ReconciliationFailure) {
        if !holds { throw ReconciliationFailure(currency: code, identity: identity) }
      }
      try require(totals.amounts + totals.tips == totals.totals, "Σ amounts + Σ tips = Σ totals")
      try require(totals.shares == totals.totals, "Σ shares = Σ totals")
      try require(
        book.reduce(0) { $0 + $1.consumed } == namedTotals[code, default: 0], "Σ consumed = Σ totals of named bills")
      try require(book.reduce(0) { $0 + $1.paid } == totals.paid, "Σ paid by people = Σ paid")
      try require(totals.balances == 0, "Σ balances = 0")
      try require(book.reduce(0) { $0 + $1.absorbed } == namedAbsorbed[code, default: 0], "Σ absorbed = leftover units")
      var after = Dictionary(uniqueKeysWithValues: book.map { ($0.person, $0.balance) })
      for transfer in Settlement.settle(after, in: totals.currency).transfers {
        after[transfer.from, default: 0] += transfer.amount.minorUnits
        after[transfer.to, default: 0] -= transfer.amount.minorUnits
      }
      try require(after.values.allSatisfy { $0 == 0 }, "the settlement brings every balance to zero")
    }
  }
}
