import Foundation
import SplitBillBytes
import Testing

/// Generated histories of bills and payments over four weeks: the weekly reports' balances chain
/// exactly (each week opens where the one before closed), the last week closes where the report of
/// everything does, and every bill a week shows is split to the cent as in the report of everything.
@Suite struct RunningBooksTests {
  static let weeks = ["2026-W45", "2026-W46", "2026-W47", "2026-W48"]
  /// Monday of 2026-W45.
  static let firstDay = 20_759  // days since 1970-01-01: 2026-11-02

  /// A history for `seed`: bills and payments in date order, some without a payer or named diners.
  static func history(seed: UInt64) -> String {
    var random = SplitMix64(seed: seed)
    func pick(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
    let people = ["Ana", "Ben", "Chloé", "Dmitri", "Eve"].prefix(pick(2...5))
    var text = "people: [\(people.joined(separator: ", "))]\ndefaults: {currency: EUR, tip: 0}\nbills:\n"
    var payments = "payments:\n"
    let policies = ["balanced", "balanced", "remainder", "first", "to-tip"]
    for day in 0..<28 {
      let date = ISO8601DateFormatter.string(
        from: Date(timeIntervalSince1970: TimeInterval((firstDay + day) * 86_400)), timeZone: .gmt,
        formatOptions: [.withFullDate])
      for number in 0..<pick(0...2) {
        let diners = people.filter { _ in pick(0...3) > 0 }
        let units = pick(1...2_000_000)
        let tip = pick(0...3) * 5
        func money(_ units: Int) -> String { "\(units / 100).\(String(format: "%02d", units % 100))" }
        var policy = policies[pick(0...4)]
        var who = diners.isEmpty ? "diners: \(pick(1...4))" : "diners: [\(diners.joined(separator: ", "))]"
        // Now and then exact shares (the first diner takes what the others leave of the amount).
        if diners.count > 1, pick(0...5) == 0 {
          var left = units
          var parts: [String] = []
          for diner in diners.dropFirst() {
            let part = pick(0...left)
            left -= part
            parts.append("\(diner): \(money(part))")
          }
          who = "shares: {\(diners[0]): \(money(left)), \(parts.joined(separator: ", "))}"
        }
        var payer =
          pick(0...5) == 0 || diners.isEmpty
          ? "" : ", paid_by: \(people[people.startIndex + pick(0...people.count - 1)])"
        // Now and then two payers sharing the total (the tip rounded half-up, as the bill does).
        if !diners.isEmpty, pick(0...5) == 0 {
          if policy == "to-tip" || policy == "payer" { policy = "balanced" }
          let total = units + (units * tip + 50) / 100
          let first = pick(0...total)
          payer =
            ", paid_by: {\(people[people.startIndex]): \(money(first)), \(people[people.startIndex + 1]): \(money(total - first))}"
        }
        text +=
          "  - {id: b\(day)-\(number), date: \(date), amount: \(money(units)), tip: \(tip), \(who)\(payer), leftover: \(policy)}\n"
      }
      if pick(0...4) == 0 {
        let from = people[people.startIndex + pick(0...people.count - 1)]
        let to = people.filter { $0 != from }[pick(0...people.count - 2)]
        payments += "  - {id: p\(day), date: \(date), from: \(from), to: \(to), amount: \(pick(1...5_000)).00}\n"
      }
    }
    return text + (payments == "payments:\n" ? "" : payments)
  }

  struct Report {
    var opening: [String: String] = [:]
    var closing: [String: String] = [:]
    var shares: [String: [String]] = [:]
  }

  static func report(_ path: String, _ extra: [String]) async throws -> Report {
    let outcome = await runCLI(["report", path, "--format", "json"] + extra)
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    var report = Report()
    for person in object["people"] as? [[String: Any]] ?? [] {
      let name = person["person"] as? String ?? ""
      report.opening[name] = person["opening"] as? String
      report.closing[name] = person["closing"] as? String
    }
    for bill in object["bills"] as? [[String: Any]] ?? [] {
      report.shares[bill["id"] as? String ?? ""] = (bill["shares"] as? [[String: Any]] ?? []).map {
        "\($0["person"] ?? ""):\($0["amount"] ?? "")"
      }
    }
    return report
  }

  @Test(arguments: 0..<12)
  func weeklyBalancesChainAndAgreeWithTheWholeHistory(seed: UInt64) async throws {
    let file = try scratchDirectory().appendingPathComponent("history.yaml")
    try Self.history(seed: seed).write(to: file, atomically: true, encoding: .utf8)
    let whole = try await Self.report(file.path, [])
    var previous: [String: String]?
    for week in Self.weeks {
      let report = try await Self.report(file.path, ["--week", week])
      for (person, opening) in report.opening {
        // Each week opens where the one before closed (the first, from nothing).
        let expected = previous?[person] ?? "0.00"
        #expect(opening == expected, "seed \(seed) \(week) \(person)")
      }
      for (id, shares) in report.shares {
        #expect(shares == whole.shares[id], "seed \(seed) \(week) \(id): split as in the whole history")
      }
      previous = report.closing
    }
    #expect(previous == whole.closing, "seed \(seed): the last week closes where everything does")
  }
}
