import Foundation
import SplitBillBytes
import Testing

@testable import SplitBillCore

/// The fixed-point conversion gives the exact one's balances, parts and absorbed units whenever it
/// answers, answers on ordinary books, and leaves to the exact arithmetic what it cannot tell.
struct FixedPointConversionTests {
  static let currencies = ["USD", "JPY", "KWD", "CHF", "GBP"].map { code in
    guard let currency = try? Currency(code: code) else { fatalError("not a currency: \(code)") }
    return currency
  }

  /// The kinds of books: ordinary rates; ordinary and tricky ones mixed; only rates whose fixed
  /// point is exact (but into KWD's three decimals: many values exact, many ties real ones).
  enum Book: CaseIterable {
    case ordinary, tricky, dyadic
  }

  /// A factor of one of the shapes runs meet: an ECB rate's inverse, a 15-digit rate, a cross
  /// rate; in tricky books also a small fraction (whose sums make exact halves and whole numbers
  /// of inexact terms) and a dyadic one (a power of two below it: its fixed point is exact).
  static func factor(_ book: Book, using random: inout SplitMix64) -> ExactRatio {
    let shapes = book == .ordinary ? 0..<3 : book == .tricky ? 0..<5 : 3..<4
    switch Int.random(in: shapes, using: &random) {
    case 0: return ExactRatio(unchecked: 10_000, Int128.random(in: 5_000...200_000, using: &random))
    case 1:
      return ExactRatio(
        unchecked: Int128.random(in: 1...999_999_999_999_999, using: &random), 100_000_000_000_000)
    case 2:
      return ExactRatio(
        unchecked: Int128.random(in: 1...9_999_999, using: &random) * 10_000,
        Int128.random(in: 1...9_999_999, using: &random) * 1_000)
    case 3:
      return ExactRatio(
        unchecked: Int128.random(in: 1...40, using: &random), Int128(1) << Int.random(in: 0...10, using: &random))
    default: return ExactRatio(unchecked: 1, Int128.random(in: 2...12, using: &random))
    }
  }

