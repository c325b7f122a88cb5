import Foundation
import Testing

/// The journals by category and by person, read by the real tools: each category's expense
/// account holds the JSON report's category total; in the people layout each person's subtree
/// holds minus their balance, on one line at depth 3 in hledger and bean-query.
struct CategoryJournalTests {
  typealias Tools = JournalToolTests

  /// The JSON report of the sample trip: category → currency → total, person → currency → closing.
  static func report(_ extra: [String] = []) throws -> (categories: Balances, closing: Balances) {
    let outcome = try runBinary(["report", "samples/trip.yaml", "--format", "json"] + extra)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    var categories: Balances = [:]
    for category in object["categories"] as? [[String: Any]] ?? [] {
      categories[category["category"] as? String ?? "-", default: [:]][category["currency"] as? String ?? ""] =
        Decimal(string: category["total"] as? String ?? "")
    }
    var closing: Balances = [:]
    for person in object["people"] as? [[String: Any]] ?? [] {
      closing[person["person"] as? String ?? "", default: [:]][person["currency"] as? String ?? ""] =
        Decimal(string: person["closing"] as? String ?? "")
    }
    if let conversion = object["conversion"] as? [String: Any] {
      closing = [:]
      for balance in conversion["balances"] as? [[String: Any]] ?? [] {
        closing[balance["person"] as? String ?? "", default: [:]][conversion["currency"] as? String ?? ""] =
          Decimal(string: balance["balance"] as? String ?? "")
      }
    }
    return (categories, closing)
  }

  /// Σ of the accounts at or under `prefix`, by currency.
  static func sum(_ balances: Balances, under prefix: String) -> [String: Decimal] {
    var sum: [String: Decimal] = [:]
    for (account, amounts) in balances where account == prefix || account.hasPrefix(prefix + ":") {
      for (currency, amount) in amounts { sum[currency, default: 0] += amount }
    }
    return sum.filter { $0.value != 0 }
  }

  @Test(.enabled(if: needing(Tools.toolsPresent), Comment(rawValue: Tools.toolsNeeded)), arguments: Tools.flavors)
  func eachCategorysAccountHoldsItsTotal(flavor: String) throws {
    let path = try Tools.journal(flavor, [])
    try Tools.check(flavor, path)
    let balances = try Tools.balances(flavor, path)
    let report = try Self.report()
    let accounts = [
      "dining": "Expenses:Food:Dining", "entertainment": "Expenses:Entertainment",
      "groceries": "Expenses:Food:Groceries",
    ]
    #expect(Set(report.categories.keys) == Set(accounts.keys))
    for (category, account) in accounts {
      #expect(Self.sum(balances, under: account) == report.categories[category], "\(flavor) \(category)")
    }
  }

  @Test(.enabled(if: needing(Tools.toolsPresent), Comment(rawValue: Tools.toolsNeeded)), arguments: Tools.flavors)
  func thePeopleLayoutHoldsEachPersonsBalance(flavor: String) throws {
    for extra in [[], ["--settle-in", "EUR"]] {
      let path = try Tools.journal(flavor, ["--journal-layout", "people"] + extra)
      try Tools.check(flavor, path)
      let balances = try Tools.balances(flavor, path)
      let closing = try Self.report(extra).closing
      for (person, byCurrency) in closing {
        let expected = byCurrency.mapValues { -$0 }.filter { $0.value != 0 }
        #expect(Self.sum(balances, under: "Equity:People:\(person)") == expected, "\(flavor) \(person) \(extra)")
      }
      // Every account of a person is under Equity:People; the head-count bill is outside.
      #expect(!balances.keys.contains { $0.hasPrefix("Equity:Paid:Ana") || $0.hasPrefix("Expenses:Food:Dining:Ana") })
    }
  }

