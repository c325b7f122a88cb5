import Foundation
import Testing

@testable import SplitBillCLI

/// `import csv`: a bank statement read by a rules file, and the rules proposed without one.
struct StatementCommandTests {
  let samples = packageRoot.appendingPathComponent("samples/import")

  /// The sample current account by its rules: the salary left out by a rule, the rent renamed,
  /// the pizzeria shared by three; the report settles what Maya paid for the flat.
  @Test func theSampleStatementByItsRules() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("bank.yaml").path
    let outcome = await runCLI([
      "import", "csv", samples.appendingPathComponent("bank-giro.csv").path, "--rules",
      samples.appendingPathComponent("bank-giro.rules").path, "-o", output, "--today", "2026-12-05",
    ])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("bank-giro.csv:7:1: note: left out by the rule at line 13 of the rules"))
    #expect(outcome.stderr.contains("5 rows read, 4 bills, 0 payments, 1 left out"))
    #expect(outcome.stderr.contains("balances not checked (a statement shows no one's balance"))
    let yaml = try String(contentsOfFile: output, encoding: .utf8)
    #expect(yaml.contains("description: \"Rent\"\n    category: \"housing\"\n    amount: 1180.00"))
    let report = await runCLI(["report", output])
    #expect(report.code == 0, "\(report.stderr)")
    #expect(report.stdout.contains("Jonas  pays  Maya  662.52  EUR"))
    #expect(report.stdout.contains("Ines   pays  Maya   19.11  EUR"))
  }

  /// Without rules: the proposal on standard output, nothing imported (exit 64); saved, with who
  /// paid and shares added, it imports the statement.
  @Test func withoutRulesARulesFileIsProposed() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let statement = samples.appendingPathComponent("bank-giro.csv").path
    let outcome = await runCLI(["import", "csv", statement])
    #expect(outcome.code == 64)
    #expect(outcome.stderr.contains("no --rules: the rules above are proposed from"))
    #expect(outcome.stdout.contains("\nfields date, _, payee, description, amount\ndate-format DD.MM.YYYY\n"))
    #expect(outcome.stdout.contains("\ncurrency EUR\n"))
    let rules = directory.appendingPathComponent("bank.rules").path
    try (outcome.stdout + "paid-by Maya\ndiners Maya, Jonas\n").write(toFile: rules, atomically: true, encoding: .utf8)
    let imported = await runCLI(["import", "csv", statement, "--rules", rules, "--skip-invalid"])
    #expect(imported.code == 0, "\(imported.stderr)")
    // The salary is money in: listed, never dropped silently.
    #expect(imported.stderr.contains("error: money in (2450.00 EUR), not a spending"))
    #expect(imported.stdout.contains("amount: 1180.00"))
  }

  @Test func rulesMistakesAndMisuseAreNamed() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let rules = directory.appendingPathComponent("bad.rules").path
    try "fields date, amount\ndate-format YYYY-MM-DD\npaidby Maya\n".write(
      toFile: rules, atomically: true, encoding: .utf8)
    let statement = samples.appendingPathComponent("bank-giro.csv").path
    let bad = await runCLI(["import", "csv", statement, "--rules", rules])
    #expect(bad.code == 1)
    #expect(bad.stderr.contains("bad.rules:3:1: error: unknown rule 'paidby'"))
    #expect(bad.stderr.contains("did you mean 'paid-by'?"))
    let misuse = await runCLI([
      "import", "splitwise", samples.appendingPathComponent("splitwise-trip.csv").path, "--rules", rules,
    ])
    #expect(misuse.code == 64)
    #expect(misuse.stderr.contains("--rules is for csv statements"))
    let missing = await runCLI(["import", "csv", statement, "--rules", directory.appendingPathComponent("no").path])
    #expect(missing.code == 66)
  }
}
