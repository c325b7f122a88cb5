import Foundation
import SplitBillCore
import Testing

@testable import SplitBillInput

/// Rates files as `--rates` reads them: the ECB's two published shapes, `date,base,quote,rate`,
/// YAML, and every problem located inside the file.
struct RateFileTests {
  static func file(_ text: String, _ name: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rates-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func read(_ path: String) -> (rates: [ExchangeRate], problems: [Diagnostic]) {
    RateReader.read([UInt8](FileManager.default.contents(atPath: path) ?? Data()), path: path)
  }

  @Test func theDailyECBFileWithSpacesAndSpelledOutDates() throws {
    let path = try Self.file("Date, USD, JPY, BGN, \n28 November 2026, 1.0498, 161.87, N/A, \n", "eurofxref.csv")
    let (rates, problems) = Self.read(path)
    #expect(problems.isEmpty, "\(problems)")
    #expect(
      rates.map { "\($0.base.code)/\($0.quote.code) \($0.rate) \($0.date.map { "\($0)" } ?? "")" } == [
        "EUR/USD 1.0498 2026-11-28", "EUR/JPY 161.87 2026-11-28",
      ])
    #expect(rates.allSatisfy { $0.origin == "ECB \(path):2" })
  }

  @Test func columnsInAnyOrderAndUndatedRates() throws {
    let path = try Self.file("rate,quote,base,date\n160,JPY,EUR,\n0.0062,EUR,JPY,2026-11-20\n", "agreed.csv")
    let (rates, problems) = Self.read(path)
    #expect(problems.isEmpty, "\(problems)")
    #expect(rates.map(\.date) == [nil, CalendarDate(iso: "2026-11-20")])
    let table = RateTable(rates)
    // The undated rate applies before the dated one, in the other direction: the later wins.
    #expect(table.rate(from: .eur, to: Currency.usd, on: nil) == nil)
    let jpy = try Currency(code: "JPY")
    #expect(table.rate(from: jpy, to: .eur, on: CalendarDate(iso: "2026-11-19"))?.legs.first?.date == nil)
    #expect(
      table.rate(from: jpy, to: .eur, on: CalendarDate(iso: "2026-11-21"))?.legs.first?.rate.description == "0.0062")
  }

  /// libyaml puts an error at the end of a last line with no line break on the line after it:
  /// located at the end instead (found by the fuzzer).
  @Test func aYAMLErrorAtTheEndIsInsideTheFile() throws {
    let path = try Self.file("rates:\n  - {base: EUR, quote: JPY, rate: 160}\nquote", "r.yaml")
    let (_, problems) = Self.read(path)
    let location = try #require(problems.first?.location)
    #expect(location.line <= 3 && location.column >= 1, "\(location)")
  }

  @Test func problemsAreLocated() throws {
    let path = try Self.file("date,base,quote,rate\n2026-11-31,EUR,JPY,160\n2026-11-20,EUR,EUR,1\nx,y\n", "bad.csv")
    let messages = Self.read(path).problems.map {
      "\($0.location.map { "\($0.line):\($0.column)" } ?? "") \($0.code)"
    }
    #expect(messages == ["2:1 rates.date", "3:16 rates.same-currency", "4:1 rates.cells"])
    let header = try Self.file("when,what\n", "header.csv")
    #expect(Self.read(header).problems.map(\.code) == ["rates.header"])
    let empty = try Self.file("", "empty.csv")
    #expect(Self.read(empty).problems.map(\.code) == ["rates.empty"])
  }
}
