import Foundation
import SplitBillCSV
import SplitBillCore
import SplitBillModel
import SplitBillText

/// Reads Splitwise's "Export as spreadsheet" CSV into an ``ImportedBook``.
///
/// The export has one column per member whose cell is the row's **net effect** on that member
/// (paid minus owed). Each expense row becomes a bill whose payer amounts and exact shares give
/// every member exactly that effect:
/// - **one payer** when only one cell is positive: they paid the cost; each member with a negative
///   cell owes its amount, and the payer's own share is the rest (`cost − their cell`);
/// - **several payers** otherwise: the rest (`cost − Σ positive cells`) is what the payers
///   consumed, split evenly among them (largest remainder, the leftmost columns taking the odd
///   cents); each payer paid their cell plus their share.
///
/// A `Payment` row (category in the export's language) becomes payments from each member with a
/// positive cell to each with a negative one, matched in column order. Cells that add up to one
/// minor unit off zero (drift some exports have) are mended on the row's payer (the largest
/// positive cell, the leftmost on a tie), and a note says so; more than one unit off is an error.
/// The `Total balance` row is the checksum: the members' balances from the rows must equal it.
package enum SplitwiseImport {
  /// The words of an export's header, its payment category and its summary row, in one language.
  struct Language {
    var name: String
    /// Date, Description, Category, Cost, Currency: each with the spellings seen.
    var columns: [[String]]
    var payment: [String]
    var totalBalance: [String]
  }

  /// The languages whose exports are recognised, told by the header's first five cells.
  static let languages: [Language] = [
    Language(
      name: "English", columns: [["date"], ["description"], ["category"], ["cost"], ["currency"]],
      payment: ["payment"], totalBalance: ["total balance", "current balance"]),
    Language(
      name: "German", columns: [["datum"], ["beschreibung"], ["kategorie"], ["kosten"], ["währung"]],
      payment: ["zahlung"], totalBalance: ["gesamtsaldo", "gesamtbilanz", "saldo insgesamt", "aktueller saldo"]),
    Language(
      name: "French", columns: [["date"], ["description"], ["catégorie"], ["coût", "montant"], ["devise"]],
      payment: ["paiement", "remboursement"], totalBalance: ["solde total", "bilan total", "solde actuel"]),
    Language(
      name: "Spanish",
      columns: [["fecha"], ["descripción"], ["categoría"], ["costo", "coste"], ["moneda", "divisa"]],
      payment: ["pago"], totalBalance: ["saldo total", "balance total", "saldo actual"]),
    Language(
      name: "Italian", columns: [["data"], ["descrizione"], ["categoria"], ["costo"], ["valuta"]],
      payment: ["pagamento"], totalBalance: ["saldo totale", "bilancio totale", "saldo attuale"]),
    Language(
      name: "Portuguese", columns: [["data"], ["descrição"], ["categoria"], ["custo"], ["moeda"]],
      payment: ["pagamento"], totalBalance: ["saldo total", "balanço total", "saldo atual"]),
    Language(
      name: "Dutch", columns: [["datum"], ["omschrijving"], ["categorie"], ["kosten"], ["valuta"]],
      payment: ["betaling"], totalBalance: ["totaal saldo", "totale balans", "huidig saldo"]),
  ]

  /// Reads the export's bytes. Throws when the file cannot be read as an export at all (not
  /// UTF-8, an unknown header, a quote never closed); every problem of a row is collected instead.
  /// `file` names the export in the diagnostics' locations.
  package static func read(_ bytes: [UInt8], file: String, skipInvalid: Bool = false) throws(Diagnostic) -> ImportResult
  {
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw Diagnostic(
        in: file, .error, .exportNotUTF8, "the file is not UTF-8 text: export it again from Splitwise", line: 1,
        column: 1)
    }
    let table = try CSVTable.export(bytes, file: file, rowHint: "a column per member after Currency")
    let filled = table.rows.indices.filter { !table.rows[$0].isBlank }
    guard let first = filled.first else {
      throw Diagnostic(
        in: file, .error, .splitwiseEmpty, "the file is empty: expected a Splitwise export's header", line: 1, column: 1
      )
    }
    // A friend-page export starts with a note line (`Note: does not include group expenses`)
    // and a blank line before the header: up to three such lines are read as notes.
    var headerIndex = first
    var preamble: [CSVTable.Row] = []
    for index in filled.prefix(4) {
      let row = table.rows[index]
      if (try? Self.language(of: row, in: file)) != nil {
        headerIndex = index
        break
      }
      guard Self.isNoteLine(row) else { break }
      preamble.append(row)
    }
    let header = table.rows[headerIndex]
    let language = try Self.language(of: header, in: file)
    let members = try Self.members(of: header, in: file)
    var reader = Reader(file: file, language: language, members: members, skipInvalid: skipInvalid)
    for row in preamble where headerIndex != first {
      let text = row.cells.map(\.text).filter { !$0.trimmingSpaces.isEmpty }.joined(separator: ",")
      reader.book.remarks.append(
        Diagnostic(
          in: file, .note, .splitwiseNote,
          "the export begins with '\(EchoedText.quote(text))' (a friend-page export holds only the expenses "
            + "between the two of you, not the group's)", line: row.line, column: 1))
    }
    // Blank lines and separator rows (`,,,,,,,`, or cells of spaces) are no rows.
    for row in table.rows[(headerIndex + 1)...] where !row.cells.allSatisfy({ $0.text.trimmingSpaces.isEmpty }) {
      reader.read(row)
    }
    reader.finish()
    return ImportResult(book: reader.book, errors: reader.errors)
  }

  /// `text` as header words and categories are compared: trimmed, NFC, lower case.
  static func folded(_ text: String) -> String {
    let trimmed = text.trimmingSpaces
    if trimmed.utf8.allSatisfy({ $0 < 0x80 }) { return trimmed.lowercased() }
    return trimmed.precomposedStringWithCanonicalMapping.lowercased()
  }

  static func language(of header: CSVTable.Row, in file: String) throws(Diagnostic) -> Language {
    let cells = (0..<5).map { folded(header.cell($0).text) }
    if let language = languages.first(where: { language in
      zip(cells, language.columns).allSatisfy { cell, spellings in spellings.contains(cell) }
    }) {
      return language
    }
    let shown = (0..<min(header.cells.count, 6)).map { header.cell($0).text }.joined(separator: ",")
    throw Diagnostic(
      in: file, .error, .splitwiseHeader,
      "this is not a Splitwise export's header ('\(EchoedText.quote(shown))'): expected Date,Description,Category,"
        + "Cost,Currency and then one column per member (or the same in German, French, Spanish, Italian, "
        + "Portuguese or Dutch)", line: header.line, column: 1)
  }

  /// Whether a row before the header is a note (`Note: does not include group expenses`): text in
  /// its first cell or cells, no amounts, never a header or an expense row.
  static func isNoteLine(_ row: CSVTable.Row) -> Bool {
    let texts = row.cells.map(\.text.trimmingSpaces).filter { !$0.isEmpty }
    guard let first = texts.first else { return false }
    return folded(first).hasPrefix("note") || (texts.count <= 2 && CalendarDate(iso: first.prefix(10)) == nil)
  }

  static func members(of header: CSVTable.Row, in file: String) throws(Diagnostic) -> [String] {
    var cells = Array(header.cells.dropFirst(5))
    while let last = cells.last, last.text.trimmingSpaces.isEmpty { cells.removeLast() }
    guard !cells.isEmpty else {
      throw Diagnostic(
        in: file, .error, .splitwiseNoMembers,
        "the header names no members: expected one column per member after Currency",
        line: header.line, column: header.cell(5).column)
    }
    var names: [String] = []
    var seen: Set<String> = []
    for cell in cells {
      let name = PersonName.normalized(cell.text)
      guard !name.isEmpty else {
        throw Diagnostic(
          in: file, .error, .splitwiseMemberName, "a member column without a name", line: cell.line, column: cell.column
        )
      }
      if let problem = PersonName.importProblem(name) {
        throw Diagnostic(
          in: file, .error, .splitwiseMemberName, "a member column has \(problem)", line: cell.line,
          column: cell.column)
      }
      guard seen.insert(name).inserted else {
        throw Diagnostic(
          in: file, .error, .splitwiseMemberTwice,
          "member '\(EchoedText.quote(name))' has two columns: their rows could not be told apart", line: cell.line,
          column: cell.column)
      }
      names.append(name)
    }
    return names
  }

  /// The rows, one at a time, into a book.
  struct Reader {
    /// The export's path, for the diagnostics' locations.
    let file: String
    let language: Language
    let members: [String]
    let skipInvalid: Bool
    var book = ImportedBook(source: .splitwise)
    var errors: [Diagnostic] = []
    /// The Total balance rows, by currency: each member's cell and where it is.
    var totals: [(currency: Currency, cells: [Int64], row: CSVTable.Row)] = []
    /// Total balance rows that name no currency, read once the rows' currency is known.
    var totalsWithoutCurrency: [CSVTable.Row] = []
    /// What the rows not imported (and the mended drift) change from the totals, by currency.
    var leftOut: [Currency: [Int64]] = [:]
    /// Rows a date has had, for ids.
    var rowsOnDate: [String: Int] = [:]

    init(file: String, language: Language, members: [String], skipInvalid: Bool) {
      self.file = file
      self.language = language
      self.members = members
      self.skipInvalid = skipInvalid
      book.people = members
      book.expectedFrom = "the export's Total balance row"
    }

    func isPayment(_ category: String) -> Bool {
      let folded = SplitwiseImport.folded(category)
      return language.payment.contains(folded) || languages[0].payment.contains(folded)
    }

    func isTotalBalance(_ description: String) -> Bool {
      let folded = SplitwiseImport.folded(description)
      return languages.contains { $0.totalBalance.contains(folded) }
    }

    /// Rows failed before their cells could be read: the checksum cannot take them out.
    var unreadRows = 0

    /// Fails a row; its cells (when read) are taken out of the checksum, which then checks the
    /// rest, skipped or not.
    mutating func fail(_ issue: Diagnostic, cells: [Int64]? = nil, currency: Currency? = nil) {
      errors.append(issue)
      if skipInvalid { book.skipped.append(issue) }
      if let (cells, currency) = cells.flatMap({ cells in currency.map { (cells, $0) } }) ?? rowCells {
        add(cells, to: currency)
      } else {
        unreadRows += 1
      }
    }

    /// The cells of the row being read, once they are: a failure later in the row takes them out.
    var rowCells: ([Int64], Currency)?

    mutating func add(_ cells: [Int64], to currency: Currency) {
      var sums = leftOut[currency] ?? Array(repeating: 0, count: members.count)
      for index in sums.indices { sums[index] += cells[index] }
      leftOut[currency] = sums
    }

    mutating func read(_ row: CSVTable.Row) {
      rowCells = nil
      let dateCell = row.cell(0)
      let description = row.cell(1).text.trimmingSpaces
      let costCell = row.cell(3)
      // The summary row: `Total balance` (or `Current balance`, or their translations) with no
      // cost. Real exports put the export's date in its Date cell and single spaces in Category
      // and Cost; older ones leave the date empty.
      let isTotal = isTotalBalance(description) && costCell.text.trimmingSpaces.isEmpty
      if !isTotal { book.rowsRead += 1 }
      let width = 5 + members.count
      if row.cells.count > width, row.cells[width...].contains(where: { !$0.text.isEmpty }) {
        let extra = row.cells[width]
        return fail(
          Diagnostic(
            in: file, .error, .csvCellCount,
            "this row has \(row.cells.count) cells but the header has \(width): a cell past the last member's column",
            line: extra.line, column: extra.column))
      }
      let currencyCell = row.cell(4)
      let currency: Currency
      if isTotal, currencyCell.text.trimmingSpaces.isEmpty {
        // A summary row without a currency stands for the rows' one currency: read at the end.
        return totalsWithoutCurrency.append(row)
      }
      do {
        currency = try Currency(code: currencyCell.text.trimmingSpaces.uppercased())
      } catch {
        return fail(
          Diagnostic(
            in: file, .error, .splitwiseCurrency, error.message(field: "currency"), line: currencyCell.line,
            column: currencyCell.column))
      }
      var cells: [Int64] = []
      for index in members.indices {
        let cell = row.cell(5 + index)
        guard let units = amount(cell, currency, negative: true, field: "\(EchoedText.quote(members[index]))'s cell")
        else { return }
        cells.append(units)
      }
      if isTotal {
        totals.append((currency, cells, row))
        return
      }
      rowCells = (cells, currency)
      guard let date = date(dateCell) else { return }
      let money = { (units: Int64) in Money(minorUnits: units, currency: currency).description }
      if costCell.text.trimmingSpaces.isEmpty, cells.allSatisfy({ $0 == 0 }) {
        // A placeholder row (seen as the last row of real exports): no cost, every cell zero.
        book.omitted.append(
          Diagnostic(
            in: file, .note, .splitwiseNoEffect,
            "\(date.map(\.description) ?? "undated") '\(EchoedText.quote(description))': a placeholder row with no "
              + "cost and every member's cell \(Money(minorUnits: 0, currency: currency).decimalString) (no effect on balances)",
            line: row.line, column: 1))
        return
      }
      guard let cost = amount(costCell, currency, negative: true, field: "cost") else { return }
      let sum = cells.reduce(0, +)
      if sum != 0 {
        guard abs(sum) == 1, let payer = cells.indices.max(by: { cells[$0] < cells[$1] }), cells[payer] > 0 else {
          return fail(
            Diagnostic(
              in: file, .error, .splitwiseCellsSum,
              "the members' cells add up to \(money(sum)), not zero: every row's effects must cancel out "
                + "(one \(currency.minorUnitName) of drift is mended, not more)", line: row.line,
              column: row.cell(5).column),
            cells: cells, currency: currency)
        }
        var mended = Array(repeating: Int64(0), count: members.count)
        mended[payer] = sum
        add(mended, to: currency)
        let was = cells[payer]
        cells[payer] -= sum
        book.remarks.append(
          Diagnostic(
            in: file, .note, .splitwiseDrift,
            "the cells add up to \(money(sum)), not zero: \(EchoedText.quote(members[payer]))'s \(Money(minorUnits: was, currency: currency).decimalString) "
              + "is taken as \(Money(minorUnits: cells[payer], currency: currency).decimalString)",
            line: row.line, column: row.cell(5 + payer).column))
      }
      let label = "\(date.map(\.description) ?? "undated") '\(EchoedText.quote(description))' \(money(cost))"
      if cells.allSatisfy({ $0 == 0 }) {
        book.omitted.append(
          Diagnostic(
            in: file, .note, .splitwiseNoEffect,
            cost == 0
              ? "\(label): nothing to import"
              : "\(label): every member's cell is 0.00, an expense one member paid for themselves (no effect on balances)",
            line: row.line, column: 1))
        return
      }
      guard cost != 0 else {
        return fail(
          Diagnostic(
            in: file, .error, .splitwiseZeroCost,
            "the cost is \(money(0)) but the members' cells are not all zero: a row with no cost cannot move balances",
            line: costCell.line, column: costCell.column), cells: cells, currency: currency)
      }
      let credited = cells.filter { $0 > 0 }.reduce(0, +)
      let id = nextID(date)
      let category = row.cell(2).text.trimmingSpaces
      if isPayment(category) {
        guard credited == abs(cost) else {
          return fail(
            Diagnostic(
              in: file, .error, .splitwisePaymentCost,
              "a payment of \(money(cost)) whose cells show \(money(credited)) paid: the positive cells must add up to the cost",
              line: costCell.line, column: costCell.column), cells: cells, currency: currency)
        }
        addPayments(cells, id: id, date: date, currency: currency, notes: description.isEmpty ? nil : description)
        return
      }
      if cost < 0 {
        // A refund: the cells' signs are an expense's reversed. What it moves is written as a
        // bill: the members it credits paid their cells, the members it debits owe theirs.
        let debited = -cells.filter { $0 < 0 }.reduce(0, +)
        guard debited <= -cost else {
          return fail(
            Diagnostic(
              in: file, .error, .splitwiseCost,
              "a refund of \(money(cost)) whose cells debit \(money(debited)): nobody can owe back more than was refunded",
              line: costCell.line, column: costCell.column), cells: cells, currency: currency)
        }
        book.bills.append(
          Self.refund(
            cells: cells, cost: Money(minorUnits: cost, currency: currency), members: members, id: id, date: date,
            description: description.isEmpty ? nil : description, category: category))
        return
      }
      guard credited <= cost else {
        return fail(
          Diagnostic(
            in: file, .error, .splitwiseCost,
            "the members' cells credit \(money(credited)) but the cost is \(money(cost)): nobody can be owed more than was paid",
            line: costCell.line, column: costCell.column), cells: cells, currency: currency)
      }
      book.bills.append(
        Self.bill(
          cells: cells, cost: Money(minorUnits: cost, currency: currency), members: members, id: id, date: date,
          description: description.isEmpty ? nil : description, category: category.nilIfEmpty))
    }

    /// The bill whose payers and shares give each member their cell (see the type's rule).
    static func bill(
      cells: [Int64], cost: Money, members: [String], id: String, date: CalendarDate?, description: String?,
      category: String?
    ) -> ImportedBill {
      let payers = cells.indices.filter { cells[$0] > 0 }
      let rest = cost.minorUnits - payers.reduce(0) { $0 + cells[$1] }
      var own = Array(repeating: Int64(0), count: cells.count)
      let each = rest / Int64(payers.count)
      for (rank, index) in payers.enumerated() {
        own[index] = each + (Int64(rank) < rest % Int64(payers.count) ? 1 : 0)
      }
      let paid =
        payers.count == 1
        ? [ImportedPart(person: members[payers[0]], minorUnits: cost.minorUnits)]
        : payers.map { ImportedPart(person: members[$0], minorUnits: cells[$0] + own[$0]) }
      var shares: [ImportedPart] = []
      for index in cells.indices {
        let share = cells[index] > 0 ? own[index] : -cells[index]
        if share > 0 { shares.append(ImportedPart(person: members[index], minorUnits: share)) }
      }
      return ImportedBill(
        id: id, date: date, description: description, amount: cost, payers: paid, shares: shares, notes: nil,
        comment: nil, category: category)
    }

    /// The bill a refund row (negative cost) moves: whoever the row credits paid their cell, whoever
    /// it debits (those who got the money back) owes theirs; every member gets exactly their cell.
    static func refund(
      cells: [Int64], cost: Money, members: [String], id: String, date: CalendarDate?, description: String?,
      category: String
    ) -> ImportedBill {
      let effects = cells.indices.map { ImportedPart(person: members[$0], minorUnits: cells[$0]) }
      let receivers = effects.filter { $0.minorUnits < 0 }.map(\.person).joined(separator: ", ")
      return ImportedBill.moving(
        effects, refund: cost, id: id, date: date, description: description,
        notes: "Splitwise refund of \(cost)",
        comment: "Splitwise refund of \(cost): \(receivers) got back money that was others' too; written as the "
          + "balances it moves", category: category.nilIfEmpty)
    }

    /// Payments from the positive cells to the negative ones, matched in column order.
    mutating func addPayments(_ cells: [Int64], id: String, date: CalendarDate?, currency: Currency, notes: String?) {
      var owed = cells.indices.filter { cells[$0] > 0 }.map { ($0, cells[$0]) }
      var due = cells.indices.filter { cells[$0] < 0 }.map { ($0, -cells[$0]) }
      var transfers: [(from: Int, to: Int, amount: Int64)] = []
      var giver = 0
      var taker = 0
      while giver < owed.count && taker < due.count {
        let amount = min(owed[giver].1, due[taker].1)
        transfers.append((owed[giver].0, due[taker].0, amount))
        owed[giver].1 -= amount
        due[taker].1 -= amount
        if owed[giver].1 == 0 { giver += 1 }
        if due[taker].1 == 0 { taker += 1 }
      }
      for (number, transfer) in transfers.enumerated() {
        book.payments.append(
          ImportedPayment(
            id: transfers.count == 1 ? id : ImportedBook.id(id, part: number), date: date, from: members[transfer.from],
            to: members[transfer.to], amount: Money(minorUnits: transfer.amount, currency: currency), notes: notes))
      }
    }

    mutating func nextID(_ date: CalendarDate?) -> String {
      let day = date?.description ?? "undated"
      let count = (rowsOnDate[day] ?? 0) + 1
      rowsOnDate[day] = count
      return "sw-\(day)-\(count)"
    }

    /// The cell's amount in minor units, or `nil` after failing the row.
    mutating func amount(_ cell: CSVTable.Cell, _ currency: Currency, negative: Bool, field: String) -> Int64? {
      let text = cell.text.trimmingSpaces
      if text.isEmpty && negative { return 0 }
      do {
        return try Money(parsing: text, currency: currency, allowNegative: negative).minorUnits
      } catch let dot {
        // Some locales' exports write a decimal comma: "30,00".
        if text.contains(","), !text.contains("."),
          let units = try? Money(parsing: text, currency: currency, decimalComma: true, allowNegative: negative)
        {
          return units.minorUnits
        }
        fail(
          Diagnostic(
            in: file, .error, .splitwiseAmount, dot.message(field: field), line: cell.line,
            column: cell.column))
        return nil
      }
    }

    /// The row's date (`nil` inside when the cell is empty), or `nil` after failing the row.
    mutating func date(_ cell: CSVTable.Cell) -> CalendarDate?? {
      let text = cell.text.trimmingSpaces
      if text.isEmpty { return .some(nil) }
      // Dates are YYYY-MM-DD; some exports add a time.
      let day =
        text.count > 10 && [" ", "T"].contains(text[text.index(text.startIndex, offsetBy: 10)])
        ? text.prefix(10) : text[...]
      guard let date = CalendarDate(iso: day) else {
        fail(
          Diagnostic(
            in: file, .error, .splitwiseDate, "date '\(EchoedText.quote(text))' is not a date: expected YYYY-MM-DD",
            line: cell.line, column: cell.column))
        return nil
      }
      return .some(date)
    }

    /// Checks the books against the Total balance rows.
    mutating func finish() {
      for row in totalsWithoutCurrency {
        let currencies = Set(book.bills.map(\.amount.currency) + book.payments.map(\.amount.currency))
        guard currencies.count == 1, let currency = currencies.first else {
          let cell = row.cell(4)
          errors.append(
            Diagnostic(
              in: file, .error, .splitwiseCurrency,
              "the Total balance row names no currency, and the rows have \(currencies.count): give it the currency "
                + "of the balances it shows", line: cell.line, column: cell.column))
          continue
        }
        var cells: [Int64] = []
        for index in members.indices {
          guard
            let units = amount(
              row.cell(5 + index), currency, negative: true, field: "\(EchoedText.quote(members[index]))'s cell")
          else { break }
          cells.append(units)
        }
        if cells.count == members.count { totals.append((currency, cells, row)) }
      }
      let balances = book.balances
      for total in totals {
        var expected: [String: Int64] = [:]
        let left = leftOut[total.currency] ?? Array(repeating: 0, count: members.count)
        for (index, member) in members.enumerated() { expected[member] = total.cells[index] - left[index] }
        var unchecked = false
        for (index, member) in members.enumerated() {
          let have = balances[total.currency]?[member] ?? 0
          guard have != expected[member] else { continue }
          let cell = total.row.cell(5 + index)
          let money = { (units: Int64) in Money(minorUnits: units, currency: total.currency).description }
          guard unreadRows == 0 else {
            // Some failed row's cells are unknown: the difference may be theirs.
            unchecked = true
            book.remarks.append(
              Diagnostic(
                in: file, .warning, .splitwiseTotalBalance,
                "\(EchoedText.quote(member))'s balance from the rows is \(money(have)), the Total balance row says "
                  + "\(money(total.cells[index])); not checked: \(unreadRows) invalid row(s) could not be read",
                line: cell.line, column: cell.column))
            continue
          }
          errors.append(
            Diagnostic(
              in: file, .error, .splitwiseTotalBalance,
              "\(EchoedText.quote(member))'s balance from the rows is \(money(have)) but the Total balance row says "
                + "\(money(total.cells[index]))"
                + (left[index] == 0 ? "" : ", \(money(expected[member] ?? 0)) without the rows skipped or mended")
                + ": \(money(have - (expected[member] ?? 0))) apart (is a row missing from the export?)",
              line: cell.line, column: cell.column))
        }
        // A currency whose difference may be an unread row's is not held against its row: the
        // file is written unchecked, and says so.
        if !unchecked { book.expectedBalances[total.currency] = expected }
      }
      let checked = Set(totals.map(\.currency))
      let unchecked = book.currencies.filter { !checked.contains($0) }
      if totals.isEmpty, !unchecked.isEmpty {
        book.remarks.append(
          Diagnostic(
            in: file, .warning, .splitwiseNoTotal,
            "the export has no Total balance row: nothing checks the imported balances against Splitwise's own"))
      } else if !unchecked.isEmpty {
        let codes = unchecked.map(\.code).joined(separator: ", ")
        book.remarks.append(
          Diagnostic(
            in: file, .warning, .splitwiseNoTotal,
            "no Total balance row for \(codes): \(unchecked.count == 1 ? "its" : "their") balances are not checked "
              + "against the export's own"))
      }
    }
  }
}

extension SplitwiseImport: BookReader {
  package static let exportName = "Splitwise export"
  package static func read(_ bytes: [UInt8], file: String, _ reading: ImportReading) throws(Diagnostic)
    -> ImportResult
  {
    try read(bytes, file: file, skipInvalid: reading.skipInvalid)
  }
}
