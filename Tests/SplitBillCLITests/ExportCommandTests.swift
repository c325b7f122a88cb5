import Foundation
import Testing

@testable import SplitBillCLI

/// Each person's balance in cents by currency in the JSON report of `paths`.
private func reportedCents(_ paths: [String]) async throws -> [String: [String: Int]] {
  let outcome = await runCLI(["report"] + paths + ["--format", "json"])
  #expect(outcome.code == 0, "\(outcome.stderr)")
  let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
  var balances: [String: [String: Int]] = [:]
  for person in object["people"] as? [[String: Any]] ?? [] {
    guard let name = person["person"] as? String, let currency = person["currency"] as? String,
      let balance = person["balance"] as? String
    else { continue }
    let cents = RealDataTests.cents(balance)
    if cents != 0 { balances[currency, default: [:]][name] = cents }
  }
  return balances
}

/// The apps' names for `export` and the importer that reads each back.
let exportTargets = [("ihatemoney", "ihatemoney"), ("cospend", "cospend"), ("spliit-csv", "splitwise")]

/// Exports `paths` for `target` in `currency`, imports the file back with splitbill's importer of
/// that app, and checks that every balance of the report of the import is the books' own.
/// `renamed` maps the names the app could not hold to those the file has.
func expectRoundTrip(
  _ paths: [String], target: String, readBack: String, currency: String, renamed: [String: String] = [:]
) async throws {
  let directory = try scratchDirectory()
  defer { try? FileManager.default.removeItem(at: directory) }
  let file = directory.appendingPathComponent("export").path
  let exported = await runCLI(
    ["export", target] + paths + ["-o", file, "--currency", currency, "--today", "2026-12-05"])
  #expect(exported.code == 0, "\(target) \(paths): \(exported.stderr)")
  #expect(exported.stderr.contains("every balance is the books'"))
  let yaml = directory.appendingPathComponent("back.yaml").path
  let imported = await runCLI(["import", readBack, file, "-o", yaml, "--today", "2026-12-05"])
  #expect(imported.code == 0, "\(target) \(paths): \(imported.stderr)")
  let books = Dictionary(
    uniqueKeysWithValues: (try await reportedCents(paths)[currency] ?? [:]).map {
      (renamed[$0.key] ?? $0.key, $0.value)
    })
  let back = try await reportedCents([yaml])[currency] ?? [:]
  // (Books settled up have no balance but zero: then nothing must come back either.)
  #expect(back == books, "\(target) \(paths) \(currency)")
}

struct ExportCommandTests {
  let samples = packageRoot.appendingPathComponent("samples")

  /// The bundled books, through each app's format and back: the report of what comes back has the
  /// books' balances to the cent (the trip in both its currencies, the flat's two weeks with their
  /// payments, the CSV trip with its payments file).
  @Test(arguments: exportTargets)
  func theSamplesRoundTrip(_ target: String, _ readBack: String) async throws {
    let trip = samples.appendingPathComponent("trip.yaml").path
    #expect(try await reportedCents([trip])["EUR"]?.count == 4, "the trip's four owe each other")
    try await expectRoundTrip([trip], target: target, readBack: readBack, currency: "EUR")
    try await expectRoundTrip([trip], target: target, readBack: readBack, currency: "JPY")
    try await expectRoundTrip(
      [samples.appendingPathComponent("flat").path], target: target, readBack: readBack, currency: "EUR")
    try await expectRoundTrip(
      [samples.appendingPathComponent("csv").path], target: target, readBack: readBack, currency: "EUR")
  }

