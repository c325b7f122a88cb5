import Foundation
import Testing

/// `report --explain`: each transfer with the bills and payments behind the two balances, so that
/// anyone can check it by hand.
@Suite struct ExplainTests {
  /// The hand-worked trip with a payment: dinner 90.00 for three paid by Ana, a taxi 30.00 for Ben
  /// and Chloé paid by Ben, then Chloé hands Ana 20.00. Ana: +90.00 − 30.00 − 20.00 = +40.00;
  /// Ben: −30.00 + 30.00 − 15.00 = −15.00; Chloé: −30.00 − 15.00 + 20.00 = −25.00.
  static let trip =
    SettleUpTests.trip + """

      payments:
        - {id: p1, date: 2026-11-22, from: Chloé, to: Ana, amount: 20.00}
      """

  func write(_ text: String) throws -> (directory: URL, path: String) {
    let directory = try scratchDirectory()
    let path = directory.appendingPathComponent("trip.yaml").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return (directory, path)
  }

  /// The section's lines, their columns' padding made one space.
  func section(_ report: String) -> [String] {
    let lines = report.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: "Why these transfers") else { return [] }
    return lines[start...].prefix { !$0.isEmpty }.map {
      $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
  }

  /// Every line worked out by hand above.
  @Test func eachTransferIsExplainedLineByLine() throws {
    let (directory, path) = try write(Self.trip)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcome = try runBinary(["report", path, "--explain"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(
      section(outcome.stdout) == [
        "Why these transfers",
        "Ben pays Ana 15.00 EUR: Ben's balance is −15.00, Ana's is +40.00.",
        "Chloé pays Ana 25.00 EUR: Chloé's balance is −25.00, Ana's is +40.00.",
        "Ana, EUR:",
        "2026-11-20 dinner paid 90.00, share 30.00 +60.00",
        "2026-11-22 payment from Chloé (p1) received 20.00 +40.00",
        "balance +40.00 EUR",
        "Ben, EUR:",
        "2026-11-20 dinner paid 0.00, share 30.00 −30.00",
        "2026-11-21 taxi paid 30.00, share 15.00 −15.00",
        "balance −15.00 EUR",
        "Chloé, EUR:",
        "2026-11-20 dinner paid 0.00, share 30.00 −30.00",
        "2026-11-21 taxi paid 0.00, share 15.00 −45.00",
        "2026-11-22 payment to Ana (p1) sent 20.00 −25.00",
        "balance −25.00 EUR",
      ], "\(outcome.stdout)")
    // Without the flag, no section.
    let plain = try runBinary(["report", path])
    #expect(!plain.stdout.contains("Why these transfers"))
  }

  /// A period's report starts each balance from what was carried in.
  @Test func aPeriodStartsFromTheCarriedBalance() throws {
    let (directory, path) = try write(Self.trip)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcome = try runBinary(["report", path, "--explain", "--since", "2026-11-21"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let lines = section(outcome.stdout)
    let ben = try #require(lines.firstIndex(of: "Ben, EUR:"))
    #expect(
      Array(lines[ben...].prefix(4)) == [
        "Ben, EUR:", "carried from before the period −30.00", "2026-11-21 taxi paid 30.00, share 15.00 −15.00",
        "balance −15.00 EUR",
      ])
  }

  /// On the sample trip (two currencies, four people), checked apart from the report's own sums:
  /// each explained balance's rows, added up from its opening, come to the closing balance the
  /// report's people give, and every person in a transfer is explained.
  @Test func theRowsAddUpToEveryBalanceInATransfer() throws {
    let outcome = try runBinary(["report", "samples/trip.yaml", "--explain", "--format", "json"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    let explanation = try #require(object["explanation"] as? [[String: Any]])
    let people = try #require(object["people"] as? [[String: Any]])
    func cents(_ value: Any?) -> Decimal { Decimal(string: value as? String ?? "") ?? .nan }
    var explained: Set<String> = []
    for balance in explanation {
      let person = balance["person"] as? String ?? ""
      let currency = balance["currency"] as? String ?? ""
      explained.insert("\(person) \(currency)")
      var running = cents(balance["opening"])
      for row in balance["rows"] as? [[String: Any]] ?? [] {
        running += cents(row["paid"]) - cents(row["share"])
        #expect(running == cents(row["balance"]), "\(person) \(row)")
      }
      let closing = people.first { $0["person"] as? String == person && $0["currency"] as? String == currency }
      #expect(running == cents(closing?["closing"]), "\(person) \(currency)")
      #expect(running == cents(balance["closing"]))
    }
    for transfer in object["settlements"] as? [[String: Any]] ?? [] {
      let currency = transfer["currency"] as? String ?? ""
      #expect(explained.contains("\(transfer["from"] as? String ?? "") \(currency)"))
      #expect(explained.contains("\(transfer["to"] as? String ?? "") \(currency)"))
    }
    #expect(explanation.count == 8)
  }

  /// HTML folds the explanation under the transfers; Markdown gives each balance a table. Names
  /// are escaped in both.
  @Test func htmlFoldsItAndMarkdownTablesIt() throws {
    let (directory, path) = try write(Self.trip.replacingOccurrences(of: "Chloé", with: "<b>Chloé|</b>"))
    defer { try? FileManager.default.removeItem(at: directory) }
    let html = try runBinary(["report", path, "--explain", "--format", "html"])
    #expect(html.code == 0, "\(html.stderr)")
    #expect(html.stdout.contains("<details class=\"explain\"><summary>Why these transfers</summary>"))
    #expect(
      html.stdout.contains(
        "<tr><td>2026-11-22</td><td>payment from &lt;b&gt;Chloé|&lt;/b&gt; (p1)</td><td class=\"num\">0.00</td><td class=\"num\">20.00</td><td class=\"num\">+40.00</td></tr>"
      ), "\(html.stdout)")
    #expect(!html.stdout.contains("<b>Chloé"))
    let markdown = try runBinary(["report", path, "--explain", "--format", "markdown"])
    #expect(markdown.stdout.contains("### Why these transfers"))
    #expect(markdown.stdout.contains("| 2026-11-21 | taxi | 30.00 | 15.00 | −15.00 |"), "\(markdown.stdout)")
    #expect(markdown.stdout.contains(#"| 2026-11-22 | payment from \<b\>Chloé\|\</b\> (p1) | 0.00 | 20.00 | +40.00 |"#))
  }
}
