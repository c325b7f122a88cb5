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
  /// add up to zero. Beyond that, a greedy match. Either way the result is deterministic: people
  /// are considered in name order, so equal inputs always give equal transfers.
  ///
  ///     Settlement.settle(["Ana": 500, "Ben": -300, "Chloé": -200], in: .usd).transfers
  ///     // Ben → Ana 3.00, Chloé → Ana 2.00
  ///
  /// - Complexity: O(2^n · n) for the exact search, O(n log n) for the greedy match.
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

  /// Largest creditor with largest debtor until everyone is at zero; ties to the name that sorts
  /// first. Each is taken from a heap (a transfer leaves one of the two at zero, the other goes
  /// back): O(n log n), so a bill of 40,000 diners settles in milliseconds, not seconds.
  static func greedy(_ names: [String], _ amounts: [Int64], _ currency: Currency) -> [Transfer] {
    // Both heaps hold (amount owed or due, name), the larger first, ties to the smaller name.
    func before(_ a: (Int64, String), _ b: (Int64, String)) -> Bool { a.0 != b.0 ? a.0 > b.0 : a.1 < b.1 }
    var creditors = Heap(ordered: before)
    var debtors = Heap(ordered: before)
    for (name, amount) in zip(names, amounts) {
      if amount > 0 { creditors.push((amount, name)) }
      if amount < 0 { debtors.push((-amount, name)) }
    }
    var transfers: [Transfer] = []
    while let creditor = creditors.pop(), let debtor = debtors.pop() {
      let amount = min(creditor.0, debtor.0)
      transfers.append(Transfer(from: debtor.1, to: creditor.1, amount: Money(minorUnits: amount, currency: currency)))
      if creditor.0 > amount { creditors.push((creditor.0 - amount, creditor.1)) }
      if debtor.0 > amount { debtors.push((debtor.0 - amount, debtor.1)) }
    }
    return transfers
  }

  static func sorted(_ transfers: [Transfer]) -> [Transfer] {
    transfers.sorted { ($0.from, $0.to, $0.amount.minorUnits) < ($1.from, $1.to, $1.amount.minorUnits) }
  }
}

/// A binary heap: `pop` gives the element `ordered` puts before every other.
struct Heap<Element> {
  private var elements: [Element] = []
  private let ordered: (Element, Element) -> Bool

  init(ordered: @escaping (Element, Element) -> Bool) { self.ordered = ordered }

  mutating func push(_ element: Element) {
    elements.append(element)
    var child = elements.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard ordered(elements[child], elements[parent]) else { break }
      elements.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> Element? {
    guard !elements.isEmpty else { return nil }
    elements.swapAt(0, elements.count - 1)
    let first = elements.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var chosen = parent
      if left < elements.count && ordered(elements[left], elements[chosen]) { chosen = left }
      if right < elements.count && ordered(elements[right], elements[chosen]) { chosen = right }
      guard chosen != parent else { return first }
      elements.swapAt(parent, chosen)
      parent = chosen
    }
  }
}