  /// Hostile names and text (a comma, a formula, a quote, a column's name, a line break in notes)
  /// go through every format; what had to change is said, and the balances still come back.
  @Test(arguments: exportTargets)
  func hostileNamesAndTextRoundTrip(_ target: String, _ readBack: String) async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let books = directory.appendingPathComponent("hostile.yaml").path
    try """
    version: 1
    people: ["Smith, Jo", "=HYPERLINK(\\"x\\")", "Date", "Zoë \\"Z\\""]
    defaults: {currency: EUR, tip: 0}
    bills:
      - id: b1
        date: 2026-11-02
        description: "=cmd|' /C calc'!A0"
        amount: 100.01
        diners: ["Smith, Jo", "=HYPERLINK(\\"x\\")", "Date"]
        paid_by: {"Smith, Jo": 60, "Zoë \\"Z\\"": 40.01}
        notes: "line one\\nline two, with \\"quotes\\" & %20"
        category: Payment
      - id: b2
        description: Total balance
        amount: 30
        tip: 10%
        diners: ["Date", "Zoë \\"Z\\""]
        paid_by: Date
    payments:
      - {id: p1, date: 2026-11-03, from: "Date", to: "Smith, Jo", amount: 5}
    """.write(toFile: books, atomically: true, encoding: .utf8)
    let outcome = await runCLI(["export", target, books, "-o", "-", "--today", "2026-12-05"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("1 record (b2) has no date: written dated 2026-12-05"))
    #expect(outcome.stderr.contains("1 bill had a tip"))
    switch target {
    case "cospend":
      #expect(outcome.stderr.contains("'Smith, Jo' is written 'Smith Jo'"))
      #expect(outcome.stdout.contains("'=cmd|' /C calc'!A0"))
    case "spliit-csv":
      #expect(outcome.stderr.contains("'Date' is written 'Date (member)'"))
      #expect(
        outcome.stderr.contains(
          "2 bills (b1, b2) are written with ' (bill)' after a category 'Payment' or a description 'Total balance'"))
      #expect(outcome.stdout.contains(",'=cmd|' /C calc'!A0 (1/2),Payment (bill),60.00,EUR,"))
    default:
      #expect(outcome.stderr.contains("IHateMoney bills hold no id, notes or category"))
    }
    let renamed: [String: String] =
      switch target {
      case "cospend": ["Smith, Jo": "Smith Jo", "=HYPERLINK(\"x\")": "'=HYPERLINK(\"x\")"]
      case "spliit-csv": ["Date": "Date (member)", "=HYPERLINK(\"x\")": "'=HYPERLINK(\"x\")"]
      default: [:]
      }
    try await expectRoundTrip([books], target: target, readBack: readBack, currency: "EUR", renamed: renamed)
  }

  @Test func severalCurrenciesNeedOneChosen() async throws {
    let trip = samples.appendingPathComponent("trip.yaml").path
    let outcome = await runCLI(["export", "cospend", trip, "-o", "-"])
    #expect(outcome.code == 64)
    #expect(outcome.stderr.contains("the books are in EUR, JPY, and a group in Cospend has one currency"))
    #expect(outcome.stdout.isEmpty)
    let other = await runCLI(["export", "cospend", trip, "-o", "-", "--currency", "USD"])
    #expect(other.code == 64)
    #expect(other.stderr.contains("the books have no USD records (they have EUR, JPY)"))
  }

  /// Invalid bills would leave their money out of the file: nothing is written, exit 1.
  @Test func invalidBillsWriteNothing() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("out.json").path
    let outcome = await runCLI([
      "export", "ihatemoney", samples.appendingPathComponent("invalid/amounts.yaml").path, "-o", file,
    ])
    #expect(outcome.code == 1)
    #expect(
      outcome.stderr.contains("a file for IHateMoney without them would give other balances, so nothing was written"))
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  @Test func usageMistakesAreNamed() async throws {
    let trip = samples.appendingPathComponent("trip.yaml").path
    let misspelt = await runCLI(["export", "cospnd", trip, "-o", "-"])
    #expect(misspelt.code == 64)
    #expect(
      misspelt.stderr.contains(
        "cannot export for 'cospnd': expected ihatemoney, cospend, spliit-csv; did you mean 'cospend'?"))
    let noOutput = await runCLI(["export", "cospend", trip])
    #expect(noOutput.code == 64)
    #expect(noOutput.stderr.contains("-o FILE"))
    let overInput = await runCLI(["export", "cospend", trip, "-o", trip, "--currency", "EUR"])
    #expect(overInput.code == 64)
    #expect(overInput.stderr.contains("the export would replace the books it reads"))
  }

  /// An existing file is kept unless --force.
  @Test func anExistingFileNeedsForce() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("out.csv").path
    try "keep me\n".write(toFile: file, atomically: true, encoding: .utf8)
    let trip = samples.appendingPathComponent("flat").path
    let refused = await runCLI(["export", "spliit-csv", trip, "-o", file])
    #expect(refused.code == 73)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me\n")
    let forced = await runCLI(["export", "spliit-csv", trip, "-o", file, "--force"])
    #expect(forced.code == 0, "\(forced.stderr)")
    #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("Date,Description,Category,Cost,Currency,"))
  }
}
