import Foundation
import Testing

/// The guide's weekly story (docs/guide.md, "A running tab, week after week"), run as written with
/// the built binary in a copy of `samples/flat/`: every output line the guide shows is printed, in
/// order, and the recorded file is the one the guide shows once Ben's transfer is deleted.
@Suite struct WeeklyStoryTests {
  /// The guide's section, from its heading to the next section.
  static func section() throws -> String {
    let readme = try String(contentsOf: packageRoot.appendingPathComponent("docs/guide.md"), encoding: .utf8)
    let start = try #require(readme.range(of: "### A running tab, week after week"))
    let rest = readme[start.upperBound...]
    let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
    return String(rest[..<end])
  }

  /// The fenced blocks of `kind` (`console`, `yaml`) in `text`, in order.
  static func blocks(_ kind: String, in text: String) -> [[String]] {
    var blocks: [[String]] = []
    var current: [String]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if current == nil, line == "```" + kind {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current ?? [])
        current = nil
      } else if current != nil {
        current?.append(line)
      }
    }
    return blocks
  }

  /// Expects the output lines of a console block (not `$` commands or `…`) in `output`, in order.
  func expectShown(_ block: [String], in output: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let printed = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var position = 0
    for line in block where !line.hasPrefix("$ ") && line != "…" {
      guard let found = printed[position...].firstIndex(of: line) else {
        Issue.record("guide line not printed (in order): '\(line)'\n\(output)", sourceLocation: sourceLocation)
        return
      }
      position = found + 1
    }
  }

  @Test func theGuidesWeeklyStoryRunsAsShown() throws {
    let section = try Self.section()
    let consoles = Self.blocks("console", in: section)
    let yamls = Self.blocks("yaml", in: section)
    try #require(consoles.count == 2 && yamls.count == 2)
    #expect(consoles[0].first == "$ cp -r samples/flat ~/flat && cd ~/flat")
    #expect(
      consoles[0].dropFirst().first == "$ splitbill report . --week 2026-W47 --record-settlements settled-w47.yaml")
    #expect(consoles[1].first == "$ splitbill report . --week 2026-W48")

    let flat = try scratchDirectory().appendingPathComponent("flat")
    try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("samples/flat"), to: flat)
    let binary = try builtBinary().path
    func run(_ arguments: [String]) throws -> Outcome {
      try runProcess(binary, arguments, environment: ["PATH": "/usr/bin:/bin"], directory: flat)
    }

    let week47 = try run(["report", ".", "--week", "2026-W47", "--record-settlements", "settled-w47.yaml"])
    #expect(week47.code == 0, "\(week47.stderr)")
    expectShown(consoles[0], in: week47.stdout + week47.stderr)
    let recorded = flat.appendingPathComponent("settled-w47.yaml")
    let text = try String(contentsOf: recorded, encoding: .utf8)
    #expect(text.contains("  - id: \"settle-2026-11-22-Ben-Ana-EUR\"\n"))
    // Recording again refuses the file that is there (and, here, is one of the inputs).
    #expect(
      try run(["report", "week47.yaml", "--week", "2026-W47", "--record-settlements", "settled-w47.yaml"]).code == 73)

    // With every recorded transfer among the inputs, the week settles to nothing.
    let settled = try run(["report", ".", "--week", "2026-W47", "--format", "json"])
    let settledPeople = try #require(
      (try JSONSerialization.jsonObject(with: Data(settled.stdout.utf8)) as? [String: Any])?["people"]
        as? [[String: Any]])
    #expect(settledPeople.allSatisfy { Decimal(string: $0["closing"] as? String ?? "") == 0 }, "\(settledPeople)")

    // With an invalid bill among the inputs nothing is recorded (the transfers would miss it),
    // and the run says so and fails; the report itself is written as always.
    let broken = try scratchDirectory()
    try
      "bills:\n  - {id: ok, date: 2026-11-20, amount: 10, currency: EUR, tip: 0, diners: [Ana, Ben], paid_by: Ana}\n  - {amount: x}\n"
      .write(to: broken.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
    let refused = try runProcess(
      binary, ["report", "w.yaml", "--record-settlements", "s.yaml"], environment: ["PATH": "/usr/bin:/bin"],
      directory: broken)
    #expect(refused.code == 1)
    #expect(
      refused.stderr.contains("error: the settlements were not recorded in s.yaml: 1 bill or payment could not be used")
    )
    #expect(!FileManager.default.fileExists(atPath: broken.appendingPathComponent("s.yaml").path))

    // Ben's transfer did not happen: the guide's edited file.
    let edited = yamls[0].joined(separator: "\n") + "\n"
    let withoutBen = text.replacingOccurrences(
      of: "  - id: \"settle-2026-11-22-Ben-Ana-EUR\"\n    date: 2026-11-22\n    from: \"Ben\"\n    to: \"Ana\"\n"
        + "    amount: 1.10\n    currency: EUR\n", with: "")
    #expect(withoutBen == edited)
    try edited.write(to: recorded, atomically: true, encoding: .utf8)

    let week48 = try run(["report", ".", "--week", "2026-W48"])
    #expect(week48.code == 0, "\(week48.stderr)")
    expectShown(consoles[1], in: week48.stdout)

    // The full history settles to what the last week's closing balances say.
    let all = try run(["report", ".", "--format", "json"])
    let week = try run(["report", ".", "--week", "2026-W48", "--format", "json"])
    func closing(_ outcome: Outcome) throws -> [String: String] {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
      let people = try #require(object["people"] as? [[String: Any]])
      return Dictionary(
        uniqueKeysWithValues: people.map { ($0["person"] as? String ?? "", $0["closing"] as? String ?? "") })
    }
    #expect(try closing(all) == closing(week))

    // The guide's bills of several payers and exact shares, and the cents it says they give.
    let shared = flat.appendingPathComponent("shared.yaml")
    try ("defaults: {currency: EUR}\nbills:\n" + yamls[1].joined(separator: "\n") + "\n").write(
      to: shared, atomically: true, encoding: .utf8)
    let split = try run(["report", "shared.yaml"])
    #expect(split.code == 0, "\(split.stderr)")
    #expect(split.stdout.contains("paid by Ana 60.00, Ben 50.59"))
    #expect(split.stdout.contains("    Ana  part 12.50  14.37\n    Ben  part 7.50    8.63  ◀ +0.01 absorbed\n"))
    #expect(section.contains("Ben takes it, 14.37 and 8.63"))
  }
}
