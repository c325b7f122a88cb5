import Foundation
import SplitBillBytes
import SplitBillCore
import Testing

@testable import SplitBillInput

/// Recurring bills (`repeat:`): the instances read from YAML and CSV are those an independent
/// expansion (Foundation's Gregorian calendar, adding months or years to the first date) gives,
/// across month ends and leap years, with skipped instances left out; bad rules are located errors.
@Suite struct RecurringBillTests {
  /// Foundation's Gregorian calendar in UTC: `Calendar.date(byAdding:)` clamps to the month's end
  /// from the date it is given, as the format says instances do from the first date.
  static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    return calendar
  }()

  static func foundationDate(_ date: CalendarDate) throws -> Date {
    try #require(calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day)))
  }

  static func calendarDate(_ date: Date) throws -> CalendarDate {
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return try #require(CalendarDate(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0))
  }

  /// The instances' dates, independently: instance n is the first date plus n units.
  static func expectedDates(
    from first: CalendarDate, unit: Recurrence.Unit, count: Int?, until: CalendarDate?, through: CalendarDate?
  ) throws -> [CalendarDate] {
    let component: Calendar.Component = unit == .week ? .weekOfYear : unit == .month ? .month : .year
    var dates: [CalendarDate] = []
    for index in 0..<10_000 {
      if let count, index >= count { break }
      let date = try calendarDate(
        try #require(calendar.date(byAdding: component, value: index, to: try foundationDate(first))))
      if let last = until ?? (count == nil ? through : nil), date > last { break }
      dates.append(date)
    }
    return dates
  }

  static func key(_ date: CalendarDate, _ unit: Recurrence.Unit) -> String {
    let iso = date.description
    return unit == .week ? iso : unit == .month ? String(iso.prefix(7)) : String(iso.prefix(4))
  }

  @Test func generatedRulesGiveTheIndependentExpansionInYAMLAndCSV() throws {
    var generator = SplitMix64(seed: 0x5EED_2026)
    let through = CalendarDate(year: 2027, month: 6, day: 30)!
    var yaml = "version: 1\ndefaults: {currency: EUR, tip: 0}\nbills:\n"
    var csv = "id,date,amount,currency,tip,diners,paid_by,repeat\n"
    var expected: [(id: String, date: CalendarDate)] = []
    for index in 0..<300 {
      let unit = Recurrence.Unit.allCases.randomElement(using: &generator)!
      // Month ends and leap days are the cases that matter: most first dates are among them.
      let year = Int.random(in: 2019...2026, using: &generator)
      let month = Int.random(in: 1...12, using: &generator)
      let last = CalendarDate.daysIn(month: month, year: year)
      let day =
        Bool.random(using: &generator)
        ? Int.random(in: max(1, last - 3)...last, using: &generator)
        : Int.random(in: 1...last, using: &generator)
      let first = CalendarDate(year: year, month: month, day: day)!
      var count: Int?
      var until: CalendarDate?
      switch Int.random(in: 0..<3, using: &generator) {
      case 0: count = Int.random(in: 1...30, using: &generator)
      case 1: until = first.adding(days: Int.random(in: 0...1500, using: &generator))
      default: break  // open: through the reading's last day
      }
      let all = try Self.expectedDates(from: first, unit: unit, count: count, until: until, through: through)
      let skipped = Set(all.filter { _ in Int.random(in: 0..<5, using: &generator) == 0 }.map { Self.key($0, unit) })
      let id = "r\(index)"
      expected += all.filter { !skipped.contains(Self.key($0, unit)) }.map { ("\(id)#\(Self.key($0, unit))", $0) }
      var rule = "every: \(unit.rawValue)"
      if let count { rule += "; count: \(count)" }
      if let until { rule += "; until: \(until)" }
      if !skipped.isEmpty { rule += "; skip: " + skipped.sorted().joined(separator: " ") }
      // Each rule its own amount: instances of two rules on one day are not duplicate receipts.
      csv += "\(id),\(first),\(index + 1).00,EUR,0,Ana;Ben,Ana,\(rule)\n"
      yaml +=
        "  - id: \(id)\n    date: \(first)\n    amount: \(index + 1).00\n    diners: [Ana, Ben]\n    paid_by: Ana\n"
      yaml += "    repeat:\n      every: \(unit.rawValue)\n"
      if let count { yaml += "      count: \(count)\n" }
      if let until { yaml += "      until: \(until)\n" }
      if !skipped.isEmpty { yaml += "      skip: [\(skipped.sorted().joined(separator: ", "))]\n" }
    }
    let options = ReadOptions(repeatsThrough: through)
    for (text, name) in [(yaml, "flat.yaml"), (csv, "flat.csv")] {
      let result = try read(text, name: name, options: options)
      #expect(result.lines.isEmpty, "\(name): \(result.lines.prefix(3))")
      #expect(result.bills.map(\.id) == expected.map(\.id), "\(name)")
      #expect(result.bills.map(\.date) == expected.map(\.date), "\(name)")
      #expect(result.bills.allSatisfy { $0.recurrence == nil && $0.terms.amount.minorUnits % 100 == 0 })
    }
  }

  @Test func monthEndsClampFromTheFirstDateAndLeapDaysFallBackInCommonYears() throws {
    let result = try read(
      """
      version: 1
      defaults: {currency: EUR, tip: 0}
      bills:
        - {id: rent, date: 2024-01-31, amount: 900, diners: 2, repeat: {every: month, count: 5}}
        - {id: dues, date: 2024-02-29, amount: 50, diners: 2, repeat: {every: year, until: 2028-12-31}}
        - {id: walk, date: 2024-12-30, amount: 5, diners: 2, repeat: {every: week, count: 2}}
      """)
    #expect(result.diagnostics.isEmpty, "\(result.lines)")
    #expect(
      result.bills.map { "\($0.id) \($0.date!)" } == [
        "rent#2024-01 2024-01-31", "rent#2024-02 2024-02-29", "rent#2024-03 2024-03-31", "rent#2024-04 2024-04-30",
        "rent#2024-05 2024-05-31", "dues#2024 2024-02-29", "dues#2025 2025-02-28", "dues#2026 2026-02-28",
        "dues#2027 2027-02-28", "dues#2028 2028-02-29", "walk#2024-12-30 2024-12-30", "walk#2025-01-06 2025-01-06",
      ])
  }

  @Test func aChangedInstanceIsSkippedAndWrittenByHandUnderItsID() throws {
    let bills = """
      version: 1
      defaults: {currency: EUR, tip: 0}
      bills:
        - {id: rent, date: 2026-01-01, amount: 900, diners: 2, repeat: {every: month, count: 3, skip: [2026-02]}}
        - {id: rent#2026-02, date: 2026-02-01, amount: 950, diners: 2}
      """
    let result = try read(bills)
    #expect(result.diagnostics.isEmpty, "\(result.lines)")
    #expect(result.bills.map(\.id) == ["rent#2026-01", "rent#2026-03", "rent#2026-02"])
    #expect(result.bills.map(\.terms.amount.minorUnits) == [90000, 90000, 95000])
    // Not skipped, the hand-written bill repeats the instance's id.
    let unskipped = try read(bills.replacingOccurrences(of: ", skip: [2026-02]", with: ""))
    #expect(unskipped.diagnostics.map(\.code) == ["id.duplicate"])
    #expect(unskipped.diagnostics.first?.location?.line == 5)
    #expect(unskipped.bills.map(\.id) == ["rent#2026-01", "rent#2026-02", "rent#2026-03"])
  }

  @Test func openRulesRunThroughTheReadingsLastDayAndNeedOne() throws {
    let text = """
      version: 1
      defaults: {currency: EUR, tip: 0}
      bills:
        - {id: net, date: 2026-01-05, amount: 30, diners: 2, repeat: month}
      """
    let through = try read(text, options: ReadOptions(repeatsThrough: CalendarDate(year: 2026, month: 4, day: 4)))
    #expect(through.bills.map(\.id) == ["net#2026-01", "net#2026-02", "net#2026-03"])
    let endless = try read(text)
    #expect(endless.diagnostics.map(\.code) == ["repeat.syntax"])
    #expect(endless.lines.first?.contains("has no until or count") == true)
  }

  @Test func badRulesAreLocatedErrorsThatNameWhatIsExpected() throws {
    let text = """
      version: 1
      defaults: {currency: EUR, tip: 0}
      bills:
        - {id: a, amount: 10, diners: 2, repeat: {every: month, count: 2}}
        - {id: b, date: 2026-01-31, amount: 10, diners: 2, repeat: {every: mnth, count: 2}}
        - {id: c, date: 2026-01-31, amount: 10, diners: 2, repeat: {every: month, until: 2025-12-31}}
        - {id: d, date: 2026-01-31, amount: 10, diners: 2, repeat: {every: month, count: 0}}
        - {id: e, date: 2026-01-31, amount: 10, diners: 2, repeat: {every: month, count: 3, skip: [2026-02-27]}}
        - {id: f, date: 2026-01-31, amount: 10, diners: 2, repeat: {every: week, count: 10001}}
        - {id: g, date: 2026-01-31, amount: 10, diners: 2, repeat: {every: week, until: 2026-03-01, count: 2}}
        - {id: h, date: 2026-01-31, amount: 10, diners: 2, repeat: [month]}
        - {id: i, date: 2026-01-31, amount: 10, diners: 2, repeat: {every: month, count: 2, skip: [2026-05]}}
      """
    let result = try read(text)
    #expect(
      result.diagnostics.map(\.code) == [
        "repeat.needs-date", "repeat.syntax", "repeat.end", "repeat.end", "repeat.skip", "repeat.too-many",
        "repeat.end", "repeat.syntax", "repeat.skip",
      ])
    #expect(result.diagnostics.map { $0.location?.line ?? 0 } == [4, 5, 6, 7, 8, 9, 10, 11, 12])
    #expect(result.bills.isEmpty)
    #expect(result.invalid.count == 9)
    let lines = result.lines.joined(separator: "\n")
    #expect(lines.contains("did you mean 'month'?"))
    #expect(lines.contains("such as 2026-02-28"))
    #expect(lines.contains("repeat is a list"))
    // The column of a skip entry is its own.
    let line8 = text.split(separator: "\n")[7]
    let column = line8.distance(from: line8.startIndex, to: line8.firstRange(of: "2026-02-27")!.lowerBound) + 1
    #expect(result.diagnostics[4].location?.column == column)
  }
}
