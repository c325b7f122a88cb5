import Foundation
import Testing

/// Files the world wrote (`../shared/realdata/`, beside the clone: real Splitwise and Spliit
/// exports and the ECB's history as published; never copied into the repository). A user's
/// clone has no `../shared`: the suite then skips, saying so; under CI it must run.
let realData = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/realdata")
let realDataPresent = FileManager.default.fileExists(atPath: realData.path)

@Suite(
  .enabled(
    if: needing(realDataPresent),
    "needs ../shared/realdata beside the clone (real exports, not in the repository)"))
struct RealDataTests {
  static func path(_ name: String) -> String { realData.appendingPathComponent(name).path }

  /// Each member's balance by currency from a Splitwise export's own summary rows, read here by
  /// splitting lines (the files have no quoted commas in those rows).
  static func totalRows(_ path: String) throws -> [String: [String: String]] {
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
    guard let header = lines.first(where: { $0.lowercased().hasPrefix("date,") }) else { return [:] }
    let members = header.split(separator: ",", omittingEmptySubsequences: false).dropFirst(5).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    var totals: [String: [String: String]] = [:]
    for line in lines {
      let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard cells.count > 5, ["Total balance", "Current balance"].contains(cells[1]) else { continue }
      totals[cells[4]] = Dictionary(uniqueKeysWithValues: zip(members, cells.dropFirst(5)))
    }
    return totals
  }

  /// Each person's balance by currency in the JSON report of `path`, decimals normalised.
  static func reported(_ path: String) throws -> [String: [String: String]] {
    let outcome = try runBinary(["report", path, "--format", "json"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any] ?? [:]
    var balances: [String: [String: String]] = [:]
    for person in object["people"] as? [[String: Any]] ?? [] {
      guard let name = person["person"] as? String, let currency = person["currency"] as? String else { continue }
      balances[currency, default: [:]][name] = person["balance"] as? String
    }
    return balances
  }

  static func cents(_ text: String) -> Int {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let decimals = parts.count > 1 ? String(parts[1]) : ""
    let padded = (decimals + "00").prefix(2)
    let whole = Int(parts[0].replacingOccurrences(of: "-", with: "")) ?? 0
    return (text.hasPrefix("-") ? -1 : 1) * (whole * 100 + (Int(padded) ?? 0))
  }

  /// Real exports with a dated Total balance row: imported, and every member's balance in the
  /// report of the imported file is the export's own, in every currency.
  @Test(arguments: ["brazil-expenses_splitwise.csv", "spliitcloud_splitwise-multi-payer.csv"])
  func splitwiseExportsReportTheirTotalRows(name: String) throws {
    let export = Self.path("exports/\(name)")
    let output = try scratchDirectory().appendingPathComponent("imported.yaml").path
    let outcome = try runBinary(["import", "splitwise", export, "-o", output])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("balances match the export's Total balance row"))
    let expected = try Self.totalRows(export)
    #expect(!expected.isEmpty)
    let reported = try Self.reported(output)
    for (currency, members) in expected where reported[currency] != nil {
      for (member, cell) in members {
        #expect(Self.cents(reported[currency]?[member] ?? "0") == Self.cents(cell), "\(name) \(member) \(currency)")
      }
    }
  }

