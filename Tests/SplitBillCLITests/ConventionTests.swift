import Foundation
import SplitBill
import Testing

@testable import SplitBillCLI

/// Messages that say what a seasoned user meant, and standard input read as they expect.
struct ConventionTests {
  @Test func anotherCommandsOptionNameIsSuggested() async {
    let outcome = await runCLI(["report", "samples/trip.yaml", "--tip", "10"])
    #expect(outcome.code == 64)
    #expect(outcome.stderr.hasPrefix("error: unknown option '--tip'; did you mean '--default-tip'?"))
  }

  /// A command without options of its own shows no empty "Options:" heading; `help` of a name that
  /// is neither a command nor a topic says so (not "unknown command"), with the nearest name.
  @Test func helpHasNoEmptyHeadingAndKnowsTopics() async {
    for command in ["schema", "man", "completions", "version"] {
      let outcome = await runCLI([command, "--help"])
      #expect(outcome.code == 0)
      #expect(!outcome.stdout.contains("Options:\n\n"), "\(command)")
      #expect(outcome.stdout.contains("Global options:"))
    }
    let unknown = await runCLI(["help", "exit-codez"])
    #expect(unknown.code == 64)
    #expect(unknown.stderr.contains("no help on 'exit-codez': expected a command ("))
    #expect(unknown.stderr.contains("did you mean 'exit-codes'?"))
  }

  @Test func aDecimalCommaIsNamedFirst() async {
    let outcome = await runCLI(["calc", "84,50", "--tip", "10"])
    #expect(outcome.code == 64)
    #expect(outcome.stderr.hasPrefix("error: decimal comma? amount '84,50': use --decimal-comma"))
    #expect(await runCLI(["calc", "84,50", "--tip", "10", "--decimal-comma"]).code == 0)
  }

  @Test(arguments: [
    (["report", "samples/trip.yaml", "--today", "2026-11-30"], "--today only moves --last-week"),
    (["suggest", "nice", "--split", "3"], "--split needs --amount"),
    (["suggest", "nice", "--people", "Ana,Ben"], "--people needs --amount"),
    (["report", "samples/trip.yaml", "--force"], "--force goes with --record-settlements"),
    (["report", "samples/trip.yaml", "--books-of", "Ana"], "--books-of is for the journals"),
  ])
  func optionsThatWouldDoNothingAreErrors(arguments: [String], message: String) async {
    let outcome = await runCLI(arguments)
    #expect(outcome.code == 64)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  /// The engine's messages name options as a program sees them (`tipAmount`); the command line
  /// words them as its flags, placeholders and all.
  @Test(arguments: [
    (
      ["calc", "84.50", "--tip", "10", "--split", "2", "--people", "Ana,Ben"],
      "give either --split N or --people NAMES, not both"
    ),
    (
      ["calc", "84.50", "--tip", "10", "--discount", "5"],
      "--discount is for itemized bills: add their lines with --item NAME=PRICE"
    ),
    (["calc", "--split", "2"], "missing the bill AMOUNT, for example: splitbill calc 84.50 --tip 18 --split 3"),
    (
      ["calc", "84.50", "--split", "2"], "no tip given: add --tip PERCENT (for example --tip 15) or --tip-amount AMOUNT"
    ),
    (["report", "samples/trip.yaml", "--settle-in", "EUR", "--cash-rounding", "0.07x"], "--cash-rounding '0.07x'"),
    (
      ["report", "samples/trip.yaml", "--format", "json", "-o", "samples/trip.yaml"],
      "-o samples/trip.yaml is the input samples/trip.yaml"
    ),
  ])
  func theEngineIsWordedInFlags(arguments: [String], message: String) async {
    let outcome = await runCLI(arguments)
    #expect(outcome.code == 64)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  /// Every option the engine names is worded as a flag some command takes (or `calc`'s operand).
  @Test func everyEngineOptionIsAFlag() {
    let flags = Set(
      SplitBillCommandLine.commands.flatMap { $0.allOptions.flatMap { [$0.name, $0.short].compactMap(\.self) } })
    for option in EngineOption.allCases where option != .amount {
      #expect(flags.contains(option.flag), "\(option): \(option.flag)")
    }
    #expect(Set(EngineOption.allCases.map(\.flag)).count == EngineOption.allCases.count)
  }

  @Test func aFilteredTextReportNamesItsPeriodFirst() async {
    let outcome = await runCLI([
      "report", packageRoot.appendingPathComponent("samples/trip.yaml").path, "--week", "2026-W47",
    ])
    #expect(outcome.code == 0)
    #expect(outcome.stdout.hasPrefix("Bills of 2026-11-16..2026-11-22\n"))
  }

  @Test func theTextReportAndStderrGiveOnePosition() async throws {
    let path = packageRoot.appendingPathComponent("samples/invalid/amounts.yaml").path
    let outcome = await runCLI(["report", path])
    let stderrPosition = try #require(outcome.stderr.split(separator: "\n").first?.split(separator: ": ").first)
    #expect(outcome.stdout.contains("  \(stderrPosition) "), "\(stderrPosition)")
  }

  @Test func aSyntaxErrorAtTheEndShowsTheLastLine() async throws {
    let file = try scratchDirectory().appendingPathComponent("open.yaml")
    try "bills:\n  - amount: 10\n    tip: [\n\n\n".write(to: file, atomically: true, encoding: .utf8)
    let outcome = await runCLI(["check", file.path])
    #expect(outcome.stdout.contains("open.yaml:3:11: error: YAML syntax error"))
    #expect(outcome.stdout.contains("(the file ends after line 3)\n        tip: [\n              ^\n"))
  }

  @Test func pipedCSVIsReadWithoutBeingNamed() throws {
    let csv = Data("id,amount,tip,diners,paid_by\nx1,30.00,10,Ana;Ben,Ana\n".utf8)
    let report = try runBinary(["report", "--currency", "EUR", "--format", "json"], stdin: csv)
    #expect(report.code == 0, "\(report.stderr)")
    #expect(report.stdout.contains("\"id\": \"x1\""))
    let yaml = try Data(contentsOf: packageRoot.appendingPathComponent("samples/trip.yaml"))
    #expect(try runBinary(["check"], stdin: yaml).stdout.contains("14 bills: 0 errors"))
    // A misspelt column is not CSV to the sniffer: the YAML error says what it looks like.
    let typo = try runBinary(["check", "-"], stdin: Data("amont,tip\n1,2\n".utf8))
    #expect(typo.code == 1)
    #expect(typo.stdout.contains("looks like a CSV header: give --input-format csv"))
  }
}
