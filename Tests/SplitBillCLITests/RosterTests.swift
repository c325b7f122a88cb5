import Foundation
import Testing

@testable import SplitBillModel

/// Rosters for every file (`--people`, the configuration's `people:`), and, without one, a warning
/// for names that look alike: a misspelt name is otherwise a new person, silently.
struct RosterTests {
  /// The flat: `Jonsa` for `Jonas` in a CSV file.
  static let flat = """
    id,date,amount,currency,tip,diners,paid_by
    b1,2026-11-02,30.00,EUR,0,Maya;Jonas,Maya
    b2,2026-11-03,30.00,EUR,0,Maya;Jonsa,Jonas

    """

  func write(_ text: String, _ name: String, in directory: URL) throws -> String {
    let url = directory.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  @Test func aNameLikeAnotherIsAWarningWithoutARoster() throws {
    let directory = try scratchDirectory()
    let file = try write(Self.flat, "flat.csv", in: directory)
    let checked = try runBinary(["check", file])
    #expect(checked.code == 0)
    #expect(
      checked.stdout.contains(
        "flat.csv:3:32: warning: 'Jonsa' looks like 'Jonas' (\(file):2:32): one person misspelt?"))
    #expect(checked.stdout.hasSuffix("checked 1 file, 2 bills: 0 errors, 1 warning\n"))
    #expect(try runBinary(["check", "--strict", file]).code == 1)
    // The same in YAML, and the report says it on stderr.
    let yaml = try write(
      "bills:\n  - {id: a, amount: 10, currency: EUR, tip: 0, diners: [Chloé, Ben], paid_by: Ben}\n"
        + "  - {id: b, amount: 10, currency: EUR, tip: 0, diners: [chloe, Ben], paid_by: Ben}\n", "trip.yaml",
      in: directory)
    let report = try runBinary(["report", yaml, "--format", "json"])
    #expect(report.code == 0)
    #expect(report.stderr.contains("trip.yaml:3:57: warning: 'chloe' looks like 'Chloé' (\(yaml):2:57)"))
  }

  @Test func aRosterOnTheCommandLineOrInTheConfigurationMakesItAnError() throws {
    let directory = try scratchDirectory()
    let file = try write(Self.flat, "flat.csv", in: directory)
    let given = try runBinary(["check", "--people", "Maya, Jonas", file])
    #expect(given.code == 1)
    #expect(given.stdout.contains("flat.csv:3:32: error: diner 'Jonsa' is not in people; did you mean 'Jonas'?"))
    #expect(!given.stdout.contains("looks like"))
    #expect(given.stdout.hasSuffix("checked 1 file, 2 bills: 1 error, 0 warnings\n"))
    // A file's own roster is its own: --people is for files without one.
    let yaml = try write(
      "people: [Ana, Ben]\nbills:\n  - {id: a, amount: 10, currency: EUR, tip: 0, diners: [Ana, Ben], paid_by: Ben}\n",
      "own.yaml", in: directory)
    #expect(try runBinary(["check", "--people", "Maya, Jonas", yaml]).code == 0)
    // From the configuration file, as any option.
    _ = try write("people: Maya, Jonas\n", "splitbill.yaml", in: directory)
    let configured = try runProcess(
      try builtBinary().path, ["report", "flat.csv", "--format", "json"],
      environment: ["PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": directory.path + "/none"], directory: directory)
    #expect(configured.code == 1)
    #expect(configured.stderr.contains("error: diner 'Jonsa' is not in people; did you mean 'Jonas'?"))
    // Refused when it cannot be a roster.
    let empty = try runBinary(["check", "--people", "Maya,,Jonas", file])
    #expect(empty.code == 64 && empty.stderr.contains("--people: 'Maya,,Jonas' has an empty name"))
    let twice = try runBinary(["check", "--people", "Maya, Maya", file])
    #expect(twice.code == 64 && twice.stderr.contains("--people: 'Maya' is listed twice"))
  }

  @Test func lookalikesAreCaseAccentsAndOneOrTwoEdits() {
    func pairs(_ names: [String]) -> [String] {
      PersonName.lookalikes(names).map { "\(names[$0.name])~\(names[$0.like])" }
    }
    #expect(pairs(["Jonas", "Jonsa"]) == ["Jonsa~Jonas"])  // a swap is one edit
    #expect(pairs(["Chloé", "chloe", "CHLOE"]) == ["chloe~Chloé", "CHLOE~Chloé"])
    #expect(pairs(["Ana", "Ann", "Ben", "Dmitri", "Dimitri"]) == ["Ann~Ana", "Dimitri~Dmitri"])
    #expect(pairs(["Alexandra", "Alexandre", "Alessandra"]) == ["Alexandre~Alexandra", "Alessandra~Alexandra"])
    // Short names are left alone (two letters are one or two edits from most others), and five
    // letters allow one edit only.
    #expect(pairs(["Al", "Ali", "Bo", "Jo"]).isEmpty)
    #expect(pairs(["Maria", "Mario", "Marta"]) == ["Mario~Maria", "Marta~Maria"])
    #expect(pairs(["Maria", "Matteo"]).isEmpty)
    #expect(pairs(["Ana", "Ben", "Chloé", "Dmitri", "Émile", "Farah", "Gus", "Hiro", "Ines", "Jon"]).isEmpty)
  }

  /// People are in one order in every section and format of a report: by name (a roster's own
  /// order is not it), whatever order the bills name them in. A bill's shares keep the bill's
  /// diner order, which `first` and `remainder` count by.
  @Test func peopleAreInOneOrderInEverySectionAndFormat() throws {
    let directory = try scratchDirectory()
    let file = try write(
      "people: [Maya, Jonas, Ines, Émile]\ndefaults: {currency: EUR, tip: 0}\nbills:\n"
        + "  - {id: a, amount: 40, diners: [Maya, Émile, Jonas, Ines], paid_by: Maya}\n"
        + "  - {id: b, amount: 10, diners: [Ines, Jonas], paid_by: Jonas}\n", "flat.yaml", in: directory)
    let order = ["Ines", "Jonas", "Maya", "Émile"]
    let json = try runBinary(["report", file, "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((object["people"] as? [[String: Any]] ?? []).compactMap { $0["person"] as? String } == order)
    let settlements = (object["settlements"] as? [[String: Any]] ?? []).compactMap { $0["from"] as? String }
    #expect(settlements == settlements.sorted { order.firstIndex(of: $0) ?? 0 < order.firstIndex(of: $1) ?? 0 })
    // The People table's rows: a name, then its currency.
    func rows(_ format: String, _ row: (String) -> String) throws -> [String] {
      let lines = try runBinary(["report", file, "--format", format]).stdout.split(separator: "\n").map(String.init)
      return lines.compactMap { line in order.first { line.hasPrefix(row($0)) } }
    }
    #expect(try rows("text") { "  \($0)" + String(repeating: " ", count: 7 - $0.count) + "EUR" } == order)
    #expect(try rows("markdown") { "| \($0) | EUR |" } == order)
    let text = try runBinary(["report", file]).stdout
    let shares = text.split(separator: "\n").map(String.init).drop { !$0.hasPrefix("a ") }.dropFirst(2).prefix(4)
    let sharers: [String] = shares.map { line in line.split(separator: " ").first.map { String($0) } ?? "" }
    #expect(sharers == ["Maya", "Émile", "Jonas", "Ines"])
  }
}
