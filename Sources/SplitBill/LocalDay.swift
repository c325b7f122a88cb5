import SplitBillCore
import SplitBillFiles

extension CalendarDate {
  /// Today in the local time zone (`TZ`), as a cron job or a person at the machine means it.
  public static func localToday() -> CalendarDate {
    let today = SystemCalls.localDate()
    return CalendarDate(year: today.year, month: today.month, day: today.day) ?? CalendarDate(daysSinceEpoch: 0)
  }
}
