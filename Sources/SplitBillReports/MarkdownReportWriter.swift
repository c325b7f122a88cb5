import SplitBillCore

/// GitHub-flavoured Markdown, fit to append to `$GITHUB_STEP_SUMMARY`: settlements, people and
/// totals first, then every bill in a collapsible table. Untrusted text is escaped (every ASCII
/// punctuation character backslash-escaped, line breaks and control characters removed), so a
/// note cannot open a link, an image or HTML.
package struct MarkdownReportWriter<Sink: OutputSink>: ReportWriter {
  private var sink: Sink
  private let bills = SpoolSink()
  private var count = 0

  /// Writes to `sink` when the report finishes.
  package init(sink: Sink) { self.sink = sink }

  package mutating func write(_ reported: ReportedBill) {
    let split = reported.split
    var tip = split.tipPercent.map { "\($0) " } ?? ""
    tip += split.tip.decimalString
    if let advice = reported.advice {
      tip += " (\(advice.advisor)\(advice.fallback ? ", fallback" : ""): \(Self.escape(advice.reason)))"
    }
    let shares = split.shares.map { share in
      var text = Self.escape(share.person) + " " + share.amount.decimalString
      if share.weight != .one { text += " ×\(share.weight)" }
      if share.absorbed > 0 {
        text += " **\\+" + Money(minorUnits: Int64(share.absorbed), currency: split.currency).decimalString + "**"
      }
      return text
    }
    let cells = [
      Self.escape(reported.bill.id), reported.bill.date?.description ?? "",
      Self.escape(reported.bill.description ?? ""),
      split.currency.code, split.amount.decimalString, tip, split.total.decimalString,
      Self.escape(split.payer ?? ""), split.leftoverPolicy.rawValue, shares.joined(separator: "<br>"),
    ]
    bills.write("| " + cells.joined(separator: " | ") + " |\n")
    count += 1
  }

  package mutating func finish(_ summary: ReportSummary) {
    var out = ["## splitbill report", ""]
    var line = "**\(plural(summary.billCount, "bill"))** in \(plural(summary.totals.count, "currency", "currencies"))"
    if let period = summary.period { line += " · period \(period)" }
    if !summary.invalid.isEmpty { line += " · **\(plural(summary.invalid.count, "invalid bill"))**" }
    if summary.filteredOut > 0 { line += " · \(summary.filteredOut) outside the period" }
    if let stamp = summary.stamp { line += " · generated \(stamp)" }
    out += [line, "", "### Settle up", ""]
    let transfers = summary.settlements.flatMap { settlement in settlement.transfers.map { (settlement, $0) } }
    if transfers.isEmpty {
      out.append("Nothing to settle: every balance is zero.")
    } else {
      out += ["| From | To | Amount |", "| --- | --- | ---: |"]
      for (settlement, transfer) in transfers {
        out.append(
          "| \(Self.escape(transfer.from)) | \(Self.escape(transfer.to)) | \(transfer.amount.decimalString) \(settlement.currency.code) |"
        )
      }
      out.append("")
      out.append(
        summary.settlements.map {
          "\($0.currency.code): \($0.method == .minimal ? "fewest transfers" : "greedy") (\($0.transfers.count))"
        }
        .joined(separator: " · "))
    }
    if !summary.people.isEmpty {
      out += [
        "", "### People", "", "| Person | Currency | Consumed | Paid | Balance | Absorbed |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
      ]
      for person in summary.people {
        let money = { (units: Int64) in Money(minorUnits: units, currency: person.currency).decimalString }
        out.append(
          "| \(Self.escape(person.person)) | \(person.currency.code) | \(money(person.consumed)) | \(money(person.paid)) | \(money(person.balance)) | \(person.absorbed) |"
        )
      }
    }
    out += [
      "", "### Totals", "", "| Currency | Bills | Amounts | Tips | Totals | Shares | Paid | Balances | Absorbed |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for totals in summary.totals {
      let money = { (units: Int64) in Money(minorUnits: units, currency: totals.currency).decimalString }
      out.append(
        "| \(totals.currency.code) | \(totals.bills) | \(money(totals.amounts)) | \(money(totals.tips)) | \(money(totals.totals)) | \(money(totals.shares)) | \(money(totals.paid)) | \(money(totals.balances)) | \(totals.absorbed) |"
      )
    }
    for totals in summary.totals {
      if let note = totals.leftOutNote { out += ["", "\(totals.currency.code): \(note)."] }
    }
    if !summary.invalid.isEmpty {
      out += ["", "### Invalid bills", "", "| Source | Bill | Problem |", "| --- | --- | --- |"]
      for invalid in summary.invalid {
        let place = invalid.source.line > 0 ? invalid.source.description : invalid.source.file
        out.append(
          "| \(Self.escape(place)) | \(Self.escape(invalid.id ?? "")) | \(Self.escape(invalid.diagnostics.map(\.message).joined(separator: "; "))) |"
        )
      }
    }
    out += [
      "", "<details><summary>\(plural(count, "bill")): shares, with absorbed leftover units in bold</summary>", "",
      "| Bill | Date | Description | Currency | Amount | Tip | Total | Paid by | Leftover | Shares |",
      "| --- | --- | --- | --- | ---: | --- | ---: | --- | --- | --- |",
    ]
    sink.write(out.joined(separator: "\n") + "\n")
    bills.copy(to: &sink)
    sink.write("\n</details>\n\n✅ Reconciled: every bill's shares add up to its total, and balances add up to zero.\n")
  }

  /// `text` as literal Markdown inside a table cell.
  package static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A, 0x0D, 0x09: out += " "
      case _ where scalar.isControlOrBidiOverride: continue
      case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: out += "\\" + String(scalar)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
