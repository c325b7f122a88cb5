import Testing

@testable import SplitBillCore

/// ``Recurrence/instanceCount(from:through:)`` measures a rule without making its dates: it must
/// be exactly the number ``Recurrence/allDates(from:through:)`` makes, for every unit and end,
/// near month ends, leap days and the last date the format holds.
@Suite struct RecurrenceCountTests {
  @Test(arguments: 0..<8)
  func theCountIsTheNumberOfDatesMade(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    for _ in 0..<400 {
      let year = [1, 2024, 2026, 9_990, 9_999][Int.random(in: 0..<5, using: &random)]
      let month = Int.random(in: 1...12, using: &random)
      let first = try #require(
        CalendarDate(
          year: year, month: month,
          day: min(Int.random(in: 25...31, using: &random), CalendarDate.daysIn(month: month, year: year))))
      let unit = Recurrence.Unit.allCases[Int.random(in: 0..<3, using: &random)]
      let later = first.adding(days: Int.random(in: -40...4_000, using: &random))
      let end: Recurrence.End =
        switch Int.random(in: 0..<3, using: &random) {
        case 0: .count(Int.random(in: 1...600, using: &random))
        case 1: later.year <= 9_999 ? .until(later) : .count(3)
        default: .open
        }
      let rule = Recurrence(every: unit, end: end)
      let through: CalendarDate? = Bool.random(using: &random) && later.year <= 9_999 ? later : nil
      let dates = try #require(rule.allDates(from: first, through: through))
      #expect(
        rule.instanceCount(from: first, through: through) == dates.count, "\(unit) from \(first), \(end), \(through)")
      #expect(dates.allSatisfy { $0.year <= 9_999 })
    }
  }

  /// A weekly rule asked for 10,000 instances from the format's last year makes those that fit.
  @Test func noInstanceFallsAfterTheLastDate() throws {
    let first = try #require(CalendarDate(iso: "9999-06-01"))
    let rule = Recurrence(every: .week, end: .count(10_000))
    let dates = try #require(rule.allDates(from: first, through: nil))
    #expect(dates.count == 31)
    #expect(dates.last?.description == "9999-12-28")
    #expect(rule.instanceCount(from: first, through: nil) == 31)
  }
}
