import Foundation
import SplitBill
import Testing

/// The scanning example of docs/library.md, compiled against `import SplitBill` alone, on the
/// package's sample receipt photos.
@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment["CI"] == "true"
      || FileManager.default.fileExists(atPath: "/usr/share/tesseract-ocr/5/tessdata/eng.traineddata"),
    "needs scan's libraries (apt-get install libtesseract5 liblept5 libheif1 tesseract-ocr-eng)"))
struct ScannerExampleTests {
  @Test func aProgramReadsReceiptPhotos() async throws {
    let samples = String(#filePath.dropLast("Tests/SplitBillLibraryTests/ScannerExampleTests.swift".count))
    let outcome = try await Scanner.run(
      ScanOptions(paths: [samples + "samples/receipts"], currency: try Currency(code: "USD"), diners: ["Ana", "Ben"]))
    #expect(outcome.photos.count == 3)
    #expect(outcome.verified == 2 && outcome.needsReview == 1 && outcome.unreadable == 0)
    let diner = try #require(outcome.photos.first { $0.path.hasSuffix("harbour-diner.png") }?.bill?.receipt)
    #expect(diner.status == .needsReview)
    #expect(diner.reasons.map(\.code) == ["scan.total-mismatch"])
    #expect(diner.total?.minorUnits == 1700)
    let cafe = try #require(outcome.photos.first { $0.path.hasSuffix("heron-cafe.png") }?.bill?.receipt)
    #expect(cafe.status == .verified)
    #expect(cafe.items.map(\.name) == ["Clam chowder", "Fish tacos", "Lemonade"])
    let yaml = outcome.yamlFile(date: try #require(CalendarDate(year: 2026, month: 12, day: 3)))
    #expect(yaml.contains("- id: heron-cafe"))
    #expect(yaml.contains("diners: [Ana, Ben]"))
  }
}
