import Foundation
import SplitBill
import Testing

/// The report examples of docs/library.md, compiled against `import SplitBill` alone.
@Suite struct ReporterExampleTests {
  /// A directory of its own with `bills.yaml` holding `text`, removed after `body`.
  private func withBills<T>(_ text: String, _ body: (String) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reporter-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try text.write(to: directory.appendingPathComponent("bills.yaml"), atomically: true, encoding: .utf8)
    return try await body(directory.path)
  }

  private let today = CalendarDate(daysSinceEpoch: 20_789)  // 2026-12-02

  private let bills = """
    version: 1
    defaults: {currency: EUR}
    bills:
      - {id: dinner, date: 2026-11-20, amount: 100.00, tip: 10, diners: [Ana, Ben, Chloé], paid_by: Ana}
      - {id: taxi, date: 2026-11-21, amount: 30.00, tip: ai, diners: [Ana, Ben], paid_by: Ben,
         notes: "Quick and friendly"}
    """

  /// A JSON report returned, a Markdown report written to a file: each split to the cent, the
  /// tip: ai bill advised by the program, the settlements typed.
  /// On the cooperative pool (an `async` test), awaited: the reading runs on a thread of its own.
  @Test func aProgramWritesReports() async throws {
    try await withBills(bills) { directory in
      let markdown = directory + "/report.md"
      var options = ReportOptions(
        outputs: [ReportOutput(.json, to: .returned), ReportOutput(.markdown, to: .file(markdown))], today: today)
      options.reading.defaultTip = .percent(try Percent(parsing: "15"))
      var run = try Reporter.prepare([directory + "/bills.yaml"], options)
      let requests = await run.adviceRequests()
      #expect(requests.map(\.billID) == ["taxi"])
      #expect(requests.first?.notes == "Quick and friendly")
      let advice = [
        "taxi": TipAdvice(percent: try Percent(parsing: "20"), reason: "friendly driver", advisor: "my-app")
      ]
      let outcome = try await run.write(advice: advice)
      #expect(outcome.bills == 2 && outcome.invalid == 0)
      #expect(outcome.written == [markdown])
      let json = try #require(outcome.text?.string)
      // 100.00 + 10 % = 110.00; 30.00 + the advised 20 % = 36.00.
      #expect(json.contains("\"total\":\"110.00\"") || json.contains("\"total\": \"110.00\""))
      #expect(json.contains("36.00"))
      #expect(try String(contentsOfFile: markdown, encoding: .utf8).contains("Chloé"))
      // Ana paid 110.00 of which her share is 36.67 (110.00 / 3 leaves two cents: Ana and Ben take
      // one each) plus 18.00 of the taxi: Ben and Chloé owe her 110.00 - 36.67 - 18.00 = 55.33.
      let transfers = outcome.settlements.flatMap(\.transfers)
      #expect(transfers.count == 2)
      #expect(transfers.allSatisfy { $0.to == "Ana" })
      let transferred: Int64 = transfers.reduce(0) { sum, transfer in sum + transfer.amount.minorUnits }
      #expect(transferred == 11_000 - 3_667 - 1_800)
    }
  }

  /// Bad bills are problems of the outcome, not thrown; a repeated id names the first.
  /// Called from synchronous code, the same names block.
  @Test func invalidBillsAreProblems() throws {
    let text = """
      version: 1
      bills:
        - {id: a, amount: 10.00, currency: EUR, tip: 0, diners: 2}
        - {id: a, amount: 12.00, currency: EUR, tip: 0, diners: 2}
        - {id: b, amount: 1.234, currency: EUR, tip: 0, diners: 2}
      """
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reporter-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try text.write(to: directory.appendingPathComponent("bills.yaml"), atomically: true, encoding: .utf8)
    do {
      let run = try Reporter.prepare([directory.path + "/bills.yaml"], ReportOptions(today: today))
      let outcome = try run.write()
      #expect(outcome.bills == 1 && outcome.invalid == 2)
      let codes = outcome.problems.problems.map(\.code)
      #expect(codes.contains("id.duplicate") && codes.contains("amount.decimals"))
      let repeated = try #require(outcome.problems.problems.first { $0.code == "id.duplicate" })
      #expect(repeated.line == 4 && repeated.message.contains("bills.yaml:3"))
      // As `report` lists them: the source line under each, a caret under its column.
      let listing = outcome.problems.listing()
      #expect(listing.contains("bills.yaml:5:21: error: amount"))
      #expect(listing.contains("- {id: b, amount: 1.234"))
      #expect(listing.contains("^"))
    }
  }

  /// A failure's message names options as a program sees them; the same text worded otherwise
  /// names them as the caller chooses (the command line, its flags).
  @Test func aFailureNamesTheOptionsAsTheProgramSeesThem() throws {
    var options = ReportOptions(today: today)
    options.rateFiles = ["rates.csv"]
    do {
      _ = try Reporter.prepare(["bills.yaml"], options)
      Issue.record("rates without a currency to settle in were accepted")
    } catch {
      #expect(error.kind == .usage)
      #expect(error.message == "rateFiles is for settleIn: give the currency to settle in")
      let worded = error.text.worded { option in option == .rateFiles ? "RATES" : "SETTLE-IN" }
      #expect(worded == "RATES is for SETTLE-IN CODE: give the currency to settle in")
      #expect(!error.message.contains("--"))
    }
  }

  /// What writes nothing is thrown, with its kind: here an input that does not exist.
  @Test func aMissingInputIsAFailure() throws {
    #expect {
      _ = try Reporter.prepare(["/nonexistent/bills.yaml"], ReportOptions(today: today))
    } throws: { error in
      (error as? ReportFailure)?.kind == .noInput
    }
  }
}
