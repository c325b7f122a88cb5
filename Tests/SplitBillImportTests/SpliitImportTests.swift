import SplitBillBytes
import SplitBillCore
import SplitBillModel
import Testing

@testable import SplitBillImport

/// A Spliit export of Ana, Ben and Chloé with `expenses` (JSON objects' text).
private func spliit(
  _ expenses: [String], currencyCode: String? = "\"EUR\"", fallback: Currency? = nil, rule: SpliitRule? = nil,
  skipInvalid: Bool = false
) throws -> ImportResult {
  let text = """
    {"id": "g1", "name": "Trip", "currency": "€", "currencyCode": \(currencyCode ?? "null"),
     "participants": [{"id": "a", "name": "Ana"}, {"id": "b", "name": "Ben"}, {"id": "c", "name": "Chloé"}],
     "expenses": [\(expenses.joined(separator: ",\n"))], "activities": []}
    """
  return try SpliitImport.read(
    Array(text.utf8), file: "export.json", currency: fallback, rule: rule, skipInvalid: skipInvalid)
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
  /// The 2024-01 rule, chosen: in `paidFor`'s order, each share rounded down, the last takes the rest.
  @Test func eachSplitModeIsWorkedOutAsSpliitDidInJanuary2024() throws {
    let result = try spliit(
      [
        expense("even", amount: 1000, mode: "EVENLY", [("a", 1), ("b", 1), ("c", 1)]),
        expense("shares", amount: 1000, payer: "b", mode: "BY_SHARES", [("a", 100), ("b", 200), ("c", 300)]),
        expense("percent", amount: 999, payer: "c", mode: "BY_PERCENTAGE", [("a", 5000), ("b", 2500), ("c", 2500)]),
        expense("amount", amount: 2550, mode: "BY_AMOUNT", [("b", 1000), ("c", 1550)]),
      ], rule: .floorLast)
    #expect(result.errors.isEmpty, "\(result.errors)")
    let shares = result.book.bills.map { $0.shares.map(\.minorUnits) }
    // Each share rounded down, the last participant taking what is left.
    #expect(shares == [[333, 333, 334], [166, 333, 501], [499, 249, 251], [1000, 1550]])
    #expect(result.book.bills.map { $0.payers.map(\.person) } == [["Ana"], ["Ben"], ["Chloé"], ["Ana"]])
    #expect(result.book.bills[0].comment == "Spliit: split evenly")
    #expect(result.book.bills[2].comment == "Spliit: split by percentage 50%/25%/25%")
    // The category's name is kept as the bill's category, not in its notes.
    #expect(result.book.bills[0].category == "Dining Out")
    #expect(result.book.bills[0].notes == nil)
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
      expense("stranger", amount: 300, payer: "z", mode: "EVENLY", [("a", 1)]),
      expense("none", amount: 300, mode: "BY_SHARES", [("a", 0), ("b", 0)]),
    ]
    let result = try spliit(text)
    #expect(result.errors.map(\.code) == ["spliit.split-mode", "spliit.participant-unknown", "spliit.shares"])
    #expect(result.errors[0].message.hasPrefix("expenses[1] 'T items' (id items): split mode 'ITEMIZED'"))
    let skipping = try spliit(text, skipInvalid: true)
    #expect(skipping.book.skipped.count == 3)
    #expect(skipping.book.bills.map(\.id) == ["fine"])
  }

  /// Spliit splits BY_AMOUNT and BY_PERCENTAGE in proportion whatever the shares add up to; the
  /// import does the same, with a warning.
  @Test func sharesThatDoNotAddUpAreARatioWithAWarning() throws {
    let result = try spliit([
      expense("sum", amount: 600, mode: "BY_AMOUNT", [("a", 100), ("b", 200)]),
      expense("pct", amount: 300, mode: "BY_PERCENTAGE", [("a", 2000), ("b", 4000)]),
    ])
    #expect(result.errors.isEmpty)
    #expect(result.book.remarks.map(\.code) == ["spliit.amounts-sum", "spliit.amounts-sum"])
    #expect(result.book.remarks[0].message.contains("add up to 3.00 EUR, not the expense's 6.00 EUR"))
    #expect(result.book.remarks[1].message.contains("add up to 60%, not 100%"))
    #expect(result.book.bills.map { $0.shares.map(\.minorUnits) } == [[200, 400], [100, 200]])
  }

  /// A negative amount (Spliit's income, a refund) is imported exactly, as the balances it moves.
  @Test func aNegativeAmountIsARefund() throws {
    let result = try spliit([
      expense("cost", amount: 900, mode: "EVENLY", [("a", 1), ("b", 1), ("c", 1)]),
      expense("refund", amount: -300, mode: "EVENLY", [("a", 1), ("b", 1), ("c", 1)]),
    ])
    #expect(result.errors.isEmpty)
    let refund = result.book.bills[1]
    #expect(refund.refund?.description == "-3.00 EUR")
    // Ana got 3.00 back, 1.00 of it hers: she owes Ben and Chloé 1.00 each.
    #expect(
      refund.payers == [ImportedPart(person: "Ben", minorUnits: 100), ImportedPart(person: "Chloé", minorUnits: 100)])
    #expect(refund.shares == [ImportedPart(person: "Ana", minorUnits: 200)])
    #expect(result.book.balances == result.book.expectedBalances)
    #expect(result.book.expectedBalances[try Currency(code: "EUR")] == ["Ana": 400, "Ben": -200, "Chloé": -200])
    #expect(result.book.billsSummary == "2 bills (1 refund)")
  }

  @Test func aMissingCurrencyCodeIsTheSymbolsOrTheCommandLines() throws {
    let one = [expense("x", amount: 1000, mode: "EVENLY", [("a", 1), ("b", 1)])]
    #expect(try spliit(one, currencyCode: nil).book.bills[0].amount.description == "10.00 EUR")
    // The command line wins over the symbol; the amounts are hundredths of it.
    let result = try spliit(one, currencyCode: nil, fallback: try Currency(code: "JPY"))
    #expect(result.book.bills[0].amount.description == "10 JPY")
  }

  /// A group made before Spliit had currency codes: its amounts are hundredths (Spliit's default
  /// of two decimals), its symbol says the currency when only one currency uses it.
  @Test func aGroupWithoutACurrencyCode() throws {
    func group(_ symbol: String) -> [UInt8] {
      Array(
        """
        {"name": "Old", "currency": "\(symbol)", "participants": [{"id": "a", "name": "Ana"}, {"id": "b", "name": "Ben"}],
         "expenses": [\(expense("x", amount: 150_000, mode: "EVENLY", [("a", 1), ("b", 1)]))]}
        """.utf8)
    }
    let euro = try SpliitImport.read(group("€"), file: "export.json")
    #expect(euro.book.bills[0].amount.description == "1500.00 EUR")
    #expect(euro.book.remarks.map(\.code) == ["spliit.currency-symbol"])
    // `$` is several currencies: the command line must say which.
    #expect(throws: Diagnostic.self) { try SpliitImport.read(group("$"), file: "export.json") }
    let yen = try SpliitImport.read(group("¥"), file: "export.json", currency: try Currency(code: "JPY"))
    #expect(yen.book.bills[0].amount.description == "1500 JPY")
    #expect(yen.book.bills[0].shares.map(\.minorUnits) == [750, 750])
    let dinar = try SpliitImport.read(group("KD"), file: "export.json", currency: try Currency(code: "KWD"))
    #expect(dinar.book.bills[0].amount.description == "1500.000 KWD")
  }

  /// An amount past splitbill's largest (15 digits of minor units) is refused, naming the expense.
  @Test func anAmountTooLargeIsRefused() throws {
    let result = try spliit([expense("big", amount: 1_000_000_000_000_000, mode: "EVENLY", [("a", 1), ("b", 1)])])
    #expect(result.errors.map(\.code) == ["spliit.amount"])
    #expect(result.errors[0].message.contains("largest amount"))
  }

  /// A byte order mark before the JSON (some tools write one) is not an error.
  @Test func aByteOrderMarkIsSkipped() throws {
    let text = """
      {"currencyCode": "EUR", "participants": [{"id": "a", "name": "Ana"}, {"id": "b", "name": "Ben"}],
       "expenses": [\(expense("x", amount: 1000, mode: "EVENLY", [("a", 1), ("b", 1)]))]}
      """
    let result = try SpliitImport.read([0xEF, 0xBB, 0xBF] + Array(text.utf8), file: "export.json")
    #expect(result.book.bills.count == 1)
  }

  @Test func malformedJSONIsLocated() {
    let text = "{\"participants\": [],\n \"expenses\": [}\n"
    #expect {
      try SpliitImport.read(Array(text.utf8), file: "export.json")
    } throws: { error in
      let issue = error as? Diagnostic
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

/// Spliit's rules, written again here from their descriptions (docs/import.md), apart from the
/// importer's code: what the app's balance page showed for an export.
private enum SpliitReference {
  struct Expense {
    var id: String?
    var amount: Int
    var payer: String
    /// Participant id and shares, in `paidFor`'s order.
    var paidFor: [(String, Int)]
    var evenly: Bool
  }

  /// Since 2026-08: sorted by id, floors, largest remainder, ties from the rotated start.
  static func largestRemainderShares(_ expense: Expense) -> [String: Int] {
    let sorted = expense.paidFor.sorted { Array($0.0.utf16).lexicographicallyPrecedes(Array($1.0.utf16)) }
    let weights = sorted.map { expense.evenly ? 1 : $0.1 }
    let total = weights.reduce(0, +)
    var hash: UInt32 = 2_166_136_261
    for unit in (expense.id ?? "").utf16 { hash = (hash ^ UInt32(unit)) &* 16_777_619 }
    let start = expense.id == nil ? 0 : Int(hash % UInt32(sorted.count))
    var result: [String: Int] = [:]
    var left = expense.amount
    var candidates: [(remainder: Int, rank: Int, id: String)] = []
    for (index, entry) in sorted.enumerated() {
      let product = expense.amount * weights[index]
      let floor = Int((Double(product) / Double(total)).rounded(.down))
      result[entry.0, default: 0] += floor
      left -= floor
      candidates.append((product - floor * total, (index - start + sorted.count) % sorted.count, entry.0))
    }
    candidates.sort { ($0.remainder, -$0.rank) > ($1.remainder, -$1.rank) }
    for candidate in candidates.prefix(left) { result[candidate.id, default: 0] += 1 }
    return result
  }

  /// Balances (paid minus paid for) under today's rule.
  static func largestRemainderBalances(_ expenses: [Expense]) -> [String: Int] {
    var balance: [String: Int] = [:]
    for expense in expenses {
      balance[expense.payer, default: 0] += expense.amount
      for (id, share) in largestRemainderShares(expense) { balance[id, default: 0] -= share }
    }
    return balance
  }

  /// 2024-02 to 2026-08, as Spliit ran it: floating-point shares (the last takes what is left),
  /// summed per participant, each total rounded once with JavaScript's Math.round. `nil` when a
  /// participant's float total lies within a millionth of a half cent (where floats and exact
  /// fractions may round apart).
  static func roundedBalances(_ expenses: [Expense]) -> [String: Int]? {
    var paid: [String: Double] = [:]
    var paidFor: [String: Double] = [:]
    for expense in expenses {
      paid[expense.payer, default: 0] += Double(expense.amount)
      let total = Double(expense.paidFor.reduce(0) { $0 + (expense.evenly ? 1 : $1.1) })
      var remaining = Double(expense.amount)
      for (index, entry) in expense.paidFor.enumerated() {
        let part =
          index == expense.paidFor.count - 1
          ? remaining : Double(expense.amount) * Double(expense.evenly ? 1 : entry.1) / total
        remaining -= part
        paidFor[entry.0, default: 0] += part
      }
    }
    var result: [String: Int] = [:]
    for id in Set(paid.keys).union(paidFor.keys) {
      let owed = paidFor[id] ?? 0
      let fraction = owed - owed.rounded(.down)
      if abs(fraction - 0.5) < 1e-6 { return nil }
      result[id] = Int((paid[id] ?? 0).rounded()) - Int((owed + 0.5).rounded(.down))
    }
    return result
  }

  static func json(_ expense: Expense, index: Int) -> String {
    let list = expense.paidFor.map { "{\"participantId\": \"\($0.0)\", \"shares\": \($0.1)}" }.joined(separator: ", ")
    let id = expense.id.map { "\"id\": \"\($0)\", " } ?? ""
    return """
      {\(id)"expenseDate": "2025-06-01T00:00:00.000Z", "title": "E\(index)", "amount": \(expense.amount),
       "paidById": "\(expense.payer)", "paidFor": [\(list)], "isReimbursement": false,
       "splitMode": "\(expense.evenly ? "EVENLY" : "BY_SHARES")"}
      """
  }

  /// Random expenses among `ids`: one to all of them paid for, even or weighted.
  static func expenses(
    _ count: Int, ids: [String], withIDs: Bool, using random: inout SplitMix64
  ) -> [Expense] {
    (0..<count).map { number in
      var members = ids.filter { _ in Bool.random(using: &random) }
      if members.isEmpty { members = [ids[Int.random(in: 0..<ids.count, using: &random)]] }
      members.shuffle(using: &random)
      let evenly = Bool.random(using: &random)
      let weights = [100, 150, 200, 300, 333, 1]
      return Expense(
        id: withIDs ? "cm\(number)x\(Int.random(in: 1000...9999, using: &random))" : nil,
        amount: Int.random(in: 1...50_000, using: &random), payer: ids[Int.random(in: 0..<ids.count, using: &random)],
        paidFor: members.map { ($0, weights[Int.random(in: 0..<weights.count, using: &random)]) }, evenly: evenly)
    }
  }
}

@Suite struct SpliitEraTests {
  private let ids = ["a", "b", "c"]
  private let names = ["a": "Ana", "b": "Ben", "c": "Chloé"]

  private func byName(_ balances: [String: Int]) -> [String: Int64] {
    Dictionary(uniqueKeysWithValues: ids.map { (names[$0] ?? $0, Int64(balances[$0] ?? 0)) })
  }

  /// Spliit's own unit test: 95.00 evenly over three gives 31.66, 31.67 and 31.67, whatever the
  /// order of `paidFor`, and the unit left over moves with the expense id.
  @Test func todaysRuleGivesSpliitsOwnExample() throws {
    var receivers: Set<String> = []
    for id in ["clx1", "clx2", "clx3", "clx4", "clx5", "clx6"] {
      let forward = try spliit([expense(id, amount: 9500, mode: "EVENLY", [("a", 1), ("b", 1), ("c", 1)])])
      let backward = try spliit([expense(id, amount: 9500, mode: "EVENLY", [("c", 1), ("a", 1), ("b", 1)])])
      let shares = forward.book.bills[0].shares
      #expect(shares.map(\.minorUnits).sorted() == [3166, 3167, 3167])
      let byPerson = { (bill: ImportedBill) in
        Dictionary(uniqueKeysWithValues: bill.shares.map { ($0.person, $0.minorUnits) })
      }
      #expect(byPerson(forward.book.bills[0]) == byPerson(backward.book.bills[0]))
      receivers.insert(shares.first { $0.minorUnits == 3166 }!.person)
    }
    #expect(receivers.count > 1, "the rotation should not always leave the same participant the smaller share")
  }

  @Test func anExportWithIDsTakesTodaysRuleAndOneWithoutTheOlderOne() throws {
    let withIDs = try spliit([expense("clx1", amount: 1000, mode: "EVENLY", [("a", 1), ("b", 1), ("c", 1)])])
    #expect(withIDs.book.headerNotes[0].hasPrefix("Spliit rule: largest-remainder"))
    let plain = SpliitReference.json(
      .init(id: nil, amount: 1000, payer: "a", paidFor: [("a", 1), ("b", 1), ("c", 1)], evenly: true), index: 0)
    let without = try spliit([plain])
    #expect(without.book.headerNotes[0].hasPrefix("Spliit rule: rounded-balances"))
    #expect(without.book.headerNotes[0].contains("no expense ids"))
    let chosen = try spliit([plain], rule: .floorLast)
    #expect(chosen.book.headerNotes[0].contains("chosen with --spliit-rule"))
  }

  /// Random groups with ids: every balance the reference's today's rule gives, in any order of `paidFor`.
  @Test func randomGroupsMatchTodaysRule() throws {
    var random = SplitMix64(seed: 0x2026_0813)
    for _ in 0..<100 {
      let expenses = SpliitReference.expenses(12, ids: ids, withIDs: true, using: &random)
      let result = try spliit(expenses.enumerated().map { SpliitReference.json($1, index: $0) })
      let expected = byName(SpliitReference.largestRemainderBalances(expenses))
      let euro = try Currency(code: "EUR")
      #expect(result.book.expectedBalances[euro] == expected)
      #expect(result.book.balances[euro]?.filter { $0.value != 0 } == expected.filter { $0.value != 0 })
    }
  }

  /// Random groups without ids: the balances Spliit 2024–2026 showed (floats, rounded once), and
  /// per-bill whole shares that give them: never negative, each bill's adding up to its amount.
  @Test func randomGroupsMatchThe2024Rule() throws {
    var random = SplitMix64(seed: 0x2024_0213)
    var compared = 0
    var residues = 0
    for _ in 0..<150 {
      let expenses = SpliitReference.expenses(15, ids: ids, withIDs: false, using: &random)
      let result = try spliit(expenses.enumerated().map { SpliitReference.json($1, index: $0) })
      #expect(result.errors.isEmpty)
      let euro = try Currency(code: "EUR")
      let imported = result.book.balances[euro] ?? [:]
      for bill in result.book.bills {
        #expect(bill.shares.allSatisfy { $0.minorUnits > 0 })
        #expect(bill.shares.reduce(0) { $0 + $1.minorUnits } == bill.amount.minorUnits)
      }
      #expect(result.book.expectedBalances[euro]?.filter { $0.value != 0 } == imported.filter { $0.value != 0 })
      guard let shown = SpliitReference.roundedBalances(expenses) else { continue }
      compared += 1
      if shown.values.reduce(0, +) != 0 {
        // Spliit's balances did not add up to zero: the import moves the residue and says so.
        residues += 1
        #expect(result.book.remarks.contains { $0.code == "spliit.rounding-residue" })
        let apart = ids.map { abs(Int64(shown[$0] ?? 0) - (imported[names[$0] ?? $0] ?? 0)) }.reduce(0, +)
        #expect(apart == Int64(abs(shown.values.reduce(0, +))))
      } else {
        #expect(imported.filter { $0.value != 0 } == byName(shown).filter { $0.value != 0 })
      }
    }
    #expect(compared > 100)
    #expect(residues > 0, "the generated groups should include balances Spliit rounded apart")
  }

  /// Two halves rounded up: Spliit showed balances adding up to -0.01; the import gives one of
  /// them back, with a warning naming whose balance differs.
  @Test func aRoundingResidueIsMovedAndSaid() throws {
    let plain = SpliitReference.json(
      .init(id: nil, amount: 101, payer: "a", paidFor: [("a", 1), ("b", 1)], evenly: true), index: 0)
    let result = try spliit([plain])
    let euro = try Currency(code: "EUR")
    #expect(result.book.expectedBalances[euro] == ["Ana": 51, "Ben": -51, "Chloé": 0])
    #expect(result.book.balances[euro] == ["Ana": 51, "Ben": -51])
    #expect(result.book.remarks.map(\.code) == ["spliit.rounding-residue"])
    #expect(
      result.book.remarks[0].message
        == "Spliit rounded each balance on its own, so the balances it showed add up to -0.01 EUR, not zero: "
        + "Ana's is imported as 0.51 EUR, not the 0.50 EUR Spliit showed")
  }
}
