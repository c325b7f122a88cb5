/// Which dates a report covers: an inclusive range, open on either side.
public struct DateFilter: Hashable, Sendable, CustomStringConvertible {
  /// First date included, if bounded.
  public var since: CalendarDate?
  /// Last date included, if bounded.
  public var until: CalendarDate?

  /// Creates a filter.
  public init(since: CalendarDate? = nil, until: CalendarDate? = nil) {
    self.since = since
    self.until = until
  }

  /// Monday to Sunday of ISO week `week` of `year`, or `nil` when that week does not exist.
  public static func isoWeek(year: Int, week: Int) -> DateFilter? {
    guard let monday = CalendarDate.mondayOf(isoYear: year, week: week) else { return nil }
    return DateFilter(since: monday, until: monday.adding(days: 6))
  }

  /// The ISO week before the one holding `today`.
  public static func lastWeek(before today: CalendarDate) -> DateFilter {
    let monday = today.adding(days: 1 - today.isoWeekday).adding(days: -7)
    return DateFilter(since: monday, until: monday.adding(days: 6))
  }

  /// Parses `2026-W48`.
  public static func parseWeek(_ text: String) -> (year: Int, week: Int)? {
    let parts = text.split(separator: "-")
    guard parts.count == 2, parts[0].count == 4, let year = Int(parts[0]), parts[1].first == "W",
      parts[1].count == 3, let week = Int(parts[1].dropFirst())
    else { return nil }
    return (year, week)
  }

  /// Whether `date` is inside the range.
  public func contains(_ date: CalendarDate) -> Bool {
    (since.map { date >= $0 } ?? true) && (until.map { date <= $0 } ?? true)
  }

  /// `2026-11-23..2026-11-29`, with `…` for an open side.
  public var description: String { "\(since?.description ?? "…")..\(until?.description ?? "…")" }
}
