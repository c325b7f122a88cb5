import Foundation
import SplitBillBytes
import SplitBillCore
import SplitBillModel
import Testing

@testable import SplitBillImport

// Independent readers of the exported files, written from each app's own import code (not from
// splitbill's importers): the balances each app would show after importing the file.

/// IHateMoney (`web.py` `import_project`, `models.py` `import_bills` and `full_balance`): members
/// from the payers (their `payer_weight`) and the owers (weight 1); each bill credits its payer
/// the amount and debits each ower `weight × amount ÷ Σ owers' weights`, in floating point; a
/// balance is shown rounded to the cent.
private func ihatemoneyBalances(_ bytes: [UInt8]) throws -> [String: Int64] {
  let bills = try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
  var weights: [String: Double] = [:]
  for bill in bills {
    let payer = try #require(bill["payer_name"] as? String)
    weights[payer] = try #require(bill["payer_weight"] as? Double)
  }
  var balance: [String: Double] = [:]
  for bill in bills {
    for key in ["what", "amount", "currency", "date", "owers", "payer_name", "payer_weight"] {
      #expect(bill[key] != nil, "IHateMoney's import requires \(key)")
    }
    let amount = try #require((bill["amount"] as? NSNumber)?.doubleValue)
    let owers = try #require(bill["owers"] as? [String])
    let payer = try #require(bill["payer_name"] as? String)
    #expect(!owers.isEmpty)
    let total = owers.reduce(0.0) { $0 + (weights[$1] ?? 1) }
    balance[payer, default: 0] += amount
    for ower in owers { balance[ower, default: 0] -= (weights[ower] ?? 1) * amount / total }
  }
  return balance.mapValues { Int64(($0 * 100).rounded()) }
}

/// A CSV reader as PHP's `fgetcsv` reads these files: quoted cells with doubled quotes, lines.
private func csvRows(_ bytes: [UInt8]) -> [[String]] {
  var rows: [[String]] = []
  var row: [String] = []
  var cell = ""
  var quoted = false
  var sawQuote = false
  let text = String(decoding: bytes, as: UTF8.self)
  var iterator = Array(text.unicodeScalars).makeIterator()
  var pending: Unicode.Scalar? = nil
  while let scalar = pending ?? iterator.next() {
    pending = nil
    if quoted {
      if scalar == "\"" {
        if let next = iterator.next() {
          if next == "\"" {
            cell.unicodeScalars.append("\"")
          } else {
            quoted = false
            pending = next
          }
        } else {
          quoted = false
        }
      } else {
        cell.unicodeScalars.append(scalar)
      }
    } else if scalar == "\"" {
      quoted = true
      sawQuote = true
    } else if scalar == "," {
      row.append(cell)
      cell = ""
    } else if scalar == "\n" {
      row.append(cell)
      rows.append(row)
      row = []
      cell = ""
      sawQuote = false
    } else {
      cell.unicodeScalars.append(scalar)
    }
  }
  if !cell.isEmpty || !row.isEmpty || sawQuote {
    row.append(cell)
    rows.append(row)
  }
  return rows
}

