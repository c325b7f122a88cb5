import Foundation
import Testing

/// The settle-up as the friends read it: who pays whom in plain words, first; the plan chosen and
/// said; a plan that stays put when some of it is paid.
@Suite struct SettleUpTests {
  /// A hand-worked trip: dinner 90.00 for three paid by Ana (30.00 each), a taxi 30.00 for Ben and
  /// Chloé paid by Ben (15.00 each). Ana paid 90.00 and ate 30.00: +60.00; Ben paid 30.00 and
  /// had 45.00: −15.00; Chloé paid nothing and had 45.00: −45.00.
  static let trip = """
    version: 1
    title: Hand-worked trip
    defaults: {currency: EUR, tip: 0}
    bills:
      - {id: dinner, date: 2026-11-20, amount: 90.00, diners: [Ana, Ben, Chloé], paid_by: Ana}
      - {id: taxi, date: 2026-11-21, amount: 30.00, diners: [Ben, Chloé], paid_by: Ben}
    """

  func write(_ text: String) throws -> (directory: URL, path: String) {
    let directory = try scratchDirectory()
    let path = directory.appendingPathComponent("trip.yaml").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return (directory, path)
  }

  /// Each person's paragraph, worked out by hand, first in the text report.
  @Test func theTextReportStartsWithWhoPaysWhomInPlainWords() throws {
    let (directory, path) = try write(Self.trip)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcome = try runBinary(["report", path])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let lines = outcome.stdout.components(separatedBy: "\n")
    #expect(
      Array(lines.prefix(5)) == [
        "Who pays whom",
        "  Ana: you paid 90.00 EUR, your share was 30.00, so you get 60.00 back: Ben pays you 15.00 and Chloé pays you 45.00.",
        "  Ben: you paid 30.00 EUR, your share was 45.00, so you owe 15.00: you pay Ana 15.00.",
        "  Chloé: you paid 0.00 EUR, your share was 45.00, so you owe 45.00: you pay Ana 45.00.",
        "",
      ])
    // The jargon stays, explained once, below.
    #expect(outcome.stdout.contains("\nTerms\n  absorbed: "))
  }

  /// Pairwise: each pair settles what passed between them (Ben owes Ana his dinner share, Chloé
  /// owes Ana hers and Ben her taxi share); the plan is named.
  @Test func thePairwisePlanSettlesEachPairAndSaysSo() throws {
    let (directory, path) = try write(Self.trip)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcome = try runBinary(["report", path, "--plan", "pairwise"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(
      outcome.stdout.contains(
        "  Ben: you paid 30.00 EUR, your share was 45.00, so you owe 15.00: you pay Ana 30.00; Chloé pays you 15.00.\n")
    )
    #expect(outcome.stdout.contains("EUR (pairwise: each pair settles what passed between them):"))
    let json = try runBinary(["report", path, "--plan", "pairwise", "--format", "json"])
    #expect(json.stdout.contains("\"settlement_method\": \"pairwise\""), "\(json.stdout)")
  }

  /// One message a person, to paste into a chat, and the same in the JSON report.
  @Test func oneMessageAPersonForTheChat() throws {
    let (directory, path) = try write(Self.trip)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcome = try runBinary(["report", path, "--format", "messages"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(
      outcome.stdout == """
        Hand-worked trip: Ana
        Ana: you paid 90.00 EUR, your share was 30.00, so you get 60.00 back: Ben pays you 15.00 and Chloé pays you 45.00.
        ← Ben pays you 15.00 EUR
        ← Chloé pays you 45.00 EUR

        Hand-worked trip: Ben
        Ben: you paid 30.00 EUR, your share was 45.00, so you owe 15.00: you pay Ana 15.00.
        → pay Ana 15.00 EUR

        Hand-worked trip: Chloé
        Chloé: you paid 0.00 EUR, your share was 45.00, so you owe 45.00: you pay Ana 45.00.
        → pay Ana 45.00 EUR

        """)
    let json = try runBinary(["report", path, "--format", "json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let messages = try #require(object?["messages"] as? [[String: Any]])
    #expect(messages.map { $0["person"] as? String } == ["Ana", "Ben", "Chloé"])
    let ben = try #require(messages.dropFirst().first)
    #expect((ben["text"] as? String)?.hasPrefix("Ben: you paid 30.00 EUR") == true)
    let pays = try #require(ben["pays"] as? [[String: String]])
    #expect(pays == [["to": "Ana", "amount": "15.00", "currency": "EUR"]])
    #expect((ben["gets"] as? [Any])?.isEmpty == true)
  }

  @Test(arguments: [
    (["--plan", "pairwise", "--settle-in", "EUR"], "the pairwise plan (--plan) settles each currency on its own"),
    (["--keep-out", "Zed"], "--keep-out 'Zed' is in none of the books read"),
    (["--keep-out", "Chloe"], "did you mean 'Chloé'?"),
    (["--keep-out", "Ana,,Ben"], "--keep-out 'Ana,,Ben' has an empty name"),
    (["--keep-out", "Ana", "--plan", "pairwise"], "--keep-out is a plan of its own"),
    (["--plan", "pairwise", "--cash-rounding", "0.05"], "works with the fewest-transfers plan only"),
  ])
  func plansThatCannotBeAreRefused(options: [String], message: String) throws {
    let (directory, path) = try write(Self.trip)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcome = try runBinary(["report", path] + options)
    #expect(outcome.code == 64)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  /// Names in the plain words are escaped for each format like every other untrusted text.
  @Test func plainWordsAreEscapedInEveryFormat() throws {
    let hostile = Self.trip.replacingOccurrences(of: "Chloé", with: "\"<img src=x onerror=alert(1)>|*Eve*\"")
    let (directory, path) = try write(hostile)
    defer { try? FileManager.default.removeItem(at: directory) }
    let html = try runBinary(["report", path, "--format", "html"])
    #expect(html.code == 0, "\(html.stderr)")
    #expect(html.stdout.contains("<p class=\"words\">Ana: you paid 90.00 EUR"))
    #expect(!html.stdout.contains("<img"))
    #expect(html.stdout.contains("&lt;img src=x onerror=alert(1)&gt;"))
    let markdown = try runBinary(["report", path, "--format", "markdown"])
    #expect(markdown.stdout.contains("Ana: you paid 90.00 EUR"))
    // Backslash-escaped: no tag, no cell break, no emphasis is left unescaped.
    let unescaped = markdown.stdout.replacingOccurrences(of: "\\<img", with: "")
      .replacingOccurrences(of: "\\|\\*Eve\\*", with: "")
    #expect(!unescaped.contains("<img") && !unescaped.contains("*Eve*"), "\(markdown.stdout)")
    #expect(markdown.stdout.contains("\\<img src=x onerror=alert(1)\\>\\|\\*Eve\\*: you paid 0.00 EUR"))
  }

  /// Pay one transfer of each plan (a payment added with `add`, the books read again): the plan
  /// is the rest, nothing new for anyone.
  @Test(arguments: [["--plan", "fewest"], ["--plan", "pairwise"], ["--keep-out", "Chloé"]])
  func payingOneTransferLeavesTheRestOfThePlan(plan: [String]) throws {
    let richer =
      Self.trip + """

          - {id: museum, date: 2026-11-22, amount: 44.00, diners: [Ana, Chloé, Dmitri, Eve], paid_by: Dmitri}
          - {id: boat, date: 2026-11-23, amount: 81.00, diners: [Ben, Dmitri, Eve], paid_by: Eve}
        """
    let (directory, path) = try write(richer)
    defer { try? FileManager.default.removeItem(at: directory) }
    func transfers() throws -> [String] {
      let outcome = try runBinary(["report", path, "--format", "json"] + plan)
      #expect(outcome.code == 0, "\(outcome.stderr)")
      let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
      let list = try #require(object?["settlements"] as? [[String: Any]])
      return list.map { "\($0["from"] ?? "")>\($0["to"] ?? ""):\($0["amount"] ?? "")" }.sorted()
    }
    let before = try transfers()
    #expect(before.count >= 3)
    for paid in before.prefix(2) {
      let parts = paid.split(whereSeparator: { $0 == ">" || $0 == ":" }).map(String.init)
      let added = try runBinary([
        "add", path, "--payment", "--from", parts[0], "--to", parts[1], "--amount", parts[2], "--date", "2026-11-24",
      ])
      #expect(added.code == 0, "\(added.stderr)")
    }
    #expect(try transfers() == Array(before.dropFirst(2)), "\(plan)")
  }
}
