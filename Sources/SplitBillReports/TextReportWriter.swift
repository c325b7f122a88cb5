@_spi(ByteWriters) import SplitBillBytes
@_spi(ByteWriters) import SplitBillCore
import SplitBillText

/// The terminal report: who pays whom in plain words first, then each bill with its shares
/// (absorbed leftover units marked; spooled to a temporary file while bills stream by, so memory
/// stays flat), then people, settlements, the terms explained, totals and invalid bills. Untrusted text is sanitized; colour only when asked.
package struct TextReportWriter<Sink: OutputSink>: ReportWriter {
  private var sink: Sink
  private let bills = SpoolSink()
  private let color: Bool
  /// Bills' sources, their paths made safe once per file.
  private var shownSource = ShownSource(escape: TerminalText.sanitize)

  /// The period a filtered report is of, named on its first line.
  private var period: String?

  /// Writes to `sink`; `color` adds ANSI colour (the caller decides: a TTY and no `NO_COLOR`);
  /// `period` (a filtered report's) is named first, before the bills.
  package init(sink: Sink, color: Bool, period: String? = nil) {
    self.sink = sink
    self.color = color
    self.period = period
  }

  /// The first line of a filtered report, once.
  private mutating func namePeriod() {
    guard let period else { return }
    self.period = nil
    sink.write(paint("Bills of \(TerminalText.sanitize(period))", "1") + "\n\n")
  }

  private func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

  package mutating func write(_ reported: ReportedBill) {
    let bill = reported.bill
    let split = reported.split
    let currency = split.currency
    let path = shownSource.path(of: bill.source)
    let id = TerminalText.sanitize(bill.id)
    let description = bill.description.map(TerminalText.sanitize)
    let category = bill.category.map(TerminalText.sanitize)
    let payer = split.paidByText.map(TerminalText.sanitize)
    let headCountNote = split.headCountPayerNote.map(TerminalText.sanitize)
    var adviceLine: String?
    if let advice = reported.advice {
      var text = "  tip \(advice.percent) from the \(advice.advisor) advisor"
      if let model = advice.model { text += " (\(TerminalText.sanitize(model)))" }
      if advice.fallback { text += ", fallback: " + TerminalText.sanitize(advice.fallbackReason ?? "no answer") }
      if advice.clamped { text += ", clamped" }
      adviceLine = text + ": " + TerminalText.sanitize(advice.reason)
    }
    // An itemized bill: its receipt, and under each share its breakdown.
    let receipt = split.isItemized ? split.receipt : nil
    let receiptLine = receipt.map { TerminalText.sanitize(ReceiptText.summary($0)) }
    let breakdownLines =
      receipt.map { receipt in
        split.shares.indices.map {
          TerminalText.sanitize(ReceiptText.breakdown(receipt, share: split.shares[$0], index: $0))
        }
      } ?? []
    var receiptRoom = receiptLine?.utf8.count ?? 0
    for line in breakdownLines { receiptRoom += line.utf8.count + 8 }
    // The shares' table: name, weight (only when some weight is not 1), amount, absorbed mark.
    let weighted = split.exactShares || split.shares.contains { $0.weight != .one }
    var nameWidth = 0
    var weightWidth = 0
    var amountWidth = 0
    var room =
      512 + path.utf8.count + id.utf8.count + (description?.utf8.count ?? 0) + (category?.utf8.count ?? 0)
      + (payer?.utf8.count ?? 0)
    room += (adviceLine?.utf8.count ?? 0) + receiptRoom + (headCountNote?.utf8.count ?? 0)
    for share in split.shares {
      let name = TerminalText.sanitize(share.person)
      nameWidth = max(nameWidth, TerminalText.width(name))
      if let part = split.part(of: share) {
        // An exact share: "part 12.50", its part of the amount before tip.
        weightWidth = max(weightWidth, 5 + DecimalText.groupedLength(part.minorUnits, scale: currency.exponent))
      } else if weighted {
        weightWidth = max(weightWidth, 1 + DecimalText.trimmedLength(share.weight.tenThousandths, scale: 4))
      }
      amountWidth = max(amountWidth, DecimalText.groupedLength(share.amount.minorUnits, scale: currency.exponent))
      room += name.utf8.count + 160
    }
    room += split.shares.count * (nameWidth + weightWidth + amountWidth)
    let color = color
    bills.append { bytes in
      bytes.append(atMost: room) { out in
        func money(_ units: Int64) { DecimalText.writeGrouped(units, scale: currency.exponent, to: &out) }
        if color { out.write("\u{1B}[1m") }
        out.write(utf8: id)
        if color { out.write("\u{1B}[0m") }
        if let date = bill.date {
          out.write("  ")
          date.writeISO(to: &out)
        }
        if let description {
          out.write("  ")
          out.write(utf8: description)
        }
        if let category {
          out.write("  [")
          out.write(utf8: category)
          out.write("]")
        }
        out.write("  (")
        ShownSource.write(bill.source, path: path, to: &out)
        out.write(")\n  ")
        money(split.amount.minorUnits)
        out.write(0x20)
        currency.writeCode(to: &out)
        out.write(" + tip")
        if let percent = split.tipPercent {
          out.write(0x20)
          DecimalText.writeTrimmed(percent.tenThousandths, scale: Percent.scale, to: &out)
          out.write(0x25)
        }
        out.write(0x20)
        money(split.tip.minorUnits)
        out.write(" = ")
        money(split.total.minorUnits)
        out.write(0x20)
        currency.writeCode(to: &out)
        if split.leftoverToTip.minorUnits > 0 {
          out.write(" (incl. ")
          money(split.leftoverToTip.minorUnits)
          out.write(" leftover to tip)")
        }
        if let payer {
          out.write(", paid by ")
          out.write(utf8: payer)
        } else {
          out.write(", no payer")
        }
        out.write(", leftover: ")
        out.write(utf8: split.leftoverPolicy.rawValue)
        out.write(0x0A)
        if let headCountNote {
          out.write(color ? "  \u{1B}[33mnote: " : "  note: ")
          out.write(utf8: headCountNote)
          out.write(color ? "\u{1B}[0m\n" : "\n")
        }
        if let adviceLine {
          out.write(utf8: adviceLine)
          out.write(0x0A)
        }
        if let receiptLine {
          out.write("  ")
          out.write(utf8: receiptLine)
          out.write(0x0A)
        }
        // As `TextTable` lays it out: cells two spaces apart, the last (left-aligned) cell not
        // padded, the trailing spaces of an empty mark trimmed.
        for (index, share) in split.shares.enumerated() {
          let name = TerminalText.sanitize(share.person)
          out.write("    ")
          out.write(utf8: name)
          out.write(spaces: nameWidth - TerminalText.width(name))
          out.write("  ")
          if let part = split.part(of: share) {
            out.write("part ")
            money(part.minorUnits)
            out.write(spaces: weightWidth - 5 - DecimalText.groupedLength(part.minorUnits, scale: currency.exponent))
          } else if weighted {
            out.write("×")
            DecimalText.writeTrimmed(share.weight.tenThousandths, scale: 4, to: &out)
            out.write(spaces: weightWidth - 1 - DecimalText.trimmedLength(share.weight.tenThousandths, scale: 4))
          }
          out.write("  ")
          out.write(spaces: amountWidth - DecimalText.groupedLength(share.amount.minorUnits, scale: currency.exponent))
          money(share.amount.minorUnits)
          if share.absorbed > 0 {
            out.write(color ? "  \u{1B}[33m◀ +" : "  ◀ +")
            money(Int64(share.absorbed))
            out.write(color ? " absorbed\u{1B}[0m" : " absorbed")
          }
          out.write(0x0A)
          if !breakdownLines.isEmpty {
            out.write("      ")
            out.write(utf8: breakdownLines[index])
            out.write(0x0A)
          }
        }
        out.write(0x0A)
      }
    }
  }

  package mutating func finish(_ summary: ReportSummary) {
    namePeriod()
    // Who pays whom, first: what the people who have to pay read.
    let paragraphs = SettleUpWords.paragraphs(summary, escape: TerminalText.sanitize)
    if !paragraphs.isEmpty {
      var top = [paint("Who pays whom", "1")]
      if let incomplete = summary.coverage.note() {
        top.append("  " + paint("Incomplete", "1;31") + ": balances " + incomplete + "; settling now would be wrong")
      }
      top += paragraphs.map { "  " + $0.text }
      top += SettleUpWords.paymentLines(summary, escape: TerminalText.sanitize).map { "  " + $0 }
      sink.write(top.joined(separator: "\n") + "\n\n")
    }
    bills.copy(to: &sink)
    var lines: [String] = []
    if let period = summary.period { lines.append("Period: \(period)") }
    var counts = "\(plural(summary.billCount, "bill"))"
    if !summary.payments.isEmpty { counts += ", \(plural(summary.payments.count, "payment"))" }
    counts += " in \(plural(summary.totals.count, "currency", "currencies"))"
    if !summary.invalid.isEmpty { counts += ", \(summary.invalidCounts) left out" }
    if summary.carriedCount > 0 { counts += ", \(summary.carriedCount) carried from before the period" }
    if summary.filteredOut > 0 { counts += ", \(summary.filteredOut) after the period left out" }
    lines.append(paint("Summary", "1") + ": " + counts)
    if let review = summary.toReviewNote { lines.append("  " + paint("To review", "1;33") + ": " + review) }

    if !summary.payments.isEmpty {
      lines += ["", paint("Payments", "1")]
      var table = TextTable(alignments: [.left, .left, .left, .left, .left, .right, .left])
      for record in summary.payments {
        let payment = record.payment
        table.rows.append([
          TerminalText.sanitize(record.id), record.date?.description ?? "", TerminalText.sanitize(payment.from),
          "paid", TerminalText.sanitize(payment.to), payment.amount.groupedString, payment.currency.code,
        ])
      }
      lines += table.lines(indent: "  ")
    }

    let incomplete = summary.coverage.note()
    if !summary.people.isEmpty {
      lines += ["", paint("People", "1")]
      if let incomplete { lines.append("  " + paint("Incomplete", "1;31") + ": balances " + incomplete) }
      let columns = PeopleColumns(summary)
      var table = TextTable(alignments: [.left, .left] + columns.names.map { _ in .right })
      table.rows.append(["", ""] + columns.names)
      for person in summary.people {
        table.rows.append(
          [TerminalText.sanitize(person.person), person.currency.code] + columns.values(person))
      }
      lines += table.lines(indent: "  ")
    }

    let categoryTables = CategoryTable.tables(summary)
    if !categoryTables.isEmpty {
      lines += ["", paint("By category", "1")]
      for category in categoryTables {
        lines.append("  \(category.title):")
        var table = TextTable(alignments: [.left] + category.headings.dropFirst().map { _ in .right })
        table.rows.append(category.headings.map(TerminalText.sanitize))
        table.rows += category.rows.map { $0.map(TerminalText.sanitize) }
        lines += table.lines(indent: "    ", trimmed: true)
      }
    }

    if let conversion = summary.conversion {
      lines += ["", paint("Settled in \(conversion.currency.code)", "1")]
      if let incomplete { lines.append("  " + paint("Incomplete", "1;31") + ": converted " + incomplete) }
      lines.append("  " + ConversionRows.method(conversion))
      lines.append("  Rates used:")
      var rates = TextTable(alignments: [.left, .left, .left, .right])
      rates.rows.append(ConversionRows.rateHeadings)
      rates.rows += ConversionRows.rates(conversion).map { $0.map(TerminalText.sanitize) }
      if conversion.rates.isEmpty {
        lines.append("    none: every record was in \(conversion.currency.code)")
      } else {
        lines += rates.lines(indent: "    ")
      }
      lines.append("  Converted balances:")
      var balances = TextTable(alignments: [.left, .left, .right, .right])
      balances.rows.append(ConversionRows.balanceHeadings(conversion))
      balances.rows += ConversionRows.balances(conversion).map { $0.map(TerminalText.sanitize) }
      lines += balances.lines(indent: "    ", trimmed: true)
    }

    lines += ["", paint("Settle up", "1")]
    if let incomplete {
      lines.append("  " + paint("Incomplete", "1;31") + ": " + incomplete + "; settling now would be wrong")
    }
    if summary.settlements.isEmpty { lines.append("  no bills, nothing to settle") }
    for settlement in summary.settlements {
      let method = SettleUpWords.method(settlement.method)
      lines.append("  \(settlement.currency.code) (\(method)):")
      if settlement.transfers.isEmpty { lines.append("    nothing to settle") }
      var table = TextTable(alignments: [.left, .left, .left, .right, .left])
      for transfer in settlement.transfers {
        table.rows.append([
          TerminalText.sanitize(transfer.from), "pays", TerminalText.sanitize(transfer.to),
          transfer.amount.groupedString, settlement.currency.code,
        ])
      }
      lines += table.lines(indent: "    ")
      if let cash = summary.cash.first(where: { $0.increment.currency == settlement.currency }) {
        lines.append("    " + ConversionRows.cashMethod(cash))
        let rows = ConversionRows.residues(cash)
        var residues = TextTable(alignments: [.left, .right])
        residues.rows = [ConversionRows.residueHeadings] + rows.map { $0.map(TerminalText.sanitize) }
        if !rows.isEmpty { lines += residues.lines(indent: "      ") }
      }
    }

    if let explanation = summary.explanation {
      lines += ["", paint("Why these transfers", "1")]
      lines += BalanceExplanation.transferLines(summary, escape: TerminalText.sanitize).map { "  " + $0 }
      for balance in explanation.balances(for: summary) {
        let code = balance.currency.code
        lines.append("  \(TerminalText.sanitize(balance.person)), \(code):")
        // Undated books have no date column.
        let dated = balance.rows.contains { !$0.date.isEmpty }
        var table = TextTable(alignments: dated ? [.left, .left, .left, .right] : [.left, .left, .right])
        if balance.opening != 0 {
          table.rows.append(
            (dated ? [""] : []) + [
              "carried from before the period", "", BalanceExplanation.signed(balance.opening, balance.currency),
            ])
        }
        for row in balance.rows {
          table.rows.append(
            (dated ? [row.date] : []) + [
              TerminalText.sanitize(row.record), BalanceExplanation.effect(row, balance.currency),
              BalanceExplanation.signed(row.running, balance.currency),
            ])
        }
        lines += table.lines(indent: "    ")
        lines.append("    balance \(BalanceExplanation.signed(balance.closing, balance.currency)) \(code)")
      }
    }

    lines += ["", paint("Terms", "1")]
    lines += SettleUpWords.terms.map { "  \($0.term): \($0.meaning)." }

    lines += ["", paint("Totals", "1")]
    var table = TextTable(alignments: [.left, .right, .right, .right, .right, .right, .right, .right])
    table.rows.append(["", "bills", "amounts", "tips", "totals", "shares", "paid", "absorbed"])
    for totals in summary.totals {
      let money = { (units: Int64) in Money(minorUnits: units, currency: totals.currency).groupedString }
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
        // Where the first problem is, as stderr and `check` say it (else where the bill starts).
        let place = invalid.diagnostics.first?.location?.description ?? invalid.shownSource
        let name = invalid.id.map { " " + $0 } ?? ""
        lines.append(
          "  " + TerminalText.sanitize(place + name) + ": "
            + TerminalText.sanitize(invalid.diagnostics.map(\.message).joined(separator: "; ")))
      }
      if let note = summary.invalidNotListedNote { lines.append("  …" + note) }
    }
    if let stamp = summary.stamp { lines += ["", "Generated \(stamp)"] }
    lines += [
      "",
      paint("Reconciled", "32")
        + ": \(summary.coverage.reconciledScope) shares add up to its total, and balances add up to zero in every currency.",
    ]
    sink.write(lines.joined(separator: "\n") + "\n")
  }
}

/// The columns of the people table, in every format: the period's own figures, and the carried
/// balances first and the closing ones last when there is a period, payments when there are any
/// (a report of one batch of bills keeps the table it always had).
struct PeopleColumns {
  let names: [String]
  private let period: Bool
  private let payments: Bool

  init(_ summary: ReportSummary) {
    period = summary.period != nil
    payments = !summary.payments.isEmpty || summary.people.contains { $0.sent != 0 || $0.received != 0 }
    var names = period ? ["opening"] : []
    names += ["consumed", "paid"]
    if payments { names += ["sent", "received"] }
    names.append("balance")
    if period { names.append("closing") }
    names.append("absorbed")
    self.names = names
  }

  /// `person`'s figures under ``names``: money in the currency's digits, absorbed units a count.
  func values(_ person: PersonTotals) -> [String] {
    let money = { (units: Int64) in Money(minorUnits: units, currency: person.currency).groupedString }
    var values = period ? [money(person.opening)] : []
    values += [money(person.consumed), money(person.paid)]
    if payments { values += [money(person.sent), money(person.received)] }
    values.append(money(person.balance))
    if period { values.append(money(person.closing)) }
    values.append(String(person.absorbed))
    return values
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
