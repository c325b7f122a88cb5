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
  /// Payments they made, in the period.
  public var sent: Int64 = 0
  /// Payments they received, in the period.
  public var received: Int64 = 0
  /// The period's change: over bills that have a payer, paid minus shares; plus payments sent,
  /// minus payments received. Positive means others owe them more.
  public var balance: Int64 = 0
  /// Leftover minor units they absorbed.
  public var absorbed: Int = 0
  /// What was carried into the period: the balance of every bill and payment before it (zero
  /// without a period).
  public var opening: Int64 = 0

  /// Where they stand at the end of the period: ``opening`` plus ``balance``. Settlements are
  /// worked out from it.
  public var closing: Int64 { opening + balance }
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
  /// Payments in the period.
  public var payments = 0
  /// Σ payments in the period.
  public var paymentsAmount: Int64 = 0
  /// Bills and payments before the period, carried into the opening balances.
  public var carried = 0
  /// Leftover units absorbed by diners.
  public var absorbed = 0
  /// Surplus moved to tips by `to-tip`.
  public var leftoverToTip: Int64 = 0
  /// Bills whose diners were a head count: in the totals, not in anyone's figures.
  public var anonymousBills = 0
  /// Bills with named diners but no payer: in consumed, not in balances.
  public var unpaidBills = 0
}

/// Each person's balance week by week in one currency (``ReportLedger/weeklyBalances``).
public struct WeeklyBalances: Hashable, Sendable {
  /// One person's line.
  public struct Line: Hashable, Sendable {
    public var person: String
    /// Their balance at the end of each week of ``WeeklyBalances/mondays``.
    public var balances: [Int64]
  }

  public var currency: Currency
  /// The Monday of each week, in order, one week apart; with ``byDay``, each day, one day apart.
  public var mondays: [CalendarDate]
  /// A line per person, by name.
  public var people: [Line]
  /// Whether the points are days, not weeks: the dated records span at most
  /// ``ReportLedger/dailyDays`` days (a trip), which a line a week would show as one dot.
  public var byDay = false
}

/// A reconciliation identity that did not hold, which must never happen.
public struct ReconciliationFailure: Error, Equatable, Sendable {
  /// The currency whose books do not add up; `nil` when no currency's can be checked (a sum left
  /// the range computed exactly).
  public var currency: Currency?
  /// Which identity failed.
  public var identity: Identity

  /// The identities the books are checked against.
  public enum Identity: Hashable, Sendable {
    /// every sum fits in 64 bits
    case sumsFit
    /// Σ amounts + Σ tips = Σ totals
    case amountsAndTipsMakeTotals
    /// Σ shares = Σ totals
    case sharesMakeTotals
    /// Σ consumed = Σ totals of named bills
    case consumedMakesNamedTotals
    /// Σ paid by people = Σ paid
    case paidByPeopleMakesPaid
    /// Σ paid = Σ totals of the bills somebody paid
    case paidMakesPaidBillTotals
    /// Σ balances = 0
    case balancesCancel
    /// Σ sent = Σ payments
    case sentMakesPayments
    /// Σ received = Σ payments
    case receivedMakesPayments
    /// Σ opening balances = 0
    case openingBalancesCancel
    /// Σ closing balances = 0
    case closingBalancesCancel
    /// Σ absorbed = leftover units
    case absorbedMakesLeftoverUnits
    /// the settlement brings every balance to zero
    case settlementClearsBalances
    /// every converted sum fits
    case convertedSumsFit
    /// Σ converted balances = 0
    case convertedBalancesCancel
    /// Σ cash residues = 0
    case cashResiduesCancel
    /// every cash residue is smaller than the increment
    case cashResiduesBelowIncrement
    /// every transfer is a multiple of the cash increment
    case transfersAreCashMultiples
    /// the transfers leave each person their residue
    case transfersLeaveResidues
  }
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
    /// Σ totals of bills with named diners that somebody paid.
    var paidTotal: Int64 = 0
    var people: [PersonTotals] = []
    /// Each person's number is where their figures are in `people`.
    var numbers = PersonNumbers()
    /// With weeks tracked (``ReportLedger/init(tracksWeeks:)``): each week's balance changes, by
    /// week (from ``firstWeek``, every week between the first and the last met) then person
    /// position, and the undated records'.
    var weekRows: [[Int64]] = []
    /// The number of the first week in `weekRows`: weeks counted from the one of 1969-12-29, a Monday.
    var firstWeek = 0
    var undated: [Int64] = []
    /// The same by day, while the dated records span at most ``ReportLedger/dailyDays`` days
    /// (then dropped, `daysDropped` set: the weeks say it).
    var dayRows: [[Int64]] = []
    var firstDay = 0
    var daysDropped = false
    /// With pairs tracked (``ReportLedger/init(tracksWeeks:tracksPairs:)``): what passed between
    /// each two people, keyed by their positions (the lower in the high 32 bits): the units the
    /// lower owes the higher, negative when the higher owes the lower.
    var pairs: [UInt64: Int64] = [:]
    /// Whether ``pairs`` is kept.
    var tracksPairs = false