  @Test func givesTheExactBalancesOnRandomBooks() throws {
    var random = SplitMix64(seed: 29)
    let eur = Currency.eur
    var answered = 0
    var ordinary = 0
    for number in 0..<150 {
      let book = Book.allCases[number % Book.allCases.count]
      var ledger = ConversionLedger(currency: eur)
      // Past PersonSums.fewLimit (16) people, a rate's sums are kept by person number.
      let people = (0..<Int.random(in: 2...30, using: &random)).map { "P\($0)" }
      var uses: [RateUse] = [RateUse(from: eur, to: eur, price: .one, legs: [])]
      for _ in 0..<Int.random(in: 1...40, using: &random) {
        let from = Self.currencies[Int.random(in: Self.currencies.indices, using: &random)]
        uses.append(RateUse(from: from, to: eur, price: Self.factor(book, using: &random), legs: []))
      }
      for _ in 0..<Int.random(in: 1...200, using: &random) {
        let use = uses[Int.random(in: uses.indices, using: &random)]
        let from = people[Int.random(in: people.indices, using: &random)]
        // Converted sums past 2⁶¹ minor units are the exact arithmetic's (in tricky books only).
        let large = book == .tricky && Int.random(in: 0..<20, using: &random) == 0
        let amount = Int64.random(in: 1...(large ? 900_000_000_000_000 : 50_000), using: &random)
        // Twins: the same payment to two people, so their sums are equal at every rate.
        let targets =
          Bool.random(using: &random) ? ["P0", "P1"] : [people[Int.random(in: people.indices, using: &random)]]
        for to in targets where to != from {
          ledger.add(Payment(from: from, to: to, amount: Money(minorUnits: amount, currency: use.from)), at: use)
        }
      }
      let codes = Array(Set(ledger.groups.map(\.use.from))).sorted()
      for policy in LeftoverPolicy.allCases {
        let absorbed = { (name: String) in name.count + Int(name.utf8.last ?? 0) % 3 }
        let exact = try? ledger.exactBalances(currencies: codes, policy: policy, absorbed: absorbed)
        let fixedPoint = try? ledger.fixedPointBalances(currencies: codes, policy: policy, absorbed: absorbed)
        if let fixedPoint { #expect(fixedPoint == exact, "policy \(policy)") }
        if book == .ordinary, exact != nil {
          ordinary += 1
          if fixedPoint != nil { answered += 1 }
        }
      }
    }
    // Values closer than 2⁻⁶⁰ to a tie, unless equal, are rare with ordinary rates: the fixed
    // point answers nearly always there.
    #expect(answered * 100 >= ordinary * 99, "answered \(answered) of \(ordinary)")
  }

  /// 1/3 + 1/6 is a half exactly, which no fixed point shows: the exact arithmetic decides (half
  /// to even: 0), and `convert` gives it.
  @Test func leavesAnExactHalfToTheExactArithmetic() throws {
    let usd = Currency.usd
    var ledger = ConversionLedger(currency: .eur)
    ledger.add(
      Payment(from: "Ana", to: "Ben", amount: Money(minorUnits: 1, currency: usd)),
      at: RateUse(from: usd, to: .eur, price: ExactRatio(unchecked: 1, 3), legs: []))
    ledger.add(
      Payment(from: "Ana", to: "Ben", amount: Money(minorUnits: 1, currency: usd)),
      at: RateUse(from: usd, to: .eur, price: ExactRatio(unchecked: 1, 6), legs: []))
    let codes = [usd]
    #expect(try ledger.fixedPointBalances(currencies: codes, policy: .balanced) { _ in 0 } == nil)
    let conversion = try ledger.convert(policy: .balanced) { _ in 0 }
    #expect(conversion.balances.map(\.balance.minorUnits) == [0, 0])
  }

  /// Halves exactly, in fixed point too: to the even unit, and the shortfall moved by the policy.
  @Test func roundsExactHalvesToEven() throws {
    let usd = Currency.usd
    let half = RateUse(from: usd, to: .eur, price: ExactRatio(unchecked: 1, 2), legs: [])
    for (amount, expected): (Int64, [Int64]) in [(1, [0, 0]), (3, [2, -2]), (5, [2, -2]), (7, [4, -4])] {
      var ledger = ConversionLedger(currency: .eur)
      ledger.add(Payment(from: "Ana", to: "Ben", amount: Money(minorUnits: amount, currency: usd)), at: half)
      let fixedPoint = try #require(try ledger.fixedPointBalances(currencies: [usd], policy: .balanced) { _ in 0 })
      #expect(fixedPoint.map(\.balance.minorUnits) == expected, "\(amount)")
      #expect(fixedPoint == (try ledger.exactBalances(currencies: [usd], policy: .balanced) { _ in 0 }))
    }
  }

  /// Ana's +1/2 USD and +1/2 CHF round to 0 and 0 but her balance to 1: the unit goes to the part
  /// furthest the other way, the first code of an exact tie (CHF), in fixed point as exactly.
  @Test func movesAPartsUnitToTheFirstCodeOfAnExactTie() throws {
    let (usd, chf) = (Currency.usd, Self.currencies[3])
    var ledger = ConversionLedger(currency: .eur)
    for from in [usd, chf] {
      ledger.add(
        Payment(from: "Ana", to: "Ben", amount: Money(minorUnits: 1, currency: from)),
        at: RateUse(from: from, to: .eur, price: ExactRatio(unchecked: 1, 2), legs: []))
    }
    let fixedPoint = try #require(try ledger.fixedPointBalances(currencies: [chf, usd], policy: .balanced) { _ in 0 })
    #expect(fixedPoint == (try ledger.exactBalances(currencies: [chf, usd], policy: .balanced) { _ in 0 }))
    #expect(fixedPoint.map { $0.parts.map(\.converted.minorUnits) } == [[1, 0], [-1, 0]])
  }

  /// Ana's 1 × 1/3, Ben's 2 × 1/6 and Cleo's residue are all +1/3 exactly, though their fixed
  /// points differ in the last bits: the unit to move goes by the policy's tie rule (the name: Ana),
  /// which only the exact arithmetic can see.
  @Test func leavesNearTiesOfDifferentSumsToTheExactArithmetic() throws {
    let usd = Currency.usd
    var ledger = ConversionLedger(currency: .eur)
    ledger.add(
      Payment(from: "Ana", to: "Cleo", amount: Money(minorUnits: 1, currency: usd)),
      at: RateUse(from: usd, to: .eur, price: ExactRatio(unchecked: 1, 3), legs: []))
    ledger.add(
      Payment(from: "Ben", to: "Cleo", amount: Money(minorUnits: 2, currency: usd)),
      at: RateUse(from: usd, to: .eur, price: ExactRatio(unchecked: 1, 6), legs: []))
    #expect(try ledger.fixedPointBalances(currencies: [usd], policy: .balanced) { _ in 0 } == nil)
    let conversion = try ledger.convert(policy: .balanced) { _ in 0 }
    #expect(conversion.balances.map(\.balance.minorUnits) == [1, 0, -1])
  }

  /// Two people with the same sums at every rate tie exactly; the fast path knows it.
  @Test func twinsTieExactly() throws {
    let usd = Currency.usd
    var ledger = ConversionLedger(currency: .eur)
    let use = RateUse(from: usd, to: .eur, price: ExactRatio(unchecked: 10_000, 10_834), legs: [])
    for to in ["Ben", "Cleo"] {
      ledger.add(Payment(from: "Ana", to: to, amount: Money(minorUnits: 1_001, currency: usd)), at: use)
    }
    let fixedPoint = try #require(try ledger.fixedPointBalances(currencies: [usd], policy: .balanced) { _ in 0 })
    #expect(fixedPoint == (try ledger.exactBalances(currencies: [usd], policy: .balanced) { _ in 0 }))
  }

  /// A rate's sums by person, kept few then dense, are those of a plain dictionary, zero sums of
  /// people with changes included.
  @Test func personSumsAreADictionarysAcrossTheSwitchToDense() {
    var random = SplitMix64(seed: 33)
    for _ in 0..<50 {
      var sums = PersonSums()
      var model: [Int: Int64] = [:]
      for _ in 0..<Int.random(in: 1...80, using: &random) {
        let person = Int.random(in: 0..<40, using: &random)
        let units = Int64.random(in: -3...3, using: &random)
        let overflowed = sums.add(units, to: person)
        #expect(!overflowed)
        model[person, default: 0] += units
      }
      for person in 0..<45 {
        #expect(sums.sum(of: person) == model[person] ?? 0)
        #expect(sums.touched(person) == (model[person] != nil))
      }
      #expect(Dictionary(uniqueKeysWithValues: sums.changes.map { ($0.person, $0.sum) }) == model)
    }
  }
}
