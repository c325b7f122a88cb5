import SplitBillBytes
import Testing

@testable import SplitBillCore

/// Builders shared by the split tests.
enum Fixture {
  static let eur = Currency(unchecked: "EUR", exponent: 2)
  static let jpy = Currency(unchecked: "JPY", exponent: 0)

  static func people(_ spec: [(String, Int)]) -> Diners {
    .named(spec.map { Diner(name: $0.0, weight: Weight(tenThousandths: Int64($0.1) * 10_000)) })
  }

  static func split(
    _ units: Int64, _ currency: Currency = eur, tip: TipChoice = .percent(Percent(tenThousandths: 0)),
    diners: Diners, payer: String? = nil, leftover: LeftoverPolicy = .balanced, ledger: inout LeftoverLedger
  ) throws -> BillSplit {
    try BillTerms(
      amount: Money(minorUnits: units, currency: currency), tip: tip, diners: diners, payer: payer,
      leftover: leftover
    ).split(ledger: &ledger)
  }

  static func shares(
    _ units: Int64, _ currency: Currency = eur, diners: Diners, payer: String? = nil,
    leftover: LeftoverPolicy
  ) throws -> [Int64] {
    var ledger = LeftoverLedger()
    return try split(units, currency, diners: diners, payer: payer, leftover: leftover, ledger: &ledger)
      .shares.map(\.amount.minorUnits)
  }
}

@Suite struct SplitExampleTests {
  // The cases of ledger-formats.md §2.2, where the published libraries disagree.
  @Test func hundredAndFifteenEurosAmongThree() throws {
    let diners = Fixture.people([("Ana", 1), ("Ben", 1), ("Chloé", 1)])
    for policy in [LeftoverPolicy.balanced, .remainder, .first] {
      #expect(try Fixture.shares(11_500, diners: diners, leftover: policy) == [3834, 3833, 3833])
    }
  }

  @Test func weightedTwoOneOneGoesByLargestRemainder() throws {
    let diners = Fixture.people([("Ana", 2), ("Ben", 1), ("Chloé", 1)])
    #expect(try Fixture.shares(9295, diners: diners, leftover: .remainder) == [4647, 2324, 2324])
    #expect(try Fixture.shares(9295, diners: diners, leftover: .balanced) == [4647, 2324, 2324])
    #expect(try Fixture.shares(9295, diners: diners, leftover: .first) == [4648, 2324, 2323])
  }

  @Test func decimalWeights() throws {
    let diners = Diners.named([
      Diner(name: "Ana"), Diner(name: "Ben"), Diner(name: "Chloé", weight: try Weight(parsing: "1.5")),
    ])
    #expect(try Fixture.shares(6750, diners: diners, leftover: .remainder) == [1929, 1928, 2893])
    #expect(try Fixture.shares(6750, diners: diners, leftover: .first) == [1929, 1929, 2892])
  }

  @Test func oneDollarTwoThreeOne() throws {
    let diners = Fixture.people([("A", 2), ("B", 3), ("C", 1)])
    #expect(try Fixture.shares(100, .usd, diners: diners, leftover: .remainder) == [33, 50, 17])
    #expect(try Fixture.shares(100, .usd, diners: diners, leftover: .first) == [34, 50, 16])
  }

