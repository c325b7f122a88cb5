import Foundation
import SplitBill
import SplitBillInput
import SplitBillReports
import Testing

@testable import SplitBillCLI

/// A fresh temporary directory.
func scratchDirectory() throws -> URL {
  try FileManager.default.url(
    for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: URL(fileURLWithPath: "/tmp"), create: true)
}

@Suite struct ReportSnapshotTests {
  /// Golden files for the sample trip, one per format (`RECORD_SNAPSHOTS=1 swift test` rewrites them;
  /// never under `CI=true`, where a golden file is only compared: CI cannot bless its own output).
  @Test(arguments: ["text", "json", "csv", "markdown", "html", "hledger", "ledger", "beancount", "messages"])
  func sampleTripMatchesItsGoldenFile(format: String) async throws {
    let outcome = try runBinary(["report", "samples/trip.yaml", "--format", format])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let golden = packageRoot.appendingPathComponent("Tests/SplitBillCLITests/Snapshots/trip.\(format)")
    let environment = ProcessInfo.processInfo.environment
    if environment["RECORD_SNAPSHOTS"] == "1" {
      if environment["CI"] == "true" {
        Issue.record("RECORD_SNAPSHOTS=1 under CI=true: golden files are recorded by a person, never by CI")
      } else {
        try outcome.stdout.write(to: golden, atomically: true, encoding: .utf8)
      }
    }
    let expected = try String(contentsOf: golden, encoding: .utf8)
    #expect(outcome.stdout == expected, "differs from \(golden.lastPathComponent); RECORD_SNAPSHOTS=1 to update")
  }

  @Test func equalInputsGiveByteIdenticalOutput() async throws {
    let first = try runBinary(["report", "samples/trip.yaml", "--format", "json"])
    let second = try runBinary(["report", "samples/trip.yaml", "--format", "json"])
    #expect(first.stdout == second.stdout)
    let stamped = try runBinary(["report", "samples/trip.yaml", "--format", "json", "--stamp"])
    #expect(stamped.stdout.contains("\"generated\": \""))
  }
}

