@_spi(ByteWriters) import SplitBillBytes
@_spi(ByteWriters) import SplitBillCore
import SplitBillText

/// One CSV row per share: bill id, date, description, currency, person, weight, share, absorbed,
/// paid_by, `kind` (`bill`; `head-count` for a bill whose diners are a head count, which is in no
/// one's balance: its payer is not paid back) and `category` (empty when the bill has none). After the bills, one row per payment of the period, `kind`
/// `payment`: its id, date, notes as the description, the receiver as `person` and the amount as
/// their `share`, the one who paid as `paid_by` (as a bill of that amount for the receiver alone
/// moves balances, which is what a payment does); weight and category empty, absorbed 0.
///
/// RFC 4180 quoting; cells that a spreadsheet would run as a formula (starting with `=`, `+`, `-`,
/// `@`, tab or carriage return) are prefixed with `'`. Amounts are never negative here, so no
/// number is touched. Rows are written as bytes through a cursor, a bill at a time.
package struct CSVReportWriter<Sink: OutputSink>: ReportWriter {
  private var sink: Sink

  /// Starts the file with its header row.
  package init(sink: Sink) {
    self.sink = sink
    self.sink.write("bill_id,date,description,currency,person,weight,share,absorbed,paid_by,kind,category\r\n")
  }

  package mutating func write(_ bill: ReportedBill) {
    let split = bill.split
    let id = bill.bill.id
    let description = bill.bill.description ?? ""
    let payer = split.paidByCell ?? ""
    let category = bill.bill.category ?? ""
    // A cell is at most its text doubled (every quote doubled), a `'` and two quotes; a number
    // at most 32 bytes.
    let fixed = 2 * (id.utf8.count + description.utf8.count + payer.utf8.count + category.utf8.count) + 99
    var room = 0
    for share in split.shares { room += fixed + 2 * share.person.utf8.count + 128 }
    sink.append { bytes in
      bytes.append(atMost: room) { out in
        for share in split.shares {
          Self.writeCell(id, to: &out)
          out.write(0x2C)
          if let date = bill.bill.date { date.writeISO(to: &out) }
          out.write(0x2C)
          Self.writeCell(description, to: &out)
          out.write(0x2C)
          split.currency.writeCode(to: &out)
          out.write(0x2C)
          Self.writeCell(share.person, to: &out)
          out.write(0x2C)
          // An exact share has no weight: its part is in the JSON report.
          if !split.exactShares { DecimalText.writeTrimmed(share.weight.tenThousandths, scale: 4, to: &out) }
          out.write(0x2C)
          DecimalText.write(share.amount.minorUnits, scale: split.currency.exponent, to: &out)
          out.write(0x2C)
          DecimalText.write(Int64(share.absorbed), scale: 0, to: &out)
          out.write(0x2C)
          Self.writeCell(payer, to: &out)
          // A head-count bill is in no one's balance: `head-count`, not `bill`.
          out.write(split.anonymousDiners ? ",head-count," : ",bill,")
          Self.writeCell(category, to: &out)
          out.write("\r\n")
        }
      }
    }
  }

  package mutating func finish(_ summary: ReportSummary) {
    for record in summary.payments {
      let payment = record.payment
      let cells = [
        Self.cell(record.id), record.date?.description ?? "", Self.cell(record.notes ?? ""), payment.currency.code,
        Self.cell(payment.to), "", payment.amount.decimalString, "0", Self.cell(payment.from), "payment", "",
      ]
      sink.write(cells.joined(separator: ",") + "\r\n")
    }
  }

  /// Writes ``cell(_:)`` of `text` (at most `2 * text + 3` bytes): nearly always the text as it is.
  static func writeCell(_ text: String, to out: inout ByteCursor) {
    if let first = text.utf8.first, !CSVCell.startsFormula(first),
      !text.utf8.contains(where: CSVCell.needsQuotes)
    {
      out.write(utf8: text)
    } else {
      out.write(utf8: cell(text))
    }
  }

  /// `text` safe for a spreadsheet: formula triggers neutralised, quoted when needed.
  package static func cell(_ text: String) -> String { CSVCell.safe(text) }
}
