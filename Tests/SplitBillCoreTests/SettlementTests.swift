import SplitBillBytes
import Testing

@testable import SplitBillCore

@Suite struct SettlementTests {
  /// The fewest transfers, by brute force: n minus the most zero-sum blocks over every set partition.
  static func bruteForceMinimum(_ amounts: [Int64]) -> Int {
    func partitions(_ items: ArraySlice<Int64>) -> [[[Int64]]] {
      guard let first = items.first else { return [[]] }
      var result: [[[Int64]]] = []
      for partition in partitions(items.dropFirst()) {
        result.append([[first]] + partition)
        for index in partition.indices {
          var copy = partition
          copy[index].append(first)
          result.append(copy)
        }
      }
      return result
    }
    let counts = partitions(amounts[...]).map { partition in partition.filter { $0.reduce(0, +) == 0 }.count }
    let most = counts.max() ?? 0
    return amounts.count - most
  }

  static func apply(_ settlement: Settlement, to balances: [String: Int64]) -> [String: Int64] {
    var after = balances
    for transfer in settlement.transfers {
      after[transfer.from, default: 0] += transfer.amount.minorUnits
      after[transfer.to, default: 0] -= transfer.amount.minorUnits
    }
    return after
  }

  @Test func matchesBruteForceOnRandomBalances() {
    var random = SeededGenerator(seed: 4)
    for trial in 0..<600 {
      let count = Int.random(in: 2...7, using: &random)
      var amounts = (0..<(count - 1)).map { _ in Int64.random(in: -6...6, using: &random) * (trial % 2 == 0 ? 1 : 125) }
      amounts.append(-amounts.reduce(0, +))
      let nonZero = amounts.filter { $0 != 0 }
      let balances = Dictionary(uniqueKeysWithValues: amounts.enumerated().map { ("P\($0.offset)", $0.element) })
      let settlement = Settlement.settle(balances, in: .usd)
      #expect(settlement.method == .minimal)
      #expect(settlement.transfers.count == Self.bruteForceMinimum(nonZero), "\(amounts)")
      #expect(Self.apply(settlement, to: balances).values.allSatisfy { $0 == 0 })
      #expect(settlement.transfers.allSatisfy { $0.amount.minorUnits > 0 && $0.from != $0.to })
    }
  }

  @Test func knownCaseNeedsTwoNotThree() {
    // A greedy match would use 3 transfers; {Ana, Ben} and {Chloé, Dmitri} settle separately.
    let balances: [String: Int64] = ["Ana": 500, "Ben": -500, "Chloé": 300, "Dmitri": -300]
    let settlement = Settlement.settle(balances, in: .usd)
    #expect(
      settlement.transfers == [
        Transfer(from: "Ben", to: "Ana", amount: Money(minorUnits: 500, currency: .usd)),
        Transfer(from: "Dmitri", to: "Chloé", amount: Money(minorUnits: 300, currency: .usd)),
      ])
    let tricky: [String: Int64] = ["A": 4, "B": 3, "C": -5, "D": -2, "E": 6, "F": -6]
    #expect(Settlement.settle(tricky, in: .usd).transfers.count == 4)  // {E, F} and {A, B, C, D}
  }

  @Test func equalInputsGiveEqualTransfersWhateverTheOrder() {
    var random = SeededGenerator(seed: 8)
    for _ in 0..<100 {
      var amounts = (0..<9).map { _ in Int64.random(in: -1000...1000, using: &random) }
      amounts.append(-amounts.reduce(0, +))
      let pairs = amounts.enumerated().map { ("P\($0.offset)", $0.element) }
      let first = Settlement.settle(Dictionary(uniqueKeysWithValues: pairs), in: .usd)
      let second = Settlement.settle(Dictionary(uniqueKeysWithValues: pairs.shuffled(using: &random)), in: .usd)
      #expect(first == second)
    }
  }

  @Test func beyondTwelvePeopleIsInNameOrderAndStillSettles() {
    var random = SeededGenerator(seed: 15)
    var amounts = (0..<19).map { _ in Int64.random(in: -50_000...50_000, using: &random) }
    amounts.append(-amounts.reduce(0, +))
    let balances = Dictionary(uniqueKeysWithValues: amounts.enumerated().map { ("P\($0.offset)", $0.element) })
    let settlement = Settlement.settle(balances, in: .usd)
    #expect(settlement.method == .ordered)
    #expect(settlement.transfers.count <= 19)
    #expect(Self.apply(settlement, to: balances).values.allSatisfy { $0 == 0 })
  }

  @Test func nothingToSettle() {
    #expect(Settlement.settle([:], in: .usd).transfers.isEmpty)
    #expect(Settlement.settle(["Ana": 0], in: .usd).transfers.isEmpty)
  }
}

