@_spi(ByteWriters) import SplitBillBytes
@_spi(ByteWriters) import SplitBillCore
import SplitBillModel
import SplitBillText

/// One self-contained HTML file: no external assets, no script, works offline. Summary, the
/// settlement list, spending by category, balances per person (now and week by week) and each
/// person's consumption against what they paid, each as an inline SVG chart beside its numbers
/// (``HTMLCharts``); the per-bill table with absorbed leftover units marked, and invalid bills.
/// Every piece of user text is escaped.
package struct HTMLReportWriter<Sink: OutputSink>: ReportWriter {
  private var sink: Sink
  private let bills = SpoolSink()
  private var count = 0
  /// Bills' sources, their paths made safe once per file.
  private var shownSource = ShownSource(escape: { HTMLReportWriter<StringSink>.escape($0) })

  /// Writes to `sink` when the report finishes.
  package init(sink: Sink) { self.sink = sink }

  package mutating func write(_ reported: ReportedBill) {
    let split = reported.split
    let bill = reported.bill
    let currency = split.currency
    let path = shownSource.path(of: bill.source)
    var adviceCell: String?
    if let advice = reported.advice {
      var who = advice.advisor + (advice.model.map { " · " + $0 } ?? "")
      if advice.fallback { who += " · fallback: " + (advice.fallbackReason ?? "no answer") }
      if advice.clamped { who += " · clamped" }
      adviceCell = "<div class=\"advice\">\(Self.escape(who)): \(Self.escape(advice.reason))</div>"
    }
    // Escaped text is at most six times its bytes (`&quot;`); numbers at most 32 bytes.
    var room = 1_024 + path.utf8.count + (adviceCell?.utf8.count ?? 0)
    room += 6 * (bill.id.utf8.count + (bill.description?.utf8.count ?? 0) + (split.paidByText?.utf8.count ?? 0))
    for share in split.shares { room += 256 + 6 * share.person.utf8.count }
    // An itemized bill: its receipt under the description, each share's breakdown under it.
    let receipt = split.isItemized ? split.receipt : nil
    let receiptCell = receipt.map { "<div class=\"receipt\">" + Self.escape(ReceiptText.summary($0)) + "</div>" }
    let breakdowns =
      receipt.map { receipt in
        split.shares.indices.map {
          "<div class=\"breakdown\">" + Self.escape(ReceiptText.breakdown(receipt, share: split.shares[$0], index: $0))
            + "</div>"
        }
      } ?? []
    room += receiptCell?.utf8.count ?? 0
    for text in breakdowns { room += text.utf8.count }
    let headCountCell = split.headCountPayerNote.map { "<div class=\"warning\">" + Self.escape($0) + "</div>" }
    room += headCountCell?.utf8.count ?? 0
    bills.append { bytes in
      bytes.append(atMost: room) { out in
        func money(_ units: Int64) { DecimalText.writeGrouped(units, scale: currency.exponent, to: &out) }
        out.write("<tr><td><b>")
        Self.writeEscaped(bill.id, to: &out)
        out.write("</b><div class=\"source\">")
        ShownSource.write(bill.source, path: path, to: &out)
        out.write("</div></td><td>")
        bill.date?.writeISO(to: &out)
        out.write("</td><td>")
        if let description = bill.description { Self.writeEscaped(description, to: &out) }
        if let receiptCell { out.write(utf8: receiptCell) }
        out.write("</td><td class=\"num\">")
        money(split.amount.minorUnits)
        out.write(0x20)
        currency.writeCode(to: &out)
        out.write("</td><td>")
        // Digits, `%`, `.` and words: nothing to escape.
        if let percent = split.tipPercent {
          DecimalText.writeTrimmed(percent.tenThousandths, scale: Percent.scale, to: &out)
          out.write("% ")
        }
        money(split.tip.minorUnits)
        if split.leftoverToTip.minorUnits > 0 {
          out.write(" (incl. ")
          money(split.leftoverToTip.minorUnits)
          out.write(" leftover)")
        }
        if let adviceCell { out.write(utf8: adviceCell) }
        out.write("</td><td class=\"num\">")
        money(split.total.minorUnits)
        out.write("</td><td>")
        if let payer = split.paidByText { Self.writeEscaped(payer, to: &out) } else { out.write("—") }
        if let headCountCell { out.write(utf8: headCountCell) }
        out.write("</td><td>")
        out.write(utf8: split.leftoverPolicy.rawValue)
        out.write("</td><td><ul>")
        for (index, share) in split.shares.enumerated() {
          out.write("<li><span class=\"person\">")
          Self.writeEscaped(share.person, to: &out)
          out.write("</span>")
          if share.weight != .one {
            out.write(" <span class=\"weight\">×")
            DecimalText.writeTrimmed(share.weight.tenThousandths, scale: 4, to: &out)
            out.write("</span>")
          }
          out.write(0x20)
          money(share.amount.minorUnits)
          if share.absorbed > 0 {
            out.write(" <mark title=\"absorbed ")
            DecimalText.write(Int64(share.absorbed), scale: 0, to: &out)
            out.write(share.absorbed == 1 ? " leftover unit\">+" : " leftover units\">+")
            money(Int64(share.absorbed))
            out.write("</mark>")
          }
          if !breakdowns.isEmpty { out.write(utf8: breakdowns[index]) }
          out.write("</li>")
        }
        out.write("</ul></td></tr>\n")
      }
    }
    count += 1
  }

  /// A table of escaped cells; the columns from `numbersFrom` on are numbers (right-aligned).
  static func table(_ headings: [String], _ rows: [[String]], numbersFrom: Int = .max) -> String {
    let head = headings.map { "<th>\(escape($0))</th>" }.joined()
    let body = rows.map { row in
      "<tr>"
        + row.enumerated().map { index, cell in
          index >= numbersFrom ? "<td class=\"num\">\(escape(cell))</td>" : "<td>\(escape(cell))</td>"
        }
        .joined() + "</tr>"
    }
    return "<table><thead><tr>\(head)</tr></thead><tbody>\(body.joined())</tbody></table>"
  }

  package mutating func finish(_ summary: ReportSummary) {
    var out = [
      "<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
      "<title>\(Self.escape(summary.heading))</title>", "<style>\(Self.style)\n\(HTMLCharts.style)</style>", "</head>",
      "<body>", "<h1>\(Self.escape(summary.heading))</h1>",
    ]
    var counted = plural(summary.billCount, "bill")
    if !summary.payments.isEmpty { counted += ", \(plural(summary.payments.count, "payment"))" }
    var facts = ["\(counted) in \(plural(summary.totals.count, "currency", "currencies"))"]
    if let period = summary.period { facts.append("period \(period)") }
    if !summary.invalid.isEmpty {
      facts.append("<b class=\"bad\">\(summary.invalidCounts)</b>")
    }
    if summary.carriedCount > 0 { facts.append("\(summary.carriedCount) carried from before the period") }
    if summary.filteredOut > 0 { facts.append("\(summary.filteredOut) after the period left out") }
    if let stamp = summary.stamp { facts.append("generated \(stamp)") }
    out.append("<p class=\"facts\">\(facts.joined(separator: " · "))</p>")
    if let review = summary.toReviewNote {
      out.append("<p class=\"warning\"><b>To review:</b> \(Self.escape(review))</p>")
    }
    let scope = summary.coverage.reconciledScope
    out.append("<p class=\"ok\">✔ Reconciled: \(scope) shares add up to its total, and balances add up to zero.</p>")

    out.append("<h2>Settle up</h2>")
    let incomplete = summary.coverage.note()
    if let incomplete {
      out.append("<p class=\"bad\"><b>Incomplete:</b> \(Self.escape(incomplete)); settling now would be wrong.</p>")
    }
    for paragraph in SettleUpWords.paragraphs(summary, escape: { HTMLReportWriter<StringSink>.escape($0) }) {
      out.append("<p class=\"words\">\(paragraph.text)</p>")
    }
    for settlement in summary.settlements {
      let method = SettleUpWords.method(settlement.method)
      out.append("<h3>\(settlement.currency.code) <small>\(method)</small></h3>")
      if settlement.transfers.isEmpty {
        out.append("<p>Nothing to settle.</p>")
        continue
      }
      out.append("<ul class=\"transfers\">")
      for transfer in settlement.transfers {
        let how = summary.payees[transfer.to].map { Self.howToPay(transfer, $0, title: summary.heading) } ?? ""
        out.append(
          "<li><b>\(Self.escape(transfer.from))</b> pays <b>\(Self.escape(transfer.to))</b> <span class=\"num\">\(transfer.amount.groupedString) \(settlement.currency.code)</span>\(how)</li>"
        )
      }
      out.append("</ul>")
      if let cash = summary.cash.first(where: { $0.increment.currency == settlement.currency }) {
        out.append("<p>\(Self.escape(ConversionRows.cashMethod(cash)))</p>")
        out.append(Self.table(ConversionRows.residueHeadings, ConversionRows.residues(cash)))
      }
    }
    if let explanation = summary.explanation {
      out.append("<details class=\"explain\"><summary>Why these transfers</summary>")
      out.append("<ul>")
      for line in BalanceExplanation.transferLines(summary, escape: { Self.escape($0) }) {
        out.append("<li>\(line)</li>")
      }
      out.append("</ul>")
      for balance in explanation.balances(for: summary) {
        out.append("<h4>\(Self.escape(balance.person)), \(balance.currency.code)</h4>")
        out.append(
          Self.table(["Date", "Record", "Paid or sent", "Share or received", "Balance"], balance.cells, numbersFrom: 2))
      }
      out.append("</details>")
    }
    let categoryTables = CategoryTable.tables(summary)
    if !categoryTables.isEmpty {
      out.append("<h2 id=\"by-category\">By category</h2>")
      for category in categoryTables {
        out.append("<h3>\(Self.escape(category.title))</h3>")
        out.append(HTMLCharts.spending(category))
      }
    }
    if let conversion = summary.conversion {
      out.append("<h2>Settled in \(conversion.currency.code)</h2>")
      if let incomplete { out.append("<p class=\"bad\"><b>Incomplete:</b> converted \(Self.escape(incomplete))</p>") }
      out.append("<p>\(Self.escape(ConversionRows.method(conversion)))</p>")
      out.append(Self.table(ConversionRows.rateHeadings, ConversionRows.rates(conversion)))
      out.append(Self.table(ConversionRows.balanceHeadings(conversion), ConversionRows.balances(conversion)))
    }

    if !summary.people.isEmpty {
      out.append("<h2>Balances</h2>")
      if let incomplete { out.append("<p class=\"bad\"><b>Incomplete:</b> balances \(Self.escape(incomplete))</p>") }
      let byCurrency = Dictionary(grouping: summary.people, by: \.currency.code)
      for code in byCurrency.keys.sorted() {
        guard let people = byCurrency[code], let currency = people.first?.currency else { continue }
        out.append(HTMLCharts.balances(people, currency: currency))
      }
      for series in summary.weeklyBalances {
        // Past ten years of weeks a line a week is no chart: the tables say it all.
        guard series.mondays.count <= 520 else {
          out.append(
            "<p class=\"note\">\(series.currency.code): \(series.mondays.count) weeks, too many to draw week by week.</p>"
          )
          continue
        }
        out.append(HTMLCharts.timeline(series))
      }
      out.append("<h2>Consumed and paid</h2>")
      for code in byCurrency.keys.sorted() {
        guard let people = byCurrency[code], let currency = people.first?.currency else { continue }
        out.append(HTMLCharts.consumption(people, currency: currency))
      }
      out.append("<h2>People</h2>")
      let columns = PeopleColumns(summary)
      let headings = columns.names.map { "<th>" + $0.prefix(1).uppercased() + $0.dropFirst() + "</th>" }
      out.append("<table><thead><tr><th>Person</th><th>Currency</th>\(headings.joined())</tr></thead><tbody>")
      let closingColumn = columns.names.firstIndex(of: summary.period == nil ? "balance" : "closing")
      for person in summary.people {
        let cells = columns.values(person).enumerated().map { index, value in
          let bad = index == closingColumn && person.closing < 0
          return "<td class=\"num\(bad ? " bad" : "")\">\(value)</td>"
        }
        out.append(
          "<tr><td>\(Self.escape(person.person))</td><td>\(person.currency.code)</td>\(cells.joined())</tr>")
      }
      out.append("</tbody></table>")
    }
    if !summary.payments.isEmpty {
      out.append(
        "<h2>Payments</h2><table><thead><tr><th>Payment</th><th>Date</th><th>From</th><th>To</th><th>Amount</th><th>Notes</th></tr></thead><tbody>"
      )
      for record in summary.payments {
        let payment = record.payment
        out.append(
          "<tr><td>\(Self.escape(record.id))</td><td>\(record.date?.description ?? "")</td><td>\(Self.escape(payment.from))</td><td>\(Self.escape(payment.to))</td><td class=\"num\">\(payment.amount.groupedString) \(payment.currency.code)</td><td>\(Self.escape(record.notes ?? ""))</td></tr>"
        )
      }
      out.append("</tbody></table>")
    }

    out.append("<h2>Totals</h2>")
    out.append(
      "<table><thead><tr><th>Currency</th><th>Bills</th><th>Amounts</th><th>Tips</th><th>Totals</th><th>Shares</th><th>Paid</th><th>Balances</th><th>Absorbed</th></tr></thead><tbody>"
    )
    for totals in summary.totals {
      let money = { (units: Int64) in Money(minorUnits: units, currency: totals.currency).groupedString }
      out.append(
        "<tr><td>\(totals.currency.code)</td><td class=\"num\">\(totals.bills)</td><td class=\"num\">\(money(totals.amounts))</td><td class=\"num\">\(money(totals.tips))</td><td class=\"num\">\(money(totals.totals))</td><td class=\"num\">\(money(totals.shares))</td><td class=\"num\">\(money(totals.paid))</td><td class=\"num\">\(money(totals.balances))</td><td class=\"num\">\(totals.absorbed)</td></tr>"
      )
    }
    out.append("</tbody></table>")
    for totals in summary.totals {
      if let note = totals.leftOutNote { out.append("<p class=\"note\">\(totals.currency.code): \(note)</p>") }
    }

    if !summary.invalid.isEmpty {
      out.append(
        "<h2 class=\"bad\">Invalid bills</h2><table><thead><tr><th>Source</th><th>Bill</th><th>Problem</th></tr></thead><tbody>"
      )
      for invalid in summary.invalid {
        let place = invalid.shownSource
        out.append(
          "<tr><td>\(Self.escape(place))</td><td>\(Self.escape(invalid.id ?? ""))</td><td>\(Self.escape(invalid.diagnostics.map(\.message).joined(separator: "; ")))</td></tr>"
        )
      }
      out.append("</tbody></table>")
      if let note = summary.invalidNotListedNote { out.append("<p class=\"note\">…\(note).</p>") }
    }
    out.append("<details class=\"terms\"><summary>Terms</summary><dl>")
    for (term, meaning) in SettleUpWords.terms { out.append("<dt>\(term)</dt><dd>\(meaning).</dd>") }
    out.append("</dl></details>")
    out.append("<h2>Bills</h2>")
    out.append("<p class=\"note\">Absorbed leftover units are <mark>marked</mark> next to the share.</p>")
    out.append(
      "<table class=\"bills\"><thead><tr><th>Bill</th><th>Date</th><th>Description</th><th>Amount</th><th>Tip</th><th>Total</th><th>Paid by</th><th>Leftover</th><th>Shares</th></tr></thead><tbody>"
    )
    sink.write(out.joined(separator: "\n") + "\n")
    bills.copy(to: &sink)
    sink.write("</tbody></table>\n</body>\n</html>\n")
  }

  /// How `transfer` can be paid, from its receiver's details: the IBAN and BIC, the payment link,
  /// and for a transfer in euros to an IBAN an EPC QR code (``EPCPayment``) a banking app scans,
  /// with what it carries written under it. Without libqrencode the code is replaced by what to
  /// install.
  package static func howToPay(_ transfer: Transfer, _ details: PaymentDetails, title: String) -> String {
    var parts: [String] = []
    if let iban = details.iban {
      var account = "IBAN <span class=\"iban\">\(iban.grouped)</span>"
      if let bic = details.bic { account += " · BIC \(bic.code)" }
      if let holder = details.holder { account += " · \(escape(holder))" }
      parts.append(account)
    }
    if let link = details.link {
      parts.append("<a href=\"\(escape(link))\" rel=\"noopener noreferrer\">\(escape(link))</a>")
    }
    var html = parts.isEmpty ? "" : "<div class=\"pay\">" + parts.joined(separator: " · or ") + "</div>"
    guard let iban = details.iban else { return html }
    let reference = EPCPayment.reference(title: title, from: transfer.from, to: transfer.to)
    guard
      let payload = EPCPayment.payload(
        name: details.holder ?? transfer.to, iban: iban, bic: details.bic, amount: transfer.amount,
        reference: reference)
    else { return html }
    let what = "\(transfer.amount.groupedString) EUR to \(transfer.to), reference “\(reference)”"
    do throws(QRCode.Problem) {
      let code = try QRCode.encode(Array(payload.utf8))
      html +=
        "<figure class=\"qr\">\(code.svg(size: 4 * (code.width + 8), label: escape("EPC payment code: " + what)))"
        + "<figcaption>Scan with a banking app: \(escape(what))</figcaption></figure>"
    } catch {
      html += "<p class=\"warning\">No payment code: \(escape(error.description))</p>"
    }
    return html
  }

  static var style: String {
    """
    body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1b1b1b}
    h1{margin-bottom:.2rem}h2{margin-top:2rem;border-bottom:1px solid #ddd}h3 small{font-weight:normal;color:#666}
    table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.3rem .5rem;vertical-align:top;text-align:left}
    th{background:#f4f4f4}.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
    ul{margin:0;padding-left:1rem}.transfers li{margin:.2rem 0}mark{background:#ffe082;padding:0 .2rem;border-radius:3px}
    .source,.note,.advice,.receipt,.breakdown,figcaption{color:#666;font-size:.85em}.warning{color:#b26a00;font-size:.85em}.bad{color:#c62828}.ok{color:#2e7d32}
    .pay{font-size:.9em}.iban{font-family:ui-monospace,monospace}figure.qr{margin:.4rem 0 .8rem}figure.qr svg{display:block}
    .facts{color:#444}svg text{font:13px system-ui,sans-serif}svg .axis{font-weight:bold}
    """
  }

  /// Writes ``escape(_:)`` of `text` (at most six times its bytes), decided on the bytes as
  /// ``TextBytes/forEachVisible(_:_:)`` explains.
  static func writeEscaped(_ text: String, to out: inout ByteCursor) {
    TextBytes.forEachVisible(text) { byte in
      switch byte {
      case 0x26: out.write("&amp;")
      case 0x3C: out.write("&lt;")
      case 0x3E: out.write("&gt;")
      case 0x22: out.write("&quot;")
      case 0x27: out.write("&#39;")
      case 0x0A, 0x09: out.write(byte)
      case 0x00...0x1F, 0x7F: break
      default: out.write(byte)
      }
    }
  }

  /// `text` safe inside HTML text and attribute values; control characters dropped (what
  /// ``writeEscaped(_:to:)`` writes).
  package static func escape(_ text: String) -> String {
    var out: [UInt8] = []
    out.append(atMost: 6 * text.utf8.count) { writeEscaped(text, to: &$0) }
    return String(decoding: out, as: UTF8.self)
  }
}
