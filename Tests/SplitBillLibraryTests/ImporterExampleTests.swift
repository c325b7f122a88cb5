import SplitBill
import Testing

/// The program of docs/library.md, as a test: it imports nothing but the `SplitBill` product, so
/// it compiles only against the library's public API.
@Suite struct ImporterExampleTests {
  static let export = """
    Date,Description,Category,Cost,Currency,Ana,Ben
    2026-10-01,Dinner,Dining out,30.00,EUR,15.00,-15.00
    2026-10-02,Ben pays Ana,Payment,15.00,EUR,-15.00,15.00

    2026-10-05,Total balance, , ,EUR,0.00,0.00
    """

  @Test func aProgramImportsASplitwiseExport() throws {
    // The example of docs/library.md, from here to the end of the function.
    let options = ImportOptions(
      source: .splitwise, path: "export.csv", date: CalendarDate(year: 2026, month: 12, day: 1)!)
    let outcome = try Importer.run(Array(Self.export.utf8), options)
    switch outcome.status {
    case .imported:
      let yaml = outcome.yaml ?? ""
      #expect(yaml.hasPrefix("# Imported from the Splitwise export export.csv on 2026-12-01"))
      #expect(yaml.contains("paid_by: \"Ana\""))
      #expect(outcome.summary?.hasSuffix("balances match the export's Total balance row (EUR)") == true)
    default:
      Issue.record("not imported: \(outcome.status), \(outcome.errors.map(\.message))")
    }
  }

  /// Bad input is an outcome, never a thrown error: its errors say where and what.
  @Test func aBadRowIsAnOutcomeWithItsLine() throws {
    let broken =
      "Date,Description,Category,Cost,Currency,Ana,Ben\n2026-10-01,Dinner,Dining out,30.00,EUR,15.00,-14.00\n"
    let options = ImportOptions(
      source: .splitwise, path: "export.csv", date: CalendarDate(year: 2026, month: 12, day: 1)!)
    let outcome = try Importer.run(Array(broken.utf8), options)
    #expect(outcome.status == .invalid(problems: 1, mismatch: false))
    #expect(outcome.yaml == nil)
    #expect(outcome.errors.map(\.code) == ["splitwise.cells-sum"])
    #expect(outcome.errors.first?.line == 2)
    // Spliit's rules are public too: which one an export's era used.
    #expect(SpliitRule.era(hasExpenseIDs: false) == .roundedBalances)
  }
}