@Suite struct ReportLedgerTests {
  /// Thousands of generated trips: every figure reconciles and the settlement zeroes every balance.
  @Test func everyGeneratedTripReconciles() throws {
    var random = SeededGenerator(seed: 2026)
    let currencies = [
      Currency(unchecked: "EUR", exponent: 2), Currency(unchecked: "JPY", exponent: 0),
      Currency(unchecked: "KWD", exponent: 3),
    ]
    let names = ["Ana", "Ben", "Chloé", "Dmitri", "Émile", "Farah"]
    for _ in 0..<2_000 {
      var ledger = ReportLedger()
      var leftovers = LeftoverLedger()
      var expectedTotals: [String: Int64] = [:]
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        let currency = currencies.randomElement(using: &random) ?? .usd
        let people = Array(names.shuffled(using: &random).prefix(Int.random(in: 1...names.count, using: &random)))
        let diners: Diners =
          Int.random(in: 0..<6, using: &random) == 0
          ? .anonymous(count: Int.random(in: 1...5, using: &random))
          : .named(
            people.map {
              Diner(name: $0, weight: Weight(tenThousandths: Int64.random(in: 1...4, using: &random) * 5_000))
            })
        let payer = Int.random(in: 0..<5, using: &random) == 0 ? nil : names.randomElement(using: &random)
        var policy = LeftoverPolicy.allCases.randomElement(using: &random) ?? .balanced
        if policy == .payer && (payer == nil || diners.isAnonymous || !people.contains(payer ?? "")) { policy = .first }
        let terms = BillTerms(
          amount: Money(minorUnits: Int64.random(in: 0...500_000, using: &random), currency: currency),
          tip: .percent(Percent(tenThousandths: Int64.random(in: 0...250_000, using: &random))), diners: diners,
          payer: payer, leftover: policy)
        let split = try terms.split(ledger: &leftovers)
        expectedTotals[currency.code, default: 0] += split.total.minorUnits
        ledger.add(split)
      }
      try ledger.reconcile()
      for totals in ledger.currencyTotals {
        #expect(totals.totals == expectedTotals[totals.currency.code])
        #expect(totals.balances == 0)
      }
      for settlement in ledger.settlements {
        let balances = Dictionary(
          uniqueKeysWithValues: ledger.personTotals.filter { $0.currency == settlement.currency }.map {
            ($0.person, $0.balance)
          })
        #expect(SettlementTests.apply(settlement, to: balances).values.allSatisfy { $0 == 0 })
      }
    }
  }

  @Test func sumsThatLeaveSixtyFourBitsFailReconciliation() {
    var ledger = ReportLedger()
    var leftovers = LeftoverLedger()
    let terms = BillTerms(
      amount: Money(minorUnits: Money.maximumMinorUnits, currency: .usd), tip: .percent(.hundred),
      diners: .named([Diner(name: "Ana")]), payer: "Ana")
    for _ in 0..<5_000 {
      if let split = try? terms.split(ledger: &leftovers) { ledger.add(split) }
    }
    #expect(throws: ReconciliationFailure.self) { try ledger.reconcile() }
  }

  @Test func anonymousAndUnpaidBillsAreCountedAndLeftOut() throws {
    var ledger = ReportLedger()
    var leftovers = LeftoverLedger()
    let eur = Currency(unchecked: "EUR", exponent: 2)
    ledger.add(
      try BillTerms(
        amount: Money(minorUnits: 900, currency: eur), tip: .percent(.preset10), diners: .anonymous(count: 3),
        payer: "Ana"
      ).split(ledger: &leftovers))
    ledger.add(
      try BillTerms(
        amount: Money(minorUnits: 1000, currency: eur), tip: .percent(Percent(tenThousandths: 0)),
        diners: .named([Diner(name: "Ana"), Diner(name: "Ben")])
      ).split(ledger: &leftovers))
    try ledger.reconcile()
    let totals = try #require(ledger.currencyTotals.first)
    #expect((totals.bills, totals.anonymousBills, totals.unpaidBills, totals.totals, totals.paid) == (2, 1, 1, 1990, 0))
    #expect(ledger.personTotals.map(\.consumed) == [500, 500])
    #expect(ledger.personTotals.map(\.balance) == [0, 0])
  }

  /// The match in name order makes the transfers that the overlaps of the two ways of cutting one
  /// length make (debts laid end to end in name order, and dues), worked out here point by point.
  @Test func theMatchInNameOrderIsWhereDebtsAndDuesOverlap() {
    var random = SplitMix64(seed: 16)
    let eur = Currency(unchecked: "EUR", exponent: 2)
    for round in 0..<400 {
      let count = 2 + Int(random.next() % 12)
      var amounts = (0..<count - 1).map { _ in Int64(random.next() % 7) * (round % 2 == 0 ? 100 : 37) - 300 }
      amounts.append(-amounts.reduce(0, +))
      let names = (0..<count).map { "P\(($0 * 7919) % 1000)-\($0)" }
      let people = zip(names, amounts).sorted { $0.0 < $1.0 }
      // Each unit of the length: whose debt and whose due it falls in.
      let debtUnits = people.flatMap { $0.1 < 0 ? Array(repeating: $0.0, count: Int(-$0.1)) : [] }
      let dueUnits = people.flatMap { $0.1 > 0 ? Array(repeating: $0.0, count: Int($0.1)) : [] }
      var expected: [Transfer] = []
      for (from, to) in zip(debtUnits, dueUnits) {
        if let last = expected.last, last.from == from, last.to == to {
          expected[expected.count - 1].amount = Money(minorUnits: last.amount.minorUnits + 1, currency: eur)
        } else {
          expected.append(Transfer(from: from, to: to, amount: Money(minorUnits: 1, currency: eur)))
        }
      }
      #expect(Settlement.inNameOrder(names, amounts, eur) == expected)
    }
  }
}
