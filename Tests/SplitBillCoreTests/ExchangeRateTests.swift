import Testing

@testable import SplitBillCore

/// Rates looked up as the ECB publishes them, exact inverse and cross rates, conversions that add
/// up to zero, and cash rounding.
struct ExchangeRateTests {
  static let jpy = code("JPY")
  static let usd = Currency.usd
  static let eur = Currency.eur
  static let chf = code("CHF")

  static func code(_ text: String) -> Currency {
    guard let currency = try? Currency(code: text) else { fatalError("not a currency: \(text)") }
    return currency
  }

  static func day(_ text: String) -> CalendarDate {
    guard let date = CalendarDate(iso: text) else { fatalError("not a date: \(text)") }
    return date
  }

  static func decimal(_ text: String) -> DecimalRate {
    guard let rate = DecimalRate(parsing: text) else { fatalError("not a rate: \(text)") }
    return rate
  }

  /// The bundled ECB excerpt's rates (Thursday, Friday, Monday).
  static let ecb = RateTable([
    ExchangeRate(base: eur, quote: jpy, rate: Self.decimal("161.42"), date: day("2026-11-19"), source: "t"),
    ExchangeRate(base: eur, quote: jpy, rate: Self.decimal("161.87"), date: day("2026-11-20"), source: "t"),
    ExchangeRate(base: eur, quote: jpy, rate: Self.decimal("162.05"), date: day("2026-11-23"), source: "t"),
    ExchangeRate(base: eur, quote: usd, rate: Self.decimal("1.0498"), date: day("2026-11-20"), source: "t"),
    ExchangeRate(base: eur, quote: usd, rate: Self.decimal("1.0512"), date: day("2026-11-23"), source: "t"),
  ])

  @Test func aWeekendDayTakesFridaysRate() throws {
    let sunday = try #require(Self.ecb.rate(from: Self.eur, to: Self.jpy, on: Self.day("2026-11-22")))
    #expect(sunday.price == Self.decimal("161.87").ratio)
    #expect(sunday.legs.map(\.date) == [Self.day("2026-11-20")])
    let monday = try #require(Self.ecb.rate(from: Self.eur, to: Self.jpy, on: Self.day("2026-11-23")))
    #expect(monday.price == Self.decimal("162.05").ratio)
    // Before the first rate there is none; without a date only undated rates apply.
    #expect(Self.ecb.rate(from: Self.eur, to: Self.jpy, on: Self.day("2026-11-18")) == nil)
    #expect(Self.ecb.rate(from: Self.eur, to: Self.jpy, on: nil) == nil)
  }

  @Test func inverseAndCrossRatesAreExact() throws {
    let inverse = try #require(Self.ecb.rate(from: Self.jpy, to: Self.eur, on: Self.day("2026-11-21")))
    #expect(inverse.price == ExactRatio(unchecked: 100, 16187))
    // JPY → USD through EUR: 1.0498 / 161.87, never a float.
    let cross = try #require(Self.ecb.rate(from: Self.jpy, to: Self.usd, on: Self.day("2026-11-21")))
    #expect(cross.price == ExactRatio(unchecked: 10498 * 100, 10000 * 16187))
    #expect(cross.legs.count == 2)
    // In minor units: one yen is worth 1.0498 / 161.87 dollars, 104.98 / 161.87 cents.
    #expect(cross.minorUnitFactor == ExactRatio(unchecked: 10498, 16187))
    #expect(DecimalRate(parsing: "1.0870")?.description == "1.087")
    for bad in ["", "-1", "1e3", "0", "0.000", "1,5", "1.", ".5", "12345678901234567"] {
      #expect(DecimalRate(parsing: bad) == nil, "\(bad)")
    }
  }

  @Test func anUndatedRateAppliesEveryDayAndEarlierSourcesWin() throws {
    let agreed = RateTable([
      ExchangeRate(base: Self.eur, quote: Self.jpy, rate: Self.decimal("160"), date: nil, source: "agreed")
    ])
    let book = RateBook([agreed, Self.ecb])
    let use = try #require(book.rate(from: Self.jpy, to: Self.eur, on: Self.day("2026-11-22")))
    #expect(use.legs.map(\.source) == ["agreed"])
    let usd = try #require(book.rate(from: Self.jpy, to: Self.usd, on: Self.day("2026-11-22")))
    #expect(usd.legs.count == 2, "the agreed table has no USD: the ECB's cross rate")
  }

