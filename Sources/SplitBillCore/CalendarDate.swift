/// A calendar date (proleptic Gregorian), parsed from and printed as ISO `YYYY-MM-DD`.
public struct CalendarDate: Hashable, Sendable, Comparable, CustomStringConvertible {
  // Six bytes rather than three words: a date is in every bill, and bills are moved from stage
  // to stage.
  private let storedYear: Int32
  private let storedMonth: UInt8
  private let storedDay: UInt8

  /// Year, 1…9999 (as parsed; dates worked out by ``adding(days:)`` may leave that range).
  public var year: Int { Int(storedYear) }
  /// Month, 1…12.
  public var month: Int { Int(storedMonth) }
  /// Day of the month.
  public var day: Int { Int(storedDay) }

  /// A date, or `nil` when it does not exist (`2026-02-30`).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...CalendarDate.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    storedYear = Int32(year)
    storedMonth = UInt8(month)
    storedDay = UInt8(day)
  }

  /// Parses exactly `YYYY-MM-DD`; anything else (or a date that does not exist) is `nil`.
  public init?(iso text: some StringProtocol) {
    guard let (year, month, day) = Self.isoFields(String(text).utf8.span) else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// Year, month and day of `YYYY-MM-DD` bytes, if they have that shape.
  private static func isoFields(_ bytes: Span<UInt8>) -> (Int, Int, Int)? {
    guard bytes.count == 10 else { return nil }
    var values = (0, 0, 0)
    for offset in bytes.indices {
      let byte = bytes[offset]
      if offset == 4 || offset == 7 {
        guard byte == 0x2D else { return nil }
        continue
      }
      guard (0x30...0x39).contains(byte) else { return nil }
      let digit = Int(byte - 0x30)
      switch offset {
      case 0..<4: values.0 = values.0 * 10 + digit
      case 5..<7: values.1 = values.1 * 10 + digit
      default: values.2 = values.2 * 10 + digit
      }
    }
    return values
  }

  /// Whether `year` has a 29 February.
  public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  /// Days in `month` of `year`.
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 (negative before).
  public var daysSinceEpoch: Int {
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date `daysSinceEpoch` days after 1970-01-01.
  public init(daysSinceEpoch days: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    storedYear = Int32(clamping: yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    storedMonth = UInt8(month)
    storedDay = UInt8(day)
  }

  /// The date `count` days later (earlier when negative).
  public func adding(days count: Int) -> CalendarDate { CalendarDate(daysSinceEpoch: daysSinceEpoch + count) }

  /// ISO weekday: Monday 1 … Sunday 7.
  public var isoWeekday: Int { ((daysSinceEpoch % 7 + 7 + 3) % 7) + 1 }

  /// The ISO 8601 week-numbering year and week (`2026-W48`).
  public var isoWeek: (year: Int, week: Int) {
    let thursday = adding(days: 4 - isoWeekday)
    let january1 = CalendarDate(year: thursday.year, month: 1, day: 1)?.daysSinceEpoch ?? 0
    return (thursday.year, (thursday.daysSinceEpoch - january1) / 7 + 1)
  }

  /// The Monday of ISO week `week` of `year`, or `nil` when that week does not exist.
  public static func mondayOf(isoYear year: Int, week: Int) -> CalendarDate? {
    guard let january4 = CalendarDate(year: year, month: 1, day: 4), week >= 1 else { return nil }
    let monday = january4.adding(days: 1 - january4.isoWeekday).adding(days: (week - 1) * 7)
    return monday.isoWeek == (year, week) ? monday : nil
  }

  /// `2026-11-20`.
  public var description: String {
    var bytes: [UInt8] = []
    appendISO(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``description`` to `bytes` as UTF-8.
  public func appendISO(to bytes: inout [UInt8]) {
    let count = isoLength
    bytes.append(addingCapacity: count) { output in
      for _ in 0..<count { output.append(0x30) }
      var text = output.mutableSpan
      writeISO(into: &text)
    }
  }

  /// Whether ``description`` is the usual ten bytes: a year of four digits, a month and a day of two.
  @inlinable var isUsualISO: Bool { (0...9999).contains(year) && (0...99).contains(month) && (0...99).contains(day) }

  /// How many bytes ``description`` is (``writeISO(into:)`` fills that many).
  @inlinable public var isoLength: Int { isUsualISO ? 10 : unusualISO.count }

  /// Writes ``description`` into `text` as UTF-8, filling all of it: `text` must be
  /// ``isoLength`` bytes long. Byte writers (the reports' cursor) call this with room they made.
  @inlinable public func writeISO(into text: inout MutableSpan<UInt8>) {
    guard isUsualISO else {
      let bytes = unusualISO
      precondition(text.count == bytes.count, "CalendarDate.writeISO: room is not the text's length")
      for index in bytes.indices { text[index] = bytes[index] }
      return
    }
    // Every real date: ten bytes, digits by constant divisions.
    precondition(text.count == 10, "CalendarDate.writeISO: room is not the text's length")
    func digit(_ value: Int) -> UInt8 { 0x30 &+ UInt8(truncatingIfNeeded: value) }
    text[0] = digit(year / 1000)
    text[1] = digit(year / 100 % 10)
    text[2] = digit(year / 10 % 10)
    text[3] = digit(year % 10)
    text[4] = 0x2D
    text[5] = digit(month / 10)
    text[6] = digit(month % 10)
    text[7] = 0x2D
    text[8] = digit(day / 10)
    text[9] = digit(day % 10)
  }

  /// ``description`` of a year past 9999 or a negative value: each part as printed, zero-padded
  /// in front to its width.
  @usableFromInline var unusualISO: [UInt8] {
    func part(_ value: Int, width: Int) -> [UInt8] {
      var digits: [UInt8] = []
      DecimalText.append(Int64(value), scale: 0, to: &digits)
      return Array(repeating: 0x30, count: max(0, width - digits.count)) + digits
    }
    return part(year, width: 4) + [0x2D] + part(month, width: 2) + [0x2D] + part(day, width: 2)
  }

  public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
    (lhs.storedYear, lhs.storedMonth, lhs.storedDay) < (rhs.storedYear, rhs.storedMonth, rhs.storedDay)
  }
}
