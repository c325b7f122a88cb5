import Foundation
import SplitBillBytes
import SplitBillJSON
import SplitBillModel
import Testing

@testable import SplitBillCore

struct AmountCase: Sendable, CustomTestStringConvertible {
  var text: String
  var currency: String
  var expected: Result<Int64, DecimalText.SyntaxError>
  var testDescription: String { "'\(text)' \(currency)" }

  static func ok(_ text: String, _ currency: String, _ units: Int64) -> AmountCase {
    AmountCase(text: text, currency: currency, expected: .success(units))
  }
  static func bad(_ text: String, _ currency: String, _ error: DecimalText.SyntaxError) -> AmountCase {
    AmountCase(text: text, currency: currency, expected: .failure(error))
  }

  static let all: [AmountCase] = [
    .ok("84.50", "EUR", 8450), .ok("84.5", "EUR", 8450), .ok("84", "EUR", 8400), .ok("+84.50", "EUR", 8450),
    .ok("0", "EUR", 0), .ok("0.01", "USD", 1), .ok(" 12.30 ", "USD", 1230), .ok("4780", "JPY", 4780),
    .ok("10.005", "KWD", 10005), .ok("1.2345", "CLF", 12345), .ok("84.500", "EUR", 8450),
    .ok("007.10", "EUR", 710), .ok("999999999999.99", "EUR", 99_999_999_999_999),
    .bad("12.345", "EUR", .tooManyDecimals(3)), .bad("12.5", "JPY", .tooManyDecimals(1)),
    .bad("1.0001", "KWD", .tooManyDecimals(4)), .bad("1e3", "EUR", .exponentNotation),
    .bad("1.5E2", "EUR", .exponentNotation), .bad("1,234.50", "EUR", .thousandsSeparator),
    .bad("1 234", "EUR", .thousandsSeparator), .bad("1_000", "EUR", .thousandsSeparator),
    .bad("", "EUR", .empty), .bad("   ", "EUR", .empty), .bad("-5.00", "EUR", .negative),
    .bad("12.5O", "EUR", .notANumber), .bad("abc", "EUR", .notANumber), .bad("1.2.3", "EUR", .notANumber),
    .bad("+", "EUR", .notANumber), .bad(".5", "EUR", .notANumber), .bad("5.", "EUR", .notANumber),
    .bad("NaN", "EUR", .notANumber), .bad("inf", "EUR", .notANumber), .bad("++1", "EUR", .notANumber),
    .bad("1000000000000000", "JPY", .tooLarge), .bad("10000000000000.00", "EUR", .tooLarge),
    .bad("99999999999999999999999999", "EUR", .tooLarge),
  ]
}

