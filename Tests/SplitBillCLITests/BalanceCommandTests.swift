import Foundation
import SplitBillBytes
import Testing

/// `splitbill balance`: the report's closing balances and settlements, for everyone or one person.
struct BalanceCommandTests {
  static func json(_ arguments: [String]) throws -> (object: [String: Any], code: Int32) {
    let outcome = try runBinary(arguments + ["--format", "json"])
    if outcome.code == 64 { return ([:], 64) }
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "\(outcome.stderr)")
    return (object, outcome.code)
  }

  /// `person|currency` → balance, and the transfers as `currency from→to amount`, of a balance
  /// answer.
  static func figures(balance object: [String: Any]) -> (balances: [String: String], transfers: [String]) {
    var balances: [String: String] = [:]
    for line in object["balances"] as? [[String: Any]] ?? [] {
      balances["\(line["person"] as? String ?? "")|\(line["currency"] as? String ?? "")"] = line["balance"] as? String
    }
    let transfers = (object["settlements"] as? [[String: Any]] ?? []).map {
      "\($0["currency"] as? String ?? "") \($0["from"] as? String ?? "")→\($0["to"] as? String ?? "") \($0["amount"] as? String ?? "")"
    }
    return (balances, transfers)
  }

  /// The same from a JSON report: closing balances, or the converted ones with `--settle-in`.
  static func figures(report object: [String: Any]) -> (balances: [String: String], transfers: [String]) {
    var balances: [String: String] = [:]
    if let conversion = object["conversion"] as? [String: Any] {
      for line in conversion["balances"] as? [[String: Any]] ?? [] {
        balances["\(line["person"] as? String ?? "")|\(conversion["currency"] as? String ?? "")"] =
          line["balance"] as? String
      }
    } else {
      for person in object["people"] as? [[String: Any]] ?? [] {
        balances["\(person["person"] as? String ?? "")|\(person["currency"] as? String ?? "")"] =
          person["closing"] as? String
      }
    }
    let transfers = (object["settlements"] as? [[String: Any]] ?? []).map {
      "\($0["currency"] as? String ?? "") \($0["from"] as? String ?? "")→\($0["to"] as? String ?? "") \($0["amount"] as? String ?? "")"
    }
    return (balances, transfers)
  }

  /// Random books with payments, some bills before and after a period.
  static func randomBooks(seed: UInt64) -> String {
    var random = SplitMix64(seed: seed)
    let names = ["Ana", "Ben", "Chloé", "Dmitri", "Émile"]
    var lines = [CategoryReportTests.randomBooks(seed: seed).trimmingCharacters(in: .newlines), "payments:"]
    for number in 0..<Int.random(in: 0...8, using: &random) {
      let pair = names.shuffled(using: &random).prefix(2)
      lines.append(
        "  - {id: p\(number), date: 2026-\(String(format: "%02d", Int.random(in: 1...12, using: &random)))-20, "
          + "from: \(pair.first ?? "Ana"), to: \(pair.last ?? "Ben"), amount: \(Int.random(in: 1...300, using: &random)).00, "
          + "currency: EUR}")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test(arguments: [UInt64(11), 12, 13, 14, 15])
  func balanceAgreesWithTheReportOnRandomBooks(seed: UInt64) throws {
    let path = try scratchDirectory().appendingPathComponent("books.yaml")
    try Self.randomBooks(seed: seed).write(to: path, atomically: true, encoding: .utf8)
    for period in [[], ["--since", "2026-04-01", "--until", "2026-09-30"], ["--until", "2026-02-28"]] {
      let report = try Self.json(["report", path.path] + period)
      let balance = try Self.json(["balance", path.path] + period)
      #expect(balance.code == report.code)
      #expect(report.code != 64)
      let (reported, settled) = (Self.figures(report: report.object), Self.figures(balance: balance.object))
      #expect(settled.balances == reported.balances, "seed \(seed) \(period)")
      #expect(settled.transfers == reported.transfers, "seed \(seed) \(period)")
      #expect(
        balance.object["bills"] as? Int
          == (report.object["totals"] as? [[String: Any]] ?? []).reduce(0) {
            $0 + ($1["bills"] as? Int ?? 0)
          })
      // One person's answer is their part of everyone's (over the whole books and a period).
      for person in ["Ana", "Émile"] where period != ["--until", "2026-02-28"] {
        let mine = try Self.json(["balance", person, path.path] + period)
        guard mine.code != 64 else {
          #expect(!settled.balances.keys.contains { $0.hasPrefix(person + "|") })
          continue
        }
        let own = Self.figures(balance: mine.object)
        #expect(own.balances == settled.balances.filter { $0.key.hasPrefix(person + "|") })
        #expect(own.transfers == settled.transfers.filter { $0.contains(" \(person)→") || $0.contains("→\(person) ") })
      }
    }
  }

  @Test func cashRoundingGivesTheReportsTransfers() throws {
    let report = try Self.json(["report", "samples/flat", "--cash-rounding", "0.05"])
    let balance = try Self.json(["balance", "samples/flat", "--cash-rounding", "0.05"])
    #expect(Self.figures(balance: balance.object).transfers == Self.figures(report: report.object).transfers)
    #expect(Self.figures(balance: balance.object).transfers.allSatisfy { $0.hasSuffix("0") || $0.hasSuffix("5") })
  }

  @Test func settledInOneCurrencyTheBalancesAreTheConvertedOnes() throws {
    let report = try Self.json(["report", "samples/trip.yaml", "--settle-in", "EUR"])
    let balance = try Self.json(["balance", "samples/trip.yaml", "--settle-in", "EUR"])
    let (reported, settled) = (Self.figures(report: report.object), Self.figures(balance: balance.object))
    #expect(settled.balances == reported.balances)
    #expect(settled.transfers == reported.transfers)
    #expect(settled.balances["Ana|EUR"] == "340.67")
  }

  @Test func onePersonInALineACurrency() throws {
    let outcome = try runBinary(["balance", "Ana", "samples/trip.yaml"])
    #expect(outcome.code == 0)
    #expect(
      outcome.stdout == """
        Ana owes 65.95 EUR: to Ben 65.95 EUR
        Ana is owed 65660 JPY: from Ben 11582 JPY, Chloé 37030 JPY and Dmitri 17048 JPY

        """)
    // A name is compared as the books write it (NFC, trimmed); a misspelt one is refused with
    // the nearest, and so is a name the books do not hold.
    let decomposed = try runBinary(["balance", "Chloe\u{301} ", "samples/trip.yaml"])
    #expect(
      decomposed.stdout == "Chloé is owed 54.56 EUR: from Dmitri 54.56 EUR\nChloé owes 37030 JPY: to Ana 37030 JPY\n",
      "\(decomposed.stdout)\(decomposed.stderr)")
    let misspelt = try runBinary(["balance", "Chloe", "samples/trip.yaml"])
    #expect(misspelt.code == 64)
    #expect(misspelt.stderr.contains("did you mean 'Chloé'?"), "\(misspelt.stderr)")
    // Settled up: after the suggested settlements are recorded as payments.
    let directory = try scratchDirectory()
    let settlements = directory.appendingPathComponent("settled.yaml").path
    let recorded = try runBinary([
      "report", "samples/trip.yaml", "--record-settlements", settlements, "--format", "json",
    ])
    #expect(recorded.code == 0, "\(recorded.stderr)")
    let settled = try runBinary(["balance", "Ana", "samples/trip.yaml", settlements])
    #expect(settled.stdout == "Ana is settled up\n", "\(settled.stdout)\(settled.stderr)")
    let everyone = try runBinary(["balance", "samples/trip.yaml", settlements])
    #expect(everyone.stdout.contains("  nothing to settle"), "\(everyone.stdout)")
  }

  /// Without PATH, the current directory's books; a first operand that names a file is a PATH.
  @Test func operandsAreANameThenPaths() throws {
    let directory = try scratchDirectory()
    try FileManager.default.copyItem(
      at: packageRoot.appendingPathComponent("samples/flat"), to: directory.appendingPathComponent("flat"))
    let flat = directory.appendingPathComponent("flat")
    let binary = try builtBinary().path
    let environment = ["PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": directory.path + "/none"]
    let here = try runProcess(binary, ["balance", "Ana"], environment: environment, directory: flat)
    let given = try runBinary(["balance", "Ana", flat.path])
    #expect(here.code == 0, "\(here.stderr)")
    #expect(here.stdout == given.stdout)
    #expect(here.stdout.hasPrefix("Ana is owed"), "\(here.stdout)")
    // A missing file is a missing input, not a person.
    let missing = try runBinary(["balance", "nowhere.yaml"])
    #expect(missing.code == 66, "\(missing.stderr)")
    // Invalid bills: listed, the rest's balances given, exit 1.
    let invalid = try runBinary(["balance", "samples/invalid"])
    #expect(invalid.code == 1 || invalid.code == 66, "\(invalid.stderr)")
  }
}
