import SplitBillModel
import Testing

@testable import SplitBillCore

/// Exact shares (each diner's part of the amount before tip) and several payers.
@Suite struct SharesAndPayersTests {
  static let eur = Currency(unchecked: "EUR", exponent: 2)
  static func money(_ units: Int64) -> Money { Money(minorUnits: units, currency: eur) }

  static func terms(
    _ parts: [(String, Int64)], tip: Int64 = 15, leftover: LeftoverPolicy = .balanced, payer: String? = nil,
    payers: [PayerPart] = []
  ) -> BillTerms {
    BillTerms(
      amount: money(parts.reduce(0) { $0 + $1.1 }), tip: .percent(Percent(tenThousandths: tip * 10_000)),
      diners: .exact(parts.map { Diner(name: $0.0, part: money($0.1)) }), payer: payer, payers: payers,
      leftover: leftover)
  }

  @Test func theTipFollowsThePartsAndTheLeftoverPolicyPlacesTheUnits() throws {
    // 20.00 + 15 % = 23.00: Ana 12.50 + 1.875 = 14.375, Ben 7.50 + 1.125 = 8.625; one unit left,
    // the remainders tie (0.5 each): balanced gives it to the first, who has absorbed nothing.
    var ledger = LeftoverLedger()
    let split = try Self.terms([("Ana", 1250), ("Ben", 750)]).split(ledger: &ledger)
    #expect(split.shares.map(\.amount.minorUnits) == [1438, 862])
    #expect(split.shares.map(\.absorbed) == [1, 0])
    #expect(split.shares.map { split.part(of: $0) } == [Self.money(1250), Self.money(750)])
    // The next such bill: Ana has absorbed one, so Ben gets the unit.
    let next = try Self.terms([("Ana", 1250), ("Ben", 750)]).split(ledger: &ledger)
    #expect(next.shares.map(\.amount.minorUnits) == [1437, 863])
    // 'first' always gives it to Ana; 'to-tip' rounds both up and adds the unit to the tip.
    var fresh = LeftoverLedger()
    let up = try Self.terms([("Ana", 1250), ("Ben", 750)], leftover: .toTip).split(ledger: &fresh)
    #expect(up.shares.map(\.amount.minorUnits) == [1438, 863])
    #expect(up.tip.minorUnits == 301 && up.total.minorUnits == 2301)
  }

  /// A bill of nothing with a fixed tip: the tip splits evenly, and every part shown is zero (not
  /// the weight of 1 the even split uses).
  @Test func partsOfABillOfNothingAreZero() throws {
    var ledger = LeftoverLedger()
    let terms = BillTerms(
      amount: Self.money(0), tip: .fixed(Self.money(100)),
      diners: .exact([Diner(name: "Ana", part: Self.money(0)), Diner(name: "Ben", part: Self.money(0))]))
    let split = try terms.split(ledger: &ledger)
    #expect(split.shares.map(\.amount.minorUnits) == [50, 50])
    #expect(split.shares.map { split.part(of: $0) } == [Self.money(0), Self.money(0)])
  }

  @Test func equalPartsSplitAsEqualWeightsDo() throws {
    for (amount, tip) in [(Int64(10_000), Int64(0)), (9_999, 15), (1, 20), (12_345, 18)] {
      let each = amount / 3
      let parts = [("A", each), ("B", each), ("C", amount - 2 * each)]
      guard parts.allSatisfy({ $0.1 == each }) else { continue }
      var exact = LeftoverLedger()
      var even = LeftoverLedger()
      let byParts = try Self.terms(parts, tip: tip).split(ledger: &exact)
      let byWeights = try BillTerms(
        amount: Self.money(amount), tip: .percent(Percent(tenThousandths: tip * 10_000)),
        diners: .named(["A", "B", "C"].map { Diner(name: $0) })
      ).split(ledger: &even)
      #expect(byParts.shares.map(\.amount) == byWeights.shares.map(\.amount))
    }
  }

  @Test func generatedExactSharesAlwaysReconcileAndNobodyPaysLessThanTheirPart() throws {
    var random = SeededGenerator(seed: 16)
    var ledger = LeftoverLedger()
    for _ in 0..<2_000 {
      let count = Int(random.next() % 6) + 1
      let parts = (0..<count).map { ("P\($0)", Int64(random.next() % 50_000)) }
      let policy = LeftoverPolicy.allCases.filter { $0 != .payer }[Int(random.next() % 4)]
      let terms = Self.terms(parts, tip: Int64(random.next() % 31), leftover: policy)
      let split = try terms.split(ledger: &ledger)
      #expect(split.shares.reduce(0) { $0 + $1.amount.minorUnits } == split.total.minorUnits)
      for (share, part) in zip(split.shares, parts) where split.amount.minorUnits > 0 {
        #expect(share.amount.minorUnits >= part.1, "\(parts) \(policy)")
      }
    }
  }

  @Test func partsThatMissTheAmountAndPayersThatMissTheTotalAreRefused() throws {
    var ledger = LeftoverLedger()
    var terms = Self.terms([("Ana", 1250), ("Ben", 750)])
    terms.amount = Self.money(2100)
    #expect(throws: SplitError.sharesDoNotAddUp(parts: Self.money(2000), amount: Self.money(2100))) {
      try terms.split(ledger: &ledger)
    }
    #expect(
      SplitError.sharesDoNotAddUp(parts: Self.money(2000), amount: Self.money(2100)).description
        == "shares add up to 20.00 EUR but the amount is 21.00 EUR: 1.00 EUR short")
    let paid = [PayerPart(person: "Ana", amount: Self.money(2000)), PayerPart(person: "Ben", amount: Self.money(301))]
    let several = Self.terms([("Ana", 1250), ("Ben", 750)], payers: paid)
    #expect(throws: SplitError.payersDoNotAddUp(paid: Self.money(2301), total: Self.money(2300))) {
      try several.split(ledger: &ledger)
    }
    #expect(
      SplitError.payersDoNotAddUp(paid: Self.money(2301), total: Self.money(2300)).description
        == "paid_by adds up to 23.01 EUR but the bill's total is 23.00 EUR (tip included): 0.01 EUR over")
    var payerPolicy = Self.terms([("Ana", 1250), ("Ben", 750)], leftover: .payer, payers: paid)
    payerPolicy.payers[1].amount = Self.money(300)
    #expect(throws: SplitError.payerPolicyWithSeveralPayers) { try payerPolicy.split(ledger: &ledger) }
  }

  @Test func severalPayersMoveTheirOwnParts() throws {
    var ledger = LeftoverLedger()
    let paid = [
      PayerPart(person: "Ana", amount: Self.money(2000)), PayerPart(person: "Chloé", amount: Self.money(300)),
    ]
    let split = try Self.terms([("Ana", 1250), ("Ben", 750)], payers: paid).split(ledger: &ledger)
    #expect(split.payer == nil && split.payers == paid)
    var books = ReportLedger()
    books.add(split)
    try books.reconcile()
    let balances = Dictionary(uniqueKeysWithValues: books.personTotals.map { ($0.person, $0.balance) })
    #expect(balances == ["Ana": 2000 - 1438, "Ben": -862, "Chloé": 300])
    #expect(books.personTotals.first { $0.person == "Chloé" }?.paid == 300)
  }
}