  @Test func yenHaveNoDecimals() throws {
    #expect(
      try Fixture.shares(11_000, Fixture.jpy, diners: .anonymous(count: 3), leftover: .balanced) == [3667, 3667, 3666])
  }

  @Test func payerAbsorbsEveryLeftoverUnit() throws {
    let diners = Fixture.people([("Ana", 1), ("Ben", 1), ("Chloé", 1)])
    var ledger = LeftoverLedger()
    let bill = try Fixture.split(10_001, diners: diners, payer: "Chloé", leftover: .payer, ledger: &ledger)
    #expect(bill.shares.map(\.amount.minorUnits) == [3333, 3333, 3335])
    #expect(bill.shares.map(\.absorbed) == [0, 0, 2])
    #expect(ledger.absorbed(by: "Chloé", in: Fixture.eur) == 2)
  }

  @Test func toTipRoundsEverySharesUpAndMovesTheSurplusToTheTip() throws {
    var ledger = LeftoverLedger()
    let bill = try Fixture.split(10_000, .usd, diners: .anonymous(count: 3), leftover: .toTip, ledger: &ledger)
    #expect(bill.shares.map(\.amount.minorUnits) == [3334, 3334, 3334])
    #expect(bill.leftoverToTip.minorUnits == 2)
    #expect(bill.tip.minorUnits == 2)
    #expect(bill.total.minorUnits == 10_002)
    #expect(bill.shares.allSatisfy { $0.absorbed == 0 })
    #expect(bill.tipPercent == Percent(tenThousandths: 0))
  }

  @Test func tipIsRoundedByTheChosenMode() throws {
    // 84.50 × 17.125 % = 14.470625; 10.10 × 12.5 % = 1.2625; 0.90 × 5 % = 0.045
    let cases: [(Int64, String, RoundingMode, Int64)] = [
      (8450, "17.125", .halfUp, 1447), (8450, "17.125", .down, 1447), (8450, "17.125", .up, 1448),
      (1010, "12.5", .halfUp, 126), (1010, "12.5", .halfEven, 126), (90, "5", .halfUp, 5), (90, "5", .halfEven, 4),
      (90, "5", .down, 4), (8450, "18", .halfUp, 1521), (8450, "100", .halfUp, 8450), (8450, "0", .halfUp, 0),
    ]
    for (amount, percent, rounding, expected) in cases {
      let terms = BillTerms(
        amount: Money(minorUnits: amount, currency: Fixture.eur), tip: .percent(try Percent(parsing: percent)),
        diners: .anonymous(count: 1), rounding: rounding)
      #expect(try terms.tipAmount().minorUnits == expected, "\(amount) × \(percent)% \(rounding)")
    }
  }

  @Test func fixedTipDerivesItsPercent() throws {
    var ledger = LeftoverLedger()
    let bill = try BillTerms(
      amount: Money(minorUnits: 10_000, currency: Fixture.jpy),
      tip: .fixed(Money(minorUnits: 500, currency: Fixture.jpy)),
      diners: Fixture.people([("Ana", 2), ("Ben", 1)]), leftover: .remainder
    ).split(ledger: &ledger)
    #expect(bill.tipPercent?.decimalString == "5")
    #expect(bill.total.minorUnits == 10_500)
    #expect(bill.shares.map(\.amount.minorUnits) == [7000, 3500])
    let third = try BillTerms(
      amount: Money(minorUnits: 300, currency: .usd), tip: .fixed(Money(minorUnits: 100, currency: .usd)),
      diners: .anonymous(count: 1)
    ).split(ledger: &ledger)
    #expect(third.tipPercent?.decimalString == "33.3333")
  }

  @Test func anonymousDinersAreNumberedAndNotRecorded() throws {
    var ledger = LeftoverLedger()
    let bill = try Fixture.split(100, .usd, diners: .anonymous(count: 3), ledger: &ledger)
    #expect(bill.shares.map(\.person) == ["Diner 1", "Diner 2", "Diner 3"])
    #expect(ledger == LeftoverLedger())
  }
}

@Suite struct SplitErrorTests {
  @Test func refusesWhatCannotBeSplit() throws {
    var ledger = LeftoverLedger()
    #expect(throws: SplitError.noDiners) { try Fixture.split(100, diners: .anonymous(count: 0), ledger: &ledger) }
    #expect(throws: SplitError.noDiners) { try Fixture.split(100, diners: .named([]), ledger: &ledger) }
    #expect(throws: SplitError.duplicateDiner("Ana")) {
      try Fixture.split(100, diners: Fixture.people([("Ana", 1), ("Ana", 2)]), ledger: &ledger)
    }
    #expect(throws: SplitError.payerNotDiner("Dmitri")) {
      try Fixture.split(100, diners: Fixture.people([("Ana", 1)]), payer: "Dmitri", leftover: .payer, ledger: &ledger)
    }
    #expect(throws: SplitError.payerNotDiner("Dmitri")) {
      try Fixture.split(100, diners: .anonymous(count: 2), payer: "Dmitri", leftover: .payer, ledger: &ledger)
    }
    #expect(throws: SplitError.payerPolicyWithoutPayer) {
      try Fixture.split(100, diners: .anonymous(count: 2), leftover: .payer, ledger: &ledger)
    }
    #expect(throws: SplitError.tipNotResolved) {
      try Fixture.split(100, tip: .advisor, diners: .anonymous(count: 2), ledger: &ledger)
    }
    #expect(throws: SplitError.tipCurrencyMismatch(bill: Fixture.eur, tip: .usd)) {
      try Fixture.split(
        100, tip: .fixed(Money(minorUnits: 1, currency: .usd)), diners: .anonymous(count: 2), ledger: &ledger)
    }
    #expect(ledger == LeftoverLedger())
  }

  @Test func weightsMustBePositive() {
    #expect(throws: SplitError.nonPositiveWeight("0")) { try Weight(parsing: "0") }
    #expect(throws: SplitError.nonPositiveWeight("-1")) { try Weight(parsing: "-1") }
    #expect(throws: SplitError.nonPositiveWeight("0")) { try Weight(0) }
    #expect(throws: SplitError.invalidWeight("two")) { try Weight(parsing: "two") }
    #expect(throws: SplitError.weightTooLarge("10000000")) { try Weight(parsing: "10000000") }
  }

  @Test func exactlyOneTipChoice() throws {
    let percent = Percent.preset15
    let fixed = Money(minorUnits: 100, currency: .usd)
    #expect(try TipChoice.resolve(percent: percent, fixed: nil, askAdvisor: false) == .percent(percent))
    #expect(try TipChoice.resolve(percent: nil, fixed: fixed, askAdvisor: false) == .fixed(fixed))
    #expect(try TipChoice.resolve(percent: nil, fixed: nil, askAdvisor: true) == .advisor)
    #expect(try TipChoice.resolve(percent: nil, fixed: nil, askAdvisor: false) == nil)
    #expect(throws: SplitError.conflictingTips) {
      try TipChoice.resolve(percent: percent, fixed: fixed, askAdvisor: false)
    }
    #expect(throws: SplitError.conflictingTips) {
      try TipChoice.resolve(percent: percent, fixed: nil, askAdvisor: true)
    }
  }

  @Test func largestAmountsDoNotOverflow() throws {
    var ledger = LeftoverLedger()
    let bill = try BillTerms(
      amount: Money(minorUnits: Money.maximumMinorUnits, currency: .usd), tip: .percent(.hundred),
      diners: .named([Diner(name: "A", weight: .maximum), Diner(name: "B")])
    ).split(ledger: &ledger)
    #expect(bill.shares.reduce(0) { $0 + $1.amount.minorUnits } == 2 * Money.maximumMinorUnits)
  }
}

