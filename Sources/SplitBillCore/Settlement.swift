/// A suggested payment that moves money from a debtor to a creditor.
public struct Transfer: Hashable, Sendable {
  /// Who pays.
  public var from: String
  /// Who receives.
  public var to: String
  /// How much; always positive.
  public var amount: Money

  /// A transfer of `amount` from `from` to `to`.
  public init(from: String, to: String, amount: Money) {
    self.from = from
    self.to = to
    self.amount = amount
  }
}

/// How the transfers of one currency were found.
public enum SettlementMethod: String, Sendable, Hashable {
  /// The fewest transfers possible, by exact search over zero-sum groups (at most 12 people).
  case minimal
  /// Debtors and creditors matched in name order (more than 12 people): stable, at most one
  /// transfer fewer than there are people.
  case ordered
  /// Each pair settles only what passed between them (``SettlementPlan/pairwise``).
  case pairwise
  /// Named people settle pairwise, the others with the fewest transfers
  /// (``SettlementPlan/keepingOut(_:)``).
  case keepingOut = "keeping-out"
}

/// Which transfers settle the balances: every plan brings every balance to exactly zero.
public enum SettlementPlan: Hashable, Sendable {
  /// The fewest transfers (``Settlement/settle(_:in:)``): money may go between two people who
  /// never shared a bill.
  case fewest
  /// Each pair settles only what passed between them: nobody pays someone they never shared a
  /// bill or a payment with. More transfers, each checkable on its own.
  case pairwise
  /// The named people settle pairwise (only with those they shared bills with, never passing
  /// money on); everyone else with the fewest transfers, after them.
  case keepingOut(Set<String>)

  /// The plan's name in reports: `fewest`, `pairwise`, `keep-out`.
  public var name: String {
    switch self {
    case .fewest: "fewest"
    case .pairwise: "pairwise"
    case .keepingOut: "keep-out"
    }
  }
}

/// The transfers that bring every balance in one currency to exactly zero.
public struct Settlement: Hashable, Sendable {
  /// The currency settled.
  public var currency: Currency
  /// How the transfers were found.
  public var method: SettlementMethod
  /// The transfers, ordered by payer then payee.
  public var transfers: [Transfer]

  /// Creates a settlement.
  public init(currency: Currency, method: SettlementMethod, transfers: [Transfer]) {
    self.currency = currency
    self.method = method
    self.transfers = transfers
  }

  /// `balances` after the transfers: each payer's balance up, each payee's down, by the amount.
  public func applied(to balances: [String: Int64]) -> [String: Int64] {
    var after = balances
    for transfer in transfers {
      after[transfer.from, default: 0] += transfer.amount.minorUnits
      after[transfer.to, default: 0] -= transfer.amount.minorUnits
    }
    return after
  }

  /// The most people with a non-zero balance for which the exact search is used.
  public static let exactLimit = 12

  /// Settles `balances` (person → minor units, positive = is owed money); they must add up to zero.
  ///
  /// With at most ``exactLimit`` non-zero balances the result has the fewest transfers possible:
  /// `n − g`, where `g` is the largest number of groups the people split into whose balances each
  /// add up to zero, each group matched in name order (``inNameOrder(_:_:_:)``). Beyond that, the
  /// match in name order over everyone. Either way the result is deterministic (equal inputs give
  /// equal transfers) and stable: paying some of the transfers and settling again gives the rest.
  ///
  ///     Settlement.settle(["Ana": 500, "Ben": -300, "Chloé": -200], in: .usd).transfers
  ///     // Ben → Ana 3.00, Chloé → Ana 2.00
  ///
  /// - Complexity: O(2^n · n) for the exact search, O(n log n) for the match in name order.
  public static func settle(_ balances: [String: Int64], in currency: Currency) -> Settlement {
    let people = balances.filter { $0.value != 0 }.sorted { $0.key < $1.key }
    let names = people.map(\.key)
    let amounts = people.map(\.value)
    guard people.count <= exactLimit else {
      return Settlement(
        currency: currency, method: .ordered, transfers: sorted(inNameOrder(names, amounts, currency)))
    }
    var transfers: [Transfer] = []
    for group in zeroSumGroups(amounts) {
      transfers += inNameOrder(group.map { names[$0] }, group.map { amounts[$0] }, currency)
    }
    return Settlement(currency: currency, method: .minimal, transfers: sorted(transfers))
  }

