import SplitBillCore
import Testing

/// Payments in YAML (`payments:`) and CSV (a file whose header names `from` and `to`): what they
/// read as, and every rule's diagnostic at its line and column.
@Suite struct PaymentReaderTests {
  @Test func yamlPaymentsReadWithTheFilesDefaults() throws {
    let result = try read(
      """
      defaults: {currency: JPY}
      people: [Ana, Ben]
      bills:
        - {id: b1, amount: 3000, tip: 0, diners: [Ana, Ben], paid_by: Ana}
      payments:
        - {id: p1, date: 2026-11-20, from: " Ben", to: Ana, amount: 1500, notes: cash}
        - {from: Ana, to: Ben, amount: 12.5, currency: EUR}
      """)
    #expect(result.lines == [])
    #expect(result.bills.map(\.id) == ["b1"])
    #expect(result.payments.first?.id == "p1")
    #expect(result.payments.last?.id.hasSuffix("/bills.yaml#p2") == true, "the default id counts payments")
    let first = try #require(result.payments.first)
    #expect(
      first.payment
        == Payment(from: "Ben", to: "Ana", amount: Money(minorUnits: 1500, currency: try Currency(code: "JPY"))))
    #expect(first.date == CalendarDate(iso: "2026-11-20"))
    #expect(first.notes == "cash")
    #expect(first.source.line == 6 && first.source.column == 5)
    #expect(result.payments.last?.payment.amount == Money(minorUnits: 1250, currency: try Currency(code: "EUR")))
  }

  static let invalid: [(text: String, expected: [String])] = [
    ("payments:\n  - {from: Ben, amount: 5}\n", ["2:5: error: payment has no 'to': expected who received the money"]),
    (
      "payments:\n  - {from: Ben, to: '', amount: 5}\n",
      ["2:21: error: payment has no 'to': expected who received the money"]
    ),
    (
      "payments:\n  - {from: Ben, to: Ana}\n",
      ["2:5: error: payment has no 'amount': expected how much was paid, such as 20.00"]
    ),
    (
      "payments:\n  - {from: Ben, to: Ben, amount: 5}\n",
      ["2:21: error: payment from 'Ben' to 'Ben': a payment is between two people"]
    ),
    (
      "payments:\n  - {from: Ben, to: Ana, amount: 0.00}\n",
      ["2:34: error: payment amount '0.00' is not more than zero: expected an amount such as 20.00"]
    ),
    (
      "payments:\n  - {from: Ben, to: Ana, amount: -1}\n",
      ["2:34: error: amount '-1' is negative: expected zero or more"]
    ),
    (
      "payments:\n  - {from: Ben, to: Ana, amount: 1.005}\n",
      ["2:34: error: amount '1.005' has 3 decimals but USD has 2"]
    ),
    (
      "payments:\n  - {from: Ben, too: Ana, amount: 1}\n",
      [
        "2:17: error: unknown key 'too' in payment; did you mean 'to'?",
        "2:5: error: payment has no 'to': expected who received the money",
      ]
    ),
    (
      "people: [Ana, Ben]\npayments:\n  - {from: Bem, to: Ana, amount: 1}\n",
      ["3:12: error: from 'Bem' is not in people; did you mean 'Ben'?"]
    ),
    (
      "payments:\n  - {from: [Ben], to: Ana, amount: 1}\n",
      ["2:12: error: from must be a single value, not a list"]
    ),
    (
      "payments:\n  - [Ben, Ana, 1]\n",
      ["2:5: error: a payment must be a mapping with keys such as from, to and amount, found a list"]
    ),
    ("payments: {from: Ben}\n", ["1:11: error: 'payments' must be a list of payments, found a mapping"]),
    (
      "payments:\n  - {from: Ben, to: Ana, amount: 1, date: 2026-13-01}\n",
      ["2:43: error: date '2026-13-01' is not a real calendar date"]
    ),
    (
      "bills:\n  - {id: x, amount: 1, tip: 0, diners: 1}\npayments:\n  - {id: x, from: Ben, to: Ana, amount: 1}\n",
      ["4:5: error: duplicate payment id 'x': also used at bills.yaml:2:5"]
    ),
    (
      "payments: []\npeople: [Ana]\n",
      ["2:1: error: 'people' must come before 'bills' and 'payments' in the file, so they can be read as they stream"]
    ),
  ]

  @Test(arguments: invalid)
  func yamlPaymentProblemsAreLocated(text: String, expected: [String]) throws {
    let result = try read(text)
    #expect(result.lines == expected)
    #expect(result.payments.isEmpty)
  }

  @Test func aCSVFileWhoseHeaderNamesFromAndToIsPayments() throws {
    let result = try read(
      "ID,Date,From,To,Amount,Currency,Notes\np1,2026-11-20,Ben,Ana,10.00,EUR,\"cash, thanks\"\np2,,Ana,,3,,\n\np3,2026-11-21,Ana,Ben,x,,\n",
      name: "payments.csv")
    #expect(result.payments.map(\.id) == ["p1"])
    #expect(result.payments.first?.notes == "cash, thanks")
    #expect(
      result.lines == [
        "3:9: error: payment has no 'to': expected who received the money",
        "5:23: error: amount 'x' is not a number: expected digits with at most 2 decimals, such as 1234.50",
      ])
    #expect(result.invalid.map(\.id) == ["p2", "p3"])
  }

  @Test func aPaymentsHeaderIsCheckedLikeABillsHeader() throws {
    #expect(
      try read("from,to,amount,tipp\nA,B,1,\n", name: "p.csv").lines == [
        "1:16: error: unknown column 'tipp' in the header of a payments file: expected columns among id, date, from, to, amount, currency, notes"
      ])
    #expect(
      try read("from,to,notes\nA,B,x\n", name: "p.csv").lines == ["1:1: error: the header has no 'amount' column"])
    #expect(
      try read("from,to,amount,dat\n", name: "p.csv").lines == [
        "1:16: error: unknown column 'dat' in the header of a payments file; did you mean 'date'?"
      ])
  }
}
