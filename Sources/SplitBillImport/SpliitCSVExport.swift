import SplitBillCore
import SplitBillModel
import SplitBillText

/// Writes a book as the CSV Spliit's Splitwise import reads: Splitwise's "Export as spreadsheet"
/// layout (`Date,Description,Category,Cost,Currency`, then a column per member holding the row's
/// net effect on them: paid minus owed), a blank line and the `Total balance` row.
///
/// Spliit's import takes the member with the largest positive cell as the payer (their share is
/// the cost less their cell, everyone else's the negative of theirs) and a `Payment` row as a
/// reimbursement. So every row has one payer: a bill paid by several is one row per payer, each
/// with the shares that payer covers (``BookExport/coverage(_:)``), `Description (2/3)`; a payment
/// is a `Payment` row. A member named like one of the five columns is written `Name (member)`; a
/// bill whose category is `Payment` or whose description is `Total balance` is written
/// `… (bill)`, and a name or text a spreadsheet would run as a formula gets a `'` before it: each
/// is said. splitbill reads the file back with `import splitwise`.
enum SpliitCSVExport: BookWriter {
  static let fileName = "Spliit import CSV"
  static let appName = "Spliit"
  /// Spliit reads it as a Splitwise export, and so does splitbill.
  static let readBack = ImportSource.splitwise

  static let columns = ["Date", "Description", "Category", "Cost", "Currency"]

  static func write(_ book: ImportedBook, date: CalendarDate) -> ExportedFile {
    let (names, renameRemarks) = BookExport.renamed(book) { person in
      var name = person
      var why: [String] = []
      if columns.contains(where: { $0.lowercased() == name.lowercased() }) {
        name += " (member)"
        why.append("Spliit reads the first five columns by their names")
      }
      if let first = name.utf8.first, CSVCell.startsFormula(first) {
        name = "'" + name
        why.append("a spreadsheet would run a cell starting with = + - @ as a formula")
      }
      return why.isEmpty ? nil : (name, why.joined(separator: ", and "))
    }
    let people = BookExport.everyone(book)
    var guarded = GuardedCells()
    var retitled: [String] = []
    var summaryLike: [String] = []
    func text(_ value: String) -> String { guarded.cell(value) }
    func amount(_ units: Int64, _ currency: Currency) -> String {
      Money(minorUnits: units, currency: currency).decimalString
    }
    /// A row; `cells` holds each member's net effect (the others' is zero).
    func row(_ date: CalendarDate, _ description: String, _ category: String, _ cost: Money, _ cells: [String: Int64])
      -> String
    {
      ([
        "\(date)", text(description), text(category), cost.decimalString, cost.currency.code,
      ] + people.map { amount(cells[$0] ?? 0, cost.currency) }).joined(separator: ",")
    }

    var lines = [(columns + people.map { CSVCell.quoted(names[$0] ?? $0) }).joined(separator: ",")]
    var cut: [String] = []
    var parts = 0
    for bill in book.bills {
      var description = BookExport.title(bill.description, id: bill.id)
      var category = bill.category ?? "General"
      if category.lowercased() == "payment" || ["total balance", "current balance"].contains(description.lowercased()) {
        retitled.append(bill.id)
        if category.lowercased() == "payment" { category += " (bill)" } else { description += " (bill)" }
      }
      let lowered = description.lowercased()
      if lowered.contains("total") || lowered.contains("balance") { summaryLike.append(bill.id) }
      // One row per payer, with the shares that payer covers.
      var rows: [(payer: String, covered: [(String, Int64)])] = []
      for (payer, ower, units) in BookExport.coverage(bill) {
        if let index = rows.firstIndex(where: { $0.payer == payer }) {
          rows[index].covered.append((ower, units))
        } else {
          rows.append((payer, [(ower, units)]))
        }
      }
      if rows.count > 1 {
        cut.append(bill.id)
        parts += rows.count
      }
      for (index, part) in rows.enumerated() {
        var cells: [String: Int64] = [:]
        let cost = part.covered.reduce(Int64(0)) { $0 + $1.1 }
        cells[part.payer, default: 0] += cost
        for (ower, units) in part.covered { cells[ower, default: 0] -= units }
        lines.append(
          row(
            bill.date ?? date, rows.count > 1 ? "\(description) (\(index + 1)/\(rows.count))" : description, category,
            Money(minorUnits: cost, currency: bill.amount.currency), cells))
      }
    }
    for payment in book.payments {
      var cells: [String: Int64] = [:]
      cells[payment.from, default: 0] += payment.amount.minorUnits
      cells[payment.to, default: 0] -= payment.amount.minorUnits
      lines.append(
        row(
          payment.date ?? date, BookExport.title(payment.notes, id: payment.id), "Payment", payment.amount, cells)
      )
    }
    lines.append("")
    for currency in book.currencies {
      let balances = book.balances[currency] ?? [:]
      lines.append(
        (["\(date)", "Total balance", " ", " ", currency.code] + people.map { amount(balances[$0] ?? 0, currency) })
          .joined(separator: ","))
    }

    var remarks = renameRemarks
    if !cut.isEmpty {
      remarks.append(
        ExportRemark(
          .splitBills,
          "\(BookExport.count(cut)) paid by several people \(BookExport.verb(cut.count)) written as \(parts) rows: Spliit takes one payer per "
            + "row, so each payer has a row with the shares they cover (Description (1/2), …); the balances are the same"
        ))
    }
    if !retitled.isEmpty {
      remarks.append(
        ExportRemark(
          .retitled,
          "\(BookExport.count(retitled)) \(BookExport.verb(retitled.count)) written with ' (bill)' after a category 'Payment' or a description 'Total "
            + "balance': Spliit's and Splitwise's readers would take it for a payment or the summary row"))
    }
    if !summaryLike.isEmpty {
      remarks.append(
        ExportRemark(
          .summaryLike,
          "\(BookExport.count(summaryLike)) \(summaryLike.count == 1 ? "has" : "have") 'total' or 'balance' in their description: some versions of Spliit's "
            + "import pass over such rows as the summary row; check them in Spliit after importing"))
    }
    if let remark = guarded.remark(app: "Spliit") { remarks.append(remark) }
    return ExportedFile(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), remarks: remarks, renamed: names)
  }
}
