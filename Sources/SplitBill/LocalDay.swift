import SplitBillCore

#if canImport(Glibc)
  import Glibc
#endif

extension CalendarDate {
  /// Today in the local time zone (`TZ`), as a cron job or a person at the machine means it.
  public static func localToday() -> CalendarDate {
    var now = time(nil)
    var parts = unsafe tm()
    unsafe localtime_r(&now, &parts)
    return unsafe CalendarDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
      ?? CalendarDate(daysSinceEpoch: 0)
  }
}
