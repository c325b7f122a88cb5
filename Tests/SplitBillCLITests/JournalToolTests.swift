import Foundation
import Testing

/// This environment with a UTF-8 locale: hledger refuses non-ASCII journals under the C locale
/// (`hGetContents: invalid byte sequence`), which is what a runner started without `LANG` has.
let utf8Environment = ProcessInfo.processInfo.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }

/// Balances as a tool reads them: account → currency → amount.
typealias Balances = [String: [String: Decimal]]

/// The real plain-text-accounting tools check the journals and agree with the report's figures.
struct JournalToolTests {

  /// The report's figures for the sample trip.
  struct Figures {
    var consumed: [String: [String: Decimal]] = [:]
    var balance: [String: [String: Decimal]] = [:]
    var paidAll: [String: [String: Decimal]] = [:]  // every bill a person paid, anonymous diners too
    var anonymous: [String: Decimal] = [:]
  }

  static func figures(_ extra: [String] = []) throws -> Figures {
    let outcome = try runBinary(["report", "samples/trip.yaml", "--format", "json"] + extra)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    var figures = Figures()
    for person in object["people"] as? [[String: Any]] ?? [] {
      let name = person["person"] as? String ?? ""
      let currency = person["currency"] as? String ?? ""
      figures.consumed[name, default: [:]][currency] = Decimal(string: person["consumed"] as? String ?? "")
      figures.balance[name, default: [:]][currency] = Decimal(string: person["balance"] as? String ?? "")
    }
    for bill in object["bills"] as? [[String: Any]] ?? [] {
      let currency = bill["currency"] as? String ?? ""
      let total = Decimal(string: bill["total"] as? String ?? "") ?? 0
      if let payer = bill["paid_by"] as? String { figures.paidAll[payer, default: [:]][currency, default: 0] += total }
      if (bill["shares"] as? [[String: Any]])?.first?["person"] as? String == "Diner 1" {
        figures.anonymous[currency, default: 0] += total
      }
    }
    return figures
  }

  /// Writes the journal for `flavor` with `extra` options and returns its path.
  static func journal(_ flavor: String, _ extra: [String]) throws -> String {
    let path = try scratchDirectory().appendingPathComponent("trip.\(flavor)").path
    let outcome = try runBinary(["report", "samples/trip.yaml", "--format", flavor, "-o", path] + extra)
    #expect(outcome.code == 0, "\(outcome.stderr)")
    return path
  }

  /// Sums every posting per account and currency, as the tool itself reads them.
  static func balances(_ flavor: String, _ path: String) throws -> Balances {
    let outcome: Outcome
    switch flavor {
    case "hledger":
      outcome = try runProcess(
        "hledger", ["-f", path, "bal", "--flat", "-N", "-E", "-O", "csv"], environment: utf8Environment)
      // "account","1.00 EUR, 100 JPY"
      var result: Balances = [:]
      for line in outcome.stdout.split(separator: "\n").dropFirst() {
        let cells = line.dropFirst().dropLast().components(separatedBy: "\",\"")
        guard cells.count == 2 else { continue }
        result[cells[0], default: [:]].reserveCapacity(1)  // "0": an account with nothing left
        for amount in cells[1].components(separatedBy: ", ") {
          let parts = amount.split(separator: " ")
          guard parts.count == 2, let number = Decimal(string: String(parts[0])) else { continue }
          result[cells[0], default: [:]][String(parts[1]), default: 0] += number
        }
      }
      return result
    case "ledger":
      outcome = try runProcess(
        "ledger",
        [
          "-f", path, "--pedantic", "reg", "--format",
          "%(account)|%(quantity(amount))|%(commodity(amount))\n",
        ])
    default:
      let script = """
        import sys
        from beancount import loader
        entries, errors, options = loader.load_file(sys.argv[1])
        if errors:
            sys.exit("errors: %r" % errors)
        for entry in entries:
            for posting in getattr(entry, "postings", []):
                print("%s|%s|%s" % (posting.account, posting.units.number, posting.units.currency))
        """
      outcome = try runProcess("python3", ["-c", script, path])
    }
    #expect(outcome.code == 0, "\(flavor): \(outcome.stderr)")
    var result: Balances = [:]
    for line in outcome.stdout.split(separator: "\n") {
      let cells = line.split(separator: "|").map(String.init)
      guard cells.count == 3, let amount = Decimal(string: cells[1]) else { continue }
      result[cells[0], default: [:]][cells[2], default: 0] += amount
    }
    return result
  }