/// The ledgers find people by their bytes first; they must still treat names as strings do.
@Suite struct PersonNumbersTests {
  @Test func canonicallyEquivalentSpellingsAreOnePerson() {
    var numbers = PersonNumbers()
    let precomposed = "\u{E9}mile"
    let decomposed = "e\u{301}mile"
    #expect(numbers.number(of: "Ana") == 0)
    #expect(numbers.number(of: precomposed) == 1)
    #expect(numbers.existingNumber(of: decomposed) == 1)
    #expect(numbers.number(of: decomposed) == 1)
    #expect(numbers.number(of: "\u{212A}en") == 2)  // the Kelvin sign is K
    #expect(numbers.number(of: "Ken") == 2)
    #expect(numbers.existingNumber(of: "Ben") == nil)
    #expect(numbers.names == ["Ana", precomposed, "\u{212A}en"])
  }

  /// Against a plain dictionary: many names (the table grows past its first slots and, for
  /// short spellings, past ``PersonNumbers/spellingLimit``), names of 0 to 40 bytes (over 16 they
  /// go by the dictionary alone), each looked up several times in a random order.
  @Test func givesTheNumbersADictionaryGives() {
    var random = SplitMix64(seed: 29)
    let letters = Array("abcdeé李 ")
    let names =
      (0..<(PersonNumbers.spellingLimit + 500)).map { index in
        String((0..<Int(random.next() % 40)).map { _ in letters[Int(random.next() % UInt64(letters.count))] })
          + String(index)
      } + [""]
    var numbers = PersonNumbers()
    var reference: [String: Int] = [:]
    for _ in 0..<3 * names.count {
      let name = names[Int(random.next() % UInt64(names.count))]
      let known = reference[name]
      #expect(numbers.existingNumber(of: name) == known, "\(name)")
      let expected = known ?? reference.count
      reference[name] = expected
      #expect(numbers.number(of: name) == expected, "\(name)")
      #expect(numbers.existingNumber(of: name) == expected)
    }
    #expect(numbers.names.count == reference.count)
    for (name, number) in reference { #expect(numbers.names[number] == name) }
  }

  @Test func aLedgerCountsEitherSpellingAsOnePerson() throws {
    var ledger = LeftoverLedger()
    ledger.record(2, by: "\u{E9}mile", in: Fixture.eur)
    ledger.record(1, by: "e\u{301}mile", in: Fixture.eur)
    ledger.record(5, by: "\u{E9}mile", in: Fixture.jpy)
    #expect(ledger.absorbed(by: "e\u{301}mile", in: Fixture.eur) == 3)
    #expect(ledger.absorbed(by: "\u{E9}mile", in: Fixture.jpy) == 5)
    #expect(ledger.absorbed(by: "Ana", in: Fixture.eur) == 0)
    // Equal ledgers whatever the order and spelling things were recorded in.
    var other = LeftoverLedger()
    other.record(5, by: "e\u{301}mile", in: Fixture.jpy)
    other.record(3, by: "e\u{301}mile", in: Fixture.eur)
    #expect(ledger == other)
    other.record(1, by: "Ana", in: Fixture.eur)
    #expect(ledger != other)
  }
}