@Suite struct MoneyParsingTests {
  @Test(arguments: AmountCase.all)
  func parsesExactlyOrExplainsWhy(_ c: AmountCase) throws {
    let currency = try Currency(code: c.currency)
    switch c.expected {
    case .success(let units):
      #expect(try Money(parsing: c.text, currency: currency).minorUnits == units)
    case .failure(let reason):
      #expect(throws: MoneyError.invalidAmount(c.text, reason, currency: currency)) {
        try Money(parsing: c.text, currency: currency)
      }
    }
  }

  @Test func messagesNameTheFieldTheTextAndWhatWasExpected() throws {
    let eur = try Currency(code: "EUR")
    func message(_ text: String, _ currency: Currency = eur) -> String {
      do {
        _ = try Money(parsing: text, currency: currency)
        return "accepted"
      } catch {
        return error.message(field: "amount")
      }
    }
    #expect(message("12.345") == "amount '12.345' has 3 decimals but EUR has 2")
    #expect(message("12.5", try Currency(code: "JPY")) == "amount '12.5' has 1 decimal but JPY has none")
    #expect(message("1e3") == "amount '1e3' uses exponent notation: write the digits out, with at most 2 decimals")
    #expect(message("1,234.50").hasPrefix("amount '1,234.50' has a thousands separator: write 1234.50"))
    #expect(message("-3") == "amount '-3' is negative: expected zero or more")
    #expect(message("") == "amount is empty: expected an amount such as 1234.50")
    #expect(
      message("12.5O") == "amount '12.5O' is not a number: expected digits with at most 2 decimals, such as 1234.50")
    #expect(message("1e99999").contains("exponent notation"))
  }

  @Test func decimalCommaReadsCommaAsThePoint() throws {
    let eur = try Currency(code: "EUR")
    #expect(try Money(parsing: "84,50", currency: eur, decimalComma: true).minorUnits == 8450)
    #expect(throws: MoneyError.invalidAmount("1.234,50", .thousandsSeparator, currency: eur)) {
      try Money(parsing: "1.234,50", currency: eur, decimalComma: true)
    }
  }

  @Test func printsInTheCurrencysOwnDigits() throws {
    #expect(Money(minorUnits: 3334, currency: .usd).decimalString == "33.34")
    #expect(Money(minorUnits: 4780, currency: try Currency(code: "JPY")).decimalString == "4780")
    #expect(Money(minorUnits: 10005, currency: try Currency(code: "KWD")).decimalString == "10.005")
    #expect(Money(minorUnits: 5, currency: try Currency(code: "KWD")).decimalString == "0.005")
    #expect(Money(minorUnits: -150, currency: .usd).decimalString == "-1.50")
    #expect(Money(minorUnits: -5, currency: .usd).decimalString == "-0.05")
  }

  @Test func printingAndParsingRoundTrip() throws {
    var random = SeededGenerator(seed: 7)
    for code in ["JPY", "EUR", "KWD", "CLF"] {
      let currency = try Currency(code: code)
      for _ in 0..<2_000 {
        let units = Int64.random(in: 0...Money.maximumMinorUnits, using: &random)
        let money = Money(minorUnits: units, currency: currency)
        #expect(try Money(parsing: money.decimalString, currency: currency) == money)
      }
    }
  }

  @Test func sumsAreCheckedNotTrapped() throws {
    let big = Money(minorUnits: .max, currency: .usd)
    #expect(throws: MoneyError.overflow) { try big.adding(Money(minorUnits: 1, currency: .usd)) }
    let eur = try Currency(code: "EUR")
    #expect(throws: MoneyError.currencyMismatch(.usd, eur)) {
      try Money.zero(.usd).adding(Money.zero(eur))
    }
  }
}

@Suite struct CurrencyTests {
  @Test(arguments: [
    ("JPY", 0), ("KRW", 0), ("ISK", 0), ("CLP", 0), ("VND", 0), ("EUR", 2), ("USD", 2), ("GBP", 2),
    ("CHF", 2), ("BHD", 3), ("IQD", 3), ("JOD", 3), ("KWD", 3), ("LYD", 3), ("OMR", 3), ("TND", 3),
    ("CLF", 4), ("UYW", 4), ("eur", 2),
  ])
  func knowsTheISOExponent(code: String, exponent: Int) throws {
    let currency = try Currency(code: code)
    #expect(currency.exponent == exponent)
    #expect(currency.code == code.uppercased())
  }

  @Test(arguments: ["XYZ", "EURO", "", "US", "€", "XAU"])
  func refusesUnknownCodesNamingThem(code: String) {
    #expect(throws: MoneyError.unknownCurrency(code)) { try Currency(code: code) }
    #expect(MoneyError.unknownCurrency(code).description.contains("'\(code)'"))
  }

  @Test func tableCoversTheCurrentISOList() {
    #expect(Currency.allCodes.count >= 150)
    #expect(Currency.allCodes.allSatisfy { $0.count == 3 && $0 == $0.uppercased() })
  }
}

@Suite struct PercentTests {
  @Test(arguments: [
    ("15", Int64(150_000)), ("15%", 150_000), ("15 %", 150_000), ("12.5", 125_000), ("17.125", 171_250),
    ("0", 0), ("100", 1_000_000), ("100%", 1_000_000), ("0.0001", 1), ("+18", 180_000), ("18.0000", 180_000),
  ])
  func parsesExactly(text: String, tenThousandths: Int64) throws {
    #expect(try Percent(parsing: text).tenThousandths == tenThousandths)
  }

  @Test(arguments: [
    ("100.01", PercentError.Problem.outOfRange), ("-1", .outOfRange), ("1000", .outOfRange),
    ("12.34567", .tooManyDecimals), ("abc", .notANumber), ("", .notANumber), ("%", .notANumber),
    ("1e1", .notANumber), ("15%%", .notANumber),
  ])
  func refusesWithAReason(text: String, problem: PercentError.Problem) {
    #expect(throws: PercentError(text: text, problem: problem)) { try Percent(parsing: text) }
  }

