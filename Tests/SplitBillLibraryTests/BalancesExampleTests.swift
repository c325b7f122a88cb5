import Foundation
import SplitBill
import Testing

/// The balance example of docs/library.md, compiled against `import SplitBill` alone.
@Suite struct BalancesExampleTests {
  @Test func aProgramAsksWhereEveryoneStands() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("balances-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try """
    version: 1
    defaults: {currency: EUR, tip: 0}
    bills:
      - {id: rent, date: 2026-11-30, amount: 900.00, diners: [Maya, Jonas, Ines], paid_by: Maya}
    payments:
      - {id: p1, date: 2026-12-01, from: Jonas, to: Maya, amount: 300.00}
    """.write(to: directory.appendingPathComponent("flat.yaml"), atomically: true, encoding: .utf8)

    let sheet = try Balances.compute([directory.path], ReportOptions(today: CalendarDate(daysSinceEpoch: 20_789)))
    let maya = try #require(sheet.of("Maya"))
    #expect(maya.balances.map(\.balance.decimalString) == ["300.00"])
    #expect(
      maya.transfers.map { "\($0.transfer.from) pays \($0.transfer.to) \($0.transfer.amount)" } == [
        "Ines pays Maya 300.00 EUR"
      ])
    #expect(try #require(sheet.of("Jonas")).balances.isEmpty, "Jonas is settled up")
    #expect(sheet.of("Nobody") == nil)
    #expect(sheet.suggestion(for: "maya") == "Maya")
    #expect(sheet.bills == 1 && sheet.invalid == 0)
  }
}
