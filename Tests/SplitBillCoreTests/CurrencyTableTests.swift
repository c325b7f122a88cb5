import Foundation
import Testing

@testable import SplitBillCore

@Suite struct CurrencyTableTests {
  /// The generated table holds every code of its source, ISO 4217 list one as transcribed in
  /// scripts/iso4217.tsv, with its minor unit, and nothing else.
  @Test func theTableIsItsSource() throws {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("scripts/iso4217.tsv")
    var expected: [String: Int] = [:]
    for line in try String(contentsOf: source, encoding: .utf8).split(separator: "\n")
    where !line.hasPrefix("#") && !line.hasPrefix("code\t") {
      let fields = line.split(separator: "\t")
      expected[String(fields[0])] = Int(fields[1])
    }
    #expect(expected.count > 160)
    #expect(Currency.exponents == expected, "run python3 scripts/generate_iso4217.py")
  }

  @Test(arguments: [("XAD", 2), ("ZWG", 2), ("XCG", 2), ("SLE", 2), ("VED", 2), ("JPY", 0), ("KWD", 3), ("CLF", 4)])
  func recentAndOddCodes(code: String, exponent: Int) throws {
    #expect(try Currency(code: code).exponent == exponent)
  }

  /// The withdrawn currencies the ECB's published history still has columns for.
  @Test(arguments: [
    ("CYP", 2), ("EEK", 2), ("HRK", 2), ("LTL", 2), ("LVL", 2), ("MTL", 2), ("ROL", 2), ("SIT", 2), ("SKK", 2),
    ("TRL", 0),
  ])
  func withdrawnCurrenciesOfTheECBHistoryAreKnown(code: String, exponent: Int) throws {
    let currency = try Currency(code: code)
    #expect(currency.exponent == exponent)
    #expect(currency.withdrawn != nil)
    #expect(try Currency(code: "EUR").withdrawn == nil)
  }

  @Test(arguments: ["ZWL", "CUC", "SLL", "VEF", "XAU", "XTS", "XXX"])
  func withdrawnAndNonCurrencyCodesAreRefused(code: String) {
    #expect(throws: MoneyError.unknownCurrency(code)) { try Currency(code: code) }
  }
}
