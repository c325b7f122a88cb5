import Foundation
import SplitBill
import Testing

/// The import-then-export program of docs/library.md, as a test: it imports nothing but the
/// `SplitBill` product (and Foundation to write the file), so it compiles only against the
/// library's public API.
@Suite struct ExporterExampleTests {
  @Test func aProgramMovesASplitwiseExportIntoCospend() throws {
    let splitwise = Array(ImporterExampleTests.export.utf8)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("exporter-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let books = directory.appendingPathComponent("books.yaml").path

    // The example of docs/library.md, from here to the assertions.
    let today = CalendarDate(year: 2026, month: 12, day: 1)!
    let imported = try Importer.run(splitwise, ImportOptions(source: .splitwise, path: "export.csv", date: today))
    guard imported.status == .imported, let yaml = imported.yaml else { throw CocoaError(.fileReadCorruptFile) }
    try yaml.write(toFile: books, atomically: true, encoding: .utf8)
    let exported = try Exporter.run([books], ExportOptions(target: .cospend, date: today))
    guard exported.status == .exported, let file = exported.bytes else { throw CocoaError(.fileWriteUnknown) }
    for remark in exported.remarks { print("note:", remark.message) }
    print(exported.summary ?? "")  // exported 1 bill and 1 payment of 2 people (EUR) for Cospend; …

    let text = String(decoding: file, as: UTF8.self)
    #expect(text.hasPrefix("name,weight,active,color\nAna,1,1,"))
    #expect(text.contains("\nDinner,30.00,2026-10-01,"))
    #expect(text.contains(",Ana,1,1,\"Ana,Ben\","), "Ana paid, Ana and Ben owe")
    #expect(text.contains(",-11,n,0,"), "the payment is a reimbursement")
    #expect(text.hasSuffix("currencyname,exchange_rate\nEUR,1\n"))
    #expect(exported.summary?.hasSuffix("every balance is the books'") == true)
  }
}
