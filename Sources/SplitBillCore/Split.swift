/// Who absorbs the leftover minor units when a total does not divide evenly.
///
/// Every share starts at the floor of its exact part `total × weight / Σweights`; the leftover
/// units, always fewer than the diners, go one each to distinct diners chosen by the policy.
public enum LeftoverPolicy: String, CaseIterable, Sendable, Codable {
  /// Largest fractional remainder first; ties go to whoever has absorbed the fewest leftover units
  /// so far in this run (per currency, by name); then listed order. The default.
  case balanced
  /// Largest fractional remainder, ties by listed order (Hamilton's method).
  case remainder
  /// The first diners in listed order.
  case first
  /// The payer absorbs every leftover unit; the payer must be a diner.
  case payer
  /// Every share is its exact part rounded up; the surplus is added to the tip.
  case toTip = "to-tip"
}

extension LeftoverPolicy {
  /// Whether a candidate takes a leftover unit before another: the one order for a bill's shares
  /// (``BillTerms/split(ledger:)``) and for balances rounded to a total (converted balances, cash
  /// increments). `remainder`: the larger remainder first, ties by position; `balanced` (and
  /// `payer` and `to-tip` where units go by order): the larger remainder first, then whoever
  /// absorbed fewer units so far, then position; `first`: by position.
  @inline(__always)
  func takesUnitBefore<Remainder: Comparable, Position: Comparable>(
    _ a: (remainder: Remainder, absorbed: Int, position: Position),
    _ b: (remainder: Remainder, absorbed: Int, position: Position)
  ) -> Bool {
    if self != .first, a.remainder != b.remainder { return a.remainder > b.remainder }
    if self != .first, self != .remainder, a.absorbed != b.absorbed { return a.absorbed < b.absorbed }
    return a.position < b.position
  }
}

/// One person at the table and their relative share.
public struct Diner: Hashable, Sendable {
  /// The person's name, or `Diner 1`… for anonymous diners.
  public var name: String
  /// The relative share; 1 unless given. Of ``Diners/exact(_:)`` diners, the part of the amount
  /// before tip, in minor units (kept here so that a diner stays two words: bills are copied
  /// from stage to stage).
  public var weight: Weight

  /// Creates a diner.
  public init(name: String, weight: Weight = .one) {
    self.name = name
    self.weight = weight
  }

  /// A diner of a bill of exact shares (``Diners/exact(_:)``), whose part of the amount before tip
  /// is `part`.
  public init(name: String, part: Money) {
    self.name = name
    self.weight = Weight(tenThousandths: part.minorUnits)
  }
}

/// Who paid a bill. (One enum rather than a name and a list: a bill is copied from stage to stage,
/// and each stored reference costs a retain and a release at every copy.)
public enum PaidBy: Hashable, Sendable {
  /// Nobody known: the bill is in the totals, not in anyone's balance.
  case nobody
  /// One person paid the whole total.
  case one(String)
  /// Several paid, each the part given.
  case several([PayerPart])
}

/// One of several people who paid a bill, and how much of its total they paid.
public struct PayerPart: Hashable, Sendable {
  /// Who paid.
  public var person: String
  /// How much of the total (tip included) they paid.
  public var amount: Money

  /// Creates a payer's part.
  public init(person: String, amount: Money) {
    self.person = person
    self.amount = amount
  }
}

/// The people splitting a bill: an anonymous head count, or named people with weights.
public enum Diners: Hashable, Sendable {
  /// `count` people known only as `Diner 1`…`Diner n`, local to the bill; each has weight 1.
  case anonymous(count: Int)
  /// Named people in the order listed.
  case named([Diner])
  /// Named people with exact shares: each diner's ``Diner/weight`` is their part of the amount
  /// before tip, in minor units; the parts add up to the amount and the tip follows them.
  case exact([Diner])
  /// An itemized bill: its receipt, which holds the people (``Receipt/diners``, named or a head
  /// count). Kept here rather than beside the diners, so that a bill without items, copied from
  /// stage to stage, carries not one word more (``BillTerms/receipt`` reads and sets it).
  case itemized(Receipt)

  /// The most diners one bill may have.
  public static let maximumCount = 100_000

  /// The diners in listed order; anonymous diners are named `Diner 1`…`Diner n`.
  public var list: [Diner] {
    switch self {
    case .anonymous(let count): return (0..<max(count, 0)).map { Diner(name: "Diner \($0 + 1)") }
    case .named(let diners), .exact(let diners): return diners
    case .itemized(let receipt): return receipt.diners.list
    }
  }

