import SplitBillCore
import SplitBillText

/// The suggested settlements written as payment records (`report --record-settlements FILE`): a
/// YAML file that, kept among a report's inputs, marks the transfers as done, so the next report's
/// closing balances are zero (and a later period's opening ones show only what was not paid).
///
/// Each transfer is one payment dated `date` (the period's last day), with an id made of the date,
/// the two people and the currency: the same report always records the same ids, and recording it
/// twice is a duplicate-id error rather than money counted twice.
package enum SettlementRecord {
  /// The file's text for `settlements`, dated `date`; `period` and `sources` are named in its
  /// header comment.
  package static func yaml(_ settlements: [Settlement], date: CalendarDate, period: String?) -> String {
    var lines = [
      "# splitbill: the suggested settlements\(period.map { " of \($0)" } ?? ""), recorded as payments on \(date).",
      "# Delete any transfer that did not happen (or change its amount to what was paid), then keep",
      "# this file among the report's inputs: the transfers left here count as paid.",
      "version: 1",
    ]
    let transfers = settlements.flatMap(\.transfers)
    guard !transfers.isEmpty else {
      return (lines + ["payments: []  # nothing to settle", ""]).joined(separator: "\n")
    }
    lines.append("payments:")
    for transfer in transfers {
      let id = "settle-\(date)-\(transfer.from)-\(transfer.to)-\(transfer.amount.currency.code)"
      lines += [
        "  - id: \(quoted(id))",
        "    date: \(date)",
        "    from: \(quoted(transfer.from))",
        "    to: \(quoted(transfer.to))",
        "    amount: \(transfer.amount.decimalString)",
        "    currency: \(transfer.amount.currency.code)",
      ]
    }
    return (lines + [""]).joined(separator: "\n")
  }

  /// `text` as a YAML double-quoted scalar: `"` and `\` escaped, and every control, line-break
  /// and bidi character written as an escape, so a name reads back exactly and shows safely.
  package static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _
      where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
        || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.isControlOrBidiOverride:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
