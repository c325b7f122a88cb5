import Testing

@testable import SplitBillCore

/// IBANs as people type them, and every mistake the check digits exist to catch.
@Suite struct IBANTests {
  /// The registry's examples, one per country, as printed (spaces, either case).
  static let valid = [
    "DE89 3704 0044 0532 0130 00", "GB82 WEST 1234 5698 7654 32", "FR14 2004 1010 0505 0001 3M02 606",
    "NL91 ABNA 0417 1643 00", "BE68 5390 0754 7034", "AT61 1904 3002 3457 3201", "CH93 0076 2011 6238 5295 7",
    "ES91 2100 0418 4502 0005 1332", "IT60 X054 2811 1010 0000 0123 456", "NO93 8601 1117 947",
    "MT84 MALT 0110 0001 2345 MTLC AST0 01S", "PL61 1090 1014 0000 0712 1981 2874", "fi21 1234 5600 0007 85",
  ]

  @Test(arguments: valid) func aPrintedIBANIsReadAndKeptElectronic(_ text: String) throws {
    let iban = try IBAN(parsing: text)
    #expect(iban.electronic == text.uppercased().filter { $0 != " " })
    // Grouped by four, as it was printed.
    #expect(iban.grouped == text.uppercased())
    #expect(IBAN.lengths[String(iban.countryCode)] == iban.electronic.count)
  }

  /// Any one digit changed to another digit, or letter to another letter, and any two neighbours
  /// of the same kind swapped, is refused: what the check digits guarantee (a change of
  /// `k·10ⁿ` with `0 < |k| < 97`, or a swap's `9·k·10ⁿ` or `99·k·10ⁿ`, is never a multiple of
  /// 97). Mixed changes (a letter for a digit) alter the number's length and are caught only
  /// 96 times in 97, so they are not promised.
  @Test(arguments: valid) func everySingleMistakeIsRefused(_ text: String) throws {
    let characters = Array(try IBAN(parsing: text).electronic)
    let digits = Array("0123456789")
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    var refused = 0
    for index in characters.indices {
      let kind = characters[index].isNumber ? digits : letters
      for replacement in kind where replacement != characters[index] {
        var changed = characters
        changed[index] = replacement
        #expect(throws: IBAN.Problem.self, "\(String(changed))") { try IBAN(parsing: String(changed)) }
        refused += 1
      }
      let next = index + 1
      if next < characters.count, characters[index] != characters[next],
        characters[index].isNumber == characters[next].isNumber
      {
        var swapped = characters
        swapped.swapAt(index, next)
        #expect(throws: IBAN.Problem.self, "\(String(swapped))") { try IBAN(parsing: String(swapped)) }
        refused += 1
      }
    }
    #expect(refused > characters.count * 9)
  }

  @Test func eachReasonIsSaid() {
    #expect(throws: IBAN.Problem.checksum) { try IBAN(parsing: "DE89 3704 0044 0532 0130 01") }
    #expect(throws: IBAN.Problem.length(found: 21, expected: 22, country: "DE")) {
      try IBAN(parsing: "DE89 3704 0044 0532 0130 0")
    }
    #expect(throws: IBAN.Problem.length(found: 12, expected: nil, country: "ZZ")) {
      try IBAN(parsing: "ZZ12 3456 7890")
    }
    #expect(throws: IBAN.Problem.start) { try IBAN(parsing: "1234 5678 9012 3456") }
    #expect(throws: IBAN.Problem.start) { try IBAN(parsing: "") }
    #expect(throws: IBAN.Problem.character("-")) { try IBAN(parsing: "DE89-3704-0044-0532-0130-00") }
    #expect(throws: IBAN.Problem.character("\n")) { try IBAN(parsing: "DE89\n370400440532013000") }
    #expect(throws: IBAN.Problem.character("Ä")) { try IBAN(parsing: "DÄ89370400440532013000") }
    // Messages never echo a control character.
    #expect(IBAN.Problem.character("\u{1B}").description == "a character is not a letter, a digit or a space")
    #expect(IBAN.Problem.checksum.description.contains("check digits"))
  }

  /// A country the table does not know is checked by its digits alone: a new member of the
  /// registry is not refused for being new.
  @Test func anUnlistedCountryIsCheckedByItsDigits() throws {
    // "ZZ" with check digits computed for "123456789012": 123456789012 ZZ00 → 98 − n mod 97.
    var digits = "123456789012" + "3535" + "00"
    var remainder = 0
    for character in digits { remainder = (remainder * 10 + Int(String(character))!) % 97 }
    let check = 98 - remainder
    digits = "ZZ" + (check < 10 ? "0" : "") + String(check) + "123456789012"
    #expect(try IBAN(parsing: digits).electronic == digits)
  }

  @Test func aBICIsEightOrElevenOfTheRightKind() {
    #expect(BIC(parsing: "cobadeffxxx")?.code == "COBADEFFXXX")
    #expect(BIC(parsing: " COBADEFF ")?.code == "COBADEFF")
    #expect(BIC(parsing: "DEUTDEDB101")?.code == "DEUTDEDB101")
    for bad in ["COBADEFF1", "COBADEF", "C0BADEFFXXX", "COBADEFFXXXX", "COBA-DEFF", "", "ÇOBADEFF"] {
      #expect(BIC(parsing: bad) == nil, "\(bad)")
    }
  }

  @Test func aPaymentLinkIsHTTPSAndCannotBreakOutOfAnAttribute() {
    #expect(PaymentDetails.isPaymentLink("https://paypal.me/ben"))
    #expect(PaymentDetails.isPaymentLink("HTTPS://revolut.me/ana?amount=12"))
    for bad in [
      "http://paypal.me/ben", "javascript:alert(1)", "https://", "https:///path", "https://a b",
      "https://a\"onmouseover=x",
      "https://a'x", "https://a<b>", "https://a\u{202E}b", "https://a\nb", "https://a`b", "paypal.me/ben",
      "https://" + String(repeating: "a", count: 500),
    ] {
      #expect(!PaymentDetails.isPaymentLink(bad), "\(bad)")
    }
  }
}
