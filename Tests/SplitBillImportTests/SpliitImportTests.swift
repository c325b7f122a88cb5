import SplitBillCore
import Testing

@testable import SplitBillImport

/// A Spliit export of Ana, Ben and Chloé with `expenses` (JSON objects' text).
private func spliit(
  _ expenses: [String], currencyCode: String? = "\"EUR\"", fallback: Currency? = nil, skipInvalid: Bool = false
) throws -> ImportResult {
  let text = """
    {"id": "g1", "name": "Trip", "currency": "€", "currencyCode": \(currencyCode ?? "null"),
     "participants": [{"id": "a", "name": "Ana"}, {"id": "b", "name": "Ben"}, {"id": "c", "name": "Chloé"}],
     "expenses": [\(expenses.joined(separator: ",\n"))], "activities": []}
    """
  return try SpliitImport.read(Array(text.utf8), currency: fallback, skipInvalid: skipInvalid)
}

/// One expense paid by `payer` for `paidFor` (participant id and shares).
private func expense(
  _ id: String, amount: Int, payer: String = "a", mode: String, _ paidFor: [(String, Int)], reimbursement: Bool = false
) -> String {
  let list = paidFor.map { "{\"participantId\": \"\($0.0)\", \"shares\": \($0.1)}" }.joined(separator: ", ")
  return """
    {"id": "\(id)", "expenseDate": "2026-11-14T00:00:00.000Z", "title": "T \(id)", "amount": \(amount),
     "paidById": "\(payer)", "paidFor": [\(list)], "isReimbursement": \(reimbursement), "splitMode": "\(mode)",
     "notes": null, "category": {"grouping": "Food and Drink", "name": "Dining Out"}}
    """
}

@Suite struct SpliitImportTests {
  @Test func eachSplitModeIsWorkedOutAsSpliitDoes() throws {
    let result = try spliit([
      expense("even", amount: 1000, mode: "EVENLY", [("a", 1), ("b", 1), ("c", 1)]),
      expense("shares", amount: 1000, payer: "b", mode: "BY_SHARES", [("a", 100), ("b", 200), ("c", 300)]),
      expense("percent", amount: 999, payer: "c", mode: "BY_PERCENTAGE", [("a", 5000), ("b", 2500), ("c", 2500)]),
      expense("amount", amount: 2550, mode: "BY_AMOUNT", [("b", 1000), ("c", 1550)]),
    ])
    #expect(result.errors.isEmpty, "\(result.errors)")
    let shares = result.book.bills.map { $0.shares.map(\.minorUnits) }
    // Each share rounded down, the last participant taking what is left.
    #expect(shares == [[333, 333, 334], [166, 333, 501], [499, 249, 251], [1000, 1550]])
    #expect(result.book.bills.map { $0.payers.map(\.person) } == [["Ana"], ["Ben"], ["Chloé"], ["Ana"]])
    #expect(result.book.bills[0].comment == "Spliit: split evenly")
    #expect(result.book.bills[2].comment == "Spliit: split by percentage 50%/25%/25%")
    #expect(result.book.bills[0].notes == "Spliit category: Food and Drink / Dining Out")
    #expect(result.book.bills[0].date == CalendarDate(year: 2026, month: 11, day: 14))
    let euro = try Currency(code: "EUR")
    // Paid minus shares: Ana paid 10.00 and 25.50, Ben 10.00, Chloé 9.99.
    let ana: Int64 = 1000 + 2550 - 333 - 166 - 499
    let ben: Int64 = 1000 - 333 - 333 - 249 - 1000
    let chloe: Int64 = 999 - 334 - 501 - 251 - 1550
    #expect(result.book.expectedBalances[euro] == ["Ana": ana, "Ben": ben, "Chloé": chloe])
  }

  @Test func aReimbursementIsAPayment() throws {
    let result = try spliit([expense("back", amount: 2000, payer: "b", mode: "EVENLY", [("a", 1)], reimbursement: true)]
    )
    #expect(result.book.bills.isEmpty)
    #expect(result.book.payments.map { "\($0.id) \($0.from)->\($0.to) \($0.amount)" } == ["back Ben->Ana 20.00 EUR"])
  }

  @Test func expensesSplitbillCannotTakeAreErrorsNamingThem() throws {
    let text = [
      expense("fine", amount: 300, mode: "EVENLY", [("a", 1), ("b", 1)]),
      expense("items", amount: 300, mode: "ITEMIZED", [("a", 1)]),
      expense("refund", amount: -300, mode: "EVENLY", [("a", 1), ("b", 1)]),
      expense("stranger", amount: 300, payer: "z", mode: "EVENLY", [("a", 1)]),
      expense("sum", amount: 300, mode: "BY_AMOUNT", [("a", 100), ("b", 100)]),
    ]
    let result = try spliit(text)
    #expect(
      result.errors.map(\.code) == [
        "spliit.split-mode", "spliit.negative", "spliit.participant-unknown", "spliit.amounts-sum",
      ])
    #expect(result.errors[0].message.hasPrefix("expenses[1] 'T items' (id items): split mode 'ITEMIZED'"))
    #expect(result.errors[3].message.contains("add up to 2.00 EUR, not the expense's 3.00 EUR"))
    let skipping = try spliit(text, skipInvalid: true)
    #expect(skipping.book.skipped.count == 4)
    #expect(skipping.book.bills.map(\.id) == ["fine"])
  }

  @Test func aMissingCurrencyCodeNeedsTheCommandLine() throws {
    let one = [expense("x", amount: 1000, mode: "EVENLY", [("a", 1), ("b", 1)])]
    #expect {
      try spliit(one, currencyCode: nil)
    } throws: { error in
      (error as? ImportIssue)?.message.contains("--currency") == true
    }
    let result = try spliit(one, currencyCode: nil, fallback: try Currency(code: "JPY"))
    #expect(result.book.bills[0].amount.description == "1000 JPY")
  }

  @Test func malformedJSONIsLocated() {
    let text = "{\"participants\": [],\n \"expenses\": [}\n"
    #expect {
      try SpliitImport.read(Array(text.utf8))
    } throws: { error in
      let issue = error as? ImportIssue
      return issue?.code == "spliit.json" && issue?.line == 2
    }
  }

  @Test func severalPayersAreImported() throws {
    let several = """
      {"id": "two", "title": "Two paid", "amount": 900, "paidBy": [{"participantId": "a", "shares": 600},
       {"participantId": "b", "shares": 300}], "paidBySplitMode": "BY_AMOUNT",
       "paidFor": [{"participantId": "a", "shares": 1}, {"participantId": "b", "shares": 1}, {"participantId": "c", "shares": 1}],
       "isReimbursement": false, "splitMode": "EVENLY"}
      """
    let result = try spliit([several])
    #expect(result.errors.isEmpty, "\(result.errors)")
    #expect(result.book.bills[0].payers.map(\.minorUnits) == [600, 300])
    #expect(result.book.bills[0].shares.map(\.minorUnits) == [300, 300, 300])
  }
}