@Suite struct ReportBehaviourTests {
  @Test func jsonHasTheDocumentedKeysAndReconciles() async throws {
    let outcome = try runBinary(["report", "samples/trip.yaml", "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    #expect(object["schema_version"] as? Int == 1)
    #expect(object["reconciled"] as? Bool == true)
    for key in ["bills", "invalid", "people", "settlements", "totals"] { #expect(object[key] is [Any], "\(key)") }
    let bills = try #require(object["bills"] as? [[String: Any]])
    #expect(bills.count == 14)
    let calcKeys: Set<String> = [
      "currency", "amount", "tip_percent", "tip", "total", "leftover_policy", "leftover_to_tip", "shares",
    ]
    let reportKeys: Set<String> = ["id", "source", "date", "description", "tip_source", "paid_by"]
    for bill in bills { #expect(calcKeys.union(reportKeys).isSubset(of: Set(bill.keys))) }
    let advised = bills.filter { $0["advice"] != nil }
    #expect(advised.count == 3)
    #expect(advised.allSatisfy { ($0["advice"] as? [String: Any])?["advisor"] as? String == "offline" })
    // Σ shares = total for every bill, as decimal strings
    for bill in bills {
      let shares = try #require(bill["shares"] as? [[String: Any]])
      let sum = shares.compactMap { Decimal(string: $0["amount"] as? String ?? "") }.reduce(0, +)
      #expect(sum == Decimal(string: bill["total"] as? String ?? ""))
    }
    let people = try #require(object["people"] as? [[String: Any]])
    #expect(
      Set(people[0].keys) == [
        "person", "currency", "consumed", "paid", "balance", "absorbed", "sent", "received", "opening", "closing",
      ])
    // Without a period nothing is carried: opening is zero and closing is the balance.
    #expect(people.allSatisfy { Decimal(string: $0["opening"] as? String ?? "") == 0 })
    #expect(people.allSatisfy { $0["closing"] as? String == $0["balance"] as? String })
    #expect((object["payments"] as? [Any])?.isEmpty == true)
    #expect(people.allSatisfy { $0["absorbed"] is Int })
  }

  @Test func invalidBillsAreListedAndTheRestStillReported() async throws {
    let directory = try scratchDirectory()
    let file = directory.appendingPathComponent("mixed.yaml")
    try """
    defaults: {currency: EUR, tip: 10}
    bills:
      - {id: good, amount: 10.00, diners: [Ana, Ben], paid_by: Ana}
      - {id: bad, amount: 12.345, diners: 2}
    """.write(to: file, atomically: true, encoding: .utf8)
    let json = directory.appendingPathComponent("out.json")
    let outcome = await runCLI(["report", file.path, "-o", json.path])
    #expect(outcome.code == 1)
    #expect(outcome.stderr.contains("mixed.yaml:4:23: error: amount '12.345' has 3 decimals but EUR has 2"))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
    let invalid = try #require(object["invalid"] as? [[String: Any]])
    #expect(invalid.count == 1)
    #expect(invalid.first?["id"] as? String == "bad")
    #expect((invalid.first?["source"] as? String)?.hasSuffix("mixed.yaml:4:5") == true)
    #expect((object["bills"] as? [Any])?.count == 1)
  }

  @Test func aRepeatedIDAcrossFilesIsLeftOutOfTheBooksAndNamedOnce() async throws {
    let directory = try scratchDirectory()
    try """
    defaults: {currency: EUR, tip: 0}
    bills:
      - {id: x, date: 2026-05-01, amount: 10.00, diners: [Ana, Ben], paid_by: Ana}
    """.write(to: directory.appendingPathComponent("a.yaml"), atomically: true, encoding: .utf8)
    try """
    id,date,amount,currency,tip,diners,paid_by
    x,2026-05-02,99.00,EUR,0,Ana;Ben,Ben
    y,2026-05-03,4.00,EUR,0,Ana;Ben,Ben
    """.write(to: directory.appendingPathComponent("b.csv"), atomically: true, encoding: .utf8)
    let json = directory.appendingPathComponent("out.json")
    let outcome = await runCLI(["report", directory.path, "-o", json.path])
    #expect(outcome.code == 1)
    let message = "b.csv:2:1: error: duplicate bill id 'x': also used at \(directory.path)/a.yaml:3:5"
    #expect(outcome.stderr.components(separatedBy: message).count == 2, "\(outcome.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
    #expect((object["bills"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["x", "y"])
    #expect((object["invalid"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["x"])
    // Only the two valid bills are in the books: Ana paid 10.00 and owes 7.00; Ben paid 4.00.
    let people = try #require(object["people"] as? [[String: Any]])
    #expect(people.compactMap { $0["balance"] as? String } == ["3.00", "-3.00"])
  }

  /// Repeated ids are told as the bills come, so the inputs are read once; when two different ids
  /// hash alike (forced here: every id's hash narrowed to nothing) the inputs are read again, and
  /// the report is the same either way.
  @Test func aRepeatIsToldAsItComesAndAWrongGuessIsReadAgain() throws {
    let directory = try scratchDirectory()
    let file = directory.appendingPathComponent("bills.yaml")
    try """
    defaults: {currency: EUR, tip: 0}
    bills:
      - {id: x, date: 2026-05-01, amount: 10.00, diners: [Ana, Ben], paid_by: Ana}
      - {id: y, date: 2026-05-02, amount: 10.00, diners: [Ana, Ben], paid_by: Ana}
      - {id: x, date: 2026-05-03, amount: 99.00, diners: [Ana, Ben], paid_by: Ben}
      - {id: z, date: 2026-05-04, amount: 4.01, diners: [Ana, Ben], paid_by: Ben}
    """.write(to: file, atomically: true, encoding: .utf8)
    func report(mask: UInt64) throws -> (json: String, problems: [String]) {
      var run = try Reporter.prepare(
        [file.path],
        ReportOptions(outputs: [ReportOutput(.json, to: .returned)], today: CalendarDate(daysSinceEpoch: 0)))
      run.repeatPredictionMask = mask
      let outcome = try run.write()
      #expect(outcome.invalid == 1 && outcome.bills == 3)
      return (try #require(outcome.text?.string), outcome.problems.problems.map { "\($0.line ?? 0) \($0.message)" })
    }
    let once = try report(mask: .max)
    let twice = try report(mask: 0)
    #expect(once.json == twice.json)
    #expect(once.problems == twice.problems)
    #expect(once.problems == ["5 duplicate bill id 'x': also used at \(file.path):3:5"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(once.json.utf8)) as? [String: Any])
    #expect((object["invalid"] as? [[String: Any]])?.compactMap { $0["source"] as? String } == ["\(file.path):5:5"])
  }

  /// A FIFO can be read once: a report of one with a repeated id is whole.
  @Test func aFIFOWithARepeatedIDIsReadOnce() async throws {
    let directory = try scratchDirectory()
    let fifo = directory.appendingPathComponent("piped.yaml").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let bills = """
      defaults: {currency: EUR, tip: 0}
      bills:
        - {id: x, amount: 10.00, diners: [Ana, Ben], paid_by: Ana}
        - {id: x, amount: 12.00, diners: [Ana, Ben], paid_by: Ben}
      """
    let writer = Thread {
      let handle = FileHandle(forWritingAtPath: fifo)
      handle?.write(Data(bills.utf8))
      try? handle?.close()
    }
    writer.start()
    let outcome = await runCLI(["report", fifo, "--format", "json"])
    #expect(outcome.code == 1, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("duplicate bill id 'x'"))
    #expect(outcome.stdout.contains("\"total\":\"10.00\"") || outcome.stdout.contains("\"total\": \"10.00\""))
  }

  @Test func manyBatchesFromTheReadingThreadArriveInOrder() async throws {
    // 5,000 bills are 20 batches, more than the hand-off holds at once, so the reader waits too.
    let directory = try scratchDirectory()
    var text = "id,amount,currency,tip,diners,paid_by\n"
    for index in 0..<5_000 { text += "n\(index),\(index % 97 + 1).\(index % 10)1,EUR,15,Ana:2;Ben,Ben\n" }
    let file = directory.appendingPathComponent("many.csv")
    try text.write(to: file, atomically: true, encoding: .utf8)
    let outcome = await runCLI(["report", file.path, "--format", "json"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    let bills = try #require(object["bills"] as? [[String: Any]])
    #expect(bills.compactMap { $0["id"] as? String } == (0..<5_000).map { "n\($0)" })
    // Every bill's shares add up to its total, and the people's consumption to all the totals.
    let cents = { (text: Any?) -> Int in Int(((text as? String) ?? "").replacingOccurrences(of: ".", with: "")) ?? -1 }
    let totals: [Int] = bills.map { cents($0["total"]) }
    let reconciled = bills.allSatisfy { bill -> Bool in
      let shares: [Int] = (bill["shares"] as? [[String: Any]] ?? []).map { cents($0["amount"]) }
      return shares.reduce(0, +) == cents(bill["total"])
    }
    #expect(reconciled)
    let people = try #require(object["people"] as? [[String: Any]])
    let consumed: Int = people.map { cents($0["consumed"]) }.reduce(0, +)
    let billed: Int = totals.reduce(0, +)
    #expect(consumed == billed)
  }

  @Test func theReadingThreadHandsOnEveryBillInOrderToASlowWriter() throws {
    let directory = try scratchDirectory()
    var text = "id,amount,currency,tip,diners\n"
    for index in 0..<1_000 { text += "n\(index),\(index + 1).00,USD,10,2\n" }
    let file = directory.appendingPathComponent("slow.csv")
    try text.write(to: file, atomically: true, encoding: .utf8)
    var stream = BillStream(options: ReadOptions())
    let sources = stream.sources(for: [file.path])
    var ids: [String] = []
    // Small batches and a short queue: the writer falls behind and the reader has to wait.
    ReadingThread.read(&stream, sources, batchSize: 7, capacity: 2) { outcome in
      if case .valid(let bill) = outcome { ids.append(bill.id) }
      if ids.count % 50 == 0 { usleep(2_000) }
    }
    #expect(ids == (0..<1_000).map { "n\($0)" })
    // The stream comes back with what the reading thread learnt.
    #expect(stream.billCount == 1_000)
    #expect(stream.fileCount == 1)
  }

  @Test func severalOutputsInOneRunWithFormatsFromExtensions() async throws {
    let directory = try scratchDirectory()
    let names = ["r.txt", "r.json", "r.csv", "r.md", "r.html", "r.journal", "r.ledger", "r.beancount"]
    let arguments =
      ["report", packageRoot.appendingPathComponent("samples/trip.yaml").path]
      + names.flatMap { ["-o", directory.appendingPathComponent($0).path] }
    let outcome = await runCLI(arguments)
    #expect(outcome.code == 0)
    #expect(outcome.stdout == "")
    for name in names { #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)) }
    let html = try String(contentsOf: directory.appendingPathComponent("r.html"), encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<svg") && !html.contains("<script"))
    // Self-contained: no address but the SVG namespace's name (which fetches nothing).
    let outside = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
    #expect(!outside.contains("http://") && !outside.contains("https://") && !outside.contains("//cdn"))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
    #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
  }

  @Test func anUnwritableOutputExits73AndLeavesThePreviousFile() async throws {
    let directory = try scratchDirectory()
    let previous = directory.appendingPathComponent("report.json")
    try "previous".write(to: previous, atomically: true, encoding: .utf8)
    let trip = packageRoot.appendingPathComponent("samples/trip.yaml").path
    let missing = await runCLI(["report", trip, "-o", "/nonexistent-directory/report.json"])
    #expect(missing.code == 73)
    #expect(missing.stderr.contains("cannot write '/nonexistent-directory/report.json'"))
    let intoDirectory = await runCLI(["report", trip, "-o", previous.path, "-o", directory.path + "/sub.html"])
    #expect(intoDirectory.code == 0)
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("taken.json"), withIntermediateDirectories: false)
    let onDirectory = await runCLI(["report", trip, "-o", directory.appendingPathComponent("taken.json").path])
    #expect(onDirectory.code == 73)
    #expect(try String(contentsOf: previous, encoding: .utf8).hasPrefix("{"))
  }

  /// Sums that would leave 64 bits are a located error at the first bill that would take them
  /// there, not a broken run (exit 70, nothing written, as before): 5,000 bills of the largest
  /// amount with a 100 % tip (each total 19,999,999,999,999.98) fit 4,611 times.
  @Test func sumsPast64BitsAreLocatedAndTheRestReported() async throws {
    let directory = try scratchDirectory()
    let csv = directory.appendingPathComponent("huge.csv")
    var text = "amount,currency,tip,diners,paid_by\n"
    for _ in 0..<5_000 { text += "9999999999999.99,EUR,100,Ana;Ben,Ana\n" }
    try text.write(to: csv, atomically: true, encoding: .utf8)
    let output = directory.appendingPathComponent("out.json")
    let outcome = await runCLI(["report", csv.path, "-o", output.path])
    #expect(outcome.code == 1)
    #expect(outcome.stderr.hasPrefix("\(csv.path):4613:1: error: bill '"), "\(outcome.stderr.prefix(300))")
    #expect(outcome.stderr.contains("': with it the run's amounts in EUR add up to more than 64-bit sums hold"))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
    #expect((object["bills"] as? [Any])?.count == 4_611)
    #expect((object["invalid"] as? [Any])?.count == 389)
    #expect(object["reconciled"] as? Bool == true)
  }

  @Test func weeklyFiltersCountWhatTheyLeaveOut() async throws {
    let trip = packageRoot.appendingPathComponent("samples/trip.yaml").path
    func bills(_ extra: [String]) async throws -> (ids: [String], filtered: Int, code: Int32) {
      let outcome = await runCLI(["report", trip, "--format", "json"] + extra)
      let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
      let ids = (object["bills"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
      return (ids, object["filtered_out"] as? Int ?? -1, outcome.code)
    }
    let week = try await bills(["--week", "2026-W47"])  // Monday 16 to Sunday 22 November
    #expect(week.ids == ["lis-05", "lis-06", "lis-07", "tyo-01", "tyo-02", "tyo-03", "tyo-04"])
    // Bills after the week are left out and counted; the 4 before it are carried into the
    // opening balances (and counted there).
    #expect(week.filtered == 3)
    #expect(try await bills(["--last-week", "--today", "2026-11-26"]).ids == week.ids)
    let range = try await bills(["--since", "2026-11-24", "--until", "2026-11-25"])
    #expect(range.ids == ["tyo-06", "tyo-07"])
    #expect(await runCLI(["report", trip, "--week", "2026-W54"]).code == 64)
    #expect(await runCLI(["report", trip, "--week", "2026-W47", "--since", "2026-11-01"]).code == 64)
  }

  @Test func invalidPaymentsAreCountedAsPayments() async throws {
    let file = try scratchDirectory().appendingPathComponent("mixed.yaml")
    try """
    bills:
      - {id: ok, amount: 10, currency: EUR, tip: 0, diners: [Ana, Ben], paid_by: Ana}
      - {id: bad, amount: x, currency: EUR, tip: 0, diners: 2}
    payments:
      - {id: p, from: Ben, to: Ben, amount: 5, currency: EUR}
    """.write(to: file, atomically: true, encoding: .utf8)
    let text = await runCLI(["report", file.path])
    #expect(text.code == 1)
    #expect(text.stdout.contains("Summary: 1 bill in 1 currency, 1 invalid bill and 1 invalid payment left out"))
    let markdown = await runCLI(["report", file.path, "--format", "markdown"])
    #expect(markdown.stdout.contains("**1 invalid bill and 1 invalid payment**"))
  }

  @Test func aDateFilterNeedsADateOnEveryBill() async throws {
    let directory = try scratchDirectory()
    let file = directory.appendingPathComponent("undated.yaml")
    try "- {id: u, amount: 5, currency: EUR, tip: 1, diners: 1}\n".write(to: file, atomically: true, encoding: .utf8)
    let outcome = await runCLI(["report", file.path, "--since", "2026-01-01"])
    #expect(outcome.code == 1)
    #expect(outcome.stderr.contains("bill 'u' has no date, but a date filter is in use"))
  }

  @Test func untrustedTextIsEscapedInEveryFormat() async throws {
    let directory = try scratchDirectory()
    let file = directory.appendingPathComponent("evil.yaml")
    try #"""
    - id: "x<script>alert(1)</script>"
      date: 2026-11-20
      description: "=HYPERLINK(\"http://evil\")|**bold**\u001B[2J"
      amount: 10
      currency: USD
      tip: 0
      diners: ["<img src=x onerror=alert(1)>", "+SUM(A1)", "@cmd", "-2+3", "Zed\u001B]0;pwn\u0007"]
      paid_by: "+SUM(A1)"
    """#.write(to: file, atomically: true, encoding: .utf8)
    func render(_ format: String) async -> String { await runCLI(["report", file.path, "--format", format]).stdout }
    let html = await render("html")
    #expect(!html.contains("<script>alert") && !html.contains("<img src=x"))
    #expect(
      html.contains("x&lt;script&gt;alert(1)&lt;/script&gt;") && html.contains("&lt;img src=x onerror=alert(1)&gt;"))
    let markdown = await render("markdown")
    #expect(markdown.contains(#"x\<script\>alert(1)\</script\>"#))
    // Only what changes the rendering is escaped: a date, a sign or a parenthesis stays as it is.
    #expect(markdown.contains("| 2026-11-20 |") && markdown.contains("| -2+3 |"), "\(markdown)")
    #expect(markdown.contains("\\|\\*\\*bold\\*\\*") && !markdown.contains("\u{1B}"))
    let csv = await render("csv")
    #expect(csv.contains(",'+SUM(A1),") && csv.contains(",'@cmd,") && csv.contains(",'-2+3,"))
    #expect(csv.contains("\"'=HYPERLINK(\"\"http://evil\"\")|**bold**\u{1B}[2J\""))
    let text = await render("text")
    #expect(!text.contains("\u{1B}"))
    #expect(text.contains("\\u{1B}[2J"))
    // A chat message shows a name's control characters, never sends them.
    let messages = await render("messages")
    #expect(!messages.contains("\u{1B}") && !messages.contains("\u{07}"))
    #expect(messages.contains("Zed\\u{1B}]0;pwn\\u{7}: you paid 0.00 USD"), "\(messages)")
  }

  @Test func colourOnlyOnATerminalAndNeverWithNoColor() async {
    let trip = packageRoot.appendingPathComponent("samples/trip.yaml").path
    var context = CommandContext(stdout: StringSink(), stderr: StringSink(), environment: [:], stdoutIsTerminal: true)
    _ = await SplitBillCommandLine.run(["report", trip], context: &context)
    #expect((context.stdout as? StringSink)?.text.contains("\u{1B}[") == true)
    var plain = CommandContext(
      stdout: StringSink(), stderr: StringSink(), environment: ["NO_COLOR": "1"], stdoutIsTerminal: true)
    _ = await SplitBillCommandLine.run(["report", trip], context: &plain)
    #expect((plain.stdout as? StringSink)?.text.contains("\u{1B}") == false)
    #expect(await runCLI(["report", trip]).stdout.contains("\u{1B}") == false)
  }
}
