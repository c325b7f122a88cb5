import SplitBillCore
import SplitBillModel
import SplitBillText

/// The balances Spliit showed, worked out from the expenses as its balance page adds them (apart
/// from the bills the import writes), and the whole-unit parts that give them under the
/// 2024–2026 rule, which never rounded a share.
extension SpliitImport.Reader {
  /// Works out every expense's parts, writes the bills and payments, and the balances Spliit showed.
  mutating func finish() throws(Diagnostic) {
    // The whole-unit rules' parts, worked out once: the bills are made of them, and the balances
    // Spliit showed are summed from them apart from the bills.
    let ruled =
      rule == .roundedBalances ? [] : expenses.map { rule.parts(of: $0.amount, among: $0.paidFor, seed: $0.seed) }
    let shown = try shownBalances(parts: ruled)
    var expected = shown.balances
    var targets = shown.paidFor
    let residue = expected.values.reduce(0, +)
    if residue != 0, let unrounded = shown.unrounded {
      settleResidue(residue, unrounded: unrounded, balances: &expected, paidFor: &targets)
    }
    let parts: [[Int64]]
    if rule == .roundedBalances {
      guard let whole = wholeParts(paidFor: targets) else {
        throw Diagnostic(
          in: file, .error, .spliitRounding,
          "no whole-cent shares give every participant the balance Spliit showed (its balances are rounded "
            + "once, at the end): import with --spliit-rule largest-remainder")
      }
      parts = whole
    } else {
      parts = ruled
    }
    for (expense, shares) in zip(expenses, parts) { record(expense, shares: shares) }
    if !expenses.isEmpty {
      book.expectedBalances[currency] = Dictionary(
        uniqueKeysWithValues: participants.map { (names[$0] ?? $0, expected[$0] ?? 0) })
    }
  }

  /// What Spliit's balance page showed, by participant id, summed as Spliit adds them up (apart from
  /// the bills): paid minus paid for, rounded by the era's rule; `parts`, each expense's by a
  /// whole-unit rule (none for the 2024–2026 rule, whose unrounded sums are also returned).
  func shownBalances(parts ruled: [[Int64]]) throws(Diagnostic) -> (
    balances: [String: Int64], paidFor: [String: Int64], unrounded: [String: FractionSum]?
  ) {
    var paid: [String: Int64] = [:]
    var paidFor: [String: Int64] = [:]
    var unrounded: [String: FractionSum] = [:]
    for (number, expense) in expenses.enumerated() {
      for (payer, part) in zip(expense.payers, self.paid(expense)) { paid[payer.participant, default: 0] += part }
      if rule == .roundedBalances {
        let total = expense.paidFor.reduce(Int128(0)) { $0 + Int128($1.weight) }
        for entry in expense.paidFor {
          guard
            unrounded[entry.participant, default: FractionSum()].add(
              Int128(expense.amount) * Int128(entry.weight), over: total)
          else {
            throw Diagnostic(
              in: file, .error, .spliitRounding,
              "the expenses' share ratios are too many to add up exactly as Spliit's balances were: import with "
                + "--spliit-rule largest-remainder")
          }
        }
      } else {
        for (entry, part) in zip(expense.paidFor, ruled[number]) { paidFor[entry.participant, default: 0] += part }
      }
    }
    if rule == .roundedBalances {
      for (participant, sum) in unrounded { paidFor[participant] = sum.roundedHalfUp }
    }
    var balances: [String: Int64] = [:]
    for participant in Set(paid.keys).union(paidFor.keys) {
      balances[participant] = (paid[participant] ?? 0) - (paidFor[participant] ?? 0)
    }
    return (balances, paidFor, rule == .roundedBalances ? unrounded : nil)
  }

  /// Spliit 2024–2026 rounded each balance on its own, so the balances it showed can add up to a
  /// few units more or less than zero, which no set of bills gives. The units are taken from (or
  /// given to) the participants whose unrounded sums lay nearest the half, each with a warning.
  mutating func settleResidue(
    _ residue: Int64, unrounded: [String: FractionSum], balances: inout [String: Int64],
    paidFor: inout [String: Int64]
  ) {
    let sums = participants.compactMap { id in unrounded[id].map { (participant: id, sum: $0) } }
    for participant in RoundedBalances.residueMoves(residue, unrounded: sums, rounded: paidFor) {
      let shown = balances[participant] ?? 0
      let change: Int64 = residue < 0 ? -1 : 1
      paidFor[participant, default: 0] += change
      balances[participant] = shown - change
      book.remarks.append(
        Diagnostic(
          in: file, .warning, .spliitRoundingResidue,
          "Spliit rounded each balance on its own, so the balances it showed add up to "
            + "\(Money(minorUnits: residue, currency: currency)), not zero: "
            + "\(EchoedText.quote(names[participant] ?? participant))'s is imported as "
            + "\(Money(minorUnits: shown - change, currency: currency)), not the "
            + "\(Money(minorUnits: shown, currency: currency)) Spliit showed"))
    }
  }

  /// Whole-unit parts under the 2024–2026 rule: ``RoundedBalances/wholeParts(of:participants:targets:)``.
  func wholeParts(paidFor targets: [String: Int64]) -> [[Int64]]? {
    RoundedBalances.wholeParts(
      of: expenses.map { RoundedBalances.Expense(amount: $0.amount, paidFor: $0.paidFor) }, participants: participants,
      targets: targets)
  }
}
