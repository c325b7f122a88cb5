import Foundation
import SplitBillCore
import Testing

@testable import SplitBillModel
@testable import SplitBillRates

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

/// The ECB's history as published has columns for currencies that no longer exist (ISO 4217
/// list three: CYP, EEK, LTL, LVL, MTL, ROL, SIT, SKK, HRK, TRL), `N/A` after the euro replaced
/// them, newest day first, and a trailing empty column.
struct ECBHistoryTests {
  static let header =
    "Date,USD,JPY,BGN,CYP,CZK,DKK,EEK,GBP,HUF,LTL,LVL,MTL,PLN,ROL,RON,SEK,SIT,SKK,CHF,ISK,NOK,HRK,RUB,TRL,TRY,"

  static func row(_ date: String, usd: String, jpy: String, withdrawn: String) -> String {
    // USD, JPY, then BGN … TRY: the withdrawn ones `withdrawn`, the others a rate.
    let codes = header.split(separator: ",").dropFirst(3)
    let gone: Set<Substring> = ["CYP", "EEK", "LTL", "LVL", "MTL", "ROL", "SIT", "SKK", "HRK", "TRL"]
    return "\(date),\(usd),\(jpy)," + codes.map { gone.contains($0) ? withdrawn : "1.5" }.joined(separator: ",") + ","
  }

  static let text =
    [
      header, row("2025-05-09", usd: "1.1252", jpy: "163.81", withdrawn: "N/A"),
      row("2025-05-08", usd: "1.1297", jpy: "163.73", withdrawn: "N/A"),
      row("2004-01-02", usd: "1.2630", jpy: "135.37", withdrawn: "0.5"),
    ].joined(separator: "\n") + "\n"

  @Test func withdrawnCurrenciesAreReadNeverErrors() throws {
    let path = try RateFileTests.file(Self.text, "eurofxref-hist.csv")
    let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
    let (table, problems) = RateReader.table(bytes, path: path)
    #expect(problems.isEmpty, "\(problems.map(\.message))")
    let usd = try Currency(code: "USD")
    let croatia = try Currency(code: "HRK")
    let turkey = try Currency(code: "TRL")
    #expect(
      table.rate(from: .eur, to: usd, on: CalendarDate(iso: "2025-05-10"))?.legs.first?.rate.description == "1.1252")
    #expect(
      table.rate(from: .eur, to: croatia, on: CalendarDate(iso: "2004-01-03"))?.legs.first?.rate.description == "0.5")
    // After its last published day the latest rate on or before applies (and the run warns of its age).
    #expect(
      table.rate(from: .eur, to: croatia, on: CalendarDate(iso: "2025-05-09"))?.legs.first?.date
        == CalendarDate(iso: "2004-01-02"))
    #expect(turkey.exponent == 0)
    // A cross rate through the euro, from a column read only now.
    let cross = table.rate(from: usd, to: try Currency(code: "JPY"), on: CalendarDate(iso: "2025-05-08"))
    #expect(cross?.legs.map { $0.origin } == ["ECB \(path):3", "ECB \(path):3"])
  }

  /// The lazy table answers every lookup as a table of every rate read at once does.
  @Test func columnsReadOnDemandAnswerAsTheWholeFile() throws {
    let path = try RateFileTests.file(Self.text, "hist.csv")
    let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
    let lazy = RateReader.table(bytes, path: path).table
    let whole = RateTable(RateReader.read(bytes, path: path).rates)
    #expect(RateReader.read(bytes, path: path).rates.count == 3 * 15 + 10)
    let codes = ["USD", "JPY", "CHF", "HRK", "TRL", "EUR"].compactMap { try? Currency(code: $0) }
    for day in ["2003-12-31", "2004-01-02", "2010-06-01", "2025-05-08", "2025-05-09", "2030-01-01"] {
      for from in codes {
        for to in codes {
          #expect(
            lazy.rate(from: from, to: to, on: CalendarDate(iso: day))
              == whole.rate(from: from, to: to, on: CalendarDate(iso: day)),
            "\(from) → \(to) on \(day)")
        }
      }
    }
  }

  @Test func problemsAreLocatedAndTheRestIsRead() throws {
    let text =
      Self.header + "\n" + Self.row("2025-05-09", usd: "1.1x", jpy: "163.81", withdrawn: "N/A") + "\n"
      + Self.row("2025-13-08", usd: "1.1", jpy: "163.73", withdrawn: "N/A") + "\n"
      + Self.row("2025-05-07", usd: "1.12", jpy: "160", withdrawn: "N/A") + "\n"
      + Self.row("2025-05-07", usd: "1.13", jpy: "160", withdrawn: "N/A") + "\n"
    let path = try RateFileTests.file(text, "bad.csv")
    let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
    let (table, problems) = RateReader.table(bytes, path: path)
    #expect(problems.map(\.code) == ["rates.value", "rates.date", "rates.conflict"])
    #expect(problems.map { $0.location?.line } == [2, 3, 5])
    #expect(problems[0].location?.column == 12)
    #expect(problems[2].message.contains("EUR/USD"))
    #expect(
      table.rate(from: .eur, to: .usd, on: CalendarDate(iso: "2025-05-07"))?.legs.first?.rate.description == "1.12")
  }
}
