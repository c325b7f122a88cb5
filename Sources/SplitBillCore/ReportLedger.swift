import SplitBillBytes

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
  /// One currency's figures: its totals and its people, people in the order first met.
  private struct Book: Sendable {
    var totals: CurrencyTotals
    /// Σ totals of bills with named diners.
    var namedTotal: Int64 = 0
    /// Leftover units absorbed on bills with named diners.
    var namedAbsorbed = 0
    var people: [PersonTotals] = []
    /// Each person's number is where their figures are in `people`.
    var numbers = PersonNumbers()

    /// The position of `name`'s figures, created at zero on first sight.
    mutating func position(of name: String) -> Int {
      let number = numbers.number(of: name)
      if number == people.count { people.append(PersonTotals(person: name, currency: totals.currency)) }
      return number
    }

    var balances: [String: Int64] { Dictionary(uniqueKeysWithValues: people.map { ($0.person, $0.balance) }) }

    /// Adds one split bill in this book's currency; a sum that leaves 64 bits sets `overflowed`.
    mutating func add(_ split: BillSplit, _ overflowed: inout Bool) {
      let shareSum = split.shares.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
      let absorbed = split.shares.reduce(0) { $0 + $1.absorbed }
      totals.bills += 1
      ReportLedger.add(&totals.amounts, split.amount.minorUnits, &overflowed)
      ReportLedger.add(&totals.tips, split.tip.minorUnits, &overflowed)
      ReportLedger.add(&totals.totals, split.total.minorUnits, &overflowed)
      ReportLedger.add(&totals.shares, shareSum, &overflowed)
      totals.absorbed += absorbed
      ReportLedger.add(&totals.leftoverToTip, split.leftoverToTip.minorUnits, &overflowed)
      if split.anonymousDiners {
        totals.anonymousBills += 1
        return
      }
      ReportLedger.add(&namedTotal, split.total.minorUnits, &overflowed)
      namedAbsorbed += absorbed
      for share in split.shares {
        let person = position(of: share.person)
        ReportLedger.add(&people[person].consumed, share.amount.minorUnits, &overflowed)
        people[person].absorbed += share.absorbed
        if split.payer != nil { ReportLedger.add(&people[person].balance, -share.amount.minorUnits, &overflowed) }
      }
      if let payer = split.payer {
        let person = position(of: payer)
        ReportLedger.add(&people[person].paid, split.total.minorUnits, &overflowed)
        ReportLedger.add(&people[person].balance, split.total.minorUnits, &overflowed)
        ReportLedger.add(&totals.paid, split.total.minorUnits, &overflowed)
      } else {
        totals.unpaidBills += 1
      }
    }
  }

  /// One book per currency, in the order first met: a run has a handful, found by a scan, so a bill
  /// costs one hash per person and none per currency.
  private var books: [Book] = []
  /// Set when a sum left 64 bits (only possible with absurd inputs); reconciliation then fails.
  private var overflowed = false

  private static func add(_ sum: inout Int64, _ value: Int64, _ overflowed: inout Bool) {
    let (result, overflow) = sum.addingReportingOverflow(value)
    sum = result
    if overflow { overflowed = true }
  }

  /// An empty ledger.
  public init() {}

  private mutating func bookPosition(_ currency: Currency) -> Int {
    if let known = books.firstIndex(where: { $0.totals.currency == currency }) { return known }
    books.append(Book(totals: CurrencyTotals(currency: currency)))
    return books.count - 1
  }

  /// Adds one split bill.
  public mutating func add(_ split: BillSplit) {
    // The book is changed in place: copying it out and back would copy its arrays.
    books[bookPosition(split.currency)].add(split, &overflowed)
  }

  /// The books by currency code.
  private var sortedBooks: [Book] { books.sorted { $0.totals.currency < $1.totals.currency } }

  /// Per-currency figures, by currency code; `balances` is filled in from the people.
  public var currencyTotals: [CurrencyTotals] {
    sortedBooks.map { book in
      var totals = book.totals
      totals.balances = book.people.reduce(0) { $0 + $1.balance }
      return totals
    }
  }

  /// Per-person figures, by currency code then name.
  public var personTotals: [PersonTotals] {
    sortedBooks.flatMap { book in book.people.sorted { $0.person < $1.person } }
  }

  /// The transfers that settle every currency, by currency code.
  public var settlements: [Settlement] {
    sortedBooks.map { book in Settlement.settle(book.balances, in: book.totals.currency) }
  }

  /// Checks every identity: Σ amounts + Σ tips = Σ totals = Σ shares; Σ consumed = Σ named totals;
  /// Σ paid = Σ paid by people; Σ balances = 0; Σ absorbed by people = units absorbed on named
  /// bills; and the settlements bring every balance to exactly zero.
  public func reconcile() throws(ReconciliationFailure) {
    if overflowed { throw ReconciliationFailure(currency: "all", identity: "every sum fits in 64 bits") }
    for book in sortedBooks {
      let totals = book.totals
      let code = totals.currency.code
      let people = book.people
      func require(_ holds: Bool, _ identity: String) throws(ReconciliationFailure) {
        if !holds { throw ReconciliationFailure(currency: code, identity: identity) }
      }
      try require(totals.amounts + totals.tips == totals.totals, "Σ amounts + Σ tips = Σ totals")
      try require(totals.shares == totals.totals, "Σ shares = Σ totals")
      try require(people.reduce(0) { $0 + $1.consumed } == book.namedTotal, "Σ consumed = Σ totals of named bills")
      try require(people.reduce(0) { $0 + $1.paid } == totals.paid, "Σ paid by people = Σ paid")
      try require(people.reduce(0) { $0 + $1.balance } == 0, "Σ balances = 0")
      try require(people.reduce(0) { $0 + $1.absorbed } == book.namedAbsorbed, "Σ absorbed = leftover units")
      var after = book.balances
      for transfer in Settlement.settle(after, in: totals.currency).transfers {
        after[transfer.from, default: 0] += transfer.amount.minorUnits
        after[transfer.to, default: 0] -= transfer.amount.minorUnits
      }
      try require(after.values.allSatisfy { $0 == 0 }, "the settlement brings every balance to zero")
    }
  }
}
