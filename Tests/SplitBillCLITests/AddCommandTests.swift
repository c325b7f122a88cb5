import Foundation
import Testing

/// `splitbill add`: records appended in the file's own format, checked before anything is
/// written; refusals leave the file byte-identical; the prompts work in a real terminal (tmux).
struct AddCommandTests {
  static let flat = """
    # The flat's books. Rent is split three ways.
    version: 1
    people: [Maya, Jonas, Ines]
    defaults: {currency: EUR, tip: 0}   # nobody tips the landlord
    bills:
      - id: rent
        date: 2026-11-01
        amount: 1500.00
        diners: [Maya, Jonas, Ines]
        paid_by: Maya
        repeat: month     # every month, no end
      # groceries go below
      - id: market
        date: 2026-11-03
        amount: 31.20
        diners: [Maya, Jonas]
        paid_by: Jonas

    # settling up
    payments:
      - {id: p1, date: 2026-11-04, from: Jonas, to: Maya, amount: 500.00}

    """

  func write(_ text: String, _ name: String) throws -> String {
    let url = try scratchDirectory().appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  func json(_ arguments: [String]) throws -> [String: Any] {
    let outcome = try runBinary(arguments)
    return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
  }

  @Test func aBillAndAPaymentGoInTheirSectionsKeepingEveryComment() throws {
    let path = try write(Self.flat, "flat.yaml")
    let bill = try runBinary([
      "add", path, "--amount", "42.80", "--diners", "Maya, Jonas, Ines=2", "--paid-by", "Ines", "--description",
      "Market: veg & cheese", "--date", "2026-11-20", "--category", "groceries",
    ])
    #expect(bill.code == 0, "\(bill.stderr)")
    #expect(bill.stderr.contains("added bill market-veg-cheese-2026-11-20 to \(path)"))
    let payment = try runBinary(["add", path, "--payment", "--from", "Ines", "--to", "Maya", "--amount", "20"])
    #expect(payment.code == 0, "\(payment.stderr)")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Every line of the file is still there, in order; the bill after the last bill, in the
    // bills' block style; the payment after the last payment, one line like it.
    let original = Self.flat.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.filter { original.contains($0) } == original)
    let billAt = try #require(lines.firstIndex(of: "  - id: market-veg-cheese-2026-11-20"))
    #expect(lines[billAt - 1] == "    paid_by: Jonas")
    #expect(
      Array(lines[billAt + 1...billAt + 6]) == [
        "    date: 2026-11-20", "    description: \"Market: veg & cheese\"", "    category: groceries",
        "    amount: 42.80", "    diners: {Maya: 1, Jonas: 1, Ines: 2}", "    paid_by: Ines",
      ])
    #expect(lines[billAt + 7] == "")
    let today = try #require(lines.last { $0.hasPrefix("  - {id: payment-") })
    #expect(today.hasSuffix(", from: Ines, to: Maya, amount: 20}"))
    #expect(lines.firstIndex(of: today) == lines.count - 2)
    // The file checks, and the report has both.
    #expect(try runBinary(["check", path]).code == 0)
    let report = try json(["report", path, "--until", "2026-11-30", "--format", "json"])
    let ids = (report["bills"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    #expect(ids.contains("market-veg-cheese-2026-11-20"))
    let added = (report["bills"] as? [[String: Any]] ?? []).first {
      $0["id"] as? String == "market-veg-cheese-2026-11-20"
    }
    #expect(added?["category"] as? String == "groceries")
  }

  @Test func refusalsLeaveTheFileByteIdentical() throws {
    let path = try write(Self.flat, "flat.yaml")
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let cases: [([String], String)] = [
      (["--amount", "12.345", "--diners", "Maya,Jonas"], "amount '12.345' has 3 decimals but EUR has 2"),
      (["--amount", "12", "--diners", "Maya,Jonsa"], "diner 'Jonsa' is not in people; did you mean 'Jonas'?"),
      (["--amount", "12", "--diners", "Maya", "--date", "2026-02-30"], "date '2026-02-30'"),
      (["--amount", "12", "--diners", "Maya", "--id", "rent#2026-11", "--date", "2026-11-05"], "duplicate bill id"),
      (["--amount", "12", "--diners", "Maya", "--repeat", "every: month; count: 0"], "repeat count '0'"),
      (["--payment", "--from", "Maya", "--to", "Maya", "--amount", "5"], "payment from 'Maya' to 'Maya'"),
    ]
    for (arguments, message) in cases {
      let outcome = try runBinary(["add", path] + arguments)
      #expect(outcome.code == 1, "\(arguments)")
      #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
      #expect(outcome.stderr.contains("not added: '\(path)' is unchanged"))
      // Located where the record would stand: after the last bill (line 17) or payment (line 21).
      #expect(outcome.stderr.hasPrefix("\(path):1") || outcome.stderr.hasPrefix("\(path):2"), "\(outcome.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(arguments)")
    }
    // A dry run checks and prints, and writes nothing.
    let dry = try runBinary(["add", path, "--amount", "9", "--diners", "Maya", "--dry-run", "--date", "2026-11-09"])
    #expect(dry.code == 0)
    #expect(dry.stdout.contains("  - id: bill-2026-11-09\n"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    // --strict refuses a look-alike name where there is no roster.
    let open = try write(Self.flat.replacingOccurrences(of: "people: [Maya, Jonas, Ines]\n", with: ""), "open.yaml")
    let openBefore = try Data(contentsOf: URL(fileURLWithPath: open))
    let strict = try runBinary(["add", open, "--amount", "9", "--diners", "Maya,jonas", "--strict"])
    #expect(strict.code == 1)
    #expect(strict.stderr.contains("'jonas' looks like 'Jonas'"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: open)) == openBefore)
  }

  @Test func csvRowsFollowTheHeaderAndRecurringBillsComeBack() throws {
    let path = try write(
      "id,date,amount,currency,tip,diners,paid_by,repeat\r\nb1,2026-11-02,30.00,EUR,0,Maya;Jonas,Maya,\r\n", "flat.csv")
    let rent = try runBinary([
      "add", path, "--amount", "1200", "--diners", "Maya, Jonas", "--paid-by", "Jonas", "--tip", "0", "--currency",
      "EUR", "--date", "2026-10-31", "--id", "rent", "--repeat", "every: month; count: 3",
    ])
    #expect(rent.code == 0, "\(rent.stderr)")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasSuffix("\r\nrent,2026-10-31,1200,EUR,0,Maya;Jonas,Jonas,every: month; count: 3\r\n"))
    let report = try json(["report", path, "--format", "json"])
    let bills = (report["bills"] as? [[String: Any]] ?? []).map { "\($0["id"] ?? "") \($0["date"] ?? "")" }
    #expect(
      bills == ["b1 2026-11-02", "rent#2026-10 2026-10-31", "rent#2026-11 2026-11-30", "rent#2026-12 2026-12-31"])
    // A column the header lacks is named, and the file is unchanged.
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let notes = try runBinary(["add", path, "--amount", "5", "--diners", "Maya", "--tip", "0", "--notes", "x"])
    #expect(notes.code == 1)
    #expect(notes.stderr.contains("has no 'notes' column"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test(.enabled(if: needing(toolExists("tmux")), "needs tmux (apt-get install tmux)"))
  func thePromptsAskCompleteAndCheckEachAnswer() throws {
    let session = "splitbill-add-\(getpid())"
    func tmux(_ arguments: [String]) throws -> Outcome { try runProcess("tmux", arguments, timeout: 30) }
    @discardableResult
    func send(_ keys: [String], until expected: String) throws -> String {
      _ = try tmux(["send-keys", "-t", session] + keys)
      var text = ""
      for _ in 0..<500 {
        text = try tmux(["capture-pane", "-t", session, "-p", "-S", "-60"]).stdout
        if text.contains(expected) { return text }
        usleep(20_000)
      }
      Issue.record("the terminal never showed '\(expected)':\n\(text)")
      return text
    }
    let path = try write(Self.flat, "flat.yaml")
    let directory = (path as NSString).deletingLastPathComponent
    let binary = try builtBinary().path
    let command = "'\(binary)' add '\(path)'; echo \"exit $?\" > '\(directory)/exit.txt'; sleep 60"
    _ = try? tmux(["kill-session", "-t", session])
    #expect(try tmux(["new-session", "-d", "-s", session, "-x", "120", "-y", "40", command]).code == 0)
    defer { _ = try? tmux(["kill-session", "-t", session]) }
    var text = try send([], until: "Description (Enter to finish):")
    #expect(text.contains("People: Maya, Jonas, Ines"))
    try send(["Cinema", "Enter"], until: "Date [")
    text = try send(["2026-02-30", "Enter"], until: "is not a date")
    try send(["2026-11-21", "Enter"], until: "Amount (EUR):")
    text = try send(["18.505", "Enter"], until: "3 decimals but EUR has 2")
    // The last bill's payer is the default; a name is completed from its first letters.
    try send(["18.50", "Enter"], until: "Paid by [Jonas]:")
    text = try send(["Xa", "Enter"], until: "'Xa' is not in people")
    try send(["i", "Enter"], until: "Diners [Maya, Jonas]:")
    try send(["ma, jo, in", "Enter"], until: "Tip [0%]:")
    try send(["Enter"], until: "Category:")
    try send(["fun", "Enter"], until: "Notes:")
    text = try send(["Enter"], until: "added bill cinema-2026-11-21")
    #expect(text.contains("    diners: [Maya, Jonas, Ines]"))
    #expect(text.contains("    paid_by: Ines"))
    // Enter on the first question ends the session.
    try send([], until: "Description (Enter to finish):")
    _ = try tmux(["send-keys", "-t", session, "Enter"])
    for _ in 0..<500 where !FileManager.default.fileExists(atPath: directory + "/exit.txt") { usleep(20_000) }
    let exit = try String(contentsOfFile: directory + "/exit.txt", encoding: .utf8)
    #expect(exit == "exit 0\n")
    #expect(try runBinary(["check", path]).code == 0)
    let file = try String(contentsOfFile: path, encoding: .utf8)
    #expect(
      file.contains(
        "  - id: cinema-2026-11-21\n    date: 2026-11-21\n    description: Cinema\n    category: fun\n    amount: 18.50\n"
      ))
  }
}

