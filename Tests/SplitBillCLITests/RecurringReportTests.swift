import Foundation
import Testing

/// Recurring bills through the report: the instances inside a period are its bills, earlier ones
/// are carried into the opening balances, later ones left out, and hledger agrees with the journal.
struct RecurringReportTests {
  static let flat = """
    version: 1
    people: [Maya, Jonas, Ines]
    defaults: {currency: EUR, tip: 0}
    bills:
      - id: rent
        date: 2026-01-31
        amount: 1500.00
        diners: [Maya, Jonas, Ines]
        paid_by: Maya
        repeat: {every: month, until: 2026-12-31, skip: [2026-04]}
      - id: rent#2026-04
        date: 2026-04-30
        amount: 1450.00
        diners: [Maya, Jonas, Ines]
        paid_by: Maya
      - id: internet
        date: 2026-01-05
        amount: 30.00
        diners: [Maya, Jonas, Ines]
        paid_by: Jonas
        repeat: month

    """

  func json(_ arguments: [String]) throws -> [String: Any] {
    let outcome = try runBinary(arguments)
    #expect(outcome.code == 0, "\(outcome.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
  }

  func closing(_ report: [String: Any], key: String = "closing") -> [String: String] {
    let people = report["people"] as? [[String: Any]] ?? []
    return Dictionary(uniqueKeysWithValues: people.map { ($0["person"] as? String ?? "", $0[key] as? String ?? "") })
  }

  @Test func aPeriodHasItsInstancesCarriesEarlierOnesAndLeavesLaterOnesOut() throws {
    let directory = try scratchDirectory()
    let file = directory.appendingPathComponent("flat.yaml")
    try Self.flat.write(to: file, atomically: true, encoding: .utf8)
    let spring = try json(["report", file.path, "--since", "2026-03-01", "--until", "2026-05-31", "--format", "json"])
    let ids = (spring["bills"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    #expect(
      ids == [
        "rent#2026-03", "rent#2026-05", "rent#2026-04", "internet#2026-03", "internet#2026-04", "internet#2026-05",
      ])
    let dates = (spring["bills"] as? [[String: Any]] ?? []).compactMap { $0["date"] as? String }
    #expect(dates == ["2026-03-31", "2026-05-31", "2026-04-30", "2026-03-05", "2026-04-05", "2026-05-05"])
    // The rent of June to December lies after the period; internet, open-ended, stops at its end.
    #expect(spring["filtered_out"] as? Int == 7)
    // Opening balances are what everything before the period comes to.
    let winter = try json(["report", file.path, "--until", "2026-02-28", "--format", "json"])
    #expect(closing(spring, key: "opening") == closing(winter))
    // Maya paid rent in January and February, Jonas internet: 2 × 1500 − 2 × 500 + 2 × (−10).
    #expect(closing(winter)["Maya"] == "1980.00")
  }

  @Test(.enabled(if: needing(toolExists("hledger")), "needs hledger (apt-get install hledger)"))
  func theJournalOfAYearOfInstancesBalancesInHledger() throws {
    let directory = try scratchDirectory()
    let file = directory.appendingPathComponent("flat.yaml")
    try Self.flat.write(to: file, atomically: true, encoding: .utf8)
    let journal = directory.appendingPathComponent("flat.journal")
    let year = ["--since", "2026-01-01", "--until", "2026-12-31"]
    let written = try runBinary(["report", file.path] + year + ["-o", journal.path])
    #expect(written.code == 0, "\(written.stderr)")
    let text = try String(contentsOf: journal, encoding: .utf8)
    #expect(text.contains("rent#2026-12"))
    #expect(text.contains("2026-04-30 * rent#2026-04"))
    #expect(text.contains("2026-02-28 * rent#2026-02"))
    // Eleven rents, a changed April, twelve months of internet: 11 × 1500 + 1450 + 12 × 30 in expenses.
    let report = try json(["report", file.path] + year + ["--format", "json"])
    #expect(((report["bills"] as? [[String: Any]])?.count) == 24)
    let total = try runProcess("hledger", ["-f", journal.path, "bal", "-O", "csv", "expenses"])
    #expect(total.code == 0, "\(total.stderr)")
    #expect(total.stdout.contains("\"total\",\"18310.00 EUR\""), "\(total.stdout)")
  }
}
