import Testing

@testable import SplitBillCore

/// The guarantees of the split, over generated and exhaustive inputs.
@Suite struct SplitPropertyTests {
  /// Exact part of `total` for weight `w` of `sum`, as numerator over `sum`.
  static func exactNumerator(_ total: Int64, _ weight: Weight) -> Int128 {
    Int128(total) * Int128(weight.tenThousandths)
  }

  /// Checks every invariant of one split; returns nothing, records failures.
  static func check(_ bill: BillSplit, terms: BillTerms, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    throws
  {
    let total = bill.total.minorUnits
    let shareSum = bill.shares.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
    #expect(shareSum == total, "shares add up to the total", sourceLocation: sourceLocation)
    #expect(bill.amount.minorUnits + bill.tip.minorUnits == total, sourceLocation: sourceLocation)
    let weights = terms.diners.list.map(\.weight)
    let weightSum = weights.reduce(Int128(0)) { $0 + Int128($1.tenThousandths) }
    let originalTotal = total - bill.leftoverToTip.minorUnits
    for (share, weight) in zip(bill.shares, weights) {
      let exact = exactNumerator(originalTotal, weight)
      let scaled = Int128(share.amount.minorUnits) * weightSum
      switch terms.leftover {
      case .balanced, .remainder:
        // the exact part rounded down or up: |share − exact| < 1 unit
        #expect(scaled - exact < weightSum && exact - scaled < weightSum, sourceLocation: sourceLocation)
        #expect(scaled >= exact - (exact % weightSum), sourceLocation: sourceLocation)
      case .first:
        // within one unit: a whole exact part may still get the extra unit
        #expect(scaled - exact <= weightSum && exact - scaled < weightSum, sourceLocation: sourceLocation)
        #expect(scaled >= exact - (exact % weightSum), sourceLocation: sourceLocation)
      case .toTip:
        let ceiling = (exact + weightSum - 1) / weightSum
        #expect(Int128(share.amount.minorUnits) == ceiling, sourceLocation: sourceLocation)
      case .payer:
        #expect(scaled >= exact - (exact % weightSum), sourceLocation: sourceLocation)
      }
    }
    #expect(bill.leftoverToTip.minorUnits < Int64(bill.shares.count), sourceLocation: sourceLocation)
    #expect(bill.leftoverUnits < bill.shares.count, sourceLocation: sourceLocation)
    let absorbed = bill.shares.reduce(0) { $0 + $1.absorbed }
    #expect(absorbed == (terms.leftover == .toTip ? 0 : bill.leftoverUnits), sourceLocation: sourceLocation)
    if terms.leftover != .payer {
      #expect(bill.shares.allSatisfy { $0.absorbed <= 1 }, sourceLocation: sourceLocation)
    }
  }

  @Test func tenThousandSeededBillsReconcileUnderEveryPolicy() throws {
    var random = SeededGenerator(seed: 20_261_129)
    let currencies = try ["JPY", "EUR", "USD", "KWD", "CLF"].map { try Currency(code: $0) }
    let names = ["Ana", "Ben", "Chloé", "Dmitri", "Émile", "Farah", "Gus", "李雷"]
    var ledger = LeftoverLedger()
    for _ in 0..<10_000 {
      let currency = currencies.randomElement(using: &random) ?? .usd
      let magnitude: Int64 =
        [Int64(100), 10_000, 1_000_000, Money.maximumMinorUnits].randomElement(using: &random) ?? 100
      let amount = Money(minorUnits: Int64.random(in: 0...magnitude, using: &random), currency: currency)
      let diners: Diners
      if Bool.random(using: &random) {
        diners = .anonymous(count: Int.random(in: 1...12, using: &random))
      } else {
        let chosen = names.shuffled(using: &random).prefix(Int.random(in: 1...names.count, using: &random))
        diners = .named(
          try chosen.map { name in
            let weight =
              Int.random(in: 0...3, using: &random) == 0
              ? "\(Int.random(in: 1...5, using: &random)).25" : "\(Int.random(in: 1...4, using: &random))"
            return Diner(name: name, weight: try Weight(parsing: weight))
          })
      }
      let tip: TipChoice =
        Bool.random(using: &random)
        ? .percent(Percent(tenThousandths: Int64.random(in: 0...1_000_000, using: &random)))
        : .fixed(Money(minorUnits: Int64.random(in: 0...magnitude, using: &random), currency: currency))
      var policy = LeftoverPolicy.allCases.randomElement(using: &random) ?? .balanced
      let payer = diners.isAnonymous ? nil : diners.list.randomElement(using: &random)?.name
      if policy == .payer && payer == nil { policy = .remainder }
      let terms = BillTerms(
        amount: amount, tip: tip, diners: diners, payer: payer, leftover: policy,
        rounding: RoundingMode.allCases.randomElement(using: &random) ?? .halfUp)
      try Self.check(try terms.split(ledger: &ledger), terms: terms)
    }
  }

  @Test(arguments: LeftoverPolicy.allCases)
  func exhaustiveOverSmallBills(policy: LeftoverPolicy) throws {
    let weightPatterns: [[Int]] = [
      [1], [1, 1], [2, 1], [1, 1, 1], [2, 1, 1], [1, 2, 3], [3, 3, 1, 1], [1, 1, 1, 1, 1], [5, 1, 1, 1, 1, 1, 1],
    ]
    for pattern in weightPatterns {
      let diners = Diners.named(
        try pattern.enumerated().map { Diner(name: "P\($0.offset)", weight: try Weight($0.element)) })
      for units in Int64(0)...300 {
        var ledger = LeftoverLedger()
        let terms = BillTerms(
          amount: Money(minorUnits: units, currency: .usd), tip: .percent(Percent(tenThousandths: 0)),
          diners: diners, payer: "P0", leftover: policy)
        try Self.check(try terms.split(ledger: &ledger), terms: terms)
      }
    }
  }

  @Test func balancedKeepsAbsorbedCountsWithinOneOverAnySequence() throws {
    var random = SeededGenerator(seed: 42)
    let everyone = ["Ana", "Ben", "Chloé", "Dmitri", "Émile"]
    for trial in 0..<300 {
      let people = Array(everyone.prefix(2 + trial % 4))
      var ledger = LeftoverLedger()
      for _ in 0..<Int.random(in: 1...60, using: &random) {
        let order = people.shuffled(using: &random)
        let terms = BillTerms(
          amount: Money(minorUnits: Int64.random(in: 0...100_000, using: &random), currency: .usd),
          tip: .percent(Percent(tenThousandths: Int64.random(in: 0...300_000, using: &random))),
          diners: .named(order.map { Diner(name: $0) }))
        _ = try terms.split(ledger: &ledger)
        let counts = people.map { ledger.absorbed(by: $0, in: .usd) }
        #expect((counts.max() ?? 0) - (counts.min() ?? 0) <= 1, "trial \(trial): \(counts)")
      }
    }
  }

  @Test func balancedPassesTheCentAroundTheTable() throws {
    var ledger = LeftoverLedger()
    let diners = Fixture.people([("Ana", 1), ("Ben", 1), ("Chloé", 1)])
    var absorbers: [String] = []
    for _ in 0..<6 {
      let bill = try Fixture.split(100, .usd, diners: diners, leftover: .balanced, ledger: &ledger)
      absorbers += bill.shares.filter { $0.absorbed > 0 }.map(\.person)
    }
    #expect(absorbers == ["Ana", "Ben", "Chloé", "Ana", "Ben", "Chloé"])
    // remainder always hands it to the first listed
    var other = LeftoverLedger()
    let firsts = try (0..<3).map { _ in
      try Fixture.split(100, .usd, diners: diners, leftover: .remainder, ledger: &other).shares.filter {
        $0.absorbed > 0
      }.map(\.person)
    }
    #expect(firsts == [["Ana"], ["Ana"], ["Ana"]])
  }
}
