/// How a recurring bill repeats (`repeat: {every: month, until: 2026-12-31}`): every week, month
/// or year from its first date, to an end date or for a number of times, with single instances
/// skipped.
///
/// Months and years are counted from the first date, never from the previous instance: a bill on
/// the 31st falls on the last day of shorter months (30 April, 28 or 29 February) and is back on
/// the 31st in May; one on 29 February falls on 28 February in common years. Each instance is
/// named by its period (``instanceKey(of:)``): `2026-11` for a month, `2026` for a year, the date
/// for a week, so that the instance of November is `rent#2026-11` whatever day it falls on.
public struct Recurrence: Hashable, Sendable {
  /// The step between instances.
  public enum Unit: String, Sendable, Hashable, CaseIterable {
    case week, month, year
  }

  /// How the instances end.
  public enum End: Hashable, Sendable {
    /// On or before this date.
    case until(CalendarDate)
    /// After this many instances (skipped ones count: a skip does not move the end).
    case count(Int)
    /// Not said: instances up to the day the reading is told (the report's period end, or today).
    case open
  }

  /// The most instances one bill may have: a weekly bill for nearly two centuries. A rule that
  /// asks for more is a mistake (a year typed 2926), not a bill.
  public static let instanceLimit = 10_000

  public var unit: Unit
  public var end: End
  /// Instance keys (``instanceKey(of:)``) not billed.
  public var skipped: Set<String>

  /// Creates a rule.
  public init(every unit: Unit, end: End, skipped: Set<String> = []) {
    self.unit = unit
    self.end = end
    self.skipped = skipped
  }

  /// The date of instance `index` (0 is `first` itself), clamped to the month's last day; `nil`
  /// past 9999-12-31, the last date the format can hold (a rule ends there, whatever it asks).
  public func date(ofInstance index: Int, from first: CalendarDate) -> CalendarDate? {
    switch unit {
    case .week:
      guard index < Self.instanceLimit * 2 else { return nil }
      let date = first.adding(days: 7 * index)
      return date.year <= 9999 ? date : nil
    case .month, .year:
      let months = (first.year * 12 + first.month - 1) + index * (unit == .month ? 1 : 12)
      let (year, month) = (months / 12, months % 12 + 1)
      guard year <= 9999 else { return nil }
      return CalendarDate(
        year: year, month: month, day: min(first.day, CalendarDate.daysIn(month: month, year: year)))
    }
  }

  /// Every instance's date from `first`, skipped ones included, through `end` (an open end:
  /// through `through`, none without it); `nil` when there would be more than ``instanceLimit``.
  public func allDates(from first: CalendarDate, through: CalendarDate?) -> [CalendarDate]? {
    var dates: [CalendarDate] = []
    var last: CalendarDate?
    var count = Int.max
    switch end {
    case .until(let date): last = date
    case .count(let times): count = times
    case .open:
      guard let through else { return [] }
      last = through
    }
    var index = 0
    while index < count, let date = date(ofInstance: index, from: first) {
      if let last, date > last { break }
      guard dates.count < Self.instanceLimit else { return nil }
      dates.append(date)
      index += 1
    }
    return dates
  }

  /// How many dates ``allDates(from:through:)`` gives (skipped instances included), worked out
  /// without making them: a rule is measured in constant time, whatever it asks for.
  public func instanceCount(from first: CalendarDate, through: CalendarDate?) -> Int {
    guard var last = CalendarDate(year: 9999, month: 12, day: 31) else { return 0 }
    var count = Int.max
    switch end {
    case .until(let date): last = min(last, date)
    case .count(let times): count = times
    case .open:
      guard let through else { return 0 }
      last = min(last, through)
    }
    guard last >= first else { return 0 }
    let upTo: Int
    switch unit {
    case .week:
      upTo = (last.daysSinceEpoch - first.daysSinceEpoch) / 7 + 1
    case .month, .year:
      let step = unit == .month ? 1 : 12
      var index = ((last.year * 12 + last.month) - (first.year * 12 + first.month)) / step
      // The instance in the last period may fall after the last day (a bill on the 31st).
      if let date = date(ofInstance: index, from: first), date > last { index -= 1 }
      upTo = index + 1
    }
    return min(count, upTo)
  }

  /// The dates billed: ``allDates(from:through:)`` without the skipped instances.
  public func dates(from first: CalendarDate, through: CalendarDate?) -> [CalendarDate]? {
    allDates(from: first, through: through)?.filter { !skipped.contains(instanceKey(of: $0)) }
  }

  /// The name of the instance on `date`: `2026-11` (month), `2026` (year), `2026-11-05` (week).
  public func instanceKey(of date: CalendarDate) -> String {
    switch unit {
    case .week: return date.description
    case .month: return String(date.description.prefix(7))
    case .year: return String(date.description.prefix(4))
    }
  }

  /// The key a skip entry names: an instance date, or (month, year) its period written
  /// `YYYY-MM` / `YYYY`; `nil` when the text is neither.
  public func instanceKey(named text: String) -> String? {
    if let date = CalendarDate(iso: text) { return instanceKey(of: date) }
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }) else { return nil }
    switch (unit, parts.count) {
    case (.month, 2):
      guard parts[0].count == 4, parts[1].count == 2, let month = Int(parts[1]), (1...12).contains(month) else {
        return nil
      }
      return text
    case (.year, 1):
      return parts[0].count == 4 ? text : nil
    default:
      return nil
    }
  }
}
