import SplitBillCore
import Testing

@testable import SplitBillReports

/// The EPC QR code's text, line by line, as the European Payments Council's guidelines set it.
@Suite struct EPCPaymentTests {
  let eur: Currency
  let iban: IBAN

  init() throws {
    eur = try Currency(code: "EUR")
    iban = try IBAN(parsing: "DE89 3704 0044 0532 0130 00")
  }

  @Test func aTransferIsElevenLinesOfTheGuidelines() throws {
    let payload = EPCPayment.payload(
      name: "Ben", iban: iban, bic: BIC(parsing: "COBADEFFXXX"), amount: Money(minorUnits: 4_500, currency: eur),
      reference: EPCPayment.reference(title: "Lisbon trip", from: "Ana", to: "Ben"))
    #expect(
      payload
        == "BCD\n002\n1\nSCT\nCOBADEFFXXX\nBen\nDE89370400440532013000\nEUR45.00\n\n\nLisbon trip: Ana to Ben")
    // No BIC: its line is empty (version 002, within the EEA).
    let withoutBIC = EPCPayment.payload(
      name: "Ben", iban: iban, bic: nil, amount: Money(minorUnits: 1, currency: eur), reference: "x")
    #expect(withoutBIC?.split(separator: "\n", omittingEmptySubsequences: false)[4] == "")
    #expect(withoutBIC?.contains("\nEUR0.01\n") == true)
  }

  @Test func onlyEurosInTheCodesRangeMakeACode() throws {
    let reference = "r"
    #expect(
      EPCPayment.payload(
        name: "Ben", iban: iban, bic: nil, amount: Money(minorUnits: 100, currency: try Currency(code: "CHF")),
        reference: reference) == nil)
    #expect(
      EPCPayment.payload(
        name: "Ben", iban: iban, bic: nil, amount: Money(minorUnits: 0, currency: eur), reference: reference) == nil)
    #expect(
      EPCPayment.payload(
        name: "Ben", iban: iban, bic: nil, amount: Money(minorUnits: 99_999_999_999, currency: eur),
        reference: reference)?
        .contains("\nEUR999999999.99\n") == true)
    #expect(
      EPCPayment.payload(
        name: "Ben", iban: iban, bic: nil, amount: Money(minorUnits: 100_000_000_000, currency: eur),
        reference: reference) == nil)
    // Euros kept in whole units: `EUR46`, which the guidelines allow.
    let whole = try Currency(code: "EUR").kept(wholeUnits: [eur])
    #expect(
      EPCPayment.payload(
        name: "Ben", iban: iban, bic: nil, amount: Money(minorUnits: 46, currency: whole), reference: reference)?
        .contains("\nEUR46\n") == true)
  }

  /// Names and titles are untrusted: a line break cannot add a line or move the IBAN, and long
  /// text is shortened, in whole characters, to the 70 and 140 characters and 331 bytes allowed.
  @Test func hostileNamesCannotShiftALineOrOverflow() throws {
    let hostile = [
      "Ben\nDE00000000000000000000\nEUR999", "\u{1B}[31mBen\r", "Ben\u{2028}x", "Bé\u{200B}n",
      String(repeating: "é", count: 300), String(repeating: "🧾", count: 200),
    ]
    for name in hostile {
      for title in ["Trip", String(repeating: "Ж", count: 400), "a\nb\tc"] {
        let payload = try #require(
          EPCPayment.payload(
            name: name, iban: iban, bic: nil, amount: Money(minorUnits: 1_234, currency: eur),
            reference: EPCPayment.reference(title: title, from: "Ana", to: name)))
        let lines = payload.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 11, "\(payload.debugDescription)")
        #expect(lines[6] == "DE89370400440532013000")
        #expect(lines[7] == "EUR12.34")
        #expect(payload.utf8.count <= EPCPayment.byteLimit)
        #expect(lines[5].count <= 70 && !lines[5].isEmpty)
        #expect(lines[10].count <= 140)
        #expect(!payload.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
      }
    }
    // A name of nothing but control characters has no beneficiary to name: no code.
    #expect(
      EPCPayment.payload(
        name: "\u{1}\n", iban: iban, bic: nil, amount: Money(minorUnits: 1, currency: eur), reference: "r") == nil)
  }
}
