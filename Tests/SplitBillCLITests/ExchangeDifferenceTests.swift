import Foundation
import Testing

/// A person whose balance in every currency is zero can still owe or be owed once each record is
/// converted at its own day's rate: Ana pays a 3000 JPY dinner for two at 160 JPY a euro, Ben pays
/// her back 1500 JPY four days later at 170. Worked by hand: Ana is owed 1500 / 160 − 1500 / 170 =
/// 9.375 − 8.8235… = 0.5515 EUR, so Ben pays her 0.55 EUR.
struct ExchangeDifferenceTests {
  static let rates = """
    rates:
      - {date: 2026-03-01, base: EUR, quote: JPY, rate: 160}
      - {date: 2026-03-05, base: EUR, quote: JPY, rate: 170}
    """

  static let yaml = """
    people: [Ana, Ben]
    \(rates)
    bills:
      - {id: dinner, date: 2026-03-01, amount: 3000, currency: JPY, diners: [Ana, Ben], paid_by: Ana, tip: 0}
    payments:
      - {id: back, date: 2026-03-05, from: Ben, to: Ana, amount: 1500, currency: JPY}
    """

  /// The same trip as CSV files, the rates in a rates file.
  static func csvInputs() throws -> [String] {
    let bills = try SettleInTests.write(
      "id,date,amount,currency,tip,diners,paid_by\ndinner,2026-03-01,3000,JPY,0,Ana;Ben,Ana\n", "bills.csv")
    let payments = try SettleInTests.write(
      "id,date,from,to,amount,currency\nback,2026-03-05,Ben,Ana,1500,JPY\n", "payments.csv")
    let rates = try SettleInTests.write(
      "date,base,quote,rate\n2026-03-01,EUR,JPY,160\n2026-03-05,EUR,JPY,170\n", "rates.csv")
    return [bills, payments, "--rates", rates]
  }

  @Test(arguments: ["yaml", "csv"])
  func theDifferenceIsConvertedShownAndSettled(input: String) throws {
    let inputs = input == "yaml" ? [try SettleInTests.write(Self.yaml)] : try Self.csvInputs()
    let (code, object, stderr) = try SettleInTests.json(inputs + ["--settle-in", "EUR"])
    #expect(code == 0, "\(stderr)")
    #expect(SettleInTests.transfers(object) == ["Ben -> Ana 0.55 EUR"])
    let conversion = try #require(object["conversion"] as? [String: Any])
    let balances = try #require(conversion["balances"] as? [[String: Any]])
    #expect(balances.map { $0["balance"] as? String } == ["0.55", "-0.55"])
    // The zero JPY balance is kept as a part, and the parts add up to the converted balance.
    for person in balances {
      let parts = try #require(person["parts"] as? [[String: Any]])
      #expect(parts.map { $0["currency"] as? String } == ["JPY"])
      #expect(parts.map { $0["balance"] as? String } == ["0"])
      #expect(parts.map { $0["converted"] as? String } == [person["balance"] as? String])
    }
  }

  /// Text, Markdown and HTML say what the difference is; the CSV report keeps its shares.
  @Test(arguments: ["text", "markdown", "html"])
  func everyReadableFormatShowsTheDifference(format: String) throws {
    let input = try SettleInTests.write(Self.yaml)
    let outcome = try runBinary(["report", input, "--settle-in", "EUR", "--format", format])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    // Markdown escapes its punctuation: read without the backslashes.
    let shown = outcome.stdout.replacingOccurrences(of: "\\", with: "")
    #expect(shown.contains("0 JPY → 0.55 (exchange difference)"))
    #expect(shown.contains("0 JPY → -0.55 (exchange difference)"))
  }

  /// The journals book the difference to Equity:ExchangeDifferences, and each tool accepts them;
  /// each person's accounts then hold their converted balance.
  @Test(
    .enabled(if: needing(JournalToolTests.toolsPresent), Comment(rawValue: JournalToolTests.toolsNeeded)),
    arguments: JournalToolTests.flavors)
  func journalsBookTheDifference(flavor: String) throws {
    let input = try SettleInTests.write(Self.yaml)
    let path = try scratchDirectory().appendingPathComponent("trip.\(flavor)").path
    let outcome = try runBinary(["report", input, "--settle-in", "EUR", "--format", flavor, "-o", path])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    try JournalToolTests.check(flavor, path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains("Equity:ExchangeDifferences"))
    #expect(text.contains("0.55 EUR"))
  }

  /// Random trips of payments back at other rates: every report reconciles (exit 0), the parts
  /// of every person add up to their converted balance, and every currency they touched is there.
  @Test(arguments: 0..<3)
  func randomTripsOfRepaymentsAlwaysReconcile(seed: UInt64) throws {
    var state = seed &+ 0x9E37
    func next(_ range: ClosedRange<Int>) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return range.lowerBound + Int((state >> 33) % UInt64(range.count))
    }
    let people = ["Ana", "Ben", "Chloé"]
    var lines = ["people: [Ana, Ben, Chloé]", "rates:"]
    for day in 1...20 {
      lines.append(
        "  - {date: 2026-04-\(String(format: "%02d", day)), base: EUR, quote: JPY, rate: \(150 + next(0...40))}")
      lines.append(
        "  - {date: 2026-04-\(String(format: "%02d", day)), base: EUR, quote: USD, rate: 1.\(next(10...40))}")
    }
    lines += ["bills:"]
    var payments = ["payments:"]
    for number in 0..<12 {
      let currency = ["JPY", "USD"][next(0...1)]
      let amount = currency == "JPY" ? "\(next(2...60) * 100)" : "\(next(2...90)).\(next(10...99))"
      let payer = people[next(0...2)]
      let other = people.filter { $0 != payer }[next(0...1)]
      let day = String(format: "%02d", next(1...20))
      lines.append(
        "  - {id: b\(number), date: 2026-04-\(day), amount: \(amount), currency: \(currency), diners: [\(payer), \(other)], paid_by: \(payer), tip: 0}"
      )
      // Paid back exactly half, in the same currency, on another day.
      let half = currency == "JPY" ? "\(Int(amount)! / 2)" : amount
      if currency == "JPY" {
        payments.append(
          "  - {id: p\(number), date: 2026-04-\(String(format: "%02d", next(1...20))), from: \(other), to: \(payer), amount: \(half), currency: JPY}"
        )
      }
    }
    let input = try SettleInTests.write((lines + payments).joined(separator: "\n") + "\n")
    let (code, object, stderr) = try SettleInTests.json([input, "--settle-in", "EUR"])
    #expect(code == 0, "\(stderr)")
    let conversion = try #require(object["conversion"] as? [String: Any])
    let balances = try #require(conversion["balances"] as? [[String: Any]])
    var total = 0
    for person in balances {
      let cents = { (text: String?) in Int((text ?? "").replacingOccurrences(of: ".", with: "")) ?? .min }
      let parts = try #require(person["parts"] as? [[String: Any]])
      #expect(parts.reduce(0) { $0 + cents($1["converted"] as? String) } == cents(person["balance"] as? String))
      total += cents(person["balance"] as? String)
    }
    #expect(total == 0)
  }
}
