import Foundation
import SplitBillBytes
import Testing

/// `report --settle-in`: balances in several currencies converted at each record's rate and
/// settled once; the ECB's file read as published; located errors; cash rounding; journals.
struct SettleInTests {
  /// A Sunday payment in yen (Friday's ECB rate) and a Saturday bill with its card statement's rate.
  static let trip = """
    people: [Ana, Ben]
    defaults: {currency: JPY, tip: 0}
    bills:
      - {id: card, date: 2026-11-21, amount: 10000, diners: [Ana, Ben], paid_by: Ana, rate: 0.0061 EUR}
    payments:
      - {id: sunday, date: 2026-11-22, from: Ana, to: Ben, amount: 16187}
    """

  static func write(_ text: String, _ name: String = "trip.yaml") throws -> String {
    let path = try scratchDirectory().appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func json(_ arguments: [String]) throws -> (code: Int32, object: [String: Any], stderr: String) {
    let outcome = try runBinary(["report"] + arguments + ["--format", "json"])
    let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any] ?? [:]
    return (outcome.code, object, outcome.stderr)
  }

  static func transfers(_ object: [String: Any]) -> [String] {
    (object["settlements"] as? [[String: Any]] ?? []).map {
      "\($0["from"] ?? "") -> \($0["to"] ?? "") \($0["amount"] ?? "") \($0["currency"] ?? "")"
    }
  }

  static let ecb = packageRoot.appendingPathComponent("samples/rates/eurofxref-hist.csv").path

