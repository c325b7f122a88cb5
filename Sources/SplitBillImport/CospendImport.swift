import SplitBillCSV
import SplitBillCore
import SplitBillFiles
import SplitBillModel
import SplitBillText

/// Reads Cospend's project export (Nextcloud Cospend, "Export to CSV"; also MoneyBuster's and
/// Cowspent's) into an ``ImportedBook``.
///
/// The export is sections separated by blank lines, each with a header of its own: members
/// (`name,weight,active,color`), bills (`what,amount,date,timestamp,payer_name,payer_weight,
/// payer_active,owers,repeat,…,categoryid,paymentmode,paymentmodeid,comment,deleted`), categories
/// (`categoryname,categoryid,…`), payment modes (`paymentmodename,…`) and currencies
/// (`currencyname,exchange_rate`, the project's own currency first, at rate 1). Every amount is in
/// the project's currency. A bill is split among its owers in proportion to the members' weights
/// (Cospend counts a weight of 0 as 1) and, as in IHateMoney, only each member's balance is
/// rounded, when shown: ``WeightedBills`` writes whole-unit shares that give exactly those
/// balances, rounded half away from zero as PHP and JavaScript round. Bills in the trash
/// (`deleted` 1) are left out with a note; a bill of the Reimbursement category (-11) is a
/// payment. Older mobile exports list members as `deleteMeIfYouWant` bills; they are read as
/// members.
package enum CospendImport {
  package static func read(
    _ export: [UInt8], file: String, currency fallback: Currency? = nil, skipInvalid: Bool = false
  ) throws(Diagnostic) -> ImportResult {
    let bytes = Array(ByteOrderMark.dropped(from: export))
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw Diagnostic(
        in: file, .error, .exportNotUTF8, "the file is not UTF-8 text: export it again from Cospend", line: 1,
        column: 1)
    }
    let table = try CSVTable.export(bytes, file: file)
    guard table.rows.contains(where: { !$0.isBlank }) else {
      throw Diagnostic(
        in: file, .error, .cospendEmpty, "the file is empty: expected Cospend's project export", line: 1, column: 1)
    }
    let sections = Section.split(table.rows)
    guard let bills = sections.first(where: { $0.kind == .bills }) else {
      let first = table.rows.first { !$0.isBlank }
      throw Diagnostic(
        in: file, .error, .cospendHeader,
        "no bills section: expected Cospend's project export, whose bills start with the header "
          + "what,amount,date,timestamp,payer_name,payer_weight,payer_active,owers,…", line: first?.line ?? 1,
        column: 1)
    }
    var reader = Reader(file: file, skipInvalid: skipInvalid)
    for section in sections where section.kind == .members { reader.readMembers(section) }
    for section in sections where section.kind == .categories { reader.readCategories(section) }
    for section in sections where section.kind == .paymentModes { reader.readPaymentModes(section) }
    try reader.readCurrency(sections.first { $0.kind == .currencies }, fallback: fallback)
    reader.readBills(bills)
    try reader.finish()
    return ImportResult(book: reader.book, errors: reader.errors)
  }

  /// One section of the export: its header's column names and its rows.
  struct Section {
    enum Kind { case members, bills, categories, paymentModes, currencies, unknown }
    var kind: Kind
    var header: CSVTable.Row
    var columns: [String: Int]
    var rows: [CSVTable.Row]

    /// The sections, told by their header's first column; a blank line ends one.
    static func split(_ rows: [CSVTable.Row]) -> [Section] {
      var sections: [Section] = []
      var current: Section?
      for row in rows {
        if row.isBlank {
          if let done = current { sections.append(done) }
          current = nil
          continue
        }
        if var section = current {
          section.rows.append(row)
          current = section
          continue
        }
        var columns: [String: Int] = [:]
        for (index, cell) in row.cells.enumerated() where columns[cell.text.trimmingSpaces.lowercased()] == nil {
          columns[cell.text.trimmingSpaces.lowercased()] = index
        }
        let kind: Kind =
          switch row.cell(0).text.trimmingSpaces.lowercased() {
          case "name" where columns["weight"] != nil: .members
          case "what" where columns["amount"] != nil: .bills
          case "categoryname": .categories
          case "paymentmodename": .paymentModes
          case "currencyname": .currencies
          default: .unknown
          }
        current = Section(kind: kind, header: row, columns: columns, rows: [])
      }
      if let done = current { sections.append(done) }
      return sections
    }

    func cell(_ row: CSVTable.Row, _ name: String) -> CSVTable.Cell? {
      columns[name].map { row.cell($0) }
    }
  }

  /// Cospend's own categories, by id (its `Application.php` and the mobile apps' `DBBill`).
  static let builtInCategories: [Int: String] = [
    -1: "Groceries", -2: "Leisure", -3: "Rent", -4: "Bills", -5: "Culture", -6: "Health", -10: "Shopping",
    -11: "Reimbursement", -12: "Restaurant", -13: "Accommodation", -14: "Transport", -15: "Sport",
  ]
  /// The Reimbursement category: such a bill is a transfer between members.
  static let reimbursementCategory = -11
  /// Payment modes, by the old letter and the new id.
  static let paymentModes: [String: String] = [
    "c": "card", "b": "cash", "f": "check", "t": "transfer", "o": "online service",
    "-1": "card", "-2": "cash", "-3": "check", "-4": "transfer", "-5": "online service",
  ]
  static let frequencies: [String: String] = [
    "d": "daily", "w": "weekly", "b": "every two weeks", "s": "twice a month", "m": "monthly", "y": "yearly",
  ]

  /// A comment as Cospend exports it, form-encoded (`pizza+%26+drinks` is `pizza & drinks`); a
  /// `%` not followed by two hexadecimal digits, or bytes that are not UTF-8, are kept as written.
  static func formDecoded(_ text: String) -> String {
    guard text.contains("%") || text.contains("+") else { return text }
    var bytes: [UInt8] = []
    let source = Array(text.utf8)
    var index = 0
    func hex(_ byte: UInt8) -> UInt8? {
      switch byte {
      case 0x30...0x39: byte - 0x30
      case 0x41...0x46: byte - 0x37
      case 0x61...0x66: byte - 0x57
      default: nil
      }
    }
    while index < source.count {
      let byte = source[index]
      if byte == 0x25, index + 2 < source.count, let high = hex(source[index + 1]), let low = hex(source[index + 2]) {
        bytes.append(high << 4 | low)
        index += 3
      } else {
        bytes.append(byte == 0x2B ? 0x20 : byte)
        index += 1
      }
    }
    return String(validating: bytes, as: UTF8.self) ?? text
  }

  struct Refusal: Error {
    var code: ImportCode
    var message: String
    var cell: CSVTable.Cell?
  }

  struct Reader {
    let file: String
    let skipInvalid: Bool
    var book = ImportedBook(source: .cospend)
    var errors: [Diagnostic] = []
    var weights: [String: Int64] = [:]
    var members: [String] = []
    var categories: [Int: String] = CospendImport.builtInCategories
    var paymentModes: [String: String] = CospendImport.paymentModes
    var currency: Currency?
    var bills: [WeightedBills.Bill] = []
    var billsOnDate: [String: Int] = [:]
    /// Members named on a bill but not in the members' table, each once.
    var unlisted: [String] = []

    init(file: String, skipInvalid: Bool) {
      self.file = file
      self.skipInvalid = skipInvalid
    }

    /// A weight as Cospend writes it (`1`, `1.5`); 0 counts as 1, as Cospend counts it.
    static func weight(_ text: String) -> Int64? {
      WeightedBills.weight(text).map { $0 == 0 ? WeightedBills.weightUnit : $0 }
    }

    mutating func addMember(_ name: String, weight: Int64?) {
      guard !name.isEmpty else { return }
      if !members.contains(name) { members.append(name) }
      if let weight, weights[name] == nil { weights[name] = weight }
    }

    mutating func readMembers(_ section: Section) {
      for row in section.rows {
        let name = section.cell(row, "name")?.text.trimmingSpaces ?? ""
        let weightText = section.cell(row, "weight")?.text ?? ""
        guard let weight = weightText.trimmingSpaces.isEmpty ? WeightedBills.weightUnit : Self.weight(weightText) else {
          let cell = section.cell(row, "weight")
          errors.append(
            Diagnostic(
              in: file, .error, .cospendWeight,
              "\(EchoedText.quote(name))'s weight '\(EchoedText.quote(weightText))' is not a number of zero or more",
              line: cell?.line ?? row.line, column: cell?.column ?? 1))
          continue
        }
        addMember(name, weight: weight)
      }
    }

    mutating func readCategories(_ section: Section) {
      for row in section.rows {
        guard let id = section.cell(row, "categoryid").flatMap({ Int($0.text.trimmingSpaces) }),
          let name = section.cell(row, "categoryname")?.text.trimmingSpaces, !name.isEmpty
        else { continue }
        categories[id] = name
      }
    }

    mutating func readPaymentModes(_ section: Section) {
      for row in section.rows {
        guard let id = section.cell(row, "paymentmodeid")?.text.trimmingSpaces, !id.isEmpty,
          let name = section.cell(row, "paymentmodename")?.text.trimmingSpaces, !name.isEmpty
        else { continue }
        paymentModes[id] = name
      }
    }

    /// The project's currency: the currencies section's first row (rate 1) when it names one
    /// (an ISO code, or a symbol only one currency uses), else `fallback`.
    mutating func readCurrency(_ section: Section?, fallback: Currency?) throws(Diagnostic) {
      let row = section?.rows.first
      let name = row.flatMap { section?.cell($0, "currencyname")?.text.trimmingSpaces } ?? ""
      if let fallback {
        currency = fallback
        return
      }
      if let known = SpliitImport.currency(ofSymbol: name.uppercased()) ?? SpliitImport.currency(ofSymbol: name) {
        currency = known
        return
      }
      throw Diagnostic(
        in: file, .error, .cospendCurrency,
        (name.isEmpty
          ? "the export names no currency (no currencies section)"
          : "the project's currency '\(EchoedText.quote(name))' is no ISO code or symbol of one currency")
          + ": give it with --currency, such as --currency EUR", line: row?.line ?? 1, column: 1)
    }

    mutating func readBills(_ section: Section) {
      for row in section.rows {
        let what = section.cell(row, "what")?.text ?? ""
        // An older mobile export's member row.
        if what == "deleteMeIfYouWant" {
          addMember(
            section.cell(row, "payer_name")?.text.trimmingSpaces ?? "",
            weight: section.cell(row, "payer_weight").flatMap { Self.weight($0.text) })
          continue
        }
        book.rowsRead += 1
        do throws(Refusal) {
          if let bill = try bill(row, section) { bills.append(bill) }
        } catch {
          let issue = Diagnostic(
            in: file, .error, error.code, error.message, line: error.cell?.line ?? row.line,
            column: error.cell?.column ?? 1)
          errors.append(issue)
          if skipInvalid { book.skipped.append(issue) }
        }
      }
    }

    func required(_ row: CSVTable.Row, _ section: Section, _ name: String, _ code: ImportCode) throws(Refusal)
      -> CSVTable.Cell
    {
      guard let cell = section.cell(row, name), !cell.text.trimmingSpaces.isEmpty else {
        throw Refusal(code: code, message: "no \(name): every bill of the export has one", cell: nil)
      }
      return cell
    }

    mutating func bill(_ row: CSVTable.Row, _ section: Section) throws(Refusal) -> WeightedBills.Bill? {
      let what = section.cell(row, "what")?.text ?? ""
      let label = "'\(EchoedText.quote(what))'"
      if section.cell(row, "deleted")?.text.trimmingSpaces == "1" {
        book.omitted.append(
          Diagnostic(
            in: file, .note, .cospendDeleted, "\(label) is in Cospend's trash (deleted): left out", line: row.line,
            column: 1))
        return nil
      }
      guard let currency else { return nil }
      let amountCell = try required(row, section, "amount", .cospendAmount)
      guard let amount = WeightedBills.amount(amountCell.text, in: currency) else {
        throw Refusal(
          code: .cospendAmount,
          message: "amount '\(EchoedText.quote(amountCell.text))' is not an amount in \(currency.code) (at most "
            + "\(currency.exponent) decimals)", cell: amountCell)
      }
      let date: CalendarDate
      if let cell = section.cell(row, "date"), !cell.text.trimmingSpaces.isEmpty {
        guard let day = CalendarDate(iso: cell.text.trimmingSpaces) else {
          throw Refusal(
            code: .cospendDate, message: "date '\(EchoedText.quote(cell.text))' is not a date: expected YYYY-MM-DD",
            cell: cell)
        }
        date = day
      } else {
        let cell = try required(row, section, "timestamp", .cospendDate)
        guard let seconds = Int64(cell.text.trimmingSpaces), seconds >= 0, seconds < 253_402_300_800 else {
          throw Refusal(
            code: .cospendDate,
            message: "timestamp '\(EchoedText.quote(cell.text))' is not a time: expected seconds since 1970", cell: cell
          )
        }
        date = CalendarDate(daysSinceEpoch: Int(seconds / 86_400))
      }
      let payerCell = try required(row, section, "payer_name", .cospendPayer)
      let payer = payerCell.text.trimmingSpaces
      let owersCell = try required(row, section, "owers", .cospendOwers)
      var owers: [String] = []
      for name in IHateMoneyImport.split(owers: owersCell.text) where !owers.contains(name) { owers.append(name) }
      guard !owers.isEmpty else {
        throw Refusal(
          code: .cospendOwers, message: "the bill is owed by nobody: expected one ower or more", cell: owersCell)
      }
      for person in [payer] + owers where !members.contains(person) {
        if !unlisted.contains(person) { unlisted.append(person) }
        addMember(
          person, weight: person == payer ? section.cell(row, "payer_weight").flatMap { Self.weight($0.text) } : nil)
      }
      let day = date.description
      billsOnDate[day, default: 0] += 1
      let id = "cospend-\(day)-\(billsOnDate[day] ?? 1)"
      guard amount.minorUnits != 0 else {
        book.omitted.append(
          Diagnostic(
            in: file, .note, .cospendNoEffect, "\(label): a zero amount (no effect on balances)", line: row.line,
            column: 1))
        return nil
      }
      let categoryID = section.cell(row, "categoryid").flatMap { Int($0.text.trimmingSpaces) }
      let mode =
        section.cell(row, "paymentmodeid").flatMap { paymentModes[$0.text.trimmingSpaces] }
        ?? section.cell(row, "paymentmode").flatMap { paymentModes[$0.text.trimmingSpaces] }
      let comment = CospendImport.formDecoded(section.cell(row, "comment")?.text ?? "").trimmingSpaces
      let notes = [comment.isEmpty ? nil : comment, mode.map { "paid by \($0)" }].compactMap { $0 }
      let repeats = section.cell(row, "repeat").flatMap { CospendImport.frequencies[$0.text.trimmingSpaces] }
      return WeightedBills.Bill(
        id: id, date: date, what: what, amount: amount, payer: payer,
        owers: owers.map { SpliitRule.Entry(participant: $0, weight: 0) },
        isReimbursement: categoryID == CospendImport.reimbursementCategory,
        notes: notes.isEmpty ? nil : notes.joined(separator: "; "),
        category: categoryID.flatMap { categories[$0] },
        remark: repeats.map { "repeats \($0) (each repetition is a bill of its own in the export)" })
    }

    mutating func finish() throws(Diagnostic) {
      let listed = Set(members).subtracting(unlisted)
      let missing = unlisted.filter { weights[$0] == nil }
      if !listed.isEmpty, !missing.isEmpty {
        book.remarks.append(
          Diagnostic(
            in: file, .note, .cospendMemberUnlisted,
            "\(EchoedText.list(missing)) \(missing.count == 1 ? "is" : "are") on bills but not in the members' "
              + "table: taken with weight 1"))
      }
      for index in bills.indices {
        for owerIndex in bills[index].owers.indices {
          let name = bills[index].owers[owerIndex].participant
          bills[index].owers[owerIndex].weight = weights[name] ?? WeightedBills.weightUnit
        }
      }
      var weighted = WeightedBills(
        app: "Cospend", file: file, rounding: .halfAwayFromZero, roundingCode: .cospendRounding,
        residueCode: .cospendRoundingResidue)
      weighted.members = members
      weighted.bills = bills
      try weighted.write(into: &book)
    }
  }
}

extension CospendImport: BookReader {
  package static let exportName = "Cospend export"
  package static func read(_ bytes: [UInt8], file: String, _ reading: ImportReading) throws(Diagnostic)
    -> ImportResult
  {
    try read(bytes, file: file, currency: reading.currency, skipInvalid: reading.skipInvalid)
  }
}