  /// How many people split the bill.
  public var count: Int {
    switch self {
    case .anonymous(let count): return count
    case .named(let diners), .exact(let diners): return diners.count
    case .itemized(let receipt): return receipt.diners.count
    }
  }

  /// Whether the diners are a bare head count rather than people.
  public var isAnonymous: Bool {
    switch self {
    case .anonymous: return true
    case .named, .exact: return false
    case .itemized(let receipt): return receipt.diners.isAnonymous
    }
  }

  /// Checks the list: at least one diner, at most ``maximumCount``, no name twice.
  public func validate() throws(SplitError) {
    guard count > 0 else { throw .noDiners }
    guard count <= Diners.maximumCount else { throw .tooManyDiners(count) }
    let diners: [Diner]
    switch self {
    case .anonymous: return
    case .named(let list), .exact(let list): diners = list
    case .itemized(let receipt): return try receipt.diners.validate()
    }
    if diners.count <= 16 {
      // Small tables (nearly all): comparing pairs is cheaper than hashing every name.
      for (index, diner) in diners.enumerated() where diners[..<index].contains(where: { $0.name == diner.name }) {
        throw .duplicateDiner(diner.name)
      }
    } else {
      var seen = Set<String>()
      for diner in diners where !seen.insert(diner.name).inserted { throw .duplicateDiner(diner.name) }
    }
  }
}

/// How the tip is chosen: exactly one of a percentage, a fixed amount, or advice.
///
/// The original app's single-source-of-truth rule: the effective percent and amount are derived
/// from this one value, never stored twice.
public enum TipChoice: Hashable, Sendable {
  /// A percentage of the amount (a preset 10/15/20 or a custom value).
  case percent(Percent)
  /// A fixed tip in the bill's currency.
  case fixed(Money)
  /// Ask the advisor; must be resolved to a percentage before the bill is split.
  case advisor

  /// Builds the choice from the separate places a tip can be written; two at once is an error.
  ///
  /// - Returns: `nil` when none is given.
  public static func resolve(percent: Percent?, fixed: Money?, askAdvisor: Bool) throws(SplitError)
    -> TipChoice?
  {
    let given = [percent != nil, fixed != nil, askAdvisor].filter { $0 }.count
    guard given <= 1 else { throw .conflictingTips }
    if let percent { return .percent(percent) }
    if let fixed { return .fixed(fixed) }
    return askAdvisor ? .advisor : nil
  }
}

/// Everything needed to split one bill.
public struct BillTerms: Hashable, Sendable {
  /// The bill before tip.
  public var amount: Money
  /// How the tip is chosen.
  public var tip: TipChoice
  /// Who splits it.
  public var diners: Diners
  /// Who paid: nobody known, one person (the whole total), or several (each one's part).
  public var paidBy: PaidBy

  /// Who paid, if known and one person paid the whole total (or the one of "several" payers there
  /// is, whose amount must then be the total).
  public var payer: String? {
    get {
      switch paidBy {
      case .nobody: return nil
      case .one(let name): return name
      case .several(let parts): return parts.count == 1 ? parts[0].person : nil
      }
    }
    set { paidBy = newValue.map(PaidBy.one) ?? .nobody }
  }

  /// When several people paid: each one's part of the total, tip included (empty otherwise); they
  /// must add up to the total, to the unit.
  public var payers: [PayerPart] {
    get {
      if case .several(let parts) = paidBy { return parts }
      return []
    }
    set { paidBy = newValue.isEmpty ? .nobody : .several(newValue) }
  }

  /// Who absorbs leftover units.
  public var leftover: LeftoverPolicy
  /// How a percentage tip is rounded to the minor unit.
  public var rounding: RoundingMode

  /// The receipt of an itemized bill (``amount`` is then its total before tip); `nil` otherwise.
  /// It is kept in ``diners`` (``Diners/itemized(_:)``), which then holds the people in it.
  public var receipt: Receipt? {
    get {
      if case .itemized(let receipt) = diners { return receipt }
      return nil
    }
    set {
      let people = self.people
      guard var receipt = newValue else {
        diners = people
        return
      }
      receipt.diners = people
      diners = .itemized(receipt)
    }
  }

  /// The people splitting the bill, itemized or not (of an itemized bill, its receipt's diners).
  public var people: Diners {
    if case .itemized(let receipt) = diners { return receipt.diners }
    return diners
  }

  /// Whether the bill is itemized (has a ``receipt``).
  @inline(__always) public var isItemized: Bool {
    if case .itemized = diners { return true }
    return false
  }