  /// The one-line answer, as each tool gives it: `hledger bal --depth 3`, and bean-query
  /// grouping by the account's first three parts.
  @Test(
    .enabled(
      if: needing(Tools.toolsPresent && toolExists("bean-query")),
      "needs hledger and bean-query (pip install beanquery)"))
  func theToolsShowEachPersonsNetOnOneLine() throws {
    let closing = try Self.report().closing
    let hledger = try Tools.journal("hledger", ["--journal-layout", "people"])
    let outcome = try runProcess(
      "hledger", ["-f", hledger, "bal", "--depth", "3", "-N", "-O", "csv", "Equity:People"],
      environment: utf8Environment)
    #expect(outcome.code == 0, "\(outcome.stderr)")
    var lines: [String: String] = [:]
    for line in outcome.stdout.split(separator: "\n").dropFirst() {
      let cells = line.dropFirst().dropLast().components(separatedBy: "\",\"")
      if cells.count == 2 { lines[cells[0]] = cells[1] }
    }
    for (person, byCurrency) in closing {
      let shown = lines["Equity:People:\(person)"] ?? ""
      for (currency, amount) in byCurrency where amount != 0 {
        #expect(shown.contains("\(-amount) \(currency)"), "hledger: \(person) \(shown)")
      }
    }
    let beancount = try Tools.journal("beancount", ["--journal-layout", "people", "--settle-in", "EUR"])
    let query = try runProcess(
      "bean-query",
      [
        "-f", "csv", beancount,
        "SELECT root(account, 3) AS person, sum(position) AS net WHERE account ~ '^Equity:People:' GROUP BY person ORDER BY person",
      ])
    #expect(query.code == 0, "\(query.stderr)")
    let converted = try Self.report(["--settle-in", "EUR"]).closing
    let rows = query.stdout.split(whereSeparator: \.isNewline).dropFirst().map {
      $0.split(separator: ",").map(String.init)
    }
    #expect(rows.count == converted.count, "\(query.stdout)")
    for row in rows where row.count == 2 {
      let person = String(row[0].dropFirst("Equity:People:".count))
      let amount = try #require(converted[person]?["EUR"])
      #expect(row[1].trimmingCharacters(in: .whitespaces) == "\(-amount) EUR", "bean-query: \(row)")
    }
  }

  /// The configuration's `category-accounts:` mapping, and `--category-account` over it; an
  /// account the tools would not take is refused before anything is written.
  @Test(.enabled(if: needing(toolExists("hledger")), "needs hledger (apt-get install hledger)"))
  func theConfigurationMapsCategoriesToAccounts() throws {
    let directory = try scratchDirectory()
    let xdg = directory.appendingPathComponent("xdg")
    try FileManager.default.createDirectory(
      at: xdg.appendingPathComponent("splitbill"), withIntermediateDirectories: true)
    try """
    category-accounts:
      dining: "Expenses:Eating Out"
      Groceries: Expenses:Food:Market

    """.write(to: xdg.appendingPathComponent("splitbill/config.yaml"), atomically: true, encoding: .utf8)
    let journal = directory.appendingPathComponent("trip.journal").path
    let environment = ["PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": xdg.path, "LC_ALL": "C.UTF-8"]
    let binary = try builtBinary().path
    let written = try runProcess(
      binary,
      ["report", "samples/trip.yaml", "-o", journal, "--category-account", "entertainment=Expenses:Fun"],
      environment: environment)
    #expect(written.code == 0, "\(written.stderr)")
    let accounts = try runProcess("hledger", ["-f", journal, "accounts", "--depth", "2"], environment: environment)
    #expect(
      Set(accounts.stdout.split(separator: "\n").map(String.init))
        == ["Equity:Paid", "Expenses:Eating Out", "Expenses:Food", "Expenses:Fun"], "\(accounts.stdout)")
    // A text report with the configuration's mapping is no mistake; the command line's is idle.
    #expect(try runProcess(binary, ["report", "samples/trip.yaml"], environment: environment).code == 0)
    let idle = try runProcess(
      binary, ["report", "samples/trip.yaml", "--category-account", "a=Expenses:A"], environment: environment)
    #expect(idle.code == 64 && idle.stderr.contains("--category-account is for the journals"), "\(idle.stderr)")
    for bad in ["Food:Dining", "Expenses", "Expenses::Food", "Expenses:Two  spaces", "Expenses:a;b"] {
      let refused = try runProcess(
        binary, ["report", "samples/trip.yaml", "-o", journal + "2.journal", "--category-account", "dining=\(bad)"],
        environment: environment)
      #expect(refused.code == 64, "\(bad): \(refused.stderr)")
      #expect(refused.stderr.contains("for category 'dining'"), "\(refused.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: journal + "2.journal"))
  }
}
