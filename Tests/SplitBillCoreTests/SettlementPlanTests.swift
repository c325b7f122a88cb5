import SplitBillBytes
import SplitBillModel
import Testing

@testable import SplitBillCore

/// The settle-up plans on randomized books: each brings every balance to zero, the pairwise plans
/// only move money between people who shared a record, and each is stable: paying any of its
/// transfers (recorded as payments, the books read again) leaves the rest of the plan as it was.
@Suite struct SettlementPlanTests {
  static let eur = Currency(unchecked: "EUR", exponent: 2)
  static let pool = ["Ana", "Ben", "Chloé", "Dmitri", "Eve", "Farid", "Gus", "Hana"]
  /// Past ``Settlement/exactLimit``: the fewest-transfers plan is then the greedy match.
  static let crowd = pool + ["Ines", "Jon", "Kai", "Lea", "Mo", "Nia", "Oto", "Pia", "Quin", "Rui"]

  /// One randomized book: bills (equal or weighted diners, one or two payers, a tip) and payments.
  struct Book {
    var splits: [BillSplit] = []
    var payments: [Payment] = []
    /// Who appeared together in a record (both orders).
    var together: Set<[String]> = []

    func ledger(paying paid: [Transfer] = []) -> ReportLedger {
      var ledger = ReportLedger(tracksPairs: true)
      for split in splits { ledger.add(split) }
      for payment in payments { ledger.add(payment) }
      for transfer in paid { ledger.add(Payment(from: transfer.from, to: transfer.to, amount: transfer.amount)) }
      return ledger
    }
  }

  static func book(seed: UInt64, singlePayer: Bool = false, crowded: Bool = false) throws -> Book {
    var random = SplitMix64(seed: seed)
    var book = Book()
    let everyone = crowded ? crowd : pool
    let people = Array(everyone.prefix(Int.random(in: 3...everyone.count, using: &random)))
    var leftovers = LeftoverLedger()
    for _ in 0..<Int.random(in: 1...(crowded ? 60 : 25), using: &random) {
      let diners = people.filter { _ in Bool.random(using: &random) }
      guard !diners.isEmpty else { continue }
      let amount = Money(minorUnits: Int64.random(in: 1...40_000, using: &random), currency: eur)
      let weighted = diners.map {
        Diner(name: $0, weight: Weight(tenThousandths: Int64.random(in: 1...3, using: &random) * 10_000))
      }
      let tip = Percent(tenThousandths: Int64.random(in: 0...20, using: &random) * 10_000)
      let payer = people.randomElement(using: &random) ?? "Ana"
      var terms = BillTerms(amount: amount, tip: .percent(tip), diners: .named(weighted), payer: payer)
      var split = try terms.split(ledger: &leftovers)
      if !singlePayer, Bool.random(using: &random), let second = people.randomElement(using: &random), second != payer {
        // Two payers: the total cut somewhere.
        let first = Int64.random(in: 0...split.total.minorUnits, using: &random)
        terms.payer = nil
        terms.payers = [
          PayerPart(person: payer, amount: Money(minorUnits: first, currency: eur)),
          PayerPart(person: second, amount: Money(minorUnits: split.total.minorUnits - first, currency: eur)),
        ]
        split = try terms.split(ledger: &leftovers)
      }
      book.splits.append(split)
      var everyone = Set(diners)
      split.forEachPayer { person, _ in everyone.insert(person) }
      for a in everyone { for b in everyone where a != b { book.together.insert([a, b]) } }
    }
    for _ in 0..<Int.random(in: 0...4, using: &random) {
      let from = people.randomElement(using: &random) ?? "Ana"
      let to = people.randomElement(using: &random) ?? "Ben"
      guard from != to else { continue }
      book.payments.append(
        Payment(
          from: from, to: to, amount: Money(minorUnits: Int64.random(in: 1...5_000, using: &random), currency: eur)))
      book.together.insert([from, to])
      book.together.insert([to, from])
    }
    return book
  }

