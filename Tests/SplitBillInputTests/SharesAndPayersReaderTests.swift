import SplitBillCore
import Testing

/// `paid_by` as a mapping of payers to amounts and `shares` (exact parts of the amount), in YAML
/// and CSV: what they read as, and each rule's diagnostic at its place.
@Suite struct SharesAndPayersReaderTests {
  static let eur = (try? Currency(code: "EUR")) ?? .usd

  @Test func severalPayersAndExactSharesRead() throws {
    let yaml = try read(
      """
      defaults: {currency: EUR}
      bills:
        - {id: m, amount: 100.54, tip: 10, diners: [Ana, Ben, Chloé], paid_by: {Ana: 60.00, Ben: 50.59}}
        - {id: s, amount: 20.00, tip: 15, shares: {Ana: 12.50, Ben: 7.50}, paid_by: {Chloé: 23.00}}
      """)
    #expect(yaml.lines == [])
    let csv = try read(
      "id,amount,currency,tip,diners,paid_by,shares\nm,100.54,EUR,10,Ana;Ben;Chloé,Ana:60.00;Ben:50.59,\n"
        + "s,20.00,EUR,15,,Chloé:23.00,Ana:12.50;Ben:7.50\n", name: "bills.csv")
    #expect(csv.lines == [])
    for result in [yaml, csv] {
      let several = try #require(result.bills.first)
      #expect(several.terms.payer == nil)
      #expect(several.terms.payers.map(\.person) == ["Ana", "Ben"])
      #expect(several.terms.payers.map(\.amount.minorUnits) == [6000, 5059])
      let exact = try #require(result.bills.last)
      #expect(exact.terms.payer == "Chloé", "one payer with an amount is the payer")
      #expect(
        exact.terms.diners
          == .exact([
            Diner(name: "Ana", part: Money(minorUnits: 1250, currency: Self.eur)),
            Diner(name: "Ben", part: Money(minorUnits: 750, currency: Self.eur)),
          ]))
    }
  }

  static let invalid: [(text: String, expected: [String])] = [
    (
      "- {amount: 100.54, tip: 10, currency: EUR, diners: 2, paid_by: {Ana: 60.00, Ben: 50.00}}\n",
      ["1:64: error: paid_by adds up to 110.00 EUR but the bill's total is 110.59 EUR (tip included): 0.59 EUR short"]
    ),
    (
      "- {amount: 20.00, tip: 15, currency: EUR, shares: {Ana: 12.50, Ben: 7.00}}\n",
      ["1:51: error: shares add up to 19.50 EUR but the amount is 20.00 EUR: 0.50 EUR short"]
    ),
    (
      "- {amount: 20, tip: 0, shares: {Ana: 20}, diners: [Ana]}\n",
      ["1:24: error: both shares and diners are given: shares name the diners (with their parts), so leave out diners"]
    ),
    (
      "- {amount: 20, tip: 0, diners: 2, paid_by: {Ana: 10, Ana: 10}}\n",
      ["1:54: error: 'Ana' is listed twice in paid_by (first at bills.yaml:1:45)"]
    ),
    (
      "- {amount: 20, tip: 0, diners: 2, paid_by: {Ana: ~, Ben: 20}}\n",
      [
        "1:45: error: paid_by 'Ana' has no amount: when several paid, give each one's part of the total, such as {Ana: 60.00, Ben: 50.59}"
      ]
    ),
    (
      "- {amount: 20, tip: 0, shares: {Ana: 20.001}}\n",
      ["1:38: error: shares '20.001' has 3 decimals but USD has 2"]
    ),
    (
      "- {amount: 20, tip: 0, shares: [Ana, Ben]}\n",
      [
        "1:33: error: shares 'Ana' has no amount: give each diner's part of the amount before tip, such as {Ana: 12.50, Ben: 7.50}",
        "1:38: error: shares 'Ben' has no amount: give each diner's part of the amount before tip, such as {Ana: 12.50, Ben: 7.50}",
      ]
    ),
    (
      "- {amount: 20, tip: 0, shares: 20}\n",
      [
        "1:32: error: shares must be a mapping of names to their parts of the amount, such as {Ana: 12.50, Ben: 7.50}, not '20'"
      ]
    ),
    (
      "- {amount: 20, tip: 0, diners: [Ana, Ben], paid_by: {Ana: 10, Ben: 10}, leftover: payer}\n",
      ["1:53: error: leftover policy 'payer' needs one payer, but several paid this bill"]
    ),
    (
      "people: [Ana, Ben]\nbills:\n  - {amount: 20, tip: 0, shares: {Ana: 10, Bem: 10}}\n",
      ["3:44: error: shares 'Bem' is not in people; did you mean 'Ben'?"]
    ),
  ]

  @Test(arguments: invalid)
  func problemsAreLocated(text: String, expected: [String]) throws {
    let result = try read(text)
    #expect(result.lines == expected)
    #expect(result.bills.isEmpty)
  }
}