    /// Books that `debtor` owes `creditor` `units` more (positions; nothing between one person).
    mutating func owe(_ debtor: Int, _ creditor: Int, _ units: Int64, _ overflowed: inout Bool) {
      guard debtor != creditor, tracksPairs else { return }
      let (low, high, signed) = debtor < creditor ? (debtor, creditor, units) : (creditor, debtor, 0 &- units)
      ReportLedger.add(&pairs[UInt64(low) << 32 | UInt64(high), default: 0], signed, &overflowed)
    }

    /// Books who owes whom for a paid bill: its payers' parts matched with its shares in order
    /// (north-west corner), each share owed to the payer whose part covers it.
    mutating func owePairs(_ split: BillSplit, _ overflowed: inout Bool) {
      guard tracksPairs else { return }
      var parts: [(position: Int, units: Int64)] = []
      split.forEachPayer { payer, amount in parts.append((position(of: payer), amount.minorUnits)) }
      var part = 0
      var left = parts.first?.units ?? 0
      for share in split.shares {
        let sharer = position(of: share.person)
        var owed = share.amount.minorUnits
        while owed > 0, part < parts.count {
          let covered = min(owed, left)
          owe(sharer, parts[part].position, covered, &overflowed)
          owed -= covered
          left -= covered
          if left == 0 {
            part += 1
            left = part < parts.count ? parts[part].units : 0
          }
        }
      }
    }

    /// The day row of the record being added (``dayRow(_:)``), or ``untracked``.
    var currentDayRow = Self.untracked

    /// Where a record of `day` books its changes by day: its row, or ``untracked`` once the span
    /// passes ``ReportLedger/dailyDays`` (or for an undated record, in ``undated`` already).
    mutating func dayRow(_ day: Int?) -> Int {
      guard let day, !daysDropped else { return Self.untracked }
      if dayRows.isEmpty { firstDay = day }
      let last = max(firstDay + dayRows.count - 1, day)
      let first = min(firstDay, day)
      guard last - first < ReportLedger.dailyDays else {
        dayRows = []
        daysDropped = true
        return Self.untracked
      }
      return Self.row(day, in: &dayRows, first: &firstDay)
    }

    /// The row of `index` (a day or a week) in `rows`, which start at `first`: rows are added
    /// before or after as needed, every one between the first and the last met.
    static func row(_ index: Int, in rows: inout [[Int64]], first: inout Int) -> Int {
      if rows.isEmpty { first = index }
      if index < first {
        rows.insert(contentsOf: repeatElement([], count: first - index), at: 0)
        first = index
      }
      let row = index - first
      if row >= rows.count { rows.append(contentsOf: repeatElement([], count: row + 1 - rows.count)) }
      return row
    }

    /// Where a record of `day` books its balance changes: its week's row, or ``undatedRow``.
    mutating func weekRow(_ day: Int?) -> Int {
      guard let day else { return Self.undatedRow }
      // 1970-01-01 was a Thursday: day + 3 counts from the Monday before it.
      let week = (day + 3 >= 0 ? day + 3 : day + 3 - 6) / 7
      return Self.row(week, in: &weekRows, first: &firstWeek)
    }

    /// No week tracked.
    static let untracked = -1
    /// An undated record's changes.
    static let undatedRow = -2