  /// No total row and a placeholder last row: imported, the placeholder noted, one warning that
  /// nothing checks the balances, and the report's balances are the columns' sums.
  @Test func aSplitwiseExportWithoutATotalRow() throws {
    let export = Self.path("exports/spliitcloud_splitwise-drift.csv")
    let output = try scratchDirectory().appendingPathComponent("drift.yaml").path
    let outcome = try runBinary(["import", "splitwise", export, "-o", output])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.components(separatedBy: "no Total balance row").count == 2)
    #expect(outcome.stderr.contains("a placeholder row"))
    let lines = try String(contentsOfFile: export, encoding: .utf8).split(whereSeparator: \.isNewline)
    let members = lines[0].split(separator: ",").dropFirst(5).map(String.init)
    var sums = [Int](repeating: 0, count: members.count)
    for line in lines.dropFirst() {
      let cells = line.split(separator: ",", omittingEmptySubsequences: false).dropFirst(5)
      for (index, cell) in cells.enumerated() where index < sums.count { sums[index] += Self.cents(String(cell)) }
    }
    let reported = try Self.reported(output)["MKD"] ?? [:]
    for (index, member) in members.enumerated() {
      #expect(Self.cents(reported[member] ?? "0") == sums[index], "\(member)")
    }
  }

  /// A 2012 export whose rows do not add up (a member who left): refused with located errors,
  /// nothing written; with --skip-invalid the rest matches its Current balance row.
  @Test func anOldExportWithRowsThatDoNotAddUpIsRefusedWhereTheyAre() throws {
    let export = Self.path("exports/moneystack_splitwise.csv")
    let output = try scratchDirectory().appendingPathComponent("old.yaml").path
    let refused = try runBinary(["import", "splitwise", export, "-o", output])
    #expect(refused.code == 1)
    #expect(refused.stderr.contains("\(export):2:39: error: the members' cells add up to -51.00 USD, not zero"))
    #expect(!FileManager.default.fileExists(atPath: output))
    let skipping = try runBinary(["import", "splitwise", export, "-o", output, "--skip-invalid"])
    #expect(skipping.code == 0, "\(skipping.stderr)")
    #expect(skipping.stderr.contains("balances match the export's Total balance row (USD, the skipped rows taken out)"))
  }

  /// A real trip exported from Spliit in 2025 (no expense ids) that Spliit showed settled at 0.00
  /// after its last reimbursement: imported by that era's rule, it settles to nothing.
  @Test func theSardiniaTripSettlesAtZero() throws {
    let output = try scratchDirectory().appendingPathComponent("sardinia.yaml").path
    let outcome = try runBinary([
      "import", "spliit", Self.path("exports/spliitcloud_spliit-sardinia.json"), "-o", output,
    ])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("by the rounded-balances rule"))
    let balances = try Self.reported(output)["EUR"] ?? [:]
    #expect(balances.count == 2)
    #expect(balances.values.allSatisfy { Self.cents($0) == 0 }, "\(balances)")
    // The older rule (each share rounded down) leaves a few cents: why the era matters.
    let older = try runBinary([
      "import", "spliit", Self.path("exports/spliitcloud_spliit-sardinia.json"), "--spliit-rule", "floor-last",
    ])
    #expect(older.code == 0)
  }

  /// `add` on books imported from real exports (quoted names, comments, a file with no payments
  /// yet): a bill and a payment go in, every line the import wrote stays, and the file checks.
  @Test(
    arguments: [
      ("splitwise", "brazil-expenses_splitwise.csv"), ("splitwise", "moneystack_splitwise.csv"),
      ("spliit", "spliitcloud_spliit-sardinia.json"),
    ])
  func addingToImportedBooksKeepsThemWhole(kind: String, name: String) throws {
    let file = try scratchDirectory().appendingPathComponent("books.yaml").path
    #expect(try runBinary(["import", kind, Self.path("exports/" + name), "-o", file, "--skip-invalid"]).code == 0)
    let before = try String(contentsOfFile: file, encoding: .utf8)
    let report = try runBinary(["report", file, "--format", "json"])
    let people = try #require(
      (try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["people"]
        as? [[String: Any]])
    let names = people.compactMap { $0["person"] as? String }
    let currency = try #require(people.first?["currency"] as? String)
    try #require(names.count >= 2)
    let bill = try runBinary([
      "add", file, "--amount", "12.00", "--currency", currency, "--tip", "0", "--diners", names[0] + "; " + names[1],
      "--paid-by", names[0], "--date", "2026-12-01",
    ])
    #expect(bill.code == 0, "\(bill.stderr)")
    let payment = try runBinary([
      "add", file, "--payment", "--from", names[1], "--to", names[0], "--amount", "1", "--currency", currency,
      "--date", "2026-12-02",
    ])
    #expect(payment.code == 0, "\(payment.stderr)")
    let after = try String(contentsOfFile: file, encoding: .utf8)
    let kept = before.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let lines = after.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.filter { kept.contains($0) } == kept)
    #expect(
      lines.count == kept.count + bill.stdout.split(separator: "\n").count + payment.stdout.split(separator: "\n").count
    )
    let checked = try runBinary(["check", file])
    #expect(checked.code == 0, "\(checked.stdout)")
  }

  /// Real exports, imported, then written for each app and imported back: in every currency of
  /// the books, every balance comes back to the cent (several payers, refunds, rows mended for a
  /// cent of drift, conversions, a 2012 export's rows).
  @Test(
    arguments: [
      ("splitwise", "brazil-expenses_splitwise.csv"), ("splitwise", "spliitcloud_splitwise-multi-payer.csv"),
      ("splitwise", "spliitcloud_splitwise-drift.csv"), ("splitwise", "moneystack_splitwise.csv"),
      ("spliit", "spliitcloud_spliit-sardinia.json"), ("spliit", "spliitcloud_spliit-export-features.json"),
    ])
  func realBooksRoundTripThroughEveryApp(kind: String, name: String) async throws {
    let file = try scratchDirectory().appendingPathComponent("books.yaml").path
    let imported = try runBinary(["import", kind, Self.path("exports/" + name), "-o", file, "--skip-invalid"])
    #expect(imported.code == 0, "\(imported.stderr)")
    let currencies = try Self.reported(file).keys.sorted()
    #expect(!currencies.isEmpty)
    for currency in currencies {
      for (target, readBack) in exportTargets {
        try await expectRoundTrip([file], target: target, readBack: readBack, currency: currency)
      }
    }
  }

  @Test func theFeaturesDemoGroupImports() throws {
    let outcome = try runBinary(["import", "spliit", Self.path("exports/spliitcloud_spliit-export-features.json")])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("entered as 500.00 USD at rate 0.9"))
  }

  /// The ECB's history as published (withdrawn currencies in its header): read without an error,
  /// a bill after the file's last day converted at its last rate with one warning of its age.
  @Test func theECBHistoryAsPublished() throws {
    let trip = try SettleInTests.write(
      """
      people: [Ana, Ben]
      bills:
        - {id: zagreb, date: 2021-03-06, amount: 300, currency: HRK, diners: [Ana, Ben], paid_by: Ana, tip: 0}
        - {id: late, date: 2025-06-02, amount: 30.00, currency: USD, diners: [Ana, Ben], paid_by: Ben, tip: 0}
        - {id: later, date: 2025-06-03, amount: 40.00, currency: USD, diners: [Ana, Ben], paid_by: Ben, tip: 0}
      """)
    let history = Self.path("ecb/h0tbird_eurofxref-hist.csv")
    let (code, object, stderr) = try SettleInTests.json([trip, "--settle-in", "EUR", "--rates", history])
    #expect(code == 0, "\(stderr)")
    #expect(!stderr.contains("error"))
    #expect(stderr.components(separatedBy: "warning:").count == 2, "\(stderr)")
    #expect(
      stderr.contains("USD converted at a rate 25 days old: bill 'later' of 2025-06-03 took the rate of 2025-05-09"))
    #expect(!SettleInTests.transfers(object).isEmpty)
    let quiet = try runBinary(["report", trip, "--settle-in", "EUR", "--rates", history, "--max-rate-age", "30"])
    #expect(quiet.code == 0)
    #expect(!quiet.stderr.contains("warning"))
  }
}