  static func plans(seed: UInt64) -> [SettlementPlan] {
    var random = SplitMix64(seed: seed ^ 0x9E37)
    let kept = Set(pool.filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
    return [.fewest, .pairwise, .keepingOut(kept.isEmpty ? ["Ana"] : kept)]
  }

  static func settle(_ ledger: ReportLedger, _ plan: SettlementPlan) -> Settlement {
    Settlement.settle(ledger.closingBalances(in: eur), debts: ledger.pairwiseDebts(in: eur), plan: plan, in: eur)
  }

  /// Σ transfers as a multiset, for comparing plans.
  static func counted(_ transfers: [Transfer]) -> [Transfer: Int] {
    transfers.reduce(into: [:]) { $0[$1, default: 0] += 1 }
  }

  @Test(arguments: 0..<60)
  func everyPlanSettlesEveryBalanceToZero(seed: Int) throws {
    let book = try Self.book(seed: UInt64(seed))
    let ledger = book.ledger()
    let balances = ledger.closingBalances(in: Self.eur)
    for plan in Self.plans(seed: UInt64(seed)) {
      let settlement = Self.settle(ledger, plan)
      #expect(settlement.applied(to: balances).values.allSatisfy { $0 == 0 }, "\(plan), seed \(seed)")
      #expect(settlement.transfers.allSatisfy { $0.amount.minorUnits > 0 && $0.from != $0.to })
    }
  }

  /// Pairwise: each transfer is between two people who shared a bill or a payment; keep-out: the
  /// named people's transfers are so too, and each of them settles with one transfer a partner.
  @Test(arguments: 0..<60)
  func pairwisePlansOnlyMoveMoneyBetweenPeopleWhoSharedARecord(seed: Int) throws {
    let book = try Self.book(seed: UInt64(seed))
    let ledger = book.ledger()
    let pairwise = Self.settle(ledger, .pairwise)
    #expect(pairwise.method == .pairwise)
    for transfer in pairwise.transfers {
      #expect(book.together.contains([transfer.from, transfer.to]), "\(transfer), seed \(seed)")
    }
    #expect(Set(pairwise.transfers.map { [$0.from, $0.to].sorted() }).count == pairwise.transfers.count)
    guard case .keepingOut(let kept) = Self.plans(seed: UInt64(seed))[2] else { return }
    let keepingOut = Self.settle(ledger, .keepingOut(kept))
    for transfer in keepingOut.transfers where kept.contains(transfer.from) || kept.contains(transfer.to) {
      #expect(book.together.contains([transfer.from, transfer.to]), "\(transfer), kept \(kept), seed \(seed)")
    }
  }

  /// With one payer a bill, what each two people owe each other is worked out here another way:
  /// every diner owes the payer their share; payments go the other way.
  @Test(arguments: 0..<40)
  func pairwiseDebtsAreWhatPassedBetweenEachTwo(seed: Int) throws {
    let book = try Self.book(seed: UInt64(seed) + 1_000, singlePayer: true)
    var owed: [[String]: Int64] = [:]  // [debtor, creditor] → units
    func owe(_ debtor: String, _ creditor: String, _ units: Int64) {
      guard debtor != creditor else { return }
      owed[[debtor, creditor], default: 0] += units
      owed[[creditor, debtor], default: 0] -= units
    }
    for split in book.splits {
      split.forEachPayer { payer, _ in
        for share in split.shares { owe(share.person, payer, share.amount.minorUnits) }
      }
    }
    for payment in book.payments { owe(payment.to, payment.from, payment.amount.minorUnits) }
    let expected = owed.filter { $0.value > 0 }.map {
      Transfer(from: $0.key[0], to: $0.key[1], amount: Money(minorUnits: $0.value, currency: Self.eur))
    }
    #expect(Self.counted(book.ledger().pairwiseDebts(in: Self.eur)) == Self.counted(expected), "seed \(seed)")
  }

  /// Pay any subset of a plan's transfers, read the books again: the plan is the rest.
  @Test(arguments: 0..<80)
  func payingPartOfAPlanLeavesTheRest(seed: Int) throws {
    // A third of the books have more people than the exact search takes.
    let book = try Self.book(seed: UInt64(seed) + 5_000, crowded: seed % 3 == 0)
    var random = SplitMix64(seed: UInt64(seed) &* 31 &+ 7)
    for plan in Self.plans(seed: UInt64(seed)) {
      let before = Self.settle(book.ledger(), plan).transfers
      let paid = before.filter { _ in Bool.random(using: &random) }
      let after = Self.settle(book.ledger(paying: paid), plan).transfers
      var rest = Self.counted(before)
      for transfer in paid { rest[transfer, default: 0] -= 1 }
      #expect(Self.counted(after) == rest.filter { $0.value > 0 }, "\(plan), seed \(seed): paid \(paid)")
    }
  }
}