    /// Adds a balance change of the person at `position` to week `row` (nothing when untracked).
    @inline(__always)
    mutating func addWeekly(_ units: Int64, row: Int, position: Int) {
      guard row != Self.untracked else { return }
      if row == Self.undatedRow {
        ReportLedger.addGrowing(&undated, units, at: position)
      } else {
        ReportLedger.addGrowing(&weekRows[row], units, at: position)
        if currentDayRow >= 0 { ReportLedger.addGrowing(&dayRows[currentDayRow], units, at: position) }
      }
    }

    /// The position of `name`'s figures, created at zero on first sight.
    mutating func position(of name: String) -> Int {
      let number = numbers.number(of: name)
      if number == people.count { people.append(PersonTotals(person: name, currency: totals.currency)) }
      return number
    }

    /// Where each person stands at the end: what settlements settle.
    var closingBalances: [String: Int64] {
      Dictionary(uniqueKeysWithValues: people.map { ($0.person, $0.closing) })
    }

    /// Adds a payment in the period (its balance changes to week `row`, if tracked).
    mutating func add(_ payment: Payment, _ overflowed: inout Bool, row: Int) {
      let units = payment.amount.minorUnits
      totals.payments += 1
      ReportLedger.add(&totals.paymentsAmount, units, &overflowed)
      let from = position(of: payment.from)
      ReportLedger.add(&people[from].sent, units, &overflowed)
      ReportLedger.add(&people[from].balance, units, &overflowed)
      addWeekly(units, row: row, position: from)
      let to = position(of: payment.to)
      ReportLedger.add(&people[to].received, units, &overflowed)
      ReportLedger.add(&people[to].balance, -units, &overflowed)
      addWeekly(-units, row: row, position: to)
      owe(to, from, units, &overflowed)
    }

    /// Carries a bill from before the period into the opening balances: only who owes whom.
    mutating func carry(_ split: BillSplit, _ overflowed: inout Bool) {
      totals.carried += 1
      guard split.movesBalances else { return }
      for share in split.shares {
        let person = position(of: share.person)
        ReportLedger.add(&people[person].opening, -share.amount.minorUnits, &overflowed)
      }
      split.forEachPayer { payer, amount in
        ReportLedger.add(&people[position(of: payer)].opening, amount.minorUnits, &overflowed)
      }
      owePairs(split, &overflowed)
    }

    /// Carries a payment from before the period into the opening balances.
    mutating func carry(_ payment: Payment, _ overflowed: inout Bool) {
      totals.carried += 1
      ReportLedger.add(&people[position(of: payment.from)].opening, payment.amount.minorUnits, &overflowed)
      ReportLedger.add(&people[position(of: payment.to)].opening, -payment.amount.minorUnits, &overflowed)
      owe(position(of: payment.to), position(of: payment.from), payment.amount.minorUnits, &overflowed)
    }