  /// Creates terms; defaults are the built-in ones (balanced, half-up).
  public init(
    amount: Money, tip: TipChoice, diners: Diners, payer: String? = nil, payers: [PayerPart] = [],
    leftover: LeftoverPolicy = .balanced, rounding: RoundingMode = .halfUp, receipt: Receipt? = nil
  ) {
    self.amount = amount
    self.tip = tip
    self.diners = diners
    self.paidBy = payers.isEmpty ? payer.map(PaidBy.one) ?? .nobody : .several(payers)
    self.leftover = leftover
    self.rounding = rounding
    if let receipt { self.receipt = receipt }
  }
}

/// One diner's part of a split bill.
public struct Share: Hashable, Sendable {
  /// The diner's name.
  public var person: String
  /// The diner's weight.
  public var weight: Weight
  /// What the diner pays.
  public var amount: Money
  /// How many leftover minor units this diner absorbed (0 under `to-tip`).
  public var absorbed: Int

  /// Adds `units` leftover minor units to what the diner pays, as absorbed.
  mutating func give(units: Int) {
    amount.minorUnits += Int64(units)
    absorbed += units
  }
}

/// A bill worked out to the minor unit: tip, total and every share, which always add up.
public struct BillSplit: Hashable, Sendable {
  /// The bill before tip.
  public var amount: Money
  /// The tip percentage: as chosen, or derived from a fixed tip (rounded half-up to four decimals,
  /// `nil` when the amount is zero).
  public var tipPercent: Percent?
  /// The tip, including any surplus moved to it by `to-tip`.
  public var tip: Money
  /// Amount plus tip; always the sum of the shares.
  public var total: Money
  /// The policy that placed the leftover units.
  public var leftoverPolicy: LeftoverPolicy
  /// The surplus `to-tip` added to the tip (zero under the other policies).
  public var leftoverToTip: Money
  /// How many leftover units were handed out after flooring every share.
  public var leftoverUnits: Int
  /// Whether the diners were an anonymous head count.
  public var anonymousDiners: Bool
  /// Who paid: nobody known, one person (the whole total), or several (each one's part, adding
  /// up to ``total``; never just one).
  public var paidBy: PaidBy

  /// The payer, if one person paid the whole total.
  public var payer: String? {
    if case .one(let name) = paidBy { return name }
    return nil
  }

  /// When several people paid: who paid what, tip included, adding up to ``total``; empty
  /// otherwise (then ``payer``, if any, paid the whole total).
  public var payers: [PayerPart] {
    if case .several(let parts) = paidBy { return parts }
    return []
  }

  /// Whether the bill gave exact shares: each share's ``Share/weight`` is then the diner's part of
  /// the amount before tip, in minor units (``part(of:)``).
  public var exactShares: Bool

  /// `share`'s part of the amount before tip, on a bill of exact shares. (A bill of nothing splits
  /// its tip evenly, its shares weighted 1 each: every part is then zero.)
  public func part(of share: Share) -> Money? {
    guard exactShares else { return nil }
    return Money(minorUnits: amount.minorUnits == 0 ? 0 : share.weight.tenThousandths, currency: currency)
  }

  /// Whether anybody paid: the bill is then in people's balances.
  public var isPaid: Bool {
    if case .nobody = paidBy { return false }
    return true
  }

  /// Whether the bill moves anyone's balance: somebody paid it and its diners are named (a head
  /// count's shares are no one's, so neither are its payments). The one rule every ledger, the
  /// conversion, the journals, the exports and `--explain` book a bill by.
  public var movesBalances: Bool { isPaid && !anonymousDiners }

  /// Calls `body` with each payer and what they paid: the one payer and the total, or each of
  /// several (no array made for the one payer, the common case).
  @inline(__always)
  public func forEachPayer(_ body: (String, Money) throws -> Void) rethrows {
    switch paidBy {
    case .nobody: break
    case .one(let payer): try body(payer, total)
    case .several(let parts): for part in parts { try body(part.person, part.amount) }
    }
  }
  /// One per diner, in listed order.
  public var shares: [Share]

  /// An itemized bill's receipt, figures and each share's breakdown; `nil` for other bills.
  public var receipt: ReceiptSplit? {
    get { boxedReceipt?.value }
    set { boxedReceipt = newValue.map(ReceiptSplitBox.init) }
  }
  var boxedReceipt: ReceiptSplitBox? = nil

  /// Whether the bill was itemized (has a ``receipt``), without copying the receipt.
  @inline(__always) public var isItemized: Bool { boxedReceipt != nil }

  /// The bill's currency.
  public var currency: Currency { amount.currency }
}

