import Foundation
import SplitBillCore
import SplitBillModel
import SplitBillText

/// Writes a book as Cospend's project CSV, what its "Import project from CSV" reads
/// (`importCsvProjectStream` in cospend-nc): a members section, the bills, the categories when any
/// bill has one, and the currency (its `exchange_rate` 1 makes it the project's).
///
/// Cospend splits a bill among its owers in proportion to the members' weights, with one payer.
/// Every member is written with weight 1 and every bill cut into even parts
/// (``BookExport/evenParts(_:)``): one Cospend bill per payer and equal share, `what (2/3)`, so
/// each member owes exactly their share. A payment is a bill of the Reimbursement category (-11),
/// from the one who paid, owed by the one paid, as Cospend's own settlement writes it. Notes go in
/// the comment (percent-encoded: Cospend's import decodes it), the bill's id before them.
/// Cospend reads owers as one cell of names split at commas and trimmed: a name with a comma in it
/// is written with a space instead, and said. Text cells that a spreadsheet would run as a formula
/// get a `'` before them (a name too, wherever it is written), and that is said.
enum CospendExport: BookWriter {
  static let fileName = "Cospend project CSV"
  static let appName = "Cospend"
  static let readBack = ImportSource.cospend

  static let billColumns =
    "what,amount,date,timestamp,payer_name,payer_weight,payer_active,owers,repeat,repeatfreq,repeatallactive,"
    + "repeatuntil,categoryid,paymentmode,paymentmodeid,comment,deleted"

  /// Colours Cospend's import accepts (`#` and hex digits), one per member in turn.
  static let colours = ["#0082c9", "#e9322d", "#46ba61", "#eca700", "#a463bf", "#00aaaa", "#c9006b", "#7a7a7a"]

  static func write(_ book: ImportedBook, date: CalendarDate) -> ExportedFile {
    let (names, renameRemarks) = BookExport.renamed(book) { person in
      var name = person
      var why: [String] = []
      if name.contains(",") {
        name = name.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
          .joined(separator: " ")
        if name.isEmpty { name = "member" }
        why.append("Cospend reads a bill's owers as names split at commas")
      }
      if let first = name.utf8.first, CSVCell.startsFormula(first) {
        name = "'" + name
        why.append("a spreadsheet would run a cell starting with = + - @ as a formula")
      }
      return why.isEmpty ? nil : (name, why.joined(separator: ", and "))
    }
    func name(_ person: String) -> String { names[person] ?? person }

    var categories: [String] = []
    for bill in book.bills {
      if let category = bill.category, !categories.contains(category) { categories.append(category) }
    }
    var cells = GuardedCells()

    var lines = ["name,weight,active,color"]
    for (index, person) in BookExport.everyone(book).enumerated() {
      lines.append("\(CSVCell.quoted(name(person))),1,1,\(colours[index % colours.count])")
    }
    lines.append("")
    lines.append(billColumns)
    var cut: [String] = []
    var parts = 0
    for bill in book.bills {
      let pieces = BookExport.evenParts(bill)
      if pieces.count > 1 {
        cut.append(bill.id)
        parts += pieces.count
      }
      let what = BookExport.title(bill.description, id: bill.id)
      let category = bill.category.flatMap { categories.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
      for (index, piece) in pieces.enumerated() {
        lines.append(
          row(
            what: cells.cell(pieces.count > 1 ? "\(what) (\(index + 1)/\(pieces.count))" : what),
            amount: Money(minorUnits: piece.total, currency: bill.amount.currency), date: bill.date ?? date,
            payer: name(piece.payer), owers: piece.owers.map(name), category: category,
            comment: comment(id: bill.id, notes: bill.notes)))
      }
    }
    for payment in book.payments {
      lines.append(
        row(
          what: cells.cell(BookExport.title(payment.notes, id: payment.id)), amount: payment.amount,
          date: payment.date ?? date, payer: name(payment.from), owers: [name(payment.to)], category: -11,
          comment: comment(id: payment.id, notes: payment.notes)))
    }
    if !categories.isEmpty {
      lines.append("")
      lines.append("categoryname,categoryid,icon,color")
      for (index, category) in categories.enumerated() {
        lines.append("\(cells.cell(category)),\(index + 1),,\(colours[index % colours.count])")
      }
    }
    lines.append("")
    lines.append("currencyname,exchange_rate")
    if let currency = book.currencies.first { lines.append("\(currency.code),1") }

    var remarks = renameRemarks
    remarks += [BookExport.splitRemark(cut, parts: parts, app: "Cospend"), cells.remark(app: "Cospend")].compactMap {
      $0
    }
    return ExportedFile(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), remarks: remarks, renamed: names)
  }

  /// The comment: the record's id (Cospend has none of its own) and its notes, percent-encoded.
  static func comment(id: String, notes: String?) -> String {
    BookExport.percentEncoded("splitbill id: \(id)" + (notes.map { "; \($0)" } ?? ""))
  }

  /// One bill row; `what` is already a cell.
  static func row(
    what: String, amount: Money, date: CalendarDate, payer: String, owers: [String], category: Int, comment: String
  ) -> String {
    // Noon UTC: the same day in every time zone Cospend's server or phone may be in.
    let timestamp = date.daysSinceEpoch * 86_400 + 43_200
    return [
      what, amount.decimalString, "\(date)", "\(timestamp)", CSVCell.quoted(payer), "1", "1",
      CSVCell.quoted(owers.joined(separator: ",")), "n", "1", "0", "", "\(category)", "n", "0", comment, "0",
    ].joined(separator: ",")
  }
}