  @Test func bigIntegersAgreeWithInt128() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let a = UInt128(UInt64.random(in: 0...UInt64.max, using: &generator)) << 40 | UInt128.random(in: 0..<(1 << 40))
      let b = UInt128.random(in: 1...UInt128(UInt64.max), using: &generator)
      let product = BigUInt(a).multiplied(by: b)
      let (quotient, remainder) = product.quotientAndRemainder(dividingBy: BigUInt(b))!
      #expect(quotient == a && remainder.isZero)
      let sum = BigUInt(a) + BigUInt(b)
      #expect(sum - BigUInt(b) == BigUInt(a))
      let (q, r) = BigUInt(a).quotientAndRemainder(dividingBy: BigUInt(b))!
      #expect(q == a / b && r == BigUInt(a % b))
    }
  }

  /// Random balance changes in three currencies at a few random rates: the converted balances add
  /// up to zero and each is within one unit of its exact value (worked out here with Int128
  /// fractions, independently of the big integers).
  @Test func convertedBalancesAddUpToZeroWithinOneUnit() throws {
    var generator = SystemRandomNumberGenerator()
    let people = ["Ana", "Ben", "Chloé", "Dmitri", "Eve"]
    for _ in 0..<300 {
      var ledger = ConversionLedger(currency: Self.eur)
      var exact: [String: (Int128, Int128)] = [:]  // numerator, denominator
      let uses =
        (0..<3).map { index -> RateUse in
          let from = [Self.jpy, Self.usd, Self.chf][index]
          let rate = DecimalRate(
            parsing: "\(Int.random(in: 1...99_999, using: &generator)).\(Int.random(in: 1...99, using: &generator))")!
          return RateUse(from: from, to: Self.eur, price: rate.ratio.inverse, legs: [])
        } + [RateUse(from: Self.eur, to: Self.eur, price: .one, legs: [])]
      for _ in 0..<Int.random(in: 1...12, using: &generator) {
        let use = uses.randomElement(using: &generator)!
        let (from, to) = (people.randomElement()!, people.randomElement()!)
        guard from != to else { continue }
        let amount = Money(minorUnits: Int64.random(in: 1...5_000_000, using: &generator), currency: use.from)
        ledger.add(Payment(from: from, to: to, amount: amount), at: use)
        let factor = use.minorUnitFactor!
        for (person, sign) in [(from, Int128(1)), (to, Int128(-1))] {
          let (n, d) = exact[person] ?? (0, 1)
          let term = (sign * Int128(amount.minorUnits) * factor.numerator, factor.denominator)
          let common = d * term.1 / Fraction.gcd(d, term.1)
          exact[person] = (n * (common / d) + term.0 * (common / term.1), common)
        }
      }
      let conversion = try ledger.convert(policy: .balanced) { _ in 0 }
      #expect(conversion.balances.reduce(0) { $0 + $1.balance.minorUnits } == 0)
      for balance in conversion.balances {
        let (n, d) = exact[balance.person] ?? (0, 1)
        #expect((Int128(balance.balance.minorUnits) * d - n).magnitude < d.magnitude, "\(balance)")
        #expect(balance.parts.reduce(0) { $0 + $1.converted.minorUnits } == balance.balance.minorUnits)
      }
    }
  }

  /// The example: 6.66 / −3.33 / −3.33 CHF in 0.05 steps leaves 0.01, 0.02 and −0.03.
  @Test func cashRoundingLeavesResiduesSmallerThanTheIncrement() throws {
    let cash = CashSettlement.settle(
      ["Ana": 666, "Ben": -333, "Chloé": -333], in: Self.chf, increment: 5, policy: .balanced
    ) { _ in 0 }
    #expect(cash.residues.map(\.amount.minorUnits).sorted() == [-3, 1, 2])
    #expect(cash.residues.first { $0.person == "Ben" }?.amount.minorUnits == -3, "ties by name")
    #expect(cash.settlement.transfers.map(\.amount.minorUnits).sorted() == [330, 335])
    try cash.check(["Ana": 666, "Ben": -333, "Chloé": -333])
    // balanced: who absorbed fewer leftover units in the run carries the larger residue.
    let fewer = CashSettlement.settle(
      ["Ana": 666, "Ben": -333, "Chloé": -333], in: Self.chf, increment: 5, policy: .balanced
    ) { $0 == "Ben" ? 4 : 0 }
    #expect(fewer.residues.first { $0.person == "Chloé" }?.amount.minorUnits == -3)

    var generator = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      var balances: [String: Int64] = [:]
      var sum: Int64 = 0
      for name in ["A", "B", "C", "D", "E", "F"].prefix(Int.random(in: 2...6, using: &generator)).dropLast() {
        let value = Int64.random(in: -100_000...100_000, using: &generator)
        balances[name] = value
        sum += value
      }
      balances["Z"] = -sum
      let increment = [5, 10, 100, 25].randomElement(using: &generator)!
      let policy = LeftoverPolicy.allCases.randomElement(using: &generator)!
      let cash = CashSettlement.settle(
        balances, in: Self.chf, increment: Int64(increment), policy: policy
      ) { _ in 0 }
      try cash.check(balances)
      #expect(cash.residues.reduce(0) { $0 + $1.amount.minorUnits } == 0)
      #expect(cash.residues.allSatisfy { abs($0.amount.minorUnits) < Int64(increment) })
    }
  }
}