  /// Worked by hand: 16187 JPY at Friday's 161.87 is 100.00 EUR; Ben's 5000 JPY share at the card's
  /// 0.0061 is 30.50 EUR. Ben owes Ana 130.50 EUR.
  @Test func theECBFileAndACardRateSettleInEuros() throws {
    let path = try Self.write(Self.trip)
    let (code, object, stderr) = try Self.json([path, "--settle-in", "EUR", "--rates", Self.ecb])
    #expect(code == 0, "\(stderr)")
    #expect(Self.transfers(object) == ["Ben -> Ana 130.50 EUR"])
    let conversion = try #require(object["conversion"] as? [String: Any])
    #expect(conversion["currency"] as? String == "EUR")
    let rates = try #require(conversion["rates"] as? [[String: Any]])
    #expect(
      rates.map { "\($0["base"]!)/\($0["quote"]!) \($0["rate"]!) \($0["date"]!)" }.sorted() == [
        "EUR/JPY 161.87 2026-11-20", "JPY/EUR 0.0061 2026-11-21",
      ])
    #expect(rates.contains { ($0["source"] as? String)?.hasPrefix("ECB ") == true })
    let balances = try #require(conversion["balances"] as? [[String: Any]])
    #expect(balances.map { "\($0["person"]!) \($0["balance"]!)" } == ["Ana 130.50", "Ben -130.50"])
  }

  /// The cross rate: JPY → USD through EUR, Friday's 1.0498 / 161.87: the payment is 104.98 USD;
  /// the card's euros go on at Friday's dollar rate: 5000 × 0.0061 × 1.0498 = 32.0189, so Ana's
  /// exact 136.9989 rounds to 137.00.
  @Test func aCrossRateGoesThroughTheBase() throws {
    let path = try Self.write(Self.trip)
    let (code, object, stderr) = try Self.json([path, "--settle-in", "USD", "--rates", Self.ecb])
    #expect(code == 0, "\(stderr)")
    #expect(Self.transfers(object) == ["Ben -> Ana 137.00 USD"])
  }

  @Test func aMissingRateIsALocatedErrorAndTheRestIsSettled() throws {
    let path = try Self.write(
      Self.trip + "\n  - {id: early, date: 2026-11-18, from: Ben, to: Ana, amount: 1000}\n")
    let outcome = try runBinary(["report", path, "--settle-in", "EUR", "--rates", Self.ecb])
    #expect(outcome.code == 1)
    #expect(
      outcome.stderr.contains(
        "\(path):7:5: error: no JPY→EUR rate on or before 2026-11-18 for payment 'early'"), "\(outcome.stderr)")
    #expect(outcome.stdout.contains("Ben  pays  Ana  130.50  EUR"), "\(outcome.stdout)")
    // Without --settle-in nothing needs a rate.
    #expect(try runBinary(["report", path]).code == 0)
  }

  /// Each part of a converted balance shows what it converts to, the settlement currency's too:
  /// without its arrow, `-65.95 EUR, 67327 JPY → 416.96` read as if both became 416.96.
  @Test func everyPartOfAConvertedBalanceShowsItsConversion() throws {
    let trip = packageRoot.appendingPathComponent("samples/trip.yaml").path
    let outcome = try runBinary(["report", trip, "--settle-in", "EUR"])
    #expect(outcome.stdout.contains("Ana     -65.95 EUR → -65.95, 65,660 JPY → 406.62     340.67"), "\(outcome.stdout)")
  }

  /// Sums past 64 bits are located errors, never exit 70: the largest EUR amount settled in LBP
  /// (a bill alone past the bound), and 10,000 bills of the largest amount (the run's sums past it
  /// from bill 9,224 on; the rest are reported and reconcile).
  @Test func sumsPast64BitsAreLocatedErrors() throws {
    let lbp = try Self.write(
      """
      defaults: {tip: 0}
      bills:
        - {id: big, date: 2026-01-05, amount: 9999999999999.99, currency: EUR, diners: [Ana, Ben], paid_by: Ana, rate: 89500 LBP}
        - {id: small, date: 2026-01-05, amount: 10.00, currency: EUR, diners: [Ana, Ben], paid_by: Ana, rate: 89500 LBP}
      """, "lbp.yaml")
    let converted = try Self.json([lbp, "--settle-in", "LBP"])
    #expect(converted.code == 1, "\(converted.stderr)")
    #expect(
      converted.stderr.contains(
        "\(lbp):3:5: error: bill 'big': with it the run's amounts converted into LBP add up to more than 64-bit sums hold"
      ),
      "\(converted.stderr)")
    #expect(Self.transfers(converted.object) == ["Ben -> Ana 447500.00 LBP"])

    var text = "defaults: {tip: 0, currency: EUR}\nbills:\n"
    for index in 0..<10_000 {
      text += "  - {id: b\(index), amount: 9999999999999.99, diners: [Ana, Ben], paid_by: Ana}\n"
    }
    let many = try Self.json([try Self.write(text, "many.yaml")])
    #expect(many.code == 1)
    #expect((many.object["bills"] as? [Any])?.count == 9_223)
    let invalid = many.object["invalid"] as? [[String: Any]] ?? []
    #expect(invalid.count == 777 && invalid.first?["id"] as? String == "b9223")
    #expect(invalid.allSatisfy { $0["codes"] as? [String] == ["amount.run-too-large"] })
    #expect(many.object["reconciled"] as? Bool == true)
  }

  @Test func badRatesAreLocated() throws {
    let rates = try Self.write("date,base,quote,rate\n2026-11-20,EUR,JPY,161.87\n2026-11-21,EUR,JPY,16x\n", "r.csv")
    let path = try Self.write(Self.trip)
    let outcome = try runBinary(["report", path, "--settle-in", "EUR", "--rates", rates])
    #expect(outcome.code == 1)
    #expect(
      outcome.stderr.contains("\(rates):3:20: error: rate '16x' is not an exact positive decimal"), "\(outcome.stderr)")
    let section = try Self.write(
      """
      rates:
        - {date: 2026-11-20, base: EUR, quote: JPX, rate: 161}
        - {date: 2026-11-20, base: EUR, quote: JPY, rate: 161, dte: x}
      bills: []
      """, "bad.yaml")
    let check = try runBinary(["check", section])
    #expect(check.stdout.contains("\(section):2:42: error: unknown currency 'JPX' in a rate"), "\(check.stdout)")
    #expect(check.stdout.contains("\(section):3:58: error: unknown key 'dte' in a rate (did you mean 'date'?)"))
    let usage = try runBinary(["report", path, "--rates", rates])
    #expect(usage.code == 64)
  }

  /// The bundled trip settles in euros with one short list, its yen and cents all accounted for.
  @Test func theSampleTripSettlesOnceInEuros() throws {
    let (code, object, stderr) = try Self.json(["samples/trip.yaml", "--settle-in", "EUR"])
    #expect(code == 0, "\(stderr)")
    let transfers = Self.transfers(object)
    #expect(!transfers.isEmpty && transfers.count <= 3 && transfers.allSatisfy { $0.hasSuffix(" EUR") }, "\(transfers)")
    let conversion = try #require(object["conversion"] as? [String: Any])
    let balances = try #require(conversion["balances"] as? [[String: Any]])
    let cents = balances.map {
      Int((Decimal(string: $0["balance"] as? String ?? "")! * 100 as NSDecimalNumber).intValue)
    }
    #expect(cents.reduce(0, +) == 0)
    // Every person's yen are in their parts, as the per-currency balances say.
    let people = try #require(object["people"] as? [[String: Any]])
    for person in balances {
      let name = person["person"] as? String
      for part in person["parts"] as? [[String: Any]] ?? [] {
        let row = people.first {
          $0["person"] as? String == name && $0["currency"] as? String == part["currency"] as? String
        }
        #expect(row?["closing"] as? String == part["balance"] as? String, "\(name ?? "") \(part)")
      }
    }
    let rates = try #require(conversion["rates"] as? [[String: Any]])
    let friday = try #require(rates.first { $0["date"] as? String == "2026-11-20" })
    #expect(friday["records"] as? Int == 3, "Friday's rate is the weekend's too")
    #expect(rates.contains { $0["source"] as? String == "bill tyo-02" })
  }

  /// The one settlement, recorded as payments and read back with `--settle-in`, leaves nothing to
  /// settle: every converted balance is zero.
  @Test func recordedSettlementsSettleTheConvertedBalances() throws {
    let record = try scratchDirectory().appendingPathComponent("settled.yaml").path
    let first = try runBinary([
      "report", "samples/trip.yaml", "--settle-in", "EUR", "--record-settlements", record, "--format", "json", "-o",
      "/dev/null",
    ])
    #expect(first.code == 0, "\(first.stderr)")
    let (code, object, stderr) = try Self.json(["samples/trip.yaml", record, "--settle-in", "EUR"])
    #expect(code == 0, "\(stderr)")
    #expect(Self.transfers(object).isEmpty)
    let balances = try #require((object["conversion"] as? [String: Any])?["balances"] as? [[String: Any]])
    #expect(balances.count == 4 && balances.allSatisfy { $0["balance"] as? String == "0.00" }, "\(balances)")
  }

  @Test func cashRoundingFromTheCommandLineAndTheDefaults() throws {
    let path = try Self.write(
      """
      people: [Ana, Ben, Chloé]
      defaults: {currency: CHF, tip: 0, cash_rounding: {CHF: 0.05}}
      payments:
        - {from: Ana, to: Ben, amount: 3.33}
        - {from: Ana, to: Chloé, amount: 3.33}
      """)
    let (code, object, stderr) = try Self.json([path])
    #expect(code == 0, "\(stderr)")
    let cash = try #require((object["cash_rounding"] as? [[String: Any]])?.first)
    #expect(cash["increment"] as? String == "0.05")
    let residues = (cash["residues"] as? [[String: Any]] ?? []).map { "\($0["person"]!) \($0["amount"]!)" }
    #expect(residues == ["Ana 0.01", "Ben -0.03", "Chloé 0.02"])
    #expect(Self.transfers(object).sorted() == ["Ben -> Ana 3.30 CHF", "Chloé -> Ana 3.35 CHF"])
    let whole = try Self.json([path, "--cash-rounding", "1"])
    // Whole francs: Ana's 6.66 rounds to 7, one too many: the largest residue gives it back.
    #expect(Self.transfers(whole.object).sorted() == ["Ben -> Ana 3.00 CHF", "Chloé -> Ana 3.00 CHF"])
    #expect(try runBinary(["report", "samples/trip.yaml", "--cash-rounding", "0.05"]).code == 64, "finer than a yen")
  }

  /// Random trips in four currencies with daily rates: the converted balances add up to zero and
  /// each is within one cent of the exact value that Python's `fractions` works out from the
  /// report's own shares and payers, with the rule re-implemented there (the latest rate on or
  /// before the bill's day, one euro = rate units); the transfers bring them to zero.
  @Test(arguments: 0..<4)
  func randomTripsAgreeWithExactFractions(seed: UInt64) throws {
    var random = SplitMix64(seed: 77 + seed)
    func pick(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
    let people = ["Ana", "Ben", "Chloé", "Dmitri", "Eve"]
    let codes = ["EUR", "JPY", "USD", "KWD"]
    var rates = "rates:\n"
    var table: [String] = []
    for day in 1...20 where pick(0...4) != 0 {
      for code in codes.dropFirst() {
        let rate =
          code == "JPY"
          ? "\(pick(150...170)).\(pick(10...99))"
          : code == "USD" ? "1.\(pick(1000...1999))" : "0.\(pick(300...349))\(pick(1...9))"
        rates += "  - {date: 2026-11-\(String(format: "%02d", day)), base: EUR, quote: \(code), rate: \(rate)}\n"
        table.append("2026-11-\(String(format: "%02d", day)) \(code) \(rate)")
      }
    }
    var bills = "bills:\n"
    for number in 0..<40 {
      let code = codes[pick(0...3)]
      let digits = ["EUR": 2, "JPY": 0, "USD": 2, "KWD": 3][code] ?? 2
      let amount = digits == 0 ? "\(pick(100...90000))" : "\(pick(1...900)).\(String(repeating: "7", count: digits))"
      let diners = people.filter { _ in pick(0...2) != 0 }
      guard diners.count >= 1 else { continue }
      bills +=
        "  - {id: b\(number), date: 2026-11-\(String(format: "%02d", pick(21...28))), currency: \(code), amount: \(amount), tip: \(pick(0...20)), diners: [\(diners.joined(separator: ", "))], paid_by: \(people[pick(0...4)])}\n"
    }
    let path = try Self.write("people: [\(people.joined(separator: ", "))]\n" + rates + bills, "random-\(seed).yaml")
    let outcome = try runBinary(["report", path, "--settle-in", "EUR", "--format", "json"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let report = try scratchDirectory().appendingPathComponent("random-\(seed).json")
    try outcome.stdout.write(to: report, atomically: true, encoding: .utf8)
    let script = """
      import json, sys
      from fractions import Fraction
      report = json.load(open(sys.argv[1]))
      rates = {}
      for line in sys.argv[2:]:
          day, code, rate = line.split()
          rates.setdefault(code, []).append((day, Fraction(rate)))
      exact = {}
      for bill in report["bills"]:
          code = bill["currency"]
          if code == "EUR":
              factor = Fraction(1)
          else:
              day, rate = max((r for r in rates[code] if r[0] <= bill["date"]), key=lambda r: r[0])
              factor = 1 / rate
          for share in bill["shares"]:
              exact[share["person"]] = exact.get(share["person"], 0) - Fraction(share["amount"]) * factor
          exact[bill["paid_by"]] = exact.get(bill["paid_by"], 0) + Fraction(bill["total"]) * factor
      conversion = report["conversion"]
      reported = {b["person"]: Fraction(b["balance"]) for b in conversion["balances"]}
      assert sum(reported.values()) == 0, reported
      for person, value in exact.items():
          assert abs(reported.get(person, 0) - value) < Fraction(1, 100), (person, reported.get(person), float(value))
      after = dict(reported)
      for transfer in report["settlements"]:
          assert transfer["currency"] == "EUR"
          after[transfer["from"]] += Fraction(transfer["amount"])
          after[transfer["to"]] -= Fraction(transfer["amount"])
      assert all(v == 0 for v in after.values()), after
      print("ok", len(report["bills"]), len(exact))
      """
    let check = try runProcess("python3", ["-c", script, report.path] + table)
    #expect(check.code == 0 && check.stdout.hasPrefix("ok"), "\(check.stdout)\(check.stderr)")
  }

  /// hledger, Ledger and Beancount accept the converted journal, and each person's accounts then
  /// hold only euros: minus the report's converted balance.
  @Test(
    .enabled(if: needing(JournalToolTests.toolsPresent), Comment(rawValue: JournalToolTests.toolsNeeded)),
    arguments: JournalToolTests.flavors)
  func journalsRecordTheConversionWithPrices(flavor: String) throws {
    let path = try scratchDirectory().appendingPathComponent("settled.\(flavor)").path
    let outcome = try runBinary(["report", "samples/trip.yaml", "--settle-in", "EUR", "--format", flavor, "-o", path])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    try JournalToolTests.check(flavor, path)
    let (_, object, _) = try Self.json(["samples/trip.yaml", "--settle-in", "EUR"])
    let balances = try #require((object["conversion"] as? [String: Any])?["balances"] as? [[String: Any]])
    let journal = try JournalToolTests.balances(flavor, path)
    // Bills of anonymous diners are in their payer's account, not in anyone's balance.
    var anonymous: [String: Decimal] = [:]
    for bill in object["bills"] as? [[String: Any]] ?? []
    where (bill["shares"] as? [[String: Any]])?.first?["person"] as? String == "Diner 1" {
      anonymous[bill["paid_by"] as? String ?? "", default: 0] += Decimal(string: bill["total"] as? String ?? "") ?? 0
    }
    for person in balances {
      let name = person["person"] as? String ?? ""
      var sums: [String: Decimal] = [:]
      for (account, byCurrency) in journal where account.hasSuffix(":\(name)") && !account.contains("Unnamed") {
        for (currency, amount) in byCurrency { sums[currency, default: 0] += amount }
      }
      #expect(sums["JPY", default: 0] == -anonymous[name, default: 0], "\(flavor) \(name): \(sums)")
      #expect(sums["EUR"] == -(Decimal(string: person["balance"] as? String ?? "") ?? 0), "\(flavor) \(name): \(sums)")
    }
  }
}