    /// Adds one split bill in this book's currency (its balance changes to week `row`, if
    /// tracked); a sum that leaves 64 bits sets `overflowed`.
    mutating func add(_ split: BillSplit, _ overflowed: inout Bool, row: Int) {
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
      let paid = split.isPaid
      if paid { ReportLedger.add(&paidTotal, split.total.minorUnits, &overflowed) }
      for share in split.shares {
        let person = position(of: share.person)
        ReportLedger.add(&people[person].consumed, share.amount.minorUnits, &overflowed)
        people[person].absorbed += share.absorbed
        if paid {
          ReportLedger.add(&people[person].balance, -share.amount.minorUnits, &overflowed)
          addWeekly(-share.amount.minorUnits, row: row, position: person)
        }
      }
      split.forEachPayer { payer, amount in
        let person = position(of: payer)
        ReportLedger.add(&people[person].paid, amount.minorUnits, &overflowed)
        ReportLedger.add(&people[person].balance, amount.minorUnits, &overflowed)
        addWeekly(amount.minorUnits, row: row, position: person)
        ReportLedger.add(&totals.paid, amount.minorUnits, &overflowed)
      }
      if paid { owePairs(split, &overflowed) } else { totals.unpaidBills += 1 }
    }
  }

  /// One book per currency, in the order first met: a run has a handful, found by a scan, so a bill
  /// costs one hash per person and none per currency.
  private var books: [Book] = []
  /// Set when a sum left 64 bits (only possible with absurd inputs); reconciliation then fails.
  private var overflowed = false
  /// Whether each person's balance is also kept week by week (``weeklyBalances``).
  public let tracksWeeks: Bool
  /// Whether what passed between each two people is kept (``pairwiseDebts(in:)``).
  public let tracksPairs: Bool

  private static func add(_ sum: inout Int64, _ value: Int64, _ overflowed: inout Bool) {
    let (result, overflow) = sum.addingReportingOverflow(value)
    sum = result
    if overflow { overflowed = true }
  }

  /// An empty ledger; with `tracksWeeks`, one that also keeps each person's balance changes week
  /// by week (``weeklyBalances``), for records added with their date.
  /// With `tracksPairs`, one that also keeps what passed between each two people
  /// (``pairwiseDebts(in:)``: a bill's shares owed to its payers, payments the other way).
  public init(tracksWeeks: Bool = false, tracksPairs: Bool = false) {
    self.tracksWeeks = tracksWeeks
    self.tracksPairs = tracksPairs
  }

  /// `sums[position] += units`, the array grown with zeros as needed.
  static func addGrowing(_ sums: inout [Int64], _ units: Int64, at position: Int) {
    if position >= sums.count { sums.append(contentsOf: repeatElement(0, count: position + 1 - sums.count)) }
    sums[position] &+= units
  }

  private mutating func bookPosition(_ currency: Currency) -> Int {
    if let known = books.firstIndex(where: { $0.totals.currency == currency }) { return known }
    var book = Book(totals: CurrencyTotals(currency: currency))
    book.tracksPairs = tracksPairs
    books.append(book)
    return books.count - 1
  }

  /// Adds one split bill of the period.
  public mutating func add(_ split: BillSplit) {
    // The book is changed in place: copying it out and back would copy its arrays.
    books[bookPosition(split.currency)].add(split, &overflowed, row: Book.untracked)
  }

  /// Adds one split bill of the period, dated `date` (its week's changes kept when weeks are
  /// tracked; an undated bill's count from the start).
  public mutating func add(_ split: BillSplit, on date: CalendarDate?) {
    let book = bookPosition(split.currency)
    let row = tracksWeeks ? books[book].weekRow(date?.daysSinceEpoch) : Book.untracked
    if tracksWeeks { books[book].currentDayRow = books[book].dayRow(date?.daysSinceEpoch) }
    books[book].add(split, &overflowed, row: row)
  }

  /// Adds one payment of the period.
  public mutating func add(_ payment: Payment) {
    books[bookPosition(payment.currency)].add(payment, &overflowed, row: Book.untracked)
  }

  /// Adds one payment of the period, dated `date` (as ``add(_:on:)-(BillSplit,_)`` for a bill).
  public mutating func add(_ payment: Payment, on date: CalendarDate?) {
    let book = bookPosition(payment.currency)
    let row = tracksWeeks ? books[book].weekRow(date?.daysSinceEpoch) : Book.untracked
    if tracksWeeks { books[book].currentDayRow = books[book].dayRow(date?.daysSinceEpoch) }
    books[book].add(payment, &overflowed, row: row)
  }

  /// The longest span of dated records, in days, whose balances are drawn day by day (a trip of
  /// up to two months); past it, week by week.
  public static let dailyDays = 62

  /// Each person's balance at the end of every week, per currency (by code), for a ledger that
  /// tracks weeks: from the first week with a dated record to the last, each week between
  /// shown; each line starts at the person's opening balance with the undated records' changes,
  /// so its last point is their closing balance. People by name; a currency without a dated
  /// record has none.
  public var weeklyBalances: [WeeklyBalances] {
    sortedBooks.compactMap { book in
      guard !book.weekRows.isEmpty else { return nil }
      let order = book.people.indices.sorted { book.people[$0].person < book.people[$1].person }
      // Days when the records span few enough of them (more than one), else weeks.
      let byDay = !book.daysDropped && book.dayRows.count > 1
      let rows = byDay ? book.dayRows : book.weekRows
      let lines = order.map { position in
        var balance = book.people[position].opening &+ (position < book.undated.count ? book.undated[position] : 0)
        let balances = rows.map { row in
          balance &+= position < row.count ? row[position] : 0
          return balance
        }
        return WeeklyBalances.Line(person: book.people[position].person, balances: balances)
      }
      let points =
        byDay
        ? book.dayRows.indices.map { CalendarDate(daysSinceEpoch: book.firstDay + $0) }
        : book.weekRows.indices.map { CalendarDate(daysSinceEpoch: 7 * (book.firstWeek + $0) - 3) }
      var series = WeeklyBalances(currency: book.totals.currency, mondays: points, people: lines)
      series.byDay = byDay
      return series
    }
  }

  /// Carries a split bill from before the period into the opening balances.
  public mutating func carry(_ split: BillSplit) {
    books[bookPosition(split.currency)].carry(split, &overflowed)
  }

  /// Carries a payment from before the period into the opening balances.
  public mutating func carry(_ payment: Payment) {
    books[bookPosition(payment.currency)].carry(payment, &overflowed)
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

  /// Each person's closing balance in `currency` (empty for a currency the run did not meet).
  public func closingBalances(in currency: Currency) -> [String: Int64] {
    books.first { $0.totals.currency == currency }?.closingBalances ?? [:]
  }

  /// What each two people owe each other in `currency`, netted over every bill and payment (the
  /// period's and those carried into it): one transfer a pair that does not come out even, by
  /// payer then payee. Empty unless the ledger ``tracksPairs``. Each person's transfers add up
  /// to their closing balance.
  public func pairwiseDebts(in currency: Currency) -> [Transfer] {
    guard let book = books.first(where: { $0.totals.currency == currency }) else { return [] }
    var transfers: [Transfer] = []
    for (key, units) in book.pairs where units != 0 {
      let low = book.people[Int(key >> 32)].person
      let high = book.people[Int(key & 0xFFFF_FFFF)].person
      let (from, to) = units > 0 ? (low, high) : (high, low)
      transfers.append(
        Transfer(from: from, to: to, amount: Money(minorUnits: Int64(clamping: units.magnitude), currency: currency)))
    }
    return transfers.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
  }

  /// The transfers that settle every currency's closing balances, by currency code.
  public var settlements: [Settlement] {
    sortedBooks.map { book in Settlement.settle(book.closingBalances, in: book.totals.currency) }
  }

  /// Checks every identity: Σ amounts + Σ tips = Σ totals = Σ shares; Σ consumed = Σ named totals;
  /// Σ paid = Σ paid by people = Σ totals of paid bills (several payers' parts add up); Σ sent = Σ received = Σ payments; Σ opening = Σ balances =
  /// Σ closing = 0; Σ absorbed by people = units absorbed on named bills; and the settlements bring every closing
  /// balance to exactly zero.
  public func reconcile() throws(ReconciliationFailure) {
    if overflowed { throw ReconciliationFailure(currency: nil, identity: .sumsFit) }
    for book in sortedBooks {
      let totals = book.totals
      let currency = totals.currency
      let people = book.people
      func require(_ holds: Bool, _ identity: ReconciliationFailure.Identity) throws(ReconciliationFailure) {
        if !holds { throw ReconciliationFailure(currency: currency, identity: identity) }
      }
      try require(totals.amounts + totals.tips == totals.totals, .amountsAndTipsMakeTotals)
      try require(totals.shares == totals.totals, .sharesMakeTotals)
      try require(people.reduce(0) { $0 + $1.consumed } == book.namedTotal, .consumedMakesNamedTotals)
      try require(people.reduce(0) { $0 + $1.paid } == totals.paid, .paidByPeopleMakesPaid)
      try require(totals.paid == book.paidTotal, .paidMakesPaidBillTotals)
      try require(people.reduce(0) { $0 + $1.balance } == 0, .balancesCancel)
      try require(people.reduce(0) { $0 + $1.sent } == totals.paymentsAmount, .sentMakesPayments)
      try require(people.reduce(0) { $0 + $1.received } == totals.paymentsAmount, .receivedMakesPayments)
      try require(people.reduce(0) { $0 + $1.opening } == 0, .openingBalancesCancel)
      try require(people.reduce(0) { $0 + $1.closing } == 0, .closingBalancesCancel)
      try require(people.reduce(0) { $0 + $1.absorbed } == book.namedAbsorbed, .absorbedMakesLeftoverUnits)
      let balances = book.closingBalances
      let after = Settlement.settle(balances, in: totals.currency).applied(to: balances)
      try require(after.values.allSatisfy { $0 == 0 }, .settlementClearsBalances)
    }
  }
}