  static func check(_ flavor: String, _ path: String) throws {
    let outcome: Outcome
    switch flavor {
    case "hledger": outcome = try runProcess("hledger", ["-f", path, "check", "-s"], environment: utf8Environment)
    case "ledger": outcome = try runProcess("ledger", ["-f", path, "--pedantic", "bal"])
    default: outcome = try runProcess("bean-check", [path])
    }
    #expect(outcome.code == 0, "\(flavor) rejected \(path): \(outcome.stdout)\(outcome.stderr)")
  }

  static func available(_ flavor: String) -> Bool {
    switch flavor {
    case "hledger": return toolExists("hledger")
    case "ledger": return toolExists("ledger")
    default: return toolExists("bean-check") && pythonHas("import beancount")
    }
  }

  static let flavors = ["hledger", "ledger", "beancount"]

  /// Whether all three tools are installed (the tests of the journals skip without them).
  static let toolsPresent = flavors.allSatisfy(available)
  static let toolsNeeded = "needs hledger, ledger and Beancount (apt-get install hledger ledger; pip install beancount)"

  /// Inputs out of date order (a later bill before an earlier one, payments after the bills, as
  /// a YAML file lists them) give a journal in date order, in input order on one date, that every
  /// tool accepts and hledger's `check ordereddates` passes.
  @Test(.enabled(if: needing(toolsPresent), Comment(rawValue: toolsNeeded)), arguments: flavors)
  func journalsAreInDateOrder(flavor: String) throws {
    let directory = try scratchDirectory()
    let input = directory.appendingPathComponent("unordered.yaml")
    try """
    people: [Ana, Ben]
    defaults: {currency: EUR, tip: 0}
    bills:
      - {id: b1, date: 2026-11-10, amount: 10.00, diners: [Ana, Ben], paid_by: Ana}
      - {id: b2, date: 2026-11-20, amount: 20.00, diners: [Ana, Ben], paid_by: Ben}
      - {id: b3, date: 2026-11-15, amount: 30.00, diners: [Ana, Ben], paid_by: Ana}
    payments:
      - {id: p1, date: 2026-11-12, from: Ben, to: Ana, amount: 5.00}
      - {id: p2, date: 2026-11-20, from: Ben, to: Ana, amount: 1.00}
    """.write(to: input, atomically: true, encoding: .utf8)
    let path = directory.appendingPathComponent("unordered.\(flavor)").path
    let outcome = try runBinary(["report", input.path, "--format", flavor, "-o", path, "--with-settlements"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    try Self.check(flavor, path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let keys = [("bill", "b1"), ("payment", "p1"), ("bill", "b3"), ("bill", "b2"), ("payment", "p2")]
    let order =
      keys.map { key, value in
        let tag =
          flavor == "hledger" ? "\(key):\(value)" : flavor == "ledger" ? "\(key): \(value)" : "\(key): \"\(value)\""
        return text.range(of: tag)?.lowerBound
      } + [text.range(of: "settlement:")?.lowerBound]
    #expect(order.allSatisfy { $0 != nil }, "\(text)")
    #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "\(text)")
    if flavor == "hledger" {
      let ordered = try runProcess("hledger", ["-f", path, "check", "ordereddates"], environment: utf8Environment)
      #expect(ordered.code == 0, "\(ordered.stderr)")
    }
  }

  /// Itemized receipts (tax added, VAT included with service, a voucher): every tool accepts the
  /// journal, its receipt metadata and each person's dining account equals the report's share.
  @Test(.enabled(if: needing(toolsPresent), Comment(rawValue: toolsNeeded)), arguments: flavors)
  func itemizedReceiptsAreAcceptedWithTheirAdjustments(flavor: String) throws {
    let path = try scratchDirectory().appendingPathComponent("receipts.\(flavor)").path
    let outcome = try runBinary(["report", "samples/receipts", "--format", flavor, "-o", path])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    try Self.check(flavor, path)
    let report = try runBinary(["report", "samples/receipts", "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
    var consumed: Balances = [:]
    for bill in object["bills"] as? [[String: Any]] ?? [] {
      let currency = bill["currency"] as? String ?? ""
      for share in bill["shares"] as? [[String: Any]] ?? [] {
        let person = share["person"] as? String ?? ""
        consumed["Expenses:Dining:\(person)", default: [:]][currency, default: 0] +=
          Decimal(string: share["amount"] as? String ?? "") ?? 0
      }
    }
    #expect(consumed.count == 5)
    let balances = try Self.balances(flavor, path)
    for (account, byCurrency) in consumed { #expect(balances[account] == byCurrency, "\(flavor) \(account)") }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let tag = { (key: String, value: String) in
      flavor == "hledger" ? "\(key):\(value)" : flavor == "ledger" ? "\(key): \(value)" : "\(key): \(value)"
    }
    for (key, value) in [
      ("items", "318.95 USD"), ("tax", "32.69 USD"), ("service", "15.72 EUR"),
      ("tax-included", "13.34 EUR"), ("discount", "2.80 EUR"),
    ] {
      #expect(text.contains(tag(key, value)), "\(flavor) lacks \(key) \(value)")
    }
  }

  @Test(.enabled(if: needing(toolsPresent), Comment(rawValue: toolsNeeded)), arguments: flavors)
  func groupJournalIsAcceptedAndAgreesWithTheReport(flavor: String) async throws {
    let figures = try Self.figures()
    for extra in [[], ["--with-settlements"]] {
      let path = try Self.journal(flavor, extra)
      try Self.check(flavor, path)
      let balances = try Self.balances(flavor, path)
      /// Σ of the expense accounts (one per category) ending in `:name`.
      func expenses(_ name: String, _ currency: String) -> Decimal {
        balances.filter { $0.key.hasPrefix("Expenses:") && $0.key.hasSuffix(":\(name)") }.values.reduce(0) {
          $0 + ($1[currency] ?? 0)
        }
      }
      for (person, byCurrency) in figures.consumed {
        for (currency, consumed) in byCurrency {
          #expect(expenses(person, currency) == consumed, "\(flavor) \(person) \(currency)")
          if extra.isEmpty {
            // every bill the person paid, those with anonymous diners included
            let paid = -(figures.paidAll[person]?[currency] ?? 0)
            #expect((balances["Equity:Paid:\(person)"]?[currency] ?? 0) == paid, "\(flavor) paid \(person)")
          } else {
            // after the suggested settlements each person's paid and consumed cancel out, but for
            // bills with anonymous diners, which are in nobody's figures
            let net = (balances["Equity:Paid:\(person)"]?[currency] ?? 0) + expenses(person, currency)
            let balance = figures.balance[person]?[currency] ?? 0
            let named = (figures.paidAll[person]?[currency] ?? 0) - consumed - balance
            #expect(net == -named, "\(flavor) settled \(person) \(currency)")
          }
        }
      }
      for (currency, total) in figures.anonymous { #expect(expenses("Unnamed", currency) == total) }
    }
  }

  @Test(.enabled(if: needing(toolsPresent), Comment(rawValue: toolsNeeded)), arguments: flavors)
  func personalBooksAreAcceptedAndReceivablesNetToTheBalance(flavor: String) async throws {
    let figures = try Self.figures()
    for person in ["Ana", "Chloé"] {
      let path = try Self.journal(flavor, ["--books-of", person])
      try Self.check(flavor, path)
      let balances = try Self.balances(flavor, path)
      for (currency, balance) in figures.balance[person] ?? [:] {
        let receivables = balances.filter { $0.key.hasPrefix("Assets:Receivables:") }.values.reduce(Decimal(0)) {
          $0 + ($1[currency] ?? 0)
        }
        #expect(receivables == balance, "\(flavor) \(person) \(currency)")
      }
      let settled = try Self.journal(flavor, ["--books-of", person, "--with-settlements", "--no-declarations"])
      let text = try String(contentsOfFile: settled, encoding: .utf8)
      #expect(text.contains(" ! "))
      #expect(!text.contains("open ") && !text.contains("account "))
    }
  }
}

/// Names that trip up account rules still give journals every tool accepts.
@Suite struct JournalNameTests {
  @Test(
    .enabled(if: needing(JournalToolTests.toolsPresent), Comment(rawValue: JournalToolTests.toolsNeeded)),
    arguments: JournalToolTests.flavors)
  func awkwardNamesAreMappedToValidAccounts(flavor: String) async throws {
    let directory = try scratchDirectory()
    let file = directory.appendingPathComponent("names.yaml")
    try """
    - id: "names; 1, with spaces"
      date: 2026-11-20
      description: "Dinner; with \\"quotes\\" | and, commas"
      amount: 70.00
      currency: USD
      tip: 10
      diners: [ben, "O'Brien", Jean Luc, Jean-Luc, 李雷, élodie, Ana_B, "Ch:lo"]
      paid_by: ben
    """.write(to: file, atomically: true, encoding: .utf8)
    for extra in [[], ["--books-of", "ben", "--with-settlements"], ["--with-settlements"]] {
      let path = directory.appendingPathComponent("names.\(flavor)").path
      let outcome = await runCLI(["report", file.path, "--format", flavor, "-o", path] + extra)
      #expect(outcome.code == 0, "\(outcome.stderr)")
      try JournalToolTests.check(flavor, path)
      let balances = try JournalToolTests.balances(flavor, path)
      let accounts = balances.keys.filter { $0.hasPrefix("Expenses:Dining:") || $0.hasPrefix("Assets:Receivables:") }
      #expect(accounts.count == (extra.first == "--books-of" ? 7 : 8), "\(flavor) \(extra): \(accounts.sorted())")
    }
  }
}

/// Journals of a running tab: payments (cleared transactions) and, with a period, the opening
/// balances; every tool accepts them and their balances are the report's closing balances.
/// (What the tools accept does not depend on threads: not under ThreadSanitizer, whose build makes
/// this suite CI's second longest.)
struct PaymentJournalTests {
  /// A copy of `samples/flat/` with payments: one in each week, one in CSV.
  static func flat() throws -> URL {
    let flat = try scratchDirectory().appendingPathComponent("flat")
    try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("samples/flat"), to: flat)
    try """
    people: [Ana, Ben, Chloé]
    payments:
      - {id: p-chloe-ana, date: 2026-11-22, from: Chloé, to: Ana, amount: 32.60, currency: EUR, notes: "bank; \\"transfer\\""}
      - {id: p-ben-chloe, date: 2026-11-25, from: Ben, to: Chloé, amount: 5.00, currency: EUR}
    """.write(to: flat.appendingPathComponent("payments.yaml"), atomically: true, encoding: .utf8)
    try "id,date,from,to,amount,currency\np-ana-ben,2026-11-28,Ana,Ben,1.10,EUR\n".write(
      to: flat.appendingPathComponent("cash.csv"), atomically: true, encoding: .utf8)
    // Several payers and exact shares, one bill before week 48 (carried) and two in it.
    try """
    people: [Ana, Ben, Chloé]
    defaults: {currency: EUR}
    bills:
      - {id: x-trip, date: 2026-11-19, amount: 100.54, tip: 10, diners: [Ana, Ben, Chloé], paid_by: {Ana: 60.00, Ben: 50.59}}
      - {id: x-bar, date: 2026-11-26, amount: 20.00, tip: 15, shares: {Ana: 12.50, Chloé: 7.50}, paid_by: Ben}
      - {id: x-cab, date: 2026-11-27, amount: 31.00, tip: 0, shares: {Ben: 10.33, Chloé: 20.67}, paid_by: {Chloé: 30.00, Ana: 1.00}}
    """.write(to: flat.appendingPathComponent("shared.yaml"), atomically: true, encoding: .utf8)
    return flat
  }

  /// Each person's closing balance in EUR, from the JSON report.
  static func closing(_ flat: URL, _ extra: [String]) throws -> [String: Decimal] {
    let outcome = try runBinary(["report", flat.path, "--format", "json"] + extra)
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    var closing: [String: Decimal] = [:]
    for person in object["people"] as? [[String: Any]] ?? [] {
      closing[person["person"] as? String ?? ""] = Decimal(string: person["closing"] as? String ?? "")
    }
    #expect((object["payments"] as? [Any])?.isEmpty == false)
    return closing
  }

  @Test(
    .enabled(if: needing(JournalToolTests.toolsPresent), Comment(rawValue: JournalToolTests.toolsNeeded)),
    arguments: JournalToolTests.flavors)
  func paymentsAndOpeningBalancesAreAcceptedAndMatchTheClosingBalances(flavor: String) async throws {
    let flat = try Self.flat()
    for period in [[], ["--week", "2026-W48"]] {
      let closing = try Self.closing(flat, period)
      #expect(closing.values.reduce(0, +) == 0)
      let group = try scratchDirectory().appendingPathComponent("group.\(flavor)").path
      let written = try runBinary(["report", flat.path, "--format", flavor, "-o", group] + period)
      #expect(written.code == 0, "\(written.stderr)")
      try JournalToolTests.check(flavor, group)
      let text = try String(contentsOfFile: group, encoding: .utf8)
      #expect(text.contains("Payment: Ben pays Chloé"))
      #expect(text.contains("Equity:Paid:Chloé") && text.contains("x-cab"))
      #expect(text.contains("Opening balances") == !period.isEmpty)
      if let opening = text.range(of: "Opening balances"),
        let bill = text.range(of: "x-bar")
      {
        // Dated the period's first day, the opening balances come before every bill.
        #expect(opening.lowerBound < bill.lowerBound, "\(flavor): the opening balances come first")
      }
      let balances = try JournalToolTests.balances(flavor, group)
      for (person, expected) in closing {
        // A person's balance is minus the sum of their two accounts.
        let sum =
          (balances["Expenses:Dining:\(person)"]?["EUR"] ?? 0) + (balances["Equity:Paid:\(person)"]?["EUR"] ?? 0)
        #expect(-sum == expected, "\(flavor) \(period) \(person)")
      }
      for person in ["Ana", "Ben", "Chloé"] {
        let own = try scratchDirectory().appendingPathComponent("own.\(flavor)").path
        let books = try runBinary(["report", flat.path, "--format", flavor, "--books-of", person, "-o", own] + period)
        #expect(books.code == 0, "\(books.stderr)")
        try JournalToolTests.check(flavor, own)
        let receivables = try JournalToolTests.balances(flavor, own).filter { $0.key.hasPrefix("Assets:Receivables:") }
          .values.reduce(Decimal(0)) { $0 + ($1["EUR"] ?? 0) }
        #expect(receivables == closing[person], "\(flavor) \(period) books of \(person)")
      }
    }
  }
}
