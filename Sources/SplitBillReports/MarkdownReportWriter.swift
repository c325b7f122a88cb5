@_spi(ByteWriters) import SplitBillBytes
@_spi(ByteWriters) import SplitBillCore
import SplitBillText

/// GitHub-flavoured Markdown, fit to append to `$GITHUB_STEP_SUMMARY`: settlements, people and
/// totals first, then every bill in a collapsible table. Untrusted text is escaped (the ASCII
/// characters that change rendering backslash-escaped, ``isMarkup(_:)``; line breaks and control
/// characters removed), so a
/// note cannot open a link, an image or HTML.
package struct MarkdownReportWriter<Sink: OutputSink>: ReportWriter {
  private var sink: Sink
  private let bills = SpoolSink()
  private var count = 0

  /// Writes to `sink` when the report finishes.
  package init(sink: Sink) { self.sink = sink }

  package mutating func write(_ reported: ReportedBill) {
    let split = reported.split
    let bill = reported.bill
    let currency = split.currency
    let advice = reported.advice.map { advice in
      " (\(advice.advisor)\(advice.fallback ? ", fallback" : ""): \(Self.escape(advice.reason)))"
    }
    // Escaped text at most doubles; numbers are at most 32 bytes.
    var room =
      512 + 2 * (bill.id.utf8.count + (bill.description?.utf8.count ?? 0) + (split.paidByText?.utf8.count ?? 0))
    room += advice?.utf8.count ?? 0
    let headCountNote = split.headCountPayerNote.map { "<br>**" + Self.escape($0) + "**" }
    room += headCountNote?.utf8.count ?? 0
    for share in split.shares { room += 128 + 2 * share.person.utf8.count }
    // An itemized bill: its receipt under the description, each share's breakdown beside it.
    let receipt = split.isItemized ? split.receipt : nil
    let receiptCell = receipt.map { "<br>" + Self.escape(ReceiptText.summary($0)) }
    let breakdowns =
      receipt.map { receipt in
        split.shares.indices.map {
          " (" + Self.escape(ReceiptText.breakdown(receipt, share: split.shares[$0], index: $0)) + ")"
        }
      } ?? []
    room += receiptCell?.utf8.count ?? 0
    for text in breakdowns { room += text.utf8.count }
    bills.append { bytes in
      bytes.append(atMost: room) { out in
        func money(_ units: Int64) { DecimalText.write(units, scale: currency.exponent, to: &out) }
        out.write("| ")
        Self.writeEscaped(bill.id, to: &out)
        out.write(" | ")
        bill.date?.writeISO(to: &out)
        out.write(" | ")
        if let description = bill.description { Self.writeEscaped(description, to: &out) }
        if let receiptCell { out.write(utf8: receiptCell) }
        out.write(" | ")
        currency.writeCode(to: &out)
        out.write(" | ")
        money(split.amount.minorUnits)
        out.write(" | ")
        if let percent = split.tipPercent {
          DecimalText.writeTrimmed(percent.tenThousandths, scale: Percent.scale, to: &out)
          out.write("% ")
        }
        money(split.tip.minorUnits)
        if let advice { out.write(utf8: advice) }
        out.write(" | ")
        money(split.total.minorUnits)
        out.write(" | ")
        if let payer = split.paidByText { Self.writeEscaped(payer, to: &out) }
        if let headCountNote { out.write(utf8: headCountNote) }
        out.write(" | ")
        out.write(utf8: split.leftoverPolicy.rawValue)
        out.write(" | ")
        for (index, share) in split.shares.enumerated() {
          if index > 0 { out.write("<br>") }
          Self.writeEscaped(share.person, to: &out)
          out.write(0x20)
          money(share.amount.minorUnits)
          if share.weight != .one {
            out.write(" ×")
            DecimalText.writeTrimmed(share.weight.tenThousandths, scale: 4, to: &out)
          }
          if share.absorbed > 0 {
            out.write(" **+")
            money(Int64(share.absorbed))
            out.write("**")
          }
          if !breakdowns.isEmpty { out.write(utf8: breakdowns[index]) }
        }
        out.write(" |\n")
      }
    }
    count += 1
  }

  package mutating func finish(_ summary: ReportSummary) {
    var out = ["## " + Self.escape(summary.heading), ""]
    var line = "**\(plural(summary.billCount, "bill"))**"
    if !summary.payments.isEmpty { line += ", **\(plural(summary.payments.count, "payment"))**" }
    line += " in \(plural(summary.totals.count, "currency", "currencies"))"
    if let period = summary.period { line += " · period \(period)" }
    if !summary.invalid.isEmpty { line += " · **\(summary.invalidCounts)**" }
    if summary.carriedCount > 0 { line += " · \(summary.carriedCount) carried from before the period" }
    if summary.filteredOut > 0 { line += " · \(summary.filteredOut) after the period left out" }
    if let stamp = summary.stamp { line += " · generated \(stamp)" }
    out += [line, ""]
    if let review = summary.toReviewNote { out += ["> **To review:** \(review).", ""] }
    out += ["### Settle up", ""]
    let incomplete = summary.coverage.note()
    if let incomplete { out += ["> **Incomplete:** \(incomplete); settling now would be wrong.", ""] }
    for paragraph in SettleUpWords.paragraphs(summary, escape: { MarkdownReportWriter<StringSink>.escape($0) }) {
      out += [paragraph.text, ""]
    }
    let payments = SettleUpWords.paymentLines(summary, escape: { MarkdownReportWriter<StringSink>.escape($0) })
    if !payments.isEmpty { out += payments.map { "- " + $0 } + [""] }
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
          "\($0.currency.code): \(SettleUpWords.method($0.method)) (\($0.transfers.count))"
        }
        .joined(separator: " · "))
    }
    for cash in summary.cash {
      out += ["", ConversionRows.cashMethod(cash), ""]
      let rows = ConversionRows.residues(cash)
      if rows.isEmpty {
        out.append("No residues: every balance was a multiple.")
      } else {
        out += Self.head(ConversionRows.residueHeadings, right: [1])
        for row in rows { out.append(Self.row(row)) }
      }
    }
    for category in CategoryTable.tables(summary) {
      out += ["", "### By category: \(Self.escape(category.title))", ""]
      let fixed = ["Category", "Bills", "Total", "Share"]
      out.append(Self.row(fixed + category.people))
      out.append("| --- |" + String(repeating: " ---: |", count: category.headings.count - 1))
      for row in category.rows { out.append(Self.row(row)) }
    }
    if let conversion = summary.conversion {
      out += ["", "### Settled in \(conversion.currency.code)", "", ConversionRows.method(conversion), ""]
      out += Self.head(ConversionRows.rateHeadings, right: [3])
      for row in ConversionRows.rates(conversion) { out.append(Self.row(row)) }
      out += [""] + Self.head(ConversionRows.balanceHeadings(conversion), right: [2, 3])
      for row in ConversionRows.balances(conversion) { out.append(Self.row(row)) }
    }
    if !summary.people.isEmpty {
      let columns = PeopleColumns(summary)
      let headings = columns.names.map { $0.prefix(1).uppercased() + $0.dropFirst() }
      out += [
        "", "### People", "", "| Person | Currency | " + headings.joined(separator: " | ") + " |",
        "| --- | --- | " + columns.names.map { _ in "---:" }.joined(separator: " | ") + " |",
      ]
      for person in summary.people {
        out.append(
          "| \(Self.escape(person.person)) | \(person.currency.code) | "
            + columns.values(person).joined(separator: " | ") + " |")
      }
    }
    if !summary.payments.isEmpty {
      out += [
        "", "### Payments", "", "| Payment | Date | From | To | Amount | Notes |",
        "| --- | --- | --- | --- | ---: | --- |",
      ]
      for record in summary.payments {
        let payment = record.payment
        out.append(
          "| \(Self.escape(record.id)) | \(record.date?.description ?? "") | \(Self.escape(payment.from)) | "
            + "\(Self.escape(payment.to)) | \(payment.amount.decimalString) \(payment.currency.code) | "
            + "\(Self.escape(record.notes ?? "")) |")
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
        let place = invalid.shownSource
        out.append(
          "| \(Self.escape(place)) | \(Self.escape(invalid.id ?? "")) | \(Self.escape(invalid.diagnostics.map(\.message).joined(separator: "; "))) |"
        )
      }
      if let note = summary.invalidNotListedNote { out += ["", "…" + note + "."] }
    }
    if let explanation = summary.explanation {
      out += ["", "### Why these transfers", ""]
      out += BalanceExplanation.transferLines(summary, escape: { Self.escape($0) }).map { "- " + $0 }
      for balance in explanation.balances(for: summary) {
        out += [
          "", "**\(Self.escape(balance.person)), \(balance.currency.code)**", "",
          "| Date | Record | Paid or sent | Share or received | Balance |", "| --- | --- | ---: | ---: | ---: |",
        ]
        let cells = balance.cells
        for (index, row) in cells.enumerated() {
          // The record is the one untrusted cell; the closing row is bold.
          var shown = row
          shown[1] = Self.escape(row[1])
          if index == cells.count - 1 { shown = shown.map { $0.isEmpty ? $0 : "**\($0)**" } }
          out.append("| " + shown.joined(separator: " | ") + " |")
        }
      }
    }
    out += ["", "<details><summary>Terms</summary>", ""]
    out += SettleUpWords.terms.map { "- **\($0.term)**: \($0.meaning)." }
    out += ["", "</details>"]
    out += [
      "", "<details><summary>\(plural(count, "bill")): shares, with absorbed leftover units in bold</summary>", "",
      "| Bill | Date | Description | Currency | Amount | Tip | Total | Paid by | Leftover | Shares |",
      "| --- | --- | --- | --- | ---: | --- | ---: | --- | --- | --- |",
    ]
    sink.write(out.joined(separator: "\n") + "\n")
    bills.copy(to: &sink)
    sink.write(
      "\n</details>\n\n✅ Reconciled: \(summary.coverage.reconciledScope) shares add up to its total, and balances add up to zero.\n"
    )
  }

  /// Writes ``escape(_:)`` of `text` (at most twice its bytes), decided on the bytes: a Swift
  /// string is valid UTF-8, so the ASCII characters to escape are single bytes, and the C1
  /// controls (`C2 80`…`C2 9F`) and bidi marks (`E2 80 AA`…`AE`, `E2 81 A6`…`A9`) to drop are
  /// told by their first two or three.
  static func writeEscaped(_ text: String, to out: inout ByteCursor) {
    TextBytes.forEachVisible(text) { byte in
      switch byte {
      case 0x0A, 0x0D, 0x09: out.write(0x20)
      case 0x00...0x1F, 0x7F: break
      case _ where isMarkup(byte):
        out.write(0x5C)
        out.write(byte)
      default: out.write(byte)
      }
    }
  }

  /// A table's heading row (each heading capitalised) and its alignment row, the columns in
  /// `right` right-aligned.
  private static func head(_ headings: [String], right: Set<Int>) -> [String] {
    [
      row(headings.map { $0.prefix(1).uppercased() + $0.dropFirst() }),
      "| " + headings.indices.map { right.contains($0) ? "---:" : "---" }.joined(separator: " | ") + " |",
    ]
  }

  /// A table row of escaped cells.
  private static func row(_ cells: [String]) -> String {
    var line = "|"
    for cell in cells { line += " \(escape(cell)) |" }
    return line
  }

  /// The ASCII characters that can change how text inside a table cell or a line renders (GitHub
  /// Flavored Markdown): emphasis and code (`* _ ``), links and images (`[ ]`), HTML and
  /// autolinks (`< >`), entities (`&`), a cell's end (`|`), strikethrough (`~`), math (`$`), a
  /// mention (`@`) and the escape itself (`\`). Each is backslash-escaped; the rest of ASCII
  /// punctuation renders as itself where untrusted text goes (never at a line's start), so a date
  /// stays `2026-06-12`.
  @inline(__always)
  static func isMarkup(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x5C, 0x60, 0x2A, 0x5F, 0x5B, 0x5D, 0x3C, 0x3E, 0x26, 0x7C, 0x7E, 0x24, 0x40: true
    default: false
    }
  }

  /// `text` as literal Markdown inside a table cell or a line (what ``writeEscaped(_:to:)`` writes).
  package static func escape(_ text: String) -> String {
    var out: [UInt8] = []
    out.append(atMost: 2 * text.utf8.count) { writeEscaped(text, to: &$0) }
    return String(decoding: out, as: UTF8.self)
  }
}