  @Test func printsWithoutTrailingZeros() throws {
    #expect(try Percent(parsing: "17.1250").decimalString == "17.125")
    #expect(Percent.preset15.description == "15%")
    #expect(Percent.presets.map(\.decimalString) == ["10", "15", "20"])
  }
}

@Suite struct RoundingTests {
  @Test(arguments: [
    (RoundingMode.halfUp, [2, 3, 3, 4, 3]), (.halfEven, [2, 2, 3, 4, 3]), (.up, [3, 3, 3, 4, 4]),
    (.down, [2, 2, 2, 3, 3]),
  ])
  func roundsByMode(mode: RoundingMode, expected: [Int]) {
    // 2.1, 2.5, 2.9, 3.5, 3.25 with denominator 100 on the hundredths
    let numerators: [Int128] = [210, 250, 290, 350, 325]
    #expect(numerators.map { Int(mode.divide($0, by: 100)) } == expected)
  }

  @Test func exactQuotientsAreNeverMoved() {
    for mode in RoundingMode.allCases {
      for value in 0..<200 { #expect(mode.divide(Int128(value * 7), by: 7) == Int128(value)) }
    }
  }
}

/// The one-pass parser against a plain reference (digits collected into arrays first, the way the
/// rules read), over generated texts mixing digits, points, commas, signs, blanks and stray letters.
@Suite struct DecimalTextAgreementTests {
  static func reference(
    _ text: String, scale: Int, maxIntegerDigits: Int, decimalComma: Bool, allowNegative: Bool
  ) -> Result<Int64, DecimalText.SyntaxError> {
    var bytes = Array(text.utf8)
    while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
    while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
    guard !bytes.isEmpty else { return .failure(.empty) }
    let point: UInt8 = decimalComma ? 0x2C : 0x2E
    let groups: Set<UInt8> = decimalComma ? [0x2E, 0x20, 0x5F, 0x27] : [0x2C, 0x20, 0x5F, 0x27]
    var index = 0
    var negative = false
    if bytes[0] == 0x2B { index = 1 } else if bytes[0] == 0x2D { (negative, index) = (true, 1) }
    var integer: [Int64] = []
    var fraction: [Int64] = []
    var sawPoint = false
    while index < bytes.count {
      let byte = bytes[index]
      if (0x30...0x39).contains(byte) {
        if sawPoint { fraction.append(Int64(byte - 0x30)) } else { integer.append(Int64(byte - 0x30)) }
      } else if byte == point && !sawPoint {
        sawPoint = true
      } else if byte == 0x65 || byte == 0x45 {
        return .failure(integer.isEmpty && fraction.isEmpty ? .notANumber : .exponentNotation)
      } else if groups.contains(byte) && !sawPoint && !integer.isEmpty {
        return .failure(.thousandsSeparator)
      } else {
        return .failure(.notANumber)
      }
      index += 1
    }
    guard !integer.isEmpty, !sawPoint || !fraction.isEmpty else { return .failure(.notANumber) }
    if negative && !allowNegative { return .failure(.negative) }
    while fraction.count > scale, fraction.last == 0 { fraction.removeLast() }
    if fraction.count > scale { return .failure(.tooManyDecimals(fraction.count)) }
    let significant = integer.drop { $0 == 0 }
    if significant.count > maxIntegerDigits { return .failure(.tooLarge) }
    var value = significant.reduce(Int64(0)) { $0 * 10 + $1 }
    for position in 0..<scale { value = value * 10 + (position < fraction.count ? fraction[position] : 0) }
    return .success(negative ? -value : value)
  }