  /// Settles `balances` by `plan`. `debts` are what each two people owe each other
  /// (``ReportLedger/pairwiseDebts(in:)``), used by the pairwise plans; each person's debts must
  /// add up to their balance.
  ///
  /// A plan's transfers are stable: paying some of them (recorded as payments, the books read
  /// again) leaves the others as they were. Pairwise plans are so by construction (a paid transfer
  /// clears its pair, the others are untouched); the fewest-transfers plan is checked so on
  /// randomized books by the tests.
  public static func settle(
    _ balances: [String: Int64], debts: [Transfer], plan: SettlementPlan, in currency: Currency
  ) -> Settlement {
    switch plan {
    case .fewest:
      return settle(balances, in: currency)
    case .pairwise:
      return Settlement(currency: currency, method: .pairwise, transfers: sorted(debts))
    case .keepingOut(let names):
      let own = debts.filter { names.contains($0.from) || names.contains($0.to) }
      let rest = Settlement(currency: currency, method: .pairwise, transfers: own).applied(to: balances)
      let others = settle(rest.filter { !names.contains($0.key) }, in: currency).transfers
      return Settlement(currency: currency, method: .keepingOut, transfers: sorted(own + others))
    }
  }

  /// Splits indices `0..<amounts.count` into the largest number of zero-sum groups.
  ///
  /// `best[mask]` is the most zero-sum groups that the people in `mask` can be split into, with
  /// `mask` itself closing a group when its sum is zero; walking back from the full mask, always
  /// removing the lowest-numbered person that keeps the optimum, gives the groups.
  static func zeroSumGroups(_ amounts: [Int64]) -> [[Int]] {
    let count = amounts.count
    guard count > 0 else { return [] }
    let full = (1 << count) - 1
    var sums = [Int64](repeating: 0, count: full + 1)
    var best = [Int](repeating: 0, count: full + 1)
    for mask in 1...full {
      let lowest = mask.trailingZeroBitCount
      sums[mask] = sums[mask & (mask - 1)] + amounts[lowest]
      var most = 0
      var rest = mask
      while rest != 0 {
        let bit = rest & -rest
        most = max(most, best[mask ^ bit])
        rest ^= bit
      }
      best[mask] = most + (sums[mask] == 0 ? 1 : 0)
    }
    var groups: [[Int]] = []
    var mask = full
    var current: [Int] = []
    while mask != 0 {
      let closes = sums[mask] == 0 ? 1 : 0
      var chosen = mask.trailingZeroBitCount
      for index in 0..<count where mask & (1 << index) != 0 {
        if best[mask ^ (1 << index)] + closes == best[mask] {
          chosen = index
          break
        }
      }
      if closes == 1 && !current.isEmpty {
        groups.append(current)
        current = []
      }
      current.append(chosen)
      mask ^= 1 << chosen
    }
    if !current.isEmpty { groups.append(current) }
    return groups.map { $0.sorted() }
  }

  /// Debtors and creditors each in name order, matched as two queues (the north-west corner):
  /// the first debtor pays the first creditor what the smaller of the two is owed or owes, and
  /// whoever is then at zero leaves the queue. At most one transfer fewer than there are people.
  ///
  /// Stable by construction: laid end to end in name order, the debts and the dues are two ways of
  /// cutting one length into pieces, and each transfer is where a debtor's piece and a creditor's
  /// overlap. Paying a transfer takes that overlap out of both pieces, which moves every later cut
  /// of both ways by the same amount: every other overlap, every other transfer, stays as it was.
  static func inNameOrder(_ names: [String], _ amounts: [Int64], _ currency: Currency) -> [Transfer] {
    let people = zip(names, amounts).sorted { $0.0 < $1.0 }
    let debtors = people.filter { $0.1 < 0 }.map { ($0.0, -$0.1) }
    let creditors = people.filter { $0.1 > 0 }
    var transfers: [Transfer] = []
    var debtor = 0
    var creditor = 0
    var owes = debtors.first?.1 ?? 0
    var due = creditors.first?.1 ?? 0
    while debtor < debtors.count, creditor < creditors.count {
      let amount = min(owes, due)
      transfers.append(
        Transfer(
          from: debtors[debtor].0, to: creditors[creditor].0, amount: Money(minorUnits: amount, currency: currency)))
      owes -= amount
      due -= amount
      if owes == 0 {
        debtor += 1
        owes = debtor < debtors.count ? debtors[debtor].1 : 0
      }
      if due == 0 {
        creditor += 1
        due = creditor < creditors.count ? creditors[creditor].1 : 0
      }
    }
    return transfers
  }

  static func sorted(_ transfers: [Transfer]) -> [Transfer] {
    transfers.sorted { ($0.from, $0.to, $0.amount.minorUnits) < ($1.from, $1.to, $1.amount.minorUnits) }
  }
}
