import Foundation
import SplitBillBytes
import SplitBillCore
import SplitBillModel
import Testing

@testable import SplitBillImport

/// An importer's diagnostic's line and column, as the tests compare them.
extension Diagnostic {
  var line: Int? { location?.line }
  var column: Int? { location?.column }
}

/// Reads a Splitwise export given as text.
private func splitwise(_ text: String, skipInvalid: Bool = false) throws -> ImportResult {
  try SplitwiseImport.read(Array(text.utf8), file: "export.csv", skipInvalid: skipInvalid)
}

private let header = "Date,Description,Category,Cost,Currency,Alice,Bob,Charlie\n"

/// Each member's net effect of `bill`: what they paid minus their share, in minor units.
private func effects(_ bill: ImportedBill, members: [String]) -> [Int64] {
  members.map { member in
    bill.payers.filter { $0.person == member }.map(\.minorUnits).reduce(0, +)
      - bill.shares.filter { $0.person == member }.map(\.minorUnits).reduce(0, +)
  }
}

@Suite struct SplitwiseImportTests {
  /// The rows of Spliit's own Splitwise importer tests, each rebuilt by the documented rule.
  @Test func theReferenceRowsBecomeBillsAndPayments() throws {
    let result = try splitwise(
      header + """
        2026-10-01,Equal split,General,30.00,EUR,20.00,-10.00,-10.00
        2026-10-02,Uneven single payer,General,40.00,EUR,20.00,-10.00,-10.00
        2026-10-03,Two payers,General,30.00,EUR,5.00,5.00,-10.00
        2026-10-04,Self-paid,General,90.00,EUR,0.00,0.00,0.00
        2026-10-05,Bob pays Charlie,Payment,25.00,EUR,0.00,25.00,-25.00
        2026-10-06,Alice pays two,Payment,15.00,EUR,15.00,-10.00,-5.00

        """)
    #expect(result.errors.isEmpty)
    let book = result.book
    #expect(book.rowsRead == 6)
    #expect(book.bills.count == 3)
    let equal = book.bills[0]
    #expect(equal.payers == [ImportedPart(person: "Alice", minorUnits: 3000)])
    #expect(equal.shares.map(\.minorUnits) == [1000, 1000, 1000])
    let uneven = book.bills[1]
    #expect(uneven.payers == [ImportedPart(person: "Alice", minorUnits: 4000)])
    #expect(
      uneven.shares == [
        ImportedPart(person: "Alice", minorUnits: 2000), ImportedPart(person: "Bob", minorUnits: 1000),
        ImportedPart(person: "Charlie", minorUnits: 1000),
      ])
    let two = book.bills[2]
    #expect(
      two.payers == [ImportedPart(person: "Alice", minorUnits: 1500), ImportedPart(person: "Bob", minorUnits: 1500)])
    #expect(two.shares.map(\.minorUnits) == [1000, 1000, 1000])
    #expect(book.omitted.map(\.line) == [5])
    #expect(
      book.payments.map { "\($0.id) \($0.from)->\($0.to) \($0.amount)" } == [
        "sw-2026-10-05-1 Bob->Charlie 25.00 EUR", "sw-2026-10-06-1a Alice->Bob 10.00 EUR",
        "sw-2026-10-06-1b Alice->Charlie 5.00 EUR",
      ])
  }

  /// Generated rows (one to three payers, any shares, up to six members, three currencies):
  /// every bill gives each member exactly their cell, its shares and payers add up to its cost, and
  /// no part is zero or negative.
  @Test func everyRowIsRebuiltExactly() throws {
    var random = SplitMix64(seed: 0x5917_7715)
    for round in 0..<300 {
      let count = Int.random(in: 2...6, using: &random)
      let members = (0..<count).map { "M\($0)" }
      let currency = ["EUR", "JPY", "KWD"][round % 3]
      let exponent = try Currency(code: currency).exponent
      var lines = ["Date,Description,Category,Cost,Currency," + members.joined(separator: ",")]
      var expected: [[Int64]] = []
      for row in 0..<20 {
        let shares = (0..<count).map { _ in
          Bool.random(using: &random) ? Int64.random(in: 0...50_000, using: &random) : 0
        }
        var cost = shares.reduce(0, +)
        if cost == 0 { continue }
        // Up to three payers, paying the cost between them.
        var paid = Array(repeating: Int64(0), count: count)
        let payers = Array((0..<count).shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
        var left = cost
        for (index, payer) in payers.enumerated() {
          let amount = index == payers.count - 1 ? left : Int64.random(in: 0...left, using: &random)
          paid[payer] += amount
          left -= amount
        }
        let cells = (0..<count).map { paid[$0] - shares[$0] }
        if cells.allSatisfy({ $0 == 0 }) { continue }
        expected.append(cells)
        let money = { (units: Int64) in DecimalText.format(units, scale: exponent) }
        lines.append(
          "2026-11-\(10 + row % 9),Row \(row),General,\(money(cost)),\(currency),"
            + cells.map(money).joined(separator: ","))
        cost = 0
      }
      let result = try SplitwiseImport.read(Array((lines.joined(separator: "\n") + "\n").utf8), file: "export.csv")
      #expect(result.errors.isEmpty, "\(result.errors)")
      #expect(result.book.bills.count == expected.count)
      for (bill, cells) in zip(result.book.bills, expected) {
        #expect(effects(bill, members: members) == cells, "round \(round): \(bill)")
        #expect(bill.shares.map(\.minorUnits).reduce(0, +) == bill.amount.minorUnits)
        #expect(bill.payers.map(\.minorUnits).reduce(0, +) == bill.amount.minorUnits)
        #expect((bill.shares + bill.payers).allSatisfy { $0.minorUnits > 0 })
        #expect(bill.payers.count == cells.filter { $0 > 0 }.count)
      }
    }
  }

  @Test(arguments: [
    ("Datum,Beschreibung,Kategorie,Kosten,Währung", "Zahlung", "Gesamtsaldo"),
    ("Date,Description,Catégorie,Coût,Devise", "Paiement", "Solde total"),
    ("Fecha,Descripción,Categoría,Costo,Moneda", "Pago", "Saldo total"),
    ("Date,Description,Category,Cost,Currency", "Payment", "Total balance"),
  ])
  func localisedExportsAreRecognised(columns: String, payment: String, total: String) throws {
    let result = try splitwise(
      """
      \(columns),Anna,Björn
      2026-11-02,Einkauf,Lebensmittel,10.00,EUR,5.00,-5.00
      2026-11-03,Björn an Anna,\(payment),5.00,EUR,-5.00,5.00

      ,\(total),,,EUR,0.00,0.00

      """)
    #expect(result.errors.isEmpty, "\(result.errors)")
    #expect(result.book.people == ["Anna", "Björn"])
    #expect(result.book.bills.count == 1)
    #expect(result.book.payments.map { "\($0.from)->\($0.to)" } == ["Björn->Anna"])
    #expect(result.book.expectedBalances[try Currency(code: "EUR")] == ["Anna": 0, "Björn": 0])
  }

  @Test func anUnknownHeaderIsRefusedAtLineOne() {
    #expect {
      try splitwise("When,What,Amount\n2026-01-01,x,1\n")
    } throws: { error in
      let issue = error as? Diagnostic
      return issue?.code == "splitwise.header" && issue?.line == 1
        && issue?.message.contains("Date,Description") == true
    }
  }

  @Test func invalidRowsAreLocatedAndStopTheImport() throws {
    let text =
      header + """
        2026-10-01,Fine,General,30.00,EUR,20.00,-10.00,-10.00
        2026-10-02,Zero total,General,0.00,EUR,10.00,-10.00,0.00
        2026-10-03,Not summing,General,30.00,EUR,20.00,-10.00,-5.00
        2026-10-04,Too much,General,30.00,EUR,40.00,-20.00,-20.00
        2026-10-05,Odd,General,3O.00,EUR,20.00,-10.00,-10.00
        2026-10-06,Bad money,General,30.00,XYZ,20.00,-10.00,-10.00
        2026-13-07,Bad date,General,30.00,EUR,20.00,-10.00,-10.00

        """
    let result = try splitwise(text)
    #expect(
      result.errors.map { "\($0.line ?? 0):\($0.column ?? 0) \($0.code)" } == [
        "3:31 splitwise.zero-cost", "4:42 splitwise.cells-sum", "5:29 splitwise.cost", "6:24 splitwise.amount",
        "7:36 splitwise.currency", "8:1 splitwise.date",
      ])
    #expect(result.errors[1].message.contains("add up to 5.00 EUR, not zero"))
    #expect(result.book.skipped.isEmpty)
    // With --skip-invalid the same rows are listed as skipped, and the one good row imported.
    let skipping = try splitwise(text, skipInvalid: true)
    #expect(skipping.book.skipped.count == 6)
    #expect(skipping.book.bills.count == 1)
    #expect(
      skipping.book.yaml(sourceName: "x.csv", date: CalendarDate(year: 2026, month: 12, day: 1)!).contains(
        "# skipped: line 4: the members' cells add up to 5.00 EUR"))
  }

  @Test func theTotalBalanceRowIsTheChecksum() throws {
    let rows = header + "2026-10-01,Dinner,General,30.00,EUR,20.00,-10.00,-10.00\n\n"
    let good = try splitwise(rows + ",Total balance,,,EUR,20.00,-10.00,-10.00\n")
    #expect(good.errors.isEmpty)
    let bad = try splitwise(rows + ",Total balance,,,EUR,20.00,-12.50,-10.00\n")
    #expect(bad.errors.count == 1)
    let issue = try #require(bad.errors.first)
    #expect(issue.code == "splitwise.total-balance")
    #expect(issue.line == 4 && issue.column == 28)  // Bob's cell of the Total balance row
    #expect(
      issue.message.hasPrefix("Bob's balance from the rows is -10.00 EUR but the Total balance row says -12.50 EUR"))
    #expect(issue.message.contains("2.50 EUR apart"))
  }

  @Test func aTotalBalanceRowWithoutACurrencyTakesTheRowsOne() throws {
    let rows = header + "2026-10-01,Dinner,General,30.00,JPY,20,-10,-10\n\n"
    let result = try splitwise(rows + ",Total balance,,,,20,-10,-11\n")
    #expect(result.errors.map(\.code) == ["splitwise.total-balance"])
    #expect(result.book.expectedBalances[try Currency(code: "JPY")]?["Charlie"] == -11)
  }

  @Test func skippedRowsAreTakenOutOfTheChecksum() throws {
    let result = try splitwise(
      header + """
        2026-10-01,Dinner,General,30.00,EUR,20.00,-10.00,-10.00
        2026-10-02,Broken,General,30.00,EUR,20.00,-10.00,-5.00

        ,Total balance,,,EUR,40.00,-20.00,-15.00

        """, skipInvalid: true)
    #expect(result.errors.map(\.code) == ["splitwise.cells-sum"])
    #expect(result.book.expectedBalances[try Currency(code: "EUR")] == ["Alice": 2000, "Bob": -1000, "Charlie": -1000])
  }

  @Test func oneUnitOfDriftIsMendedOnThePayerAndNoted() throws {
    let result = try splitwise(
      header + "2026-10-07,Museum,General,10.00,EUR,6.67,-3.33,-3.33\n\n,Total balance,,,EUR,6.67,-3.33,-3.33\n")
    #expect(result.errors.isEmpty, "\(result.errors)")
    #expect(result.book.bills[0].shares.map(\.minorUnits) == [334, 333, 333])
    #expect(result.book.remarks.map(\.code) == ["splitwise.drift"])
    #expect(result.book.remarks[0].message.contains("Alice's 6.67 is taken as 6.66"))
    #expect(result.book.expectedBalances[try Currency(code: "EUR")]?["Alice"] == 666)
  }

  @Test func quotedCellsAndHostileNamesReadBackExactly() throws {
    let text =
      "Date,Description,Category,Cost,Currency,\"Ana, the \"\"boss\"\"\",Ben\u{202E}x\n"
      + "2026-10-01,\"Dinner\nwith a line break\",General,10.00,EUR,5.00,-5.00\n"
      + "2026-10-02,After,General,10.00,EUR,-5.00,5.00\n"
    let result = try splitwise(text)
    #expect(result.errors.isEmpty, "\(result.errors)")
    #expect(result.book.people == ["Ana, the \"boss\"", "Ben\u{202E}x"])
    #expect(result.book.bills.map(\.description) == ["Dinner\nwith a line break", "After"])
    let yaml = result.book.yaml(sourceName: "x.csv", date: CalendarDate(year: 2026, month: 12, day: 1)!)
    #expect(yaml.contains(#"people: ["Ana, the \"boss\"", "Ben\u202Ex"]"#))
    #expect(yaml.contains(#"description: "Dinner\u000Awith a line break""#))
  }

  @Test func anUnterminatedQuoteIsLocatedWhereItOpened() {
    #expect {
      try splitwise(header + "2026-10-01,\"Dinner,General,30.00,EUR,20.00,-10.00,-10.00\n")
    } throws: { error in
      let issue = error as? Diagnostic
      return issue?.code == "csv.unterminated-quote" && issue?.line == 2 && issue?.column == 12
    }
  }

  @Test func theSameExportGivesTheSameBytes() throws {
    let text =
      header + "2026-10-01,A,General,30.00,EUR,20.00,-10.00,-10.00\n2026-10-01,B,General,9.00,USD,-3.00,6.00,-3.00\n"
    let date = CalendarDate(year: 2026, month: 12, day: 1)!
    let first = try splitwise(text).book.yaml(sourceName: "x.csv", date: date)
    #expect(first == (try splitwise(text).book.yaml(sourceName: "x.csv", date: date)))
    // Two currencies: each record names its own, and no Total balance row is one warning.
    #expect(first.contains("defaults: {tip: 0}"))
    #expect(first.contains("    currency: USD"))
    #expect(try splitwise(text).book.remarks.map(\.code) == ["splitwise.no-total"])
    #expect(first.contains("id: \"sw-2026-10-01-2\""))
  }

  /// Every shape real exports have, in one file as an export of each era writes it.
  @Test(arguments: SplitwiseEra.allCases)
  func everyEraOfExportImportsAndMatchesItsTotalRow(era: SplitwiseEra) throws {
    var random = SplitMix64(seed: 0x5EED + UInt64(SplitwiseEra.allCases.firstIndex(of: era) ?? 0))
    let export = try SplitwiseExport.random(
      members: ["Ana", "Ben ", "Chloé", "Dmitri"], rows: 40, era: era, using: &random)
    let result = try splitwise(export.text)
    #expect(result.errors.isEmpty, "\(era): \(result.errors.map(\.message))")
    for (currency, expected) in export.totals {
      #expect(result.book.expectedBalances[currency] == expected, "\(era) \(currency)")
      #expect(result.book.balances[currency]?.filter { $0.value != 0 } == expected.filter { $0.value != 0 })
    }
    #expect(result.book.people == ["Ana", "Ben", "Chloé", "Dmitri"])
    #expect(result.book.bills.count { $0.refund != nil } == export.refunds)
    #expect(result.book.omitted.count == export.placeholders + export.selfPaid)
  }

  /// The row real exports end with: the export's date in its Date cell, single spaces for
  /// Category and Cost; and `Current balance` in 2012–2013 exports.
  @Test func aDatedTotalRowIsTheChecksum() throws {
    let rows = header + "2026-01-10,Dinner,Dining out,30.00,BRL,20.00,-10.00,-10.00\n\n"
    let dated = try splitwise(rows + "2026-01-19,Total balance, , ,BRL,20.00,-10.00,-10.00\n\n")
    #expect(dated.errors.isEmpty)
    #expect(dated.book.rowsRead == 1)
    #expect(dated.book.expectedBalances[try Currency(code: "BRL")] == ["Alice": 2000, "Bob": -1000, "Charlie": -1000])
    let old = try splitwise(
      "date,Description,Category,cost,Currency,Alice,Bob,Charlie\n2013-03-02,Netflix,TV,8.39,USD,5.6,-2.8,-2.79\n"
        + "2013-03-02,Current balance, , ,USD,5.6,-2.8,-2.8\n")
    #expect(old.errors.map(\.code) == ["splitwise.total-balance"])
    #expect(old.errors.first?.message.contains("Charlie's balance from the rows is -2.79 USD") == true)
    // A German export's dated Gesamtsaldo row.
    let german = try splitwise(
      "Datum,Beschreibung,Kategorie,Kosten,Währung,Alice,Bob\n2026-01-10,Essen,Essen gehen,30.00,EUR,15.00,-15.00\n"
        + "2026-01-19,Gesamtsaldo, , ,EUR,15.00,-15.00\n")
    #expect(german.errors.isEmpty)
    #expect(german.book.expectedBalances.count == 1)
    // An expense that happens to be called "Total balance" has a cost, and is an expense.
    let named = try splitwise(rows + "2026-01-11,Total balance,General,10.00,BRL,5.00,-5.00,0.00\n")
    #expect(named.book.bills.count == 2)
  }

  @Test func aFriendPageExportStartsWithANote() throws {
    let text =
      "Note: does not include group expenses\n\nDate,Description,Category,Cost,Currency,Alice,Bob\n"
      + "2019-05-01,Taxi,Taxi,20.00,USD,10.00,-10.00\n2024-02-01,Cafe,Dining out,9.00,EUR,-4.50,4.50\n\n"
      + "2026-01-19,Total balance, , ,USD,10.00,-10.00\n2026-01-19,Total balance, , ,EUR,-4.50,4.50\n"
    let result = try splitwise(text)
    #expect(result.errors.isEmpty)
    #expect(result.book.remarks.map(\.code) == ["splitwise.note"])
    #expect(result.book.remarks[0].line == 1)
    #expect(result.book.expectedBalances.count == 2)
    #expect(result.book.bills.map(\.amount.description) == ["20.00 USD", "9.00 EUR"])
  }

  @Test func placeholderAndSeparatorRowsMoveNothing() throws {
    let text =
      header + ",,,,,,,\n2026-06-22,Taxi,General,30.00,MKD,20.00,-10.00,-10.00\n,,,,,,,\n"
      + "2026-07-04,Expense 21,\" \",\" \",MKD,0.00,0.00,0.00\n"
    let result = try splitwise(text)
    #expect(result.errors.isEmpty)
    #expect(result.book.omitted.map(\.line) == [5])
    #expect(result.book.omitted[0].message.contains("a placeholder row with no cost"))
    #expect(
      result.book.remarks.map(\.message) == [
        "the export has no Total balance row: nothing checks the imported balances against Splitwise's own"
      ])
  }

  /// A refund: the cost negative, the cells an expense's reversed. Imported exactly, as the
  /// balances it moves, and said to be a refund.
  @Test func aRefundIsImportedExactly() throws {
    let text =
      header + "2026-10-01,Hotel,Hotel,90.00,EUR,60.00,-30.00,-30.00\n"
      + "2026-10-02,Hotel deposit back,Hotel,-30.00,EUR,-20.00,10.00,10.00\n,Total balance,,,EUR,40.00,-20.00,-20.00\n"
    let result = try splitwise(text)
    #expect(result.errors.isEmpty)
    let refund = result.book.bills[1]
    #expect(refund.refund?.description == "-30.00 EUR")
    #expect(refund.amount.description == "20.00 EUR")
    #expect(
      refund.payers == [
        ImportedPart(person: "Bob", minorUnits: 1000), ImportedPart(person: "Charlie", minorUnits: 1000),
      ])
    #expect(refund.shares == [ImportedPart(person: "Alice", minorUnits: 2000)])
    #expect(refund.notes == "Splitwise refund of -30.00 EUR")
    #expect(result.book.bills.map(\.category) == ["Hotel", "Hotel"])
    let yaml = result.book.yaml(sourceName: "x.csv", date: CalendarDate(year: 2026, month: 12, day: 1)!)
    #expect(yaml.contains("# 2 rows read: 2 bills (1 refund), 0 payments."))
    #expect(yaml.contains("  # Splitwise refund of -30.00 EUR: Alice got back money that was others' too"))
    // A refund whose cells take back more than was refunded is refused, located at its cost.
    let bad = try splitwise(header + "2026-10-02,Back,Hotel,-10.00,EUR,-20.00,10.00,10.00\n")
    #expect(bad.errors.map(\.code) == ["splitwise.cost"])
  }

  /// With --skip-invalid, a row whose cells cannot be read leaves its currency's total row
  /// unchecked (the difference may be that row's): a warning, and no balance held against it.
  @Test func anUnreadableRowLeavesItsCurrencyUnchecked() throws {
    let text =
      header + "2026-10-01,A,General,30.00,EUR,20.00,-10.00,-10.00\n2026-10-02,B,General,9.00,EUR,x,4.50,-4.50\n"
      + ",Total balance,,,EUR,20.00,-5.50,-14.50\n"
    let result = try splitwise(text, skipInvalid: true)
    #expect(result.errors.map(\.code) == ["splitwise.amount"])
    #expect(result.book.expectedBalances.isEmpty)
    #expect(result.book.remarks.contains { $0.code == "splitwise.total-balance" && $0.severity == .warning })
  }
}
