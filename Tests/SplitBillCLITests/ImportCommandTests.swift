import Foundation
import Testing

@testable import SplitBillCLI

/// Each person's balance in the JSON report of `path`, as decimal text.
private func reportedBalances(_ path: String) async throws -> [String: String] {
  let outcome = await runCLI(["report", path, "--format", "json"])
  #expect(outcome.code == 0, "\(outcome.stderr)")
  let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
  let people = try #require(object["people"] as? [[String: Any]])
  var balances: [String: String] = [:]
  for person in people { balances[person["person"] as? String ?? "?"] = person["balance"] as? String }
  return balances
}

/// The member cells of a Splitwise export's last row (its Total balance row), by member.
private func totalBalanceRow(_ path: String) throws -> [String: String] {
  let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
  let members = lines[0].split(separator: ",").dropFirst(5).map(String.init)
  let cells = lines[lines.count - 1].split(separator: ",", omittingEmptySubsequences: false).dropFirst(5).map(
    String.init)
  return Dictionary(uniqueKeysWithValues: zip(members, cells))
}

struct ImportCommandTests {
  let samples = packageRoot.appendingPathComponent("samples/import")

  /// The German sample (every row kind: one payer, two, a member's own expense, a zero cost, a
  /// payment to one and to two) reports the balances its Total balance row shows; `check` passes.
  @Test func aSplitwiseExportReportsTheAppsBalances() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let export = samples.appendingPathComponent("splitwise-wg.csv").path
    let output = directory.appendingPathComponent("wg.yaml").path
    let outcome = await runCLI(["import", "splitwise", export, "-o", output, "--today", "2026-12-01"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
    #expect(
      outcome.stderr.contains(
        "imported \(export): 8 rows read, 4 bills, 3 payments, 2 left out (no effect on balances); "
          + "balances match the export's Total balance row (EUR)"))
    #expect(try await reportedBalances(output) == (try totalBalanceRow(export)))
    #expect(await runCLI(["check", output]).code == 0)
    let yaml = try String(contentsOfFile: output, encoding: .utf8)
    #expect(
      yaml.hasPrefix(
        "# Imported from the Splitwise export splitwise-wg.csv on 2026-12-01 by `splitbill import splitwise`."))
  }

  /// IHateMoney's own export test case, as JSON and as CSV: the report gives the balances of the
  /// settlements IHateMoney exported for it, which the import checked; settlements that disagree
  /// stop it with the member named, and nothing is written.
  @Test func anIHateMoneyExportReportsTheSettlementsBalances() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for format in ["json", "csv"] {
      let export = samples.appendingPathComponent("ihatemoney-raclette-bills.\(format)").path
      let settlements = samples.appendingPathComponent("ihatemoney-raclette-transactions.\(format)").path
      let output = directory.appendingPathComponent("raclette-\(format).yaml").path
      let outcome = await runCLI([
        "import", "ihatemoney", export, "--settlements", settlements, "-o", output, "--today", "2026-12-05",
      ])
      #expect(outcome.code == 0, "\(outcome.stderr)")
      #expect(
        outcome.stderr.contains(
          "imported \(export): 3 rows read, 3 bills, 0 payments; balances match IHateMoney's own balances "
            + "(paid minus owed, split by weight, rounded once) and the settlements export "
            + "ihatemoney-raclette-transactions.\(format) (EUR)"))
      #expect(
        try await reportedBalances(output) == [
          "fred": "184.67", "pépé": "-2.00", "tata": "-55.34", "zorglub": "-127.33",
        ])
      #expect(await runCLI(["check", output]).code == 0)
    }
    let wrong = directory.appendingPathComponent("wrong.json").path
    try #"[{"amount": 2.0, "currency": "EUR", "receiver": "fred", "ower": "tata"}]"#.write(
      toFile: wrong, atomically: true, encoding: .utf8)
    let output = directory.appendingPathComponent("wrong.yaml").path
    let refused = await runCLI([
      "import", "ihatemoney", samples.appendingPathComponent("ihatemoney-raclette-bills.json").path,
      "--settlements", wrong, "-o", output,
    ])
    #expect(refused.code == 1)
    #expect(
      refused.stderr.contains(
        "\(wrong): error: zorglub's balance is -127.33 EUR by the bills, 0.00 EUR by the settlements"))
    #expect(!FileManager.default.fileExists(atPath: output))
    let misplaced = await runCLI(["import", "spliit", "x.json", "--settlements", wrong])
    #expect(misplaced.code == 64)
    #expect(misplaced.stderr.contains("--settlements is for IHateMoney exports"))
  }

  /// Cospend's own export test case: the report gives the balances Cospend shows; the trashed
  /// bill is left out with a note at its line.
  @Test func aCospendExportReportsCospendsBalances() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let export = samples.appendingPathComponent("cospend-trip.csv").path
    let output = directory.appendingPathComponent("trip.yaml").path
    let outcome = await runCLI(["import", "cospend", export, "-o", output, "--today", "2026-12-05"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("\(export):9:1: note: 'Museum' is in Cospend's trash (deleted): left out"))
    #expect(
      outcome.stderr.contains(
        "imported \(export): 4 rows read, 2 bills, 1 payment, 1 left out (no effect on balances); balances match "
          + "Cospend's own balances (paid minus owed, split by weight, rounded once) (EUR)"))
    #expect(try await reportedBalances(output) == ["Alice": "26.11", "Bob": "7.22", "Carol": "-33.33"])
    #expect(await runCLI(["check", output]).code == 0)
  }

  /// The English sample has every kind of row: the drift cent is the one difference from the
  /// Total balance row, and both are said.
  @Test func everyRowKindOfTheEnglishSample() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let export = samples.appendingPathComponent("splitwise-trip.csv").path
    let output = directory.appendingPathComponent("trip.yaml").path
    let outcome = await runCLI(["import", "splitwise", export, "-o", output])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(
      outcome.stderr.contains(
        "splitwise-trip.csv:8:43: note: the cells add up to 0.01 EUR, not zero: Alice's 6.67 is taken as 6.66"))
    #expect(outcome.stderr.contains("8 rows read, 4 bills, 3 payments, 2 left out (no effect on balances)"))
    var expected = try totalBalanceRow(export)
    expected["Alice"] = "66.66"
    #expect(try await reportedBalances(output) == expected)
  }

  @Test func aSpliitExportReportsSpliitsBalances() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("lisbon.yaml").path
    let export = samples.appendingPathComponent("spliit-lisbon.json").path
    let outcome = await runCLI(["import", "spliit", export, "-o", output])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    // Worked by hand from the export under today's rule (it has expense ids): the dinner's
    // leftover cent goes to Chloé (FNV-1a of "e-dinner" mod 3 is 2, the rotation starts at her),
    // the books' to Ana (mod 3 is 0). Ana paid 135.50, owes 33.33 + 15.00 + 30.00 + 3.34 and
    // received 20.00 back: 33.83.
    #expect(try await reportedBalances(output) == ["Ana": "33.83", "Ben": "-26.66", "Chloé": "-7.17"])
    #expect(outcome.stderr.contains("balances match what Spliit showed, by the largest-remainder rule (EUR)"))
    #expect(await runCLI(["check", output]).code == 0)
  }

  @Test func theSameExportGivesTheSameBytes() async {
    let export = samples.appendingPathComponent("spliit-lisbon.json").path
    let first = await runCLI(["import", "spliit", export, "--today", "2026-12-01"])
    let second = await runCLI(["import", "spliit", export, "--today", "2026-12-01"])
    #expect(first.code == 0)
    #expect(!first.stdout.isEmpty && first.stdout == second.stdout)
  }

  @Test func invalidRowsFailWithTheirLineAndWriteNothing() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let export = directory.appendingPathComponent("export.csv")
    try Data(
      """
      Date,Description,Category,Cost,Currency,Ana,Ben
      2026-10-01,Dinner,General,30.00,EUR,15.00,-15.00
      2026-10-02,Broken,General,0.00,EUR,5.00,-5.00

      """.utf8
    ).write(to: export)
    let output = directory.appendingPathComponent("out.yaml").path
    let failed = await runCLI(["import", "splitwise", export.path, "-o", output])
    #expect(failed.code == 1)
    #expect(
      failed.stderr.contains("export.csv:3:27: error: the cost is 0.00 EUR but the members' cells are not all zero"))
    #expect(failed.stderr.contains("nothing was written (--skip-invalid leaves the invalid rows out)"))
    #expect(!FileManager.default.fileExists(atPath: output))
    let skipped = await runCLI(["import", "splitwise", export.path, "-o", output, "--skip-invalid"])
    #expect(skipped.code == 0, "\(skipped.stderr)")
    #expect(skipped.stderr.contains("1 invalid and skipped"))
    let yaml = try String(contentsOfFile: output, encoding: .utf8)
    #expect(yaml.contains("# skipped: line 3: the cost is 0.00 EUR"))
    // An existing file is kept unless --force.
    let again = await runCLI(["import", "splitwise", export.path, "-o", output, "--skip-invalid"])
    #expect(again.code == 73)
    #expect(await runCLI(["import", "splitwise", export.path, "-o", output, "--skip-invalid", "--force"]).code == 0)
  }

  /// A German export's invalid rows: located, skipped with --skip-invalid, and the checksum still
  /// holds once they are taken out.
  @Test func aGermanExportsInvalidRowsAreSkippedOnlyWhenAsked() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let export = directory.appendingPathComponent("export.csv")
    try Data(
      """
      Datum,Beschreibung,Kategorie,Kosten,Währung,Anna,Björn
      2026-11-02,Einkauf,Lebensmittel,20.00,EUR,10.00,-10.00
      2026-11-03,Null,Allgemein,0.00,EUR,5.00,-5.00
      2026-11-04,Krumm,Allgemein,9.00,EUR,4.50,-4.00

      ,Gesamtsaldo,,,EUR,19.50,-19.00

      """.utf8
    ).write(to: export)
    let failed = await runCLI(["import", "splitwise", export.path])
    #expect(failed.code == 1)
    #expect(failed.stderr.contains("export.csv:3:27: error: the cost is 0.00 EUR"))
    #expect(failed.stderr.contains("export.csv:4:37: error: the members' cells add up to 0.50 EUR, not zero"))
    #expect(failed.stdout.isEmpty)
    #expect(!failed.stderr.contains("Total balance"))
    let skipped = await runCLI(["import", "splitwise", export.path, "--skip-invalid"])
    #expect(skipped.code == 0, "\(skipped.stderr)")
    #expect(skipped.stderr.contains("3 rows read, 1 bill, 0 payments, 2 invalid and skipped; balances match"))
  }

  @Test func aWrongTotalBalanceIsAnErrorEvenWhenSkipping() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let export = directory.appendingPathComponent("export.csv")
    try Data(
      "Date,Description,Category,Cost,Currency,Ana,Ben\n2026-10-01,Dinner,General,30.00,EUR,15.00,-15.00\n\n"
        .appending(",Total balance,,,EUR,15.00,-14.00\n").utf8
    ).write(to: export)
    let outcome = await runCLI(["import", "splitwise", export.path, "--skip-invalid"])
    #expect(outcome.code == 1)
    #expect(
      outcome.stderr.contains("Ben's balance from the rows is -15.00 EUR but the Total balance row says -14.00 EUR"))
    #expect(outcome.stdout.isEmpty)
  }

  @Test(arguments: [
    (["import"], 64, "name the app the export comes from"),
    (["import", "splitwice", "x.csv"], 64, "did you mean 'splitwise'?"),
    (["import", "splitwise"], 64, "no FILE given"),
    (["import", "splitwise", "/nonexistent/x.csv"], 66, "cannot read '/nonexistent/x.csv': no such file or directory"),
    (
      ["import", "splitwise", "a.csv", "--currency", "EUR"], 64,
      "--currency is for Spliit, IHateMoney and Cospend exports"
    ),
    (["import", "splitwise", "a.csv", "--spliit-rule", "floor-last"], 64, "--spliit-rule is for Spliit exports"),
    (["import", "spliit", "a.json", "--spliit-rule", "floor"], 64, "expected auto, largest-remainder"),
  ])
  func usageAndMissingFiles(arguments: [String], code: Int32, message: String) async {
    let outcome = await runCLI(arguments)
    #expect(outcome.code == code)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  /// Nothing to import is exit 66, as the table says: an empty file, a header alone, rows that
  /// move nothing (a placeholder, a member's own expense) and the total row.
  @Test(arguments: [
    "", "\n\n", "Date,Description,Category,Cost,Currency,Ana,Ben\n",
    "Date,Description,Category,Cost,Currency,Ana,Ben\n2026-07-04,Expense 21,\" \",\" \",MKD,0.00,0.00\n"
      + "2026-07-05,Own,General,9.00,MKD,0.00,0.00\n\n2026-07-06,Total balance, , ,MKD,0.00,0.00\n",
  ])
  func nothingToImportIsExit66(text: String) async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let export = directory.appendingPathComponent("empty.csv")
    try Data(text.utf8).write(to: export)
    let output = directory.appendingPathComponent("out.yaml").path
    let outcome = await runCLI(["import", "splitwise", export.path, "-o", output])
    #expect(outcome.code == 66, "\(outcome.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  /// An export or a rates file given as a pipe or a FIFO (`<(...)`, `mkfifo`) is read to its end:
  /// it has no size to read up to.
  @Test func pipesAndFIFOsAreRead() throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let export = samples.appendingPathComponent("splitwise-wg.csv").path
    let fifo = directory.appendingPathComponent("export.fifo").path
    let trip = packageRoot.appendingPathComponent("samples/trip.yaml").path
    let ecb = packageRoot.appendingPathComponent("samples/rates/eurofxref-hist.csv").path
    let outcome = try WriteFailureTests.shell(
      "mkfifo '\(fifo)' && (cat '\(export)' > '\(fifo)' &) && \"$1\" import splitwise '\(fifo)' > /dev/null"
        + " && cat '\(ecb)' | \"$1\" report '\(trip)' --settle-in EUR --rates /dev/stdin --format json > /dev/null",
      binary: try builtBinary().path)
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("balances match the export's Total balance row (EUR)"))
  }

  /// A generated export of 10,000 rows (expenses with one to three payers and payments among
  /// eight members, in two currencies) imports, reads back and reports the Total balance rows.
  /// Not under AddressSanitizer (19 s there): the importers' suites run the same code on real exports.
  @Test(.disabled(if: underAddressSanitizer, "the size of an export; the plain run checks it"))
  func aTenThousandRowExportImportsWhole() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let export = directory.appendingPathComponent("big.csv")
    let members = (1...8).map { "Member \($0)" }
    var totals: [String: [Int64]] = ["EUR": Array(repeating: 0, count: 8), "USD": Array(repeating: 0, count: 8)]
    var text = "Date,Description,Category,Cost,Currency," + members.joined(separator: ",") + "\n"
    var state: UInt64 = 42
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    func money(_ units: Int64) -> String {
      let sign = units < 0 ? "-" : ""
      let cents = abs(units) % 100
      return "\(sign)\(abs(units) / 100).\(cents < 10 ? "0" : "")\(cents)"
    }
    for row in 0..<10_000 {
      let currency = row % 5 == 0 ? "USD" : "EUR"
      var cells = Array(repeating: Int64(0), count: 8)
      let cost = Int64(100 + next(20_000))
      let payment = row % 7 == 0
      let payer = next(8)
      cells[payer] += cost
      let owers = payment ? [(payer + 1) % 8] : (0..<8).filter { _ in next(2) == 0 }
      let debtors = owers.isEmpty ? [payer] : owers
      for (index, person) in debtors.enumerated() {
        let share = cost / Int64(debtors.count) + (Int64(index) < cost % Int64(debtors.count) ? 1 : 0)
        cells[person] -= share
      }
      for index in 0..<8 { totals[currency]![index] += cells[index] }
      let (month, day) = (1 + row % 12, 1 + row % 28)
      let date = "2026-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
      text +=
        "\(date),Row \(row),\(payment ? "Payment" : "General"),\(money(cost)),\(currency),"
        + cells.map(money).joined(separator: ",") + "\n"
    }
    text += "\n"
    for currency in ["EUR", "USD"] {
      text += ",Total balance,,,\(currency)," + totals[currency]!.map(money).joined(separator: ",") + "\n"
    }
    try Data(text.utf8).write(to: export)
    let output = directory.appendingPathComponent("big.yaml").path
    let outcome = await runCLI(["import", "splitwise", export.path, "-o", output, "--quiet"])
    #expect(outcome.code == 0, "\(outcome.stderr.prefix(2000))")
    let report = await runCLI(["report", output, "--format", "json"])
    #expect(report.code == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
    let people = try #require(object["people"] as? [[String: Any]])
    for entry in people {
      let currency = try #require(entry["currency"] as? String)
      let index = try #require(members.firstIndex(of: entry["person"] as? String ?? ""))
      #expect(entry["balance"] as? String == money(totals[currency]![index]), "\(entry)")
    }
    #expect(people.count == 16)
  }
}