/// A bill's `category` (its own, or its file's default) in YAML and CSV, through the JSON, CSV and
/// text reports.
struct CategoryTests {
  @Test func aCategoryIsReadFromTheBillOrTheDefaultsAndReported() throws {
    let directory = try scratchDirectory()
    let yaml = directory.appendingPathComponent("flat.yaml")
    try """
    defaults: {currency: EUR, tip: 0, category: food}
    bills:
      - {id: a, amount: 10, diners: [Ana, Ben], paid_by: Ana}
      - {id: b, amount: 10, diners: [Ana, Ben], paid_by: Ana, category: "  rent  "}
      - {id: c, amount: 10, diners: [Ana, Ben], paid_by: Ana, category: "=cmd"}

    """.write(to: yaml, atomically: true, encoding: .utf8)
    let csv = directory.appendingPathComponent("trip.csv")
    try "id,amount,currency,tip,diners,category\nd,5,EUR,0,Ana;Ben,transport\ne,5,EUR,0,Ana;Ben,\n".write(
      to: csv, atomically: true, encoding: .utf8)
    let json = try runBinary(["report", yaml.path, csv.path, "--format", "json"])
    #expect(json.code == 0, "\(json.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let categories = (object["bills"] as? [[String: Any]] ?? []).map { $0["category"] as? String ?? "-" }
    #expect(categories == ["food", "rent", "=cmd", "transport", "-"])
    let rows = try runBinary(["report", yaml.path, csv.path, "--format", "csv"]).stdout.split(separator: "\r\n")
    #expect(rows.first == "bill_id,date,description,currency,person,weight,share,absorbed,paid_by,kind,category")
    #expect(rows.contains("b,,,EUR,Ana,1,5.00,0,Ana,bill,rent"))
    // A category a spreadsheet would run as a formula is defused, as every cell.
    #expect(rows.contains("c,,,EUR,Ana,1,5.00,0,Ana,bill,'=cmd"))
    #expect(rows.contains("e,,,EUR,Ana,1,2.50,0,,bill,"))
    let text = try runBinary(["report", yaml.path]).stdout
    #expect(text.contains("b  [rent]  ("))
  }
}
