import Foundation
import SplitBillCore
import SplitBillFiles
import SplitBillReports
import SplitBillText
import Testing

@testable import SplitBillCLI

/// The paths on which a new user lost money without a warning (issue 50): each test here failed
/// before its fix.
@Suite struct LostMoneyTests {
  func write(_ text: String, _ name: String, in directory: URL) throws -> String {
    let url = directory.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  static let headCount = """
    version: 1
    defaults: {currency: EUR, tip: 0}
    people: [Ana, Ben]
    bills:
      - {id: dinner, amount: 60.00, diners: [Ana, Ben], paid_by: Ana}
      - {id: taxi, amount: 60.00, diners: 3, paid_by: Ben}

    """

  @Test func aHeadCountBillWithAPayerIsAWarningAndStrictFails() async throws {
    let file = try write(Self.headCount, "trip.yaml", in: try scratchDirectory())
    let checked = await runCLI(["check", file])
    #expect(checked.code == 0)
    #expect(
      checked.stdout.contains("trip.yaml:6:5: warning: 'Ben' paid this bill, but its diners are a head count (3)"))
    #expect(checked.stdout.contains("so 'Ben' is not paid back; list the diners by name"))
    #expect(checked.stdout.hasSuffix("0 errors, 1 warning\n"))
    let strict = await runCLI(["check", file, "--strict"])
    #expect(strict.code == 1)
    let json = await runCLI(["check", file, "--format", "json"])
    #expect(json.stdout.contains("\"paid_by.head-count\""))
  }

  @Test func aHeadCountBillWithoutAPayerIsNoWarning() async throws {
    let text = Self.headCount.replacingOccurrences(of: "diners: 3, paid_by: Ben", with: "diners: 3")
    let file = try write(text, "trip.yaml", in: try scratchDirectory())
    let checked = await runCLI(["check", file])
    #expect(checked.stdout.hasSuffix("0 errors, 0 warnings\n"), "\(checked.stdout)")
  }

  /// Every report format says it on the bill's own lines.
  @Test(arguments: ["text", "markdown", "html", "json", "csv", "hledger", "ledger", "beancount"])
  func everyFormatSaysTheHeadCountPayerIsNotPaidBack(format: String) async throws {
    let text = Self.headCount.replacingOccurrences(of: "{id: dinner,", with: "{id: dinner, date: 2026-11-01,")
      .replacingOccurrences(of: "{id: taxi,", with: "{id: taxi, date: 2026-11-02,")
    let file = try write(text, "trip.yaml", in: try scratchDirectory())
    let report = await runCLI(["report", file, "--format", format])
    #expect(report.code == 0, "\(report.stderr)")
    switch format {
    case "csv":
      #expect(report.stdout.contains("taxi,2026-11-02,,EUR,Diner 1,1,20.00,0,Ben,head-count,"))
      #expect(report.stdout.contains("dinner,2026-11-01,,EUR,Ana,1,30.00,0,Ana,bill,"))
    case "json":
      let object = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
      let bills = try #require(object["bills"] as? [[String: Any]])
      let taxi = try #require(bills.first { $0["id"] as? String == "taxi" })
      #expect(taxi["in_balances"] as? Bool == false)
      #expect((taxi["note"] as? String)?.contains("Ben is not paid back") == true)
      #expect(bills.first { $0["id"] as? String == "dinner" }?["in_balances"] == nil)
    default:
      #expect(report.stdout.contains("balance, so Ben is not paid back"), "\(report.stdout)")
    }
  }

  @Test func initOffersHeadCountsOnlyForAOneOffSplit() async throws {
    let starter = await runCLI(["init"])
    let lines = starter.stdout.split(separator: "\n")
    // No live bill of the starter has a head count; the one shown is commented out, without a payer.
    let headCounts = lines.filter { $0.contains("diners: 4}") || $0.contains("a count (3)") }
    #expect(headCounts.count == 1)
    #expect(headCounts.allSatisfy { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") && !$0.contains("paid_by") })
    let directory = try scratchDirectory()
    let path = directory.appendingPathComponent("first.yaml").path
    #expect(await runCLI(["init", path]).code == 0)
    #expect(await runCLI(["check", path, "--strict"]).code == 0)
  }

