/// Apps that never round a share, only each person's total when they show it (Spliit 2024–2026,
/// IHateMoney): the whole-unit shares that give exactly the totals they showed.
///
/// Such an app splits an expense in proportion to weights and keeps the exact fractions; what it
/// shows is each person's sum, rounded once. Bills need whole units, so the import looks for
/// whole-unit parts whose per-person sums are exactly those rounded totals.
enum RoundedBalances {
  /// An expense split in proportion to weights: its amount in minor units and who it was for.
  struct Expense {
    var amount: Int64
    var paidFor: [SpliitRule.Entry]
  }

  /// Whole-unit parts of each expense (in `paidFor`'s order) that add up to its amount, and to
  /// each participant's `targets` total over all expenses. Each expense starts by largest
  /// remainder; then single units move between two participants of one expense, each time where
  /// it leaves both parts nearest their exact values, or, where the two share no expense, along
  /// the shortest chain of expenses (``chain(to:expenses:expensesOf:parts:gap:)``), until every total is met.
  /// `participants` sets the order the totals are met in. `nil` when no chain is left either (the
  /// totals cannot be met: a member in no expense with a unit to spare or take).
  static func wholeParts(of expenses: [Expense], participants: [String], targets: [String: Int64]) -> [[Int64]]? {
    var parts = expenses.map { SpliitRule.largestRemainder.parts(of: $0.amount, among: $0.paidFor, seed: nil) }
    var gap = targets
    for (expense, shares) in zip(expenses, parts) {
      for (entry, part) in zip(expense.paidFor, shares) { gap[entry.participant, default: 0] -= part }
    }
    let known = Set(participants)
    let order = participants + gap.keys.filter { !known.contains($0) }.sorted()
    // The expenses each participant is in, for the chains below; made once.
    var expensesOf: [String: [Int]] = [:]
    for (number, expense) in expenses.enumerated() {
      for entry in expense.paidFor { expensesOf[entry.participant, default: []].append(number) }
    }
    while let receiver = order.first(where: { (gap[$0] ?? 0) > 0 }) {
      var best: (expense: Int, giver: Int, taker: Int, score: Int128, unit: Int128)?
      for (number, expense) in expenses.enumerated() {
        guard let taker = expense.paidFor.firstIndex(where: { $0.participant == receiver }) else { continue }
        let total = expense.paidFor.reduce(Int128(0)) { $0 + Int128($1.weight) }
        let amount = Int128(expense.amount)
        for (giver, entry) in expense.paidFor.enumerated() where giver != taker && (gap[entry.participant] ?? 0) < 0 {
          // Parts keep the amount's sign: a giver keeps zero or more of a cost, a taker zero or less of an income.
          guard expense.amount > 0 ? parts[number][giver] >= 1 : parts[number][taker] <= -1 else { continue }
          // How far the giver lies above its exact part plus how far the taker lies below, in 1/total units.
          let score =
            (Int128(parts[number][giver]) * total - amount * Int128(entry.weight))
            - (Int128(parts[number][taker]) * total - amount * Int128(expense.paidFor[taker].weight))
          if best.map({ score * $0.unit > $0.score * total }) ?? true {
            best = (number, giver, taker, score, total)
          }
        }
      }
      if let move = best {
        parts[move.expense][move.giver] -= 1
        parts[move.expense][move.taker] += 1
        gap[expenses[move.expense].paidFor[move.giver].participant, default: 0] += 1
        gap[receiver, default: 0] -= 1
        continue
      }
      // No one who has a unit too many shares an expense with the receiver: the unit passes along
      // a chain of expenses, each handing one unit on (the shortest chain), so only the two ends'
      // totals change.
      guard let chain = chain(to: receiver, expenses: expenses, expensesOf: expensesOf, parts: parts, gap: gap) else {
        return nil
      }
      for link in chain {
        parts[link.expense][link.giver] -= 1
        parts[link.expense][link.taker] += 1
      }
      if let last = chain.last {
        gap[expenses[last.expense].paidFor[last.giver].participant, default: 0] += 1
        gap[receiver, default: 0] -= 1
      }
    }
    return parts
  }

  /// One unit handed from `giver` to `taker`, both entries of one expense.
  struct Link {
    var expense: Int
    var giver: Int
    var taker: Int
  }

  /// The shortest chain of single-unit hand-overs that brings `receiver` one unit from someone
  /// with a unit too many (a negative gap): breadth first over the participants, two of them
  /// linked where they share an expense and the giver's part can spare a unit. `nil` when none.
  /// `expensesOf` lists the expenses each participant is in.
  static func chain(
    to receiver: String, expenses: [Expense], expensesOf: [String: [Int]], parts: [[Int64]], gap: [String: Int64]
  ) -> [Link]? {
    var reachedBy: [String: (from: String, link: Link)] = [:]
    var queue = [receiver]
    var visited: Set<String> = [receiver]
    var head = 0
    while head < queue.count {
      let person = queue[head]
      head += 1
      for number in expensesOf[person] ?? [] {
        let expense = expenses[number]
        guard let taker = expense.paidFor.firstIndex(where: { $0.participant == person }) else { continue }
        for (giver, entry) in expense.paidFor.enumerated() where giver != taker && !visited.contains(entry.participant)
        {
          guard expense.amount > 0 ? parts[number][giver] >= 1 : parts[number][taker] <= -1 else { continue }
          visited.insert(entry.participant)
          reachedBy[entry.participant] = (person, Link(expense: number, giver: giver, taker: taker))
          guard (gap[entry.participant] ?? 0) < 0 else {
            queue.append(entry.participant)
            continue
          }
          // Walk back from the giver to the receiver; the links in the order they hand the unit on.
          var links: [Link] = []
          var current = entry.participant
          while current != receiver, let step = reachedBy[current] {
            links.append(step.link)
            current = step.from
          }
          return links.reversed()
        }
      }
    }
    return nil
  }

  /// Totals rounded each on their own can add up to a few units more (`residue` > 0) or less than
  /// the amounts, which no set of bills gives. The units are taken from (or given to) the totals
  /// whose unrounded sums lay nearest the half: `residue > 0` rounds up one just below the half
  /// instead, `residue < 0` rounds down one just above it. Returns who moves, in that order, each
  /// by one unit in the direction of `residue`'s sign; `unrounded` are the unrounded totals and
  /// `rounded` the totals as rounded, by participant, in the order ties go in.
  static func residueMoves(
    _ residue: Int64, unrounded: [(participant: String, sum: FractionSum)], rounded: [String: Int64]
  ) -> [String] {
    // Nearest the half first, by cross-multiplying |2a − b| / 2b.
    let candidates = unrounded.map { (participant: $0.participant, sum: $0.sum.aboveFloor, floor: $0.sum.floor) }
      .sorted { first, second in
        let ((a, b), (c, d)) = (first.sum, second.sum)
        return (2 * a - b).magnitude * UInt128(d) < (2 * c - d).magnitude * UInt128(b)
      }
    var left = residue.magnitude
    var moves: [String] = []
    for candidate in candidates where left > 0 {
      let roundedUp = (rounded[candidate.participant] ?? 0) > candidate.floor
      guard candidate.sum.0 != 0, roundedUp == (residue < 0) else { continue }
      moves.append(candidate.participant)
      left -= 1
    }
    return moves
  }
}
