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
        "  - id: \(YAMLText.quoted(id))",
        "    date: \(date)",
        "    from: \(YAMLText.quoted(transfer.from))",
        "    to: \(YAMLText.quoted(transfer.to))",
        "    amount: \(transfer.amount.decimalString)",
        "    currency: \(transfer.amount.currency.code)",
      ]
    }
    return (lines + [""]).joined(separator: "\n")
  }
}