  static let partial = """
    version: 1
    defaults: {currency: EUR, tip: 0}
    people: [Ana, Ben]
    bills:
      - {id: a, date: 2026-11-01, amount: 60.00, diners: [Ana, Ben], paid_by: Ana}
      - {id: b, date: 2026-11-02, amount: 6000, currency: HUF, diners: [Ana, Ben], paid_by: Ben}

    """

  /// A settle-up without a bill whose rate is missing says so where it is shown, in every format.
  @Test(arguments: ["text", "markdown", "html"])
  func aSettleUpFromPartOfTheBillsSaysSo(format: String) async throws {
    let file = try write(Self.partial, "trip.yaml", in: try scratchDirectory())
    let report = await runCLI(["report", file, "--settle-in", "EUR", "--format", format])
    #expect(report.code == 1)
    #expect(report.stdout.contains("from 1 of 2 bills: 1 left out, see Invalid bills"), "\(report.stdout)")
    #expect(report.stdout.contains("Reconciled: for the 1 bill used (1 left out), every bill's shares"))
    #expect(!report.stdout.contains("Reconciled: every bill's"))
  }

  @Test(arguments: ["hledger", "ledger", "beancount"])
  func aJournalFromPartOfTheBillsSaysSo(format: String) async throws {
    let file = try write(Self.partial, "trip.yaml", in: try scratchDirectory())
    let journal = await runCLI(["report", file, "--settle-in", "EUR", "--format", format, "--with-settlements"])
    #expect(journal.code == 1)
    #expect(
      journal.stdout.contains(
        "; INCOMPLETE: from 1 of 2 bills: 1 left out, see the errors on stderr; the balances lack them"),
      "\(journal.stdout)")
    let whole = await runCLI(["report", file, "--format", format])
    #expect(!whole.stdout.contains("INCOMPLETE"))
  }

  @Test func theJSONReportSaysWhetherItIsComplete() async throws {
    let directory = try scratchDirectory()
    let file = try write(Self.partial, "trip.yaml", in: directory)
    let partial = await runCLI(["report", file, "--settle-in", "EUR", "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(partial.stdout.utf8)) as? [String: Any])
    #expect(object["complete"] as? Bool == false)
    #expect((object["left_out"] as? [String: Any])?["bills"] as? Int == 1)
    let whole = await runCLI(["report", file, "--format", "json"])
    let complete = try #require(try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: Any])
    #expect(complete["complete"] as? Bool == true)
    #expect(whole.code == 0)
  }

  @Test func balanceFromPartOfTheBillsSaysSo() async throws {
    let file = try write(Self.partial, "trip.yaml", in: try scratchDirectory())
    let everyone = await runCLI(["balance", file, "--settle-in", "EUR"])
    #expect(everyone.code == 1)
    #expect(everyone.stdout.hasPrefix("Incomplete: from 1 bill used: 1 invalid record left out"))
    let ben = await runCLI(["balance", "Ben", file, "--settle-in", "EUR"])
    #expect(ben.stdout.hasPrefix("Incomplete: "))
    let json = await runCLI(["balance", file, "--settle-in", "EUR", "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["complete"] as? Bool == false)
    let whole = await runCLI(["balance", file])
    #expect(!whole.stdout.contains("Incomplete"))
  }

  /// 50 pairs of `splitbill add` run at once on one file: every one of the 100 records lands.
  @Test(arguments: ["yaml", "csv"])
  func concurrentAddsLoseNothing(format: String) async throws {
    let directory = try scratchDirectory()
    let file = directory.appendingPathComponent("flat.\(format)").path
    let binary = try builtBinary().path
    for pair in 0..<50 {
      try await withThrowingTaskGroup(of: Outcome.self) { group in
        for payer in ["Ana", "Ben"] {
          group.addTask {
            try runProcess(
              binary,
              [
                "add", file, "--amount", "\(pair + 1).00", "--currency", "EUR", "--tip", "0", "--diners", "Ana,Ben",
                "--paid-by", payer, "--description", "\(payer) \(pair)",
              ])
          }
        }
        for try await outcome in group { #expect(outcome.code == 0, "\(outcome.stderr)") }
      }
    }
    let checked = try runBinary(["check", file, "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any])
    #expect(object["bills"] as? Int == 100)
    #expect(object["errors"] as? Int == 0)
  }

  /// A lock held past the wait fails the write, says who holds it, and leaves the file as it was.
  @Test func aLockHeldTooLongFailsSayingWhoHoldsIt() async throws {
    let directory = try scratchDirectory()
    let file = directory.appendingPathComponent("flat.yaml").path
    #expect(
      await runCLI(["add", file, "--amount", "5", "--currency", "EUR", "--tip", "0", "--diners", "Ana"]).code == 0)
    let before = try String(contentsOfFile: file, encoding: .utf8)
    let held = try BooksLock(books: file, command: "a test holding it")
    defer { held.release() }
    let outcome = try runProcess(
      try builtBinary().path,
      ["add", file, "--amount", "6", "--currency", "EUR", "--tip", "0", "--diners", "Ana"],
      environment: ProcessInfo.processInfo.environment.merging(["SPLITBILL_LOCK_TIMEOUT": "0.3"]) { $1 })
    #expect(outcome.code == 73)
    #expect(outcome.stderr.contains("another command has held its lock for over 0.3 s (held by pid "))
    #expect(outcome.stderr.contains(": a test holding it)"))
    #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
  }

  /// `splitbill add FILE ARGS` in a real terminal: `send` types keys and waits for text to show.
  struct Terminal {
    let session = "splitbill-lost-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let exitFile: String

    init(_ arguments: [String], in directory: URL) throws {
      exitFile = directory.appendingPathComponent("exit.txt").path
      let words = try ([builtBinary().path] + arguments).map { "'\($0)'" }.joined(separator: " ")
      let command = "\(words); echo \"exit $?\" > '\(exitFile)'; sleep 60"
      #expect(try tmux(["new-session", "-d", "-s", session, "-x", "160", "-y", "50", command]).code == 0)
    }

    func tmux(_ arguments: [String]) throws -> Outcome { try runProcess("tmux", arguments, timeout: 30) }

    @discardableResult
    func send(_ keys: [String], until expected: String) throws -> String {
      if !keys.isEmpty { _ = try tmux(["send-keys", "-t", session] + keys) }
      var text = ""
      for _ in 0..<500 {
        text = try tmux(["capture-pane", "-t", session, "-p", "-S", "-80"]).stdout
        if text.contains(expected) { return text }
        usleep(20_000)
      }
      Issue.record("the terminal never showed '\(expected)':\n\(text)")
      return text
    }

    func close() { _ = try? tmux(["kill-session", "-t", session]) }
  }

  static let flatWithRentLast = """
    defaults: {currency: EUR, tip: 0}
    bills:
      - {id: groceries, date: 2026-11-03, amount: 31.20, diners: [Maya, Ines], paid_by: Ines}
      - id: rent
        date: 2026-01-01
        description: Rent
        amount: 1500
        diners: [Maya, Omar, Ines]
        paid_by: Omar
        repeat: {every: month}

    """

  /// A flat's file whose last bill is the rent: its names and values are the defaults, the file's
  /// currency is not asked, a prefix completes, an unknown name is asked again.
  @Test(.enabled(if: needing(toolExists("tmux")), "needs tmux (apt-get install tmux)"))
  func interactiveAddKnowsTheRentAndAsksAgainForAnUnknownName() throws {
    let directory = try scratchDirectory()
    let path = try write(Self.flatWithRentLast, "flat.yaml", in: directory)
    let terminal = try Terminal(["add", path], in: directory)
    defer { terminal.close() }
    var text = try terminal.send([], until: "Description (Enter to finish):")
    #expect(text.contains("Names in the file: Ines, Maya, Omar"))
    try terminal.send(["Lunch", "Enter"], until: "Date [")
    text = try terminal.send(["Enter"], until: "Amount (EUR):")
    #expect(!text.contains("Currency"))
    try terminal.send(["12", "Enter"], until: "Paid by [Omar]:")
    text = try terminal.send(["Zed", "Enter"], until: "'Zed' is nobody in the file")
    try terminal.send(["Om", "Enter"], until: "Diners [Maya, Omar, Ines]:")
    try terminal.send(["Maya, Yve", "Enter"], until: "'Yve' is nobody in the file")
    try terminal.send(["Maya, Yve", "Enter"], until: "Tip [0%]:")
    try terminal.send(["Enter"], until: "Category:")
    try terminal.send(["Enter"], until: "Notes:")
    text = try terminal.send(["Enter"], until: "added bill lunch-")
    // The file's bills are one-line mappings: so is the new one.
    #expect(text.contains("diners: [Maya, Yve], paid_by: Omar}"))
    #expect(!text.contains("currency:"))
    let file = try String(contentsOfFile: path, encoding: .utf8)
    #expect(file.contains("paid_by: Omar}") && !file.contains("paid_by: Om}"))
  }

  /// Without a default currency, the currency is asked (the last bill's by default) and written:
  /// the record is never refused for having none. A date is no payment's From.
  @Test(.enabled(if: needing(toolExists("tmux")), "needs tmux (apt-get install tmux)"))
  func interactiveAddAsksTheCurrencyAndChecksFromAsGiven() throws {
    let directory = try scratchDirectory()
    let text = """
      bills:
        - {id: a, date: 2026-11-03, amount: 31.20, currency: EUR, tip: 0, diners: [Maya, Ines], paid_by: Ines}

      """
    let path = try write(text, "flat.yaml", in: directory)
    let bill = try Terminal(["add", path], in: directory)
    defer { bill.close() }
    try bill.send([], until: "Description (Enter to finish):")
    try bill.send(["Taxi", "Enter"], until: "Date [")
    try bill.send(["Enter"], until: "Currency [EUR]:")
    try bill.send(["Enter"], until: "Amount (EUR):")
    try bill.send(["8.40", "Enter"], until: "Paid by [Ines]:")
    try bill.send(["Enter"], until: "Diners [Maya, Ines]:")
    try bill.send(["Enter"], until: "Tip [0%]:")
    try bill.send(["Enter"], until: "Category:")
    try bill.send(["Enter"], until: "Notes:")
    let shown = try bill.send(["Enter"], until: "added bill taxi-")
    #expect(shown.contains("currency: EUR"))
    #expect(try runBinary(["check", path]).code == 0)

    let payment = try Terminal(["add", path, "--payment"], in: directory)
    defer { payment.close() }
    try payment.send([], until: "From (Enter to finish):")
    try payment.send(["2026-12-01", "Enter"], until: "'2026-12-01' is not a name")
    try payment.send(["Ma", "Enter"], until: "To:")
  }

  /// A new file made by `add` holds its currency and a tip of 0 as defaults and its people as
  /// the roster; a refusal of a file that does not exist says it was not made.
  @Test func addMakesAFileWithDefaultsAndPeople() async throws {
    let directory = try scratchDirectory()
    let path = directory.appendingPathComponent("flat.yaml").path
    let made = await runCLI([
      "add", path, "--id", "rent", "--date", "2026-12-01", "--amount", "1500", "--currency", "eur", "--diners",
      "Maya, Omar, Ines", "--paid-by", "Omar", "--repeat", "month",
    ])
    #expect(made.code == 0, "\(made.stderr)")
    let file = try String(contentsOfFile: path, encoding: .utf8)
    #expect(file.hasPrefix("version: 1\ndefaults: {currency: EUR, tip: 0}\npeople: [Omar, Maya, Ines]\nbills:\n"))
    #expect(!file.contains("    currency:") && !file.contains("    tip:"))
    let next = await runCLI(["add", path, "--amount", "10", "--diners", "Maya, Om", "--paid-by", "Maya"])
    #expect(next.code == 1)
    #expect(next.stderr.contains("diner 'Om' is not in people"))
    let missing = directory.appendingPathComponent("new.yaml").path
    let refused = await runCLI(["add", missing, "--amount", "10", "--diners", "Maya", "--paid-by", "Maya"])
    #expect(refused.code == 1)
    #expect(refused.stderr.contains("bill not added: '\(missing)' was not made"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: missing))
    let csv = directory.appendingPathComponent("flat.csv").path
    #expect(await runCLI(["add", csv, "--amount", "900", "--currency", "EUR", "--diners", "Maya,Ines"]).code == 0)
    let header = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").first ?? ""
    #expect(header.split(separator: ",").contains("tip"), "\(header)")
    #expect(await runCLI(["check", csv, "--strict"]).code == 0)
  }

  /// `check` warns of a name that begins another (`Om` for `Omar`), payments' names included.
  @Test func aNameCutShortIsALookAlike() async throws {
    let text = """
      defaults: {currency: EUR, tip: 0}
      bills:
        - {amount: 10, diners: [Omar, Maya], paid_by: Maya}
      payments:
        - {from: Om, to: Maya, amount: 5}

      """
    let file = try write(text, "flat.yaml", in: try scratchDirectory())
    let checked = await runCLI(["check", file])
    #expect(checked.stdout.contains("looks like"), "\(checked.stdout)")
    #expect(checked.stdout.contains("'Om'"))
  }

  static let reviewed = """
    version: 1
    bills:
      - id: r1
        amount: 16.00   # REVIEW: the items add up to 16.00, but the total reads 17.00 (photo line 5)
        currency: USD
        tip: 0
        diners: [Ana, Ben]
        paid_by: Ana
      - {id: r2, amount: 5, currency: USD, tip: 0, diners: [Ana], paid_by: Ana, description: "# REVIEW in a text"}

    """

  /// A `# REVIEW` comment scan left is a warning at its line until it is removed; the report says so.
  @Test func aReviewMarkLeftByScanIsAWarningUntilRemoved() async throws {
    let directory = try scratchDirectory()
    let file = try write(Self.reviewed, "scanned.yaml", in: directory)
    let checked = await runCLI(["check", file])
    #expect(checked.code == 0)
    #expect(
      checked.stdout.contains("scanned.yaml:4:21: warning: a scanned receipt still to review"), "\(checked.stdout)")
    #expect(checked.stdout.contains("('the items add up to 16.00, but the total reads 17.00 (photo line 5)')"))
    #expect(checked.stdout.hasSuffix("0 errors, 1 warning\n"))
    #expect(await runCLI(["check", file, "--strict"]).code == 1)
    let report = await runCLI(["report", file])
    #expect(report.stdout.contains("To review: 1 scanned receipt line still to review"))
    let json = await runCLI(["report", file, "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["review_marks"] as? Int == 1)
    // Removed, nothing is said.
    let mended = try write(
      Self.reviewed.replacingOccurrences(
        of: "   # REVIEW: the items add up to 16.00, but the total reads 17.00 (photo line 5)", with: ""),
      "mended.yaml", in: directory)
    #expect((await runCLI(["check", mended, "--strict"])).code == 0)
    #expect(!(await runCLI(["report", mended])).stdout.contains("To review"))
  }

  /// Marks are found in a file of many reading chunks and on standard input: every one of 900 at
  /// shifting offsets (ReviewMarksTests cuts them at every byte).
  @Test func reviewMarksAcrossTheReadersChunksAreEachFound() async throws {
    var text = "version: 1\nbills:\n  - {amount: 1, currency: EUR, tip: 0, diners: [Ana], paid_by: Ana}\n"
    for index in 0..<900 { text += String(repeating: " ", count: index % 97) + "# REVIEW: \(index) of the receipt\n" }
    let file = try write(text, "many.yaml", in: try scratchDirectory())
    let checked = await runCLI(["check", file, "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any])
    #expect(object["warnings"] as? Int == 900)
    let piped = try runBinary(["check", "-", "--format", "json"], stdin: Data(text.utf8))
    let pipedObject = try #require(try JSONSerialization.jsonObject(with: Data(piped.stdout.utf8)) as? [String: Any])
    #expect(pipedObject["warnings"] as? Int == 900)
  }

  /// Two Splitwise rows of one day, amount and payer for different people are two bills: an
  /// untouched import passes `check --strict`. The same people and parts again is a duplicate.
  @Test func billsForOtherPeopleAreNoDuplicates() async throws {
    let directory = try scratchDirectory()
    let export = try write(
      """
      Date,Description,Category,Cost,Currency,David,Joe,Ana
      2026-02-10,David buzios airbnb,Lodging,300.00,BRL,0.00,-300.00,300.00
      2026-02-10,Joe buzios airbnb,Lodging,300.00,BRL,-300.00,0.00,300.00

      """, "export.csv", in: directory)
    let books = directory.appendingPathComponent("books.yaml").path
    let imported = await runCLI(["import", "splitwise", export, "-o", books])
    #expect(imported.code == 0, "\(imported.stderr)")
    let checked = await runCLI(["check", books, "--strict"])
    #expect(checked.code == 0, "\(checked.stdout)")
    let twice = try write(
      """
      - {id: a, date: 2026-11-20, amount: 5, currency: EUR, tip: 0, diners: [Ana, Ben], paid_by: Ana}
      - {id: b, date: 2026-11-20, amount: 5, currency: EUR, tip: 0, diners: [Ana, Ben], paid_by: Ana}
      - {id: c, date: 2026-11-20, amount: 5, currency: EUR, tip: 0, diners: {Ana: 2, Ben: 1}, paid_by: Ana}

      """, "twice.yaml", in: directory)
    let duplicates = await runCLI(["check", twice])
    #expect(duplicates.stdout.contains("probable duplicate receipt: 'b'"))
    #expect(!duplicates.stdout.contains("probable duplicate receipt: 'c'"))
  }

  static let forints = """
    version: 1
    defaults: {tip: 0}
    people: [Ana, Ben, Chloé]
    bills:
      - {id: a, date: 2026-11-01, amount: 36770, currency: HUF, diners: [Ana, Ben, Chloé], paid_by: Ana}
      - {id: b, date: 2026-11-01, amount: 10.00, currency: EUR, diners: [Ana, Ben, Chloé], paid_by: Ben}

    """

  /// Cash rounding by currency: forints in fives, euros to the cent; the same from the
  /// configuration, as text or as a mapping.
  @Test func cashRoundingByCurrency() async throws {
    let directory = try scratchDirectory()
    let file = try write(Self.forints, "trip.yaml", in: directory)
    let report = await runCLI(["report", file, "--cash-rounding", "HUF=5"])
    #expect(report.code == 0, "\(report.stderr)")
    #expect(report.stdout.contains("Chloé  pays  Ana  12,255.00  HUF"), "\(report.stdout)")
    #expect(report.stdout.contains("Chloé  pays  Ben  3.33  EUR"))
    #expect(!report.stdout.contains("EUR transfers in multiples"))
    let both = await runCLI(["report", file, "--cash-rounding", "HUF=10, EUR=0.05"])
    #expect(both.stdout.contains("Chloé  pays  Ana  12,250.00  HUF"))
    #expect(both.stdout.contains("Chloé  pays  Ben  3.30  EUR"), "\(both.stdout)")
    for refused in ["HUF=5,XXQ=1", "5,HUF=5", "HUF=0.001", "HUF=5,HUF=10"] {
      #expect(await runCLI(["report", file, "--cash-rounding", refused]).code == 64, "\(refused)")
    }
    for configuration in ["cash-rounding: {HUF: 5}", "cash-rounding: HUF=5"] {
      try "\(configuration)\n".write(
        to: directory.appendingPathComponent("splitbill.yaml"), atomically: true, encoding: .utf8)
      let configured = try runProcess(
        try builtBinary().path, ["report", "trip.yaml"], environment: ["PATH": "/usr/bin:/bin"], directory: directory)
      #expect(configured.stdout.contains("Chloé  pays  Ana  12,255.00  HUF"), "\(configuration): \(configured.stderr)")
    }
  }

  static let shortTrip = """
    version: 1
    title: Five days in Budapest
    defaults: {tip: 0, currency: HUF}
    people: [Ana, Ben]
    bills:
      - {id: a, date: 2026-11-02, amount: 1234567, diners: [Ana, Ben], paid_by: Ana}
      - {id: b, date: 2026-11-04, amount: 30000, diners: [Ana, Ben]}
      - {id: c, date: 2026-11-06, amount: 60000, diners: [Ana, Ben], paid_by: Ben}
    payments:
      - {id: p, date: 2026-11-05, from: Ben, to: Ana, amount: 100000}

    """

  /// The HTML report of a short trip with payments: headed by the file's title, balances day by
  /// day, the consumption table's balance the one the balances' chart shows, amounts grouped.
  @Test func theHTMLReportOfAGroupSaysWhatTheFiguresSay() async throws {
    let directory = try scratchDirectory()
    let file = try write(Self.shortTrip, "budapest.yaml", in: directory)
    let html = await runCLI(["report", file, "--format", "html"])
    #expect(html.code == 0, "\(html.stderr)")
    #expect(html.stdout.contains("<title>Five days in Budapest</title>"))
    #expect(html.stdout.contains("<h1>Five days in Budapest</h1>"))
    #expect(html.stdout.contains("Balances day by day in HUF"), "a 5-day trip drawn by week")
    #expect(!html.stdout.contains("Balances week by week"))
    // Ana paid 1,234,567.00, had half of it and of Ben's 60,000.00, and received 100,000.00; the
    // bill nobody paid is in what she consumed, not in her balance.
    #expect(html.stdout.contains("1,234,567.00"))
    #expect(html.stdout.contains("<th>balance</th>") && !html.stdout.contains("paid − consumed"))
    let balance = "487,283.50"  // 1,234,567.00 − 617,283.50 − 30,000.00 − 100,000.00
    #expect(html.stdout.components(separatedBy: balance).count - 1 >= 2, "the balance in both tables")
    let text = await runCLI(["report", file])
    #expect(text.stdout.contains("1,234,567.00 HUF + tip 0% 0.00 = 1,234,567.00 HUF"), "\(text.stdout)")
    #expect(text.stdout.contains(balance))
    // Programs get plain numbers (the messages' prose, written for people, groups them).
    let json = await runCLI(["report", file, "--format", "json"])
    #expect(json.stdout.contains("\"1234567.00\"") && !json.stdout.contains("\"1,234,567"))
    let markdown = await runCLI(["report", file, "--format", "markdown"])
    #expect(markdown.stdout.hasPrefix("## Five days in Budapest\n"))
    // Without a title, the file's name.
    let untitled = try write(
      Self.shortTrip.replacingOccurrences(of: "title: Five days in Budapest\n", with: ""), "trip.yaml", in: directory)
    #expect((await runCLI(["report", untitled, "--format", "html"])).stdout.contains("<h1>trip.yaml</h1>"))
  }

  @Test func groupedAmounts() {
    let cases: [(Int64, Int, String)] = [
      (0, 2, "0.00"), (99_999, 2, "999.99"), (100_000, 2, "1,000.00"), (-123_456_789, 2, "-1,234,567.89"),
      (1_000, 0, "1,000"), (-999, 0, "-999"), (1_234_567_890, 3, "1,234,567.890"),
      (Int64.min, 0, "-9,223,372,036,854,775,808"),
      (Int64.max, 4, "922,337,203,685,477.5807"), (5, 4, "0.0005"),
    ]
    for (units, scale, expected) in cases {
      #expect(DecimalText.grouped(units, scale: scale) == expected)
      #expect(DecimalText.groupedLength(units, scale: scale) == expected.utf8.count)
    }
  }

  /// Help fits 80 columns when it is not on a terminal, the width given when it is.
  @Test func helpIsWrappedToTheTerminal() async throws {
    for command in ["report", "check", "add", "balance", "import", "scan", "calc", "suggest", "init", "completions"] {
      let help = await runCLI([command, "--help"])
      let long = help.stdout.split(separator: "\n").filter { TerminalText.width(String($0)) > 80 }
      #expect(long.isEmpty, "\(command): \(long)")
    }
    #expect((await runCLI(["help"])).stdout.split(separator: "\n").allSatisfy { TerminalText.width(String($0)) <= 80 })
    var context = CommandContext(
      stdout: StringSink(), stderr: StringSink(), environment: ["COLUMNS": "60"], stdoutIsTerminal: true)
    _ = await SplitBillCommandLine.run(["import", "--help"], context: &context)
    let narrow = (context.stdout as? StringSink)?.text ?? ""
    // (A word longer than the width, a path, stands alone on its line.)
    let over = narrow.split(separator: "\n").filter {
      TerminalText.width(String($0)) > 60 && $0.trimmingCharacters(in: .whitespaces).contains(" ")
    }
    #expect(over.isEmpty, "\(over)")
    // The words are all there: wrapping moves them, never drops them.
    let wide = await runCLI(["import", "--help"])
    let words = { (text: String) in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\\" }) }
    #expect(words(narrow) == words(wide.stdout))
  }

  @Test func aMistypedOptionGetsADidYouMean() async {
    let cut = await runCLI(["report", "samples/trip.yaml", "--settle"])
    #expect(cut.code == 64)
    #expect(cut.stderr.contains("unknown option '--settle'; did you mean '--settle-in'?"), "\(cut.stderr)")
    let typo = await runCLI(["report", "samples/trip.yaml", "--setle-in", "EUR"])
    #expect(typo.stderr.contains("did you mean '--settle-in'?"))
  }

  /// Fish shows a value's description in parentheses: it says what the option is for.
  @Test func fishCompletionsDescribeValues() async {
    let fish = await runCLI(["completions", "fish"]).stdout
    #expect(fish.contains("'half-up' 'Default tip rounding'"))
    #expect(fish.contains("'json' 'report format'"))
    #expect(!fish.contains("'json' 'format'") && !fish.contains("'auto' 'when'"))
  }

  /// An indentation mistake is said in this tool's words, located, with the likely fix.
  @Test func aYAMLIndentationMistakeIsSaidPlainly() async throws {
    let file = try write("bills:\n  - amount: 5\n     tip: 1\n", "bills.yaml", in: try scratchDirectory())
    let checked = await runCLI(["check", file])
    #expect(checked.stdout.contains("bills.yaml:3:9: error: YAML syntax error: a 'key: value' where none can start"))
    #expect(checked.stdout.contains("indented deeper than the keys above it"))
    let list = try write("bills:\n- amount: 5\n  - amount: 6\n", "list.yaml", in: try scratchDirectory())
    #expect((await runCLI(["check", list])).stdout.contains("is not indented like the mapping it belongs to"))
  }

  static let wholeForints = """
    version: 1
    defaults: {tip: 0, currency: HUF, whole_units: [HUF]}
    people: [Ana, Ben, Chloé]
    bills:
      - id: dinner
        date: 2026-11-01
        diners: [Ana, Ben, Chloé]
        paid_by: Ana
        service: 13%
        receipt_total: 36770
        items:
          - {name: Goulash, price: 32540}
      - {id: lunch, date: 2026-11-02, amount: 10.00, currency: EUR, diners: [Ana, Ben, Chloé], paid_by: Ben}
    payments:
      - {id: p, date: 2026-11-03, from: Ben, to: Ana, amount: 1000}

    """

  /// Forints kept in whole units: a 13 % service charge is whole forints, the printed total is
  /// taken, shares and transfers are whole; euros keep their cents.
  @Test func aCurrencyKeptInWholeUnits() async throws {
    let directory = try scratchDirectory()
    let file = try write(Self.wholeForints, "budapest.yaml", in: directory)
    let checked = await runCLI(["check", file, "--strict"])
    #expect(checked.code == 0, "\(checked.stdout)")
    let report = await runCLI(["report", file])
    #expect(report.code == 0, "\(report.stderr)")
    #expect(report.stdout.contains("service 13% 4230 = 36770 (receipt total as printed)"), "\(report.stdout)")
    #expect(report.stdout.contains("Ben    pays  Ana  11,257  HUF"))
    #expect(report.stdout.contains("Chloé  pays  Ana  12,256  HUF"))
    #expect(report.stdout.contains("Ana    pays  Ben  3.34  EUR"))
    let json = await runCLI(["report", file, "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let settlements = try #require(object["settlements"] as? [[String: Any]])
    let forints = settlements.filter { $0["currency"] as? String == "HUF" }.compactMap { $0["amount"] as? String }
    #expect(forints == ["11257", "12256"])
    // Without the declaration, the same service is 4230.20 and the printed total is refused.
    let cents = try write(
      Self.wholeForints.replacingOccurrences(of: ", whole_units: [HUF]", with: ""), "cents.yaml", in: directory)
    let refused = await runCLI(["check", cents])
    #expect(refused.code == 1)
    #expect(refused.stdout.contains("receipt_total"), "\(refused.stdout)")
    // The run's declaration (the command line's, the configuration's) does the same.
    #expect((await runCLI(["check", cents, "--whole-units", "HUF", "--strict"])).code == 0)
    // A run never keeps one currency two ways.
    let mixed = await runCLI(["check", cents, file])
    #expect(mixed.code == 1)
    #expect(mixed.stdout.contains("error: HUF is kept in whole units here but in minor units at"), "\(mixed.stdout)")
    #expect(mixed.stdout.contains("currency.units-differ") || mixed.stdout.contains("declare it once for every file"))
    #expect((await runCLI(["check", file, "--whole-units", "XXQ"])).code == 64)
  }
}