/// How many leftover units each person has absorbed so far in a run, per currency.
///
/// The `balanced` policy reads it to break ties; every split records into it. It is a value passed
/// from bill to bill in processing order, so a run is reproducible and nothing is global.
public struct LeftoverLedger: Hashable, Sendable {
  private var people = PersonNumbers()
  /// Per currency (a run has a handful, found by a scan), the units each person (by number) has
  /// absorbed; `nil` for one never recorded in it.
  private var currencies: [(currency: Currency, units: [Int?])] = []

  /// An empty ledger, for the start of a run.
  public init() {}

  /// Units `person` has absorbed in `currency` so far.
  public func absorbed(by person: String, in currency: Currency) -> Int {
    guard let units = currencies.first(where: { $0.currency == currency })?.units,
      let number = people.existingNumber(of: person), number < units.count
    else { return 0 }
    return units[number] ?? 0
  }

  /// Adds `units` absorbed by `person` in `currency`.
  public mutating func record(_ units: Int, by person: String, in currency: Currency) {
    guard units != 0 else { return }
    let number = people.number(of: person)
    let index = currencies.firstIndex { $0.currency == currency } ?? currencies.count
    if index == currencies.count { currencies.append((currency, [])) }
    if currencies[index].units.count <= number {
      currencies[index].units += Array(repeating: nil, count: number + 1 - currencies[index].units.count)
    }
    currencies[index].units[number] = (currencies[index].units[number] ?? 0) + units
  }

  /// What the ledger holds: by currency, the units of each person recorded.
  private var contents: [Currency: [String: Int]] {
    var contents: [Currency: [String: Int]] = [:]
    for (currency, units) in currencies {
      for (number, count) in units.enumerated() {
        if let count { contents[currency, default: [:]][people.names[number]] = count }
      }
    }
    return contents
  }

  public static func == (lhs: LeftoverLedger, rhs: LeftoverLedger) -> Bool { lhs.contents == rhs.contents }

  public func hash(into hasher: inout Hasher) { hasher.combine(contents) }
}

/// Why a bill cannot be split.
public enum SplitError: Error, Hashable, Sendable {
  /// Zero people.
  case noDiners
  /// More than ``Diners/maximumCount`` people.
  case tooManyDiners(Int)
  /// A weight of zero or less.
  case nonPositiveWeight(String)
  /// A weight that is not a plain decimal number.
  case invalidWeight(String)
  /// A weight above a million.
  case weightTooLarge(String)
  /// The same name listed twice.
  case duplicateDiner(String)
  /// Two tip choices at once (a percentage and a fixed amount, say).
  case conflictingTips
  /// The `payer` policy with no payer given.
  case payerPolicyWithoutPayer
  /// The `payer` policy with a payer who is not among the diners.
  case payerNotDiner(String)
  /// The `payer` policy on a bill that several people paid.
  case payerPolicyWithSeveralPayers
  /// Payers' parts that do not add up to the total (tip included).
  case payersDoNotAddUp(paid: Money, total: Money)
  /// Exact shares that do not add up to the amount before tip.
  case sharesDoNotAddUp(parts: Money, amount: Money)
  /// A tip still waiting for the advisor.
  case tipNotResolved
  /// A fixed tip in another currency than the bill.
  case tipCurrencyMismatch(bill: Currency, tip: Currency)
  /// The total exceeds the range computed exactly.
  case totalTooLarge
  /// Price × quantity that is not a whole number of minor units.
  case inexactLineTotal(item: String, price: Money, quantity: Weight)
  /// An item shared by somebody who is not among the bill's diners.
  case itemSharerNotDiner(item: String, person: String)
  /// An item with an empty list of sharers.
  case noItemSharers(item: String)
  /// An item naming its sharers on a bill of anonymous diners.
  case itemsNeedNamedDiners(item: String)
  /// Items on a bill of exact shares.
  case itemsWithShares
  /// A bill with no items in its items list.
  case noItems
  /// A discount naming an item the receipt does not have.
  case unknownDiscountItem(String)
  /// A discount larger than what it is on.
  case discountTooLarge(discount: Money, base: Money)
  /// Tax included in prices that comes to more than they do.
  case includedTaxTooLarge(tax: Money, base: Money)
  /// An amount given with items that is not what the items come to before tip.
  case amountDoesNotMatchItems(amount: Money, computed: Money)
  /// A printed receipt total that is neither the computed total before tip, nor with the tip, nor
  /// with the tip and the `to-tip` round-up.
  case receiptTotalMismatch(printed: Money, beforeTip: Money, withTip: Money?, roundedUp: Money? = nil)
  /// Fractions beyond 128 bits: weights with too many different decimals on one receipt.
  case receiptTooComplex
}
