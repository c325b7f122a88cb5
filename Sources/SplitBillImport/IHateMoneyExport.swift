import SplitBillCore
import SplitBillJSON
import SplitBillModel
import SplitBillText

/// Writes a book as IHateMoney's bills JSON, what its "Import" (Settings → Import, JSON) reads:
/// a list of bills, newest first, each with `what`, `amount`, `currency`, `date`, `payer_name`,
/// `payer_weight`, `owers` and `bill_type` (`import_project` and `Project.import_bills`).
///
/// IHateMoney splits a bill among its owers in proportion to the members' weights, with one payer.
/// Every member is written with weight 1 and every bill cut into even parts (``BookExport/evenParts(_:)``):
/// one IHateMoney bill per payer and equal share, `what (2/3)`, so each member owes exactly their
/// share and every balance is the book's to the cent. A payment is a `Reimbursement` bill from
/// the one who paid, owed by the one paid (IHateMoney 6; older versions take it as a bill, with
/// the same balances). Ids, notes and categories have no place in IHateMoney's bills: a remark
/// says how many are not written.
enum IHateMoneyExport: BookWriter {
  static let fileName = "IHateMoney bills JSON"
  static let appName = "IHateMoney"
  static let readBack = ImportSource.ihatemoney

  static func write(_ book: ImportedBook, date: CalendarDate) -> ExportedFile {
    var entries: [String] = []
    var cut: [String] = []
    var parts = 0
    var unkept: [String] = []
    for bill in book.bills {
      let what = BookExport.title(bill.description, id: bill.id)
      let pieces = BookExport.evenParts(bill)
      if pieces.count > 1 {
        cut.append(bill.id)
        parts += pieces.count
      }
      if bill.notes != nil || bill.category != nil { unkept.append(bill.id) }
      for (index, piece) in pieces.enumerated() {
        entries.append(
          entry(
            what: pieces.count > 1 ? "\(what) (\(index + 1)/\(pieces.count))" : what,
            amount: Money(minorUnits: piece.total, currency: bill.amount.currency), date: bill.date ?? date,
            payer: piece.payer, owers: piece.owers, type: "Expense"))
      }
    }
    for payment in book.payments {
      if payment.notes != nil { unkept.append(payment.id) }
      entries.append(
        entry(
          what: BookExport.title(payment.notes.map { "\($0)" }, id: payment.id), amount: payment.amount,
          date: payment.date ?? date,
          payer: payment.from, owers: [payment.to], type: "Reimbursement"))
    }
    var remarks: [ExportRemark] = []
    if let remark = BookExport.splitRemark(cut, parts: parts, app: "IHateMoney") { remarks.append(remark) }
    if !unkept.isEmpty {
      remarks.append(
        ExportRemark(
          .notKept,
          "IHateMoney bills hold no id, notes or category: those of \(BookExport.count(unkept, "record")) are not written"
        ))
    }
    // IHateMoney lists the newest bill first (its reader takes the file in any order).
    let body = entries.reversed().map { "  " + $0 }.joined(separator: ",\n")
    return ExportedFile(bytes: Array(("[\n" + body + (entries.isEmpty ? "" : "\n") + "]\n").utf8), remarks: remarks)
  }

  static func entry(
    what: String, amount: Money, date: CalendarDate, payer: String, owers: [String], type: String
  ) -> String {
    "{\"what\": \(JSON.quote(what)), \"amount\": \(amount.decimalString), \"currency\": \(JSON.quote(amount.currency.code)), "
      + "\"date\": \"\(date)\", \"payer_name\": \(JSON.quote(payer)), \"payer_weight\": 1.0, "
      + "\"owers\": [\(owers.map(JSON.quote).joined(separator: ", "))], \"bill_type\": \(JSON.quote(type))}"
  }
}