/// Cospend (`importCsvProjectStream`, `getBalance`): sections told by their header; members and
/// their weights; each bill credits its payer and debits each ower (names split at `,` and
/// trimmed) `amount ÷ Σ owers' weights × weight`; a balance shown rounded, a half away from zero.
private func cospendBalances(_ bytes: [UInt8]) throws -> (balances: [String: Int64], members: [String]) {
  var section = ""
  var columns: [String: Int] = [:]
  var weights: [String: Double] = [:]
  var members: [String] = []
  var bills: [(payer: String, amount: Double, owers: [String])] = []
  var previousEmpty = true
  for row in csvRows(bytes) {
    if row.allSatisfy(\.isEmpty) {
      previousEmpty = true
      continue
    }
    if previousEmpty {
      previousEmpty = false
      columns = Dictionary(row.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
      if columns["what"] != nil, columns["payer_name"] != nil, columns["owers"] != nil {
        section = "bills"
      } else if columns["name"] != nil, columns["weight"] != nil {
        section = "members"
      } else {
        section = "other"
      }
      continue
    }
    func cell(_ name: String) throws -> String { row[try #require(columns[name])] }
    switch section {
    case "members":
      let name = try cell("name").trimmingCharacters(in: .whitespaces)
      let weight: Double = try #require(Double(try cell("weight")))
      weights[name] = weight
      members.append(name)
    case "bills":
      let owers = try cell("owers").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      #expect(owers.allSatisfy { !$0.isEmpty })
      #expect(Int(try cell("timestamp")) != nil, "Cospend takes the timestamp first")
      bills.append((try cell("payer_name"), try #require(Double(try cell("amount"))), owers))
    default: break
    }
  }
  var balance: [String: Double] = [:]
  for bill in bills {
    let total = bill.owers.reduce(0.0) { $0 + (weights[$1] ?? 1) }
    balance[bill.payer, default: 0] += bill.amount
    for ower in bill.owers { balance[ower, default: 0] -= bill.amount / total * (weights[ower] ?? 1) }
  }
  for person in balance.keys { #expect(members.contains(person), "\(person) is in a bill but not a member") }
  return (balance.mapValues { Int64(($0 * 100).rounded(.toNearestOrAwayFromZero)) }, members)
}

/// Spliit's Splitwise import (spliit-app/spliit, `splitwise-import.ts`): the member columns are
/// those after the five named ones; the payer is the member with the largest cell; each member
/// with a cell other than zero owes `cost − cell` if positive, else `−cell` (by amount); a row
/// with an empty cost or a `Total balance` description is the summary. Balances in cents.
private func spliitBalances(_ bytes: [UInt8]) throws -> [String: Int64] {
  let rows = csvRows(bytes)
  let header = try #require(rows.first)
  #expect(Array(header.prefix(5)) == ["Date", "Description", "Category", "Cost", "Currency"])
  let people = Array(header.dropFirst(5))
  var balance: [String: Int64] = [:]
  for row in rows.dropFirst() where !row.allSatisfy(\.isEmpty) {
    let cost = row[3].trimmingCharacters(in: .whitespaces)
    if cost.isEmpty || row[1] == "Total balance" { continue }
    let costCents = Int64((try #require(Double(cost)) * 100).rounded())
    let cells = try row.dropFirst(5).map { Int64((try #require(Double($0)) * 100).rounded()) }
    guard let payer = cells.indices.max(by: { cells[$0] < cells[$1] }) else { continue }
    var owed: Int64 = 0
    for (index, cell) in cells.enumerated() where cell != 0 {
      let share = cell > 0 ? costCents - cell : -cell
      balance[people[index], default: 0] -= share
      owed += share
    }
    #expect(cells.filter { $0 > 0 }.count <= 1, "one payer per row")
    if owed == 0 { continue }  // Spliit's import refuses a row nobody owes: it moves nothing
    balance[people[payer], default: 0] += costCents
  }
  return balance
}

/// `balances` without the zeros, names mapped by `renamed`.
private func nonZero(_ balances: [String: Int64], renamed: [String: String] = [:]) -> [String: Int64] {
  Dictionary(
    balances.filter { $0.value != 0 }.map { (renamed[$0.key] ?? $0.key, $0.value) }, uniquingKeysWith: +)
}

private let eur = Currency.eur

private func money(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: eur) }

/// A book by hand: a dinner two paid for, split unevenly, and a payment.
private func sampleBook() -> ImportedBook {
  var book = ImportedBook(source: .splitwise)
  book.people = ["Ana", "Ben, Jr.", "=Chloé", "Date"]
  let day = CalendarDate(daysSinceEpoch: 20_406)
  book.bills = [
    ImportedBill(
      id: "d1", date: day, description: "Dinner", amount: money(10_001),
      payers: [ImportedPart(person: "Ana", minorUnits: 6_000), ImportedPart(person: "Ben, Jr.", minorUnits: 4_001)],
      shares: [
        ImportedPart(person: "Ana", minorUnits: 2_501), ImportedPart(person: "Ben, Jr.", minorUnits: 2_500),
        ImportedPart(person: "=Chloé", minorUnits: 2_500), ImportedPart(person: "Date", minorUnits: 2_500),
      ], notes: "wine & \"fish\"", comment: nil, category: "Payment")
  ]
  book.payments = [
    ImportedPayment(id: "p1", date: day, from: "Date", to: "Ana", amount: money(1_000), notes: "cash")
  ]
  return book
}

@Suite struct ExportTests {
  @Test func northWestCornerCoversEveryShareOnce() {
    let bill = sampleBook().bills[0]
    let covered = BookExport.coverage(bill)
    #expect(covered.map(\.units).reduce(0, +) == 10_001)
    #expect(covered.map(\.payer) == ["Ana", "Ana", "Ana", "Ben, Jr.", "Ben, Jr."])
    #expect(covered.map(\.ower) == ["Ana", "Ben, Jr.", "=Chloé", "=Chloé", "Date"])
    #expect(covered.map(\.units) == [2_501, 2_500, 999, 1_501, 2_500])
    let parts = BookExport.evenParts(bill)
    #expect(parts.reduce(0) { $0 + $1.total } == 10_001)
    #expect(parts.first == EvenPart(payer: "Ana", each: 2_501, owers: ["Ana"]))
  }

  @Test(arguments: ExportTarget.allCases)
  func theSampleBookReadsBackWithItsBalances(_ target: ExportTarget) throws {
    let book = sampleBook()
    let file = target.write(book, date: CalendarDate(iso: "2026-12-05")!)
    let expected = nonZero(book.balances[eur]!, renamed: file.renamed)
    let back = try target.readBack.read(file.bytes, file: "x", ImportReading())
    #expect(back.errors.isEmpty)
    #expect(nonZero(back.book.balances[eur] ?? [:]) == expected)
    switch target {
    case .ihatemoney: #expect(try ihatemoneyBalances(file.bytes) == expected)
    case .cospend: #expect(nonZero(try cospendBalances(file.bytes).balances) == expected)
    case .spliitCSV: #expect(nonZero(try spliitBalances(file.bytes)) == expected)
    }
  }

  @Test func cospendRenamesWhatItsOwersCellCannotHold() throws {
    let file = ExportTarget.cospend.write(sampleBook(), date: CalendarDate(iso: "2026-12-05")!)
    #expect(file.renamed == ["Ben, Jr.": "Ben Jr.", "=Chloé": "'=Chloé"])
    #expect(file.remarks.map(\.code).contains(.renamed))
    #expect(
      file.remarks.contains {
        $0.message.contains("'Ben, Jr.' is written 'Ben Jr.': Cospend reads a bill's owers as names split at commas")
      })
    let members = try cospendBalances(file.bytes).members
    #expect(members == ["Ana", "Ben Jr.", "'=Chloé", "Date"])
    // The notes survive, percent-encoded in the comment, as Cospend's import decodes them.
    let text = String(decoding: file.bytes, as: UTF8.self)
    #expect(text.contains("splitbill%20id%3A%20d1%3B%20wine%20%26%20%22fish%22"))
    let back = try CospendImport.read(file.bytes, file: "x")
    #expect(back.book.bills.first?.notes?.contains("wine & \"fish\"") == true)
  }

  @Test func spliitRowsHaveOnePayerAndNoCategoryTakenForAPayment() throws {
    let file = ExportTarget.spliitCSV.write(sampleBook(), date: CalendarDate(iso: "2026-12-05")!)
    let rows = csvRows(file.bytes)
    #expect(
      rows[0] == ["Date", "Description", "Category", "Cost", "Currency", "Ana", "Ben, Jr.", "'=Chloé", "Date (member)"])
    #expect(rows[1][1] == "Dinner (1/2)" && rows[1][2] == "Payment (bill)" && rows[1][3] == "60.00")
    #expect(rows[2][3] == "40.01")
    #expect(rows[3][2] == "Payment" && rows[3][5] == "-10.00" && rows[3][8] == "10.00")
    #expect(rows.last?[1] == "Total balance")
    #expect(file.remarks.contains { $0.message.contains("1 bill (d1) paid by several people is written as 2 rows") })
  }

  @Test func ihatemoneyWritesNewestFirstWithAReimbursement() throws {
    var book = sampleBook()
    book.bills[0].date = CalendarDate(iso: "2026-11-01")
    let file = ExportTarget.ihatemoney.write(book, date: CalendarDate(iso: "2026-12-05")!)
    let bills = try #require(JSONSerialization.jsonObject(with: Data(file.bytes)) as? [[String: Any]])
    #expect(bills.first?["bill_type"] as? String == "Reimbursement")
    #expect(bills.first?["payer_name"] as? String == "Date")
    #expect(bills.count == 1 + BookExport.evenParts(book.bills[0]).count)
    #expect(bills.allSatisfy { $0["payer_weight"] as? Double == 1 })
  }

  /// Random books, hostile names among the people, through every format: splitbill's importer and
  /// the independent reader both give the books' balances to the cent.
  @Test(arguments: ExportTarget.allCases)
  func randomBooksRoundTrip(_ target: ExportTarget) throws {
    var generator = SplitMix64(seed: 0xE4_9081 &+ UInt64(target.rawValue.count))
    let names = ["Ana", "Ben", "Chloé", "D, the 2nd", "=SUM(A1)", "-minus", "Cost", "名前", "Zoë \"Z\""]
    for round in 0..<150 {
      var book = ImportedBook(source: target.readBack)
      book.people = Array(names.shuffled(using: &generator).prefix(Int.random(in: 2...names.count, using: &generator)))
      let day = CalendarDate(daysSinceEpoch: 20_000 + round)
      for index in 0..<Int.random(in: 1...8, using: &generator) {
        let total = Int64.random(in: 1...90_000, using: &generator)
        let shares = split(total, among: book.people.filter { _ in Bool.random(using: &generator) }, &generator)
        let payers = split(
          total, among: Array(book.people.shuffled(using: &generator).prefix(Int.random(in: 1...3, using: &generator))),
          &generator)
        guard !shares.isEmpty, !payers.isEmpty else { continue }
        book.bills.append(
          ImportedBill(
            id: "b\(index)", date: day, description: index.isMultiple(of: 3) ? "@dinner" : "bill \(index)",
            amount: money(total), payers: payers, shares: shares, notes: nil, comment: nil))
      }
      if Bool.random(using: &generator), book.people.count >= 2 {
        book.payments.append(
          ImportedPayment(
            id: "p", date: day, from: book.people[0], to: book.people[1],
            amount: money(Int64.random(in: 1...5_000, using: &generator)), notes: nil))
      }
      guard !book.bills.isEmpty else { continue }
      let file = target.write(book, date: day)
      let expected = nonZero(book.balances[eur] ?? [:], renamed: file.renamed)
      let back = try target.readBack.read(file.bytes, file: "x", ImportReading())
      #expect(back.errors.isEmpty, "round \(round): \(back.errors.map(\.message))")
      #expect(nonZero(back.book.balances[eur] ?? [:]) == expected, "round \(round), splitbill's importer")
      let independent: [String: Int64]
      switch target {
      case .ihatemoney: independent = try ihatemoneyBalances(file.bytes)
      case .cospend: independent = try cospendBalances(file.bytes).balances
      case .spliitCSV: independent = try spliitBalances(file.bytes)
      }
      #expect(nonZero(independent) == expected, "round \(round), the app's own rule")
    }
  }

  /// `total` cut into a random positive part for each of `people` (none when there is nobody).
  private func split(_ total: Int64, among people: [String], _ generator: inout SplitMix64) -> [ImportedPart] {
    guard !people.isEmpty else { return [] }
    var cuts = (0..<people.count - 1).map { _ in Int64.random(in: 0...total, using: &generator) }.sorted()
    cuts = [0] + cuts + [total]
    return people.indices.map { ImportedPart(person: people[$0], minorUnits: cuts[$0 + 1] - cuts[$0]) }
      .filter { $0.minorUnits > 0 }
  }
}

/// Every code an export can give is documented, in docs/export.md's table of codes.
@Test func everyExportCodeIsDocumented() throws {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let document = try String(contentsOf: root.appendingPathComponent("docs/export.md"), encoding: .utf8)
  for code in ExportCode.allCases {
    #expect(document.contains("| `\(code.rawValue)` |"), "docs/export.md lacks \(code.rawValue)")
  }
}
