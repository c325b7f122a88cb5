/// A suggested payment that moves money from a debtor to a creditor.
public struct Transfer: Hashable, Sendable {
  /// Who pays.
  public var from: String
  /// Who receives.
  public var to: String
  /// How much; always positive.
  public var amount: Money
}

/// How the transfers of one currency were found.
public enum SettlementMethod: String, Sendable, Hashable {
  /// The fewest transfers possible, by exact search over zero-sum groups (at most 12 people).
  case minimal
  /// Largest creditor with largest debtor, repeatedly (more than 12 people).
  case greedy
}

/// The transfers that bring every balance in one currency to exactly zero.
public struct Settlement: Hashable, Sendable {
  /// The currency settled.
  public var currency: Currency
  /// How the transfers were found.
  public var method: SettlementMethod
  /// The transfers, ordered by payer then payee.
  public var transfers: [Transfer]

  /// The most people with a non-zero balance for which the exact search is used.
  public static let exactLimit = 12

  /// Settles `balances` (person → minor units, positive = is owed money); they must add up to zero.
  ///
  /// With at most ``exactLimit`` non-zero balances the result has the fewest transfers possible:
  /// `n − g`, where `g` is the largest number of groups the people split into whose balances each
  /// add up to zero. Beyond that, a greedy match. Either way the result is deterministic: people
  /// are considered in name order, so equal inputs always give equal transfers.
  ///
  ///     Settlement.settle(["Ana": 500, "Ben": -300, "Chloé": -200], in: .usd).transfers
  ///     // Ben → Ana 3.00, Chloé → Ana 2.00
  ///
  /// - Complexity: O(2^n · n) for the exact search, O(n²) for the greedy match.
  public static func settle(_ balances: [String: Int64], in currency: Currency) -> Settlement {
    let people = balances.filter { $0.value != 0 }.sorted { $0.key < $1.key }
    let names = people.map(\.key)
    let amounts = people.map(\.value)
    guard people.count <= exactLimit else {
      return Settlement(
        currency: currency, method: .greedy, transfers: sorted(greedy(names, amounts, currency)))
    }
    var transfers: [Transfer] = []
    for group in zeroSumGroups(amounts) {
      transfers += greedy(group.map { names[$0] }, group.map { amounts[$0] }, currency)
    }
    return Settlement(currency: currency, method: .minimal, transfers: sorted(transfers))
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

  /// Largest creditor with largest debtor until everyone is at zero; ties by name.
  static func greedy(_ names: [String], _ amounts: [Int64], _ currency: Currency) -> [Transfer] {
    var balances = Array(zip(names, amounts))
    var transfers: [Transfer] = []
    while true {
      let creditor = balances.indices.filter { balances[$0].1 > 0 }.max { a, b in
        balances[a].1 != balances[b].1 ? balances[a].1 < balances[b].1 : balances[a].0 > balances[b].0
      }
      let debtor = balances.indices.filter { balances[$0].1 < 0 }.max { a, b in
        balances[a].1 != balances[b].1 ? balances[a].1 > balances[b].1 : balances[a].0 > balances[b].0
      }
      guard let creditor, let debtor else { break }
      let amount = min(balances[creditor].1, -balances[debtor].1)
      transfers.append(
        Transfer(
          from: balances[debtor].0, to: balances[creditor].0, amount: Money(minorUnits: amount, currency: currency)))
      balances[creditor].1 -= amount
      balances[debtor].1 += amount
    }
    return transfers
  }

  static func sorted(_ transfers: [Transfer]) -> [Transfer] {
    transfers.sorted { ($0.from, $0.to, $0.amount.minorUnits) < ($1.from, $1.to, $1.amount.minorUnits) }
  }
}