  @Test func agreesWithTheReferenceOnGeneratedTexts() {
    var random = SeededGenerator(seed: 0xDEC1)
    let pieces = ["0", "1", "5", "9", "00", "12", ".", ",", "+", "-", " ", "\t", "e", "E", "_", "'", "x", "%", "é"]
    for _ in 0..<20_000 {
      let text = (0..<Int.random(in: 0...9, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }
        .joined()
      let scale = Int.random(in: 0...4, using: &random)
      let comma = Bool.random(using: &random)
      let negative = Bool.random(using: &random)
      let parsed = Result { () throws(DecimalText.SyntaxError) -> Int64 in
        try DecimalText.parse(text, scale: scale, maxIntegerDigits: 6, decimalComma: comma, allowNegative: negative)
      }
      let expected = Self.reference(
        text, scale: scale, maxIntegerDigits: 6, decimalComma: comma, allowNegative: negative)
      #expect(parsed == expected, "\(text.debugDescription) scale \(scale) comma \(comma) negative \(negative)")
    }
  }
}

/// The byte writers (cursor into room made up front) print what the string functions print.
@Suite struct ByteWriterTests {
  @Test func decimalsDatesAndJSONStringsMatchIndependentReferences() throws {
    var random = SplitMix64(seed: 21)
    // Text made without the writers: the digits of the magnitude, padded, a point put in.
    func reference(_ value: Int64, scale: Int) -> String {
      var digits = String(value.magnitude)
      if digits.count < scale + 1 { digits = String(repeating: "0", count: scale + 1 - digits.count) + digits }
      if scale > 0 { digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale)) }
      return (value < 0 ? "-" : "") + digits
    }
    // The same without trailing zeros after the point, nor a bare point.
    func trimmedReference(_ value: Int64, scale: Int) -> String {
      var text = reference(value, scale: scale)
      guard text.contains(".") else { return text }
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
      return text
    }
    for _ in 0..<2_000 {
      let value = Int64(bitPattern: random.next()) >> Int(random.next() % 64)
      let scale = Int(random.next() % 5)
      #expect(DecimalText.format(value, scale: scale) == reference(value, scale: scale), "\(value) \(scale)")
      #expect(DecimalText.trimmed(value, scale: scale) == trimmedReference(value, scale: scale), "\(value) \(scale)")
      var bytes: [UInt8] = [0x41]
      DecimalText.append(value, scale: scale, to: &bytes)
      DecimalText.appendTrimmed(value, scale: scale, to: &bytes)
      #expect(
        String(decoding: bytes, as: UTF8.self)
          == "A" + reference(value, scale: scale) + trimmedReference(value, scale: scale))
    }
    for value in [Int64.min, Int64.max, 0, -1, 9, 10, 99, 100, 101] {
      for scale in 0...4 { #expect(DecimalText.format(value, scale: scale) == reference(value, scale: scale)) }
    }
    // The byte writers' form hands out each offset of the text once (the cursor's unchecked
    // stores rely on it), at every length: powers of ten and their neighbours, every sign.
    var values: [Int64] = [Int64.min, Int64.max, 0]
    var power: Int64 = 1
    for _ in 0..<19 {
      values += [power, power - 1, power + 1, -power, 1 - power]
      power = power.multipliedReportingOverflow(by: 10).partialValue
    }
    for value in values {
      for scale in 0...6 {
        let length = DecimalText.length(value, scale: scale)
        var text = [UInt8](repeating: 0, count: length)
        var offsets: [Int] = []
        DecimalText.write(value, scale: scale, length: length) { byte, offset in
          offsets.append(offset)
          text[offset] = byte
        }
        #expect(offsets.sorted() == Array(0..<length), "\(value) \(scale)")
        #expect(String(decoding: text, as: UTF8.self) == reference(value, scale: scale))
      }
    }
    func padded(_ value: Int, _ width: Int) -> String {
      String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
    }
    // Every day of every year the format takes, written both ways, against the padded digits.
    for _ in 0..<2_000 {
      let (year, month, day) = (
        1 + Int(random.next() % 9_999), 1 + Int(random.next() % 12), 1 + Int(random.next() % 28)
      )
      let date = try #require(CalendarDate(year: year, month: month, day: day))
      let expected = "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
      var bytes: [UInt8] = []
      date.appendISO(to: &bytes)
      #expect(date.description == expected)
      #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }
    // Years outside 1...9999 have no four-digit form: there is no such date.
    for (year, month, day) in [(12345, 6, 7), (-44, 3, 15), (0, 12, 31), (10_000, 1, 1)] {
      #expect(CalendarDate(year: year, month: month, day: day) == nil, "\(year)")
    }
    let pieces = ["a", "é", "\"", "\\", "\n", "\u{1}", "\u{7F}", "\u{2028}", "李", " ", "\t"]
    for _ in 0..<2_000 {
      let text = (0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
      var bytes: [UInt8] = []
      JSON.appendQuoted(text, to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == JSON.quote(text), "\(text.debugDescription)")
      // An independent reader gives the text back, and no control character is left raw.
      let decoded = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String
      #expect(decoded == text, "\(text.debugDescription)")
      #expect(!bytes.contains { $0 < 0x20 || $0 == 0x7F }, "\(text.debugDescription)")
    }
  }
}
