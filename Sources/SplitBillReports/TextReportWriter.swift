import SplitBillCore

/// The terminal report: each bill with its shares (absorbed leftover units marked), then people,
/// settlements, totals and invalid bills. Untrusted text is sanitized; colour only when asked.
package struct TextReportWriter<Sink: OutputSink>: ReportWriter {
  private var sink: Sink
  private let color: Bool

  /// Writes to `sink`; `color` adds ANSI colour (the caller decides: a TTY and no `NO_COLOR`).
  package init(sink: Sink, color: Bool) {
    self.sink = sink
    self.color = color
  }

  private func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

  package mutating func write(_ reported: ReportedBill) {
    let bill = reported.bill
    let split = reported.split
    let code = split.currency.code
    var head = paint(TerminalText.sanitize(bill.id), "1")
    if let date = bill.date { head += "  \(date)" }
    if let description = bill.description { head += "  " + TerminalText.sanitize(description) }
    head += "  (" + TerminalText.sanitize(bill.source.description) + ")"
    var line = "  \(split.amount.decimalString) \(code) + tip"
    if let percent = split.tipPercent { line += " \(percent)" }
    line += " \(split.tip.decimalString) = \(split.total.decimalString) \(code)"
    if split.leftoverToTip.minorUnits > 0 { line += " (incl. \(split.leftoverToTip.decimalString) leftover to tip)" }
    line += ", " + (split.payer.map { "paid by " + TerminalText.sanitize($0) } ?? "no payer")
    line += ", leftover: \(split.leftoverPolicy.rawValue)"
    var lines = [head, line]
    if let advice = reported.advice {
      var text = "  tip \(advice.percent) from the \(advice.advisor) advisor"
      if let model = advice.model { text += " (\(TerminalText.sanitize(model)))" }
      if advice.fallback { text += ", fallback: " + TerminalText.sanitize(advice.fallbackReason ?? "no answer") }
      if advice.clamped { text += ", clamped" }
      lines.append(text + ": " + TerminalText.sanitize(advice.reason))
    }
    var table = TextTable(alignments: [.left, .left, .right, .left])
    let weighted = split.shares.contains { $0.weight != .one }
    for share in split.shares {
      let mark =
        share.absorbed > 0
        ? paint(
          "◀ +" + Money(minorUnits: Int64(share.absorbed), currency: split.currency).decimalString + " absorbed", "33")
        : ""
      table.rows.append([
        TerminalText.sanitize(share.person), weighted ? "×\(share.weight)" : "", share.amount.decimalString, mark,
      ])
    }
    lines += table.lines(indent: "    ", trimmed: true)
    for line in lines {
      sink.write(line)
      sink.write("\n")
    }
    sink.write("\n")
  }

  package mutating func finish(_ summary: ReportSummary) {
    var lines: [String] = []
    if let period = summary.period { lines.append("Period: \(period)") }
    var counts = "\(plural(summary.billCount, "bill")) in \(plural(summary.totals.count, "currency", "currencies"))"
    if !summary.invalid.isEmpty { counts += ", \(plural(summary.invalid.count, "invalid bill")) left out" }
    if summary.filteredOut > 0 { counts += ", \(summary.filteredOut) outside the period" }
    lines.append(paint("Summary", "1") + ": " + counts)

    if !summary.people.isEmpty {
      lines += ["", paint("People", "1")]
      var table = TextTable(alignments: [.left, .left, .right, .right, .right, .right])
      table.rows.append(["", "", "consumed", "paid", "balance", "absorbed"])
      for person in summary.people {
        let money = { (units: Int64) in Money(minorUnits: units, currency: person.currency).decimalString }
        table.rows.append([
          TerminalText.sanitize(person.person), person.currency.code, money(person.consumed), money(person.paid),
          money(person.balance), String(person.absorbed),
        ])
      }
      lines += table.lines(indent: "  ")
    }

    lines += ["", paint("Settle up", "1")]
    if summary.settlements.isEmpty { lines.append("  no bills, nothing to settle") }
    for settlement in summary.settlements {
      let method =
        settlement.method == .minimal ? "fewest transfers" : "greedy: more than \(Settlement.exactLimit) people"
      lines.append("  \(settlement.currency.code) (\(method)):")
      if settlement.transfers.isEmpty { lines.append("    nothing to settle") }
      var table = TextTable(alignments: [.left, .left, .left, .right, .left])
      for transfer in settlement.transfers {
        table.rows.append([
          TerminalText.sanitize(transfer.from), "pays", TerminalText.sanitize(transfer.to),
          transfer.amount.decimalString, settlement.currency.code,
        ])
      }
      lines += table.lines(indent: "    ")
    }

    lines += ["", paint("Totals", "1")]
    var table = TextTable(alignments: [.left, .right, .right, .right, .right, .right, .right, .right])
    table.rows.append(["", "bills", "amounts", "tips", "totals", "shares", "paid", "absorbed"])
    for totals in summary.totals {
      let money = { (units: Int64) in Money(minorUnits: units, currency: totals.currency).decimalString }
      table.rows.append([
        totals.currency.code, String(totals.bills), money(totals.amounts), money(totals.tips), money(totals.totals),
        money(totals.shares), money(totals.paid), String(totals.absorbed),
      ])
    }
    lines += table.lines(indent: "  ")
    for totals in summary.totals {
      if let note = totals.leftOutNote { lines.append("  \(totals.currency.code): \(note)") }
    }

    if !summary.invalid.isEmpty {
      lines += ["", paint("Invalid bills", "1;31")]
      for invalid in summary.invalid {
        let place = invalid.source.line > 0 ? invalid.source.description : invalid.source.file
        let name = invalid.id.map { " " + $0 } ?? ""
        lines.append(
          "  " + TerminalText.sanitize(place + name) + ": "
            + TerminalText.sanitize(invalid.diagnostics.map(\.message).joined(separator: "; ")))
      }
    }
    if let stamp = summary.stamp { lines += ["", "Generated \(stamp)"] }
    lines += [
      "",
      paint("Reconciled", "32")
        + ": every bill's shares add up to its total, and balances add up to zero in every currency.",
    ]
    sink.write(lines.joined(separator: "\n") + "\n")
  }
}

extension CurrencyTotals {
  /// Which bills are in the totals but not in people's figures, and why; `nil` when none.
  var leftOutNote: String? {
    var notes: [String] = []
    if anonymousBills > 0 {
      notes.append("\(plural(anonymousBills, "bill")) with anonymous diners left out of people's figures")
    }
    if unpaidBills > 0 { notes.append("\(plural(unpaidBills, "bill")) without a payer left out of balances") }
    return notes.isEmpty ? nil : notes.joined(separator: "; ")
  }
}

/// `3 bills`, `1 bill`; irregular plurals given explicitly.
package func plural(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
  "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
