import SplitBillCSV
import SplitBillCore
import SplitBillFiles
import SplitBillJSON
import SplitBillModel
import SplitBillText

/// Reads IHateMoney's bills export (`/<project>/export/bills.json` or `bills.csv`, Settings →
/// Export) into an ``ImportedBook``, and checks it against the project's settlements export
/// (`transactions.json` or `.csv`) when one is given.
///
/// Each bill has a payer, an amount in its currency and the owers it is split among in proportion
/// to the members' weights (`payer_weight`: the export holds the weights of payers only, so a
/// member who never paid counts 1, as IHateMoney's own import takes them). IHateMoney never
/// rounds a share: it sums each member's paid minus owed exactly (in floating point) and rounds
/// the balance when it shows it. The import works the same sums exactly, rounds each balance half
/// to even (Python's `round`), and writes whole-unit shares whose sums are exactly those balances
/// (``RoundedBalances``). A `Reimbursement` bill (IHateMoney 6's settlements) is written as
/// payments from the payer to the owers; a negative amount as the balances it moves.
package enum IHateMoneyImport {
  /// The columns of the bills export (CSV header or JSON keys); `currency` (IHateMoney 5) and
  /// `bill_type` (IHateMoney 6) may be missing in older exports.
  static let requiredColumns = ["what", "amount", "date", "payer_name", "payer_weight", "owers"]

  /// Reads the bills export's bytes (JSON or CSV, told by the first character); `currency` stands
  /// in for bills without one (`XXX`, a project without a currency), `settlements` is the
  /// project's settlements export to check the balances against. `file` names the export in the
  /// diagnostics.
  package static func read(
    _ export: [UInt8], file: String, currency fallback: Currency? = nil, settlements: ImportCompanion? = nil,
    skipInvalid: Bool = false
  ) throws(Diagnostic) -> ImportResult {
    let bytes = Array(ByteOrderMark.dropped(from: export))
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw Diagnostic(
        in: file, .error, .exportNotUTF8, "the file is not UTF-8 text: export it again from IHateMoney", line: 1,
        column: 1)
    }
    guard let first = bytes.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
      throw Diagnostic(
        in: file, .error, .ihatemoneyEmpty, "the file is empty: expected IHateMoney's bills export (JSON or CSV)",
        line: 1, column: 1)
    }
    let records = try first == 0x5B || first == 0x7B ? jsonRecords(bytes, file: file) : csvRecords(bytes, file: file)
    var reader = Reader(file: file, fallback: fallback, skipInvalid: skipInvalid)
    // The export lists the newest bill first; the file is written oldest first.
    for record in records.reversed() { reader.read(record) }
    try reader.finish()
    if let settlements {
      try reader.compare(with: settlements)
    }
    return ImportResult(book: reader.book, errors: reader.errors)
  }

  /// One bill as the export writes it, with where each field is (a CSV cell's line and column; a
  /// JSON bill's place in the list).
  struct Record {
    struct Field {
      var text: String
      var line: Int?
      var column: Int?
    }
    /// `bills[3] 'red wine'` for a JSON bill, `nil` for a CSV row (its line says where).
    var label: String?
    var line: Int?
    var fields: [String: Field]
    /// The owers as a list (JSON) or `nil` when they are one comma-separated cell (CSV).
    var owers: [Field]?
  }

  static func jsonRecords(_ bytes: [UInt8], file: String) throws(Diagnostic) -> [Record] {
    guard let root = JSON.parse(bytes) else {
      let offset = JSON.errorOffset(bytes) ?? 0
      let (line, column) = SpliitImport.position(of: offset, in: bytes)
      throw Diagnostic(
        in: file, .error, .ihatemoneyJson, "this is not valid JSON: IHateMoney's bills export is one JSON list",
        line: line, column: column)
    }
    guard case .array(let bills) = root else {
      throw Diagnostic(
        in: file, .error, .ihatemoneyShape,
        "this is not IHateMoney's bills export: expected a list of bills (what, amount, date, payer_name, "
          + "payer_weight, owers)")
    }
    guard !bills.isEmpty else {
      throw Diagnostic(in: file, .error, .ihatemoneyEmpty, "the export lists no bills")
    }
    var records: [Record] = []
    for (index, bill) in bills.enumerated() {
      let what = bill["what"]?.string ?? ""
      let label = "bills[\(index)]" + (what.isEmpty ? "" : " '\(EchoedText.quote(what))'")
      var fields: [String: Record.Field] = [:]
      for key in requiredColumns + ["currency", "bill_type"] where key != "owers" {
        if let text = bill[key]?.numberText { fields[key] = Record.Field(text: text) }
      }
      let owers: [Record.Field]? = bill["owers"].map { value in
        if case .array(let items) = value { return items.map { Record.Field(text: $0.string ?? "") } }
        // An older export's or a hand-made file's owers as one string, as in the CSV.
        return value.string.map { text in split(owers: text).map { Record.Field(text: $0) } } ?? []
      }
      records.append(Record(label: label, fields: fields, owers: owers))
    }
    return records
  }

  static func csvRecords(_ bytes: [UInt8], file: String) throws(Diagnostic) -> [Record] {
    let table = try CSVTable.export(bytes, file: file)
    guard let header = table.rows.first(where: { !$0.isBlank }) else {
      throw Diagnostic(
        in: file, .error, .ihatemoneyEmpty, "the file is empty: expected IHateMoney's bills export", line: 1,
        column: 1)
    }
    var columns: [String: Int] = [:]
    for (index, cell) in header.cells.enumerated() {
      columns[cell.text.trimmingSpaces.lowercased()] = columns[cell.text.trimmingSpaces.lowercased()] ?? index
    }
    let missing = requiredColumns.filter { columns[$0] == nil }
    guard missing.isEmpty else {
      throw Diagnostic(
        in: file, .error, .ihatemoneyColumns,
        "the header lacks \(missing.joined(separator: ", ")): expected IHateMoney's bills export header "
          + "what,amount,currency,date,payer_name,payer_weight,owers,bill_type (in any order)", line: header.line,
        column: 1)
    }
    var records: [Record] = []
    for row in table.rows.drop(while: { $0.line <= header.line }) where !row.isBlank {
      var fields: [String: Record.Field] = [:]
      for (name, index) in columns where index < row.cells.count {
        let cell = row.cells[index]
        fields[name] = Record.Field(text: unescapedFormula(cell.text), line: cell.line, column: cell.column)
      }
      // Rows IHateMoney's own CSV import passes over: a Cospend export's member and category lines.
      let what = fields["what"]?.text ?? ""
      if what == "deleteMeIfYouWant" { continue }
      if what == "categoryname" { break }
      records.append(Record(label: nil, line: row.line, fields: fields, owers: nil))
    }
    guard !records.isEmpty else {
      throw Diagnostic(
        in: file, .error, .ihatemoneyEmpty, "the export has a header but no bill", line: header.line, column: 1)
    }
    return records
  }

  /// IHateMoney writes a CSV cell that starts with `=`, `+`, `-`, `@`, a tab or a line break with
  /// a `'` before it (against formula injection); the import takes that `'` off again.
  static func unescapedFormula(_ text: String) -> String {
    guard text.hasPrefix("'"), let second = text.dropFirst().first, "=+-@\t\n\r".contains(second) else { return text }
    return String(text.dropFirst())
  }

  /// The owers of a CSV cell: names joined by `, ` (IHateMoney splits on the comma and trims, so a
  /// name with a comma in it cannot be told apart there; JSON exports keep it).
  static func split(owers text: String) -> [String] {
    text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }.filter {
      !$0.isEmpty
    }
  }

  /// An expense that cannot be imported: its code, its message and the field it is about.
  struct Refusal: Error {
    var code: ImportCode
    var message: String
    var field: Record.Field?
  }

  struct Reader {
    let file: String
    let fallback: Currency?
    let skipInvalid: Bool
    var book = ImportedBook(source: .ihatemoney)
    var errors: [Diagnostic] = []
    var expenses: [WeightedBills.Bill] = []
    /// Payers' weights (millionths) as the export gives them, with the record that first did.
    var weights: [String: (weight: Int64, text: String)] = [:]
    /// Members in the order they first come (oldest bill first).
    var members: [String] = []
    var billsOnDate: [String: Int] = [:]

    init(file: String, fallback: Currency?, skipInvalid: Bool) {
      self.file = file
      self.fallback = fallback
      self.skipInvalid = skipInvalid
    }

    mutating func read(_ record: Record) {
      book.rowsRead += 1
      do throws(Refusal) {
        if let expense = try expense(record) { expenses.append(expense) }
      } catch {
        let place = record.label.map { "\($0): " } ?? ""
        let issue = Diagnostic(
          in: file, .error, error.code, place + error.message, line: error.field?.line ?? record.line,
          column: error.field?.column)
        errors.append(issue)
        if skipInvalid { book.skipped.append(issue) }
      }
    }

    func field(_ record: Record, _ name: String) throws(Refusal) -> Record.Field {
      guard let field = record.fields[name], !field.text.trimmingSpaces.isEmpty else {
        let code: ImportCode =
          switch name {
          case "amount": .ihatemoneyAmount
          case "date": .ihatemoneyDate
          case "payer_weight": .ihatemoneyWeight
          default: .ihatemoneyPayer
          }
        throw Refusal(code: code, message: "no \(name): every bill of the export has one", field: nil)
      }
      return field
    }

    mutating func expense(_ record: Record) throws(Refusal) -> WeightedBills.Bill? {
      let amountField = try field(record, "amount")
      let currencyField = record.fields["currency"]
      let code = currencyField?.text.trimmingSpaces.uppercased() ?? ""
      let currency: Currency
      if code.isEmpty || code == "XXX" {
        guard let fallback else {
          throw Refusal(
            code: .ihatemoneyCurrency,
            message: "the bill has no currency (\(code.isEmpty ? "none given" : "XXX: the project has none")): "
              + "give it with --currency, such as --currency EUR", field: currencyField)
        }
        currency = fallback
      } else {
        do { currency = try Currency(code: code) } catch {
          throw Refusal(
            code: .ihatemoneyCurrency,
            message: "unknown currency '\(EchoedText.quote(code))': expected an ISO 4217 code",
            field: currencyField)
        }
      }
      guard let amount = WeightedBills.amount(amountField.text, in: currency) else {
        throw Refusal(
          code: .ihatemoneyAmount,
          message: "amount '\(EchoedText.quote(amountField.text))' is not an amount in \(currency.code) "
            + "(at most \(currency.exponent) decimals)", field: amountField)
      }
      let dateField = try field(record, "date")
      let dateText = dateField.text.trimmingSpaces
      // `str(date)`: YYYY-MM-DD; a date and time is read for its date.
      let dayText =
        dateText.utf8.count > 10 && [" ", "T"].contains(dateText.dropFirst(10).first)
        ? String(dateText.prefix(10)) : dateText
      guard let date = CalendarDate(iso: dayText) else {
        throw Refusal(
          code: .ihatemoneyDate, message: "date '\(EchoedText.quote(dateText))' is not a date: expected YYYY-MM-DD",
          field: dateField)
      }
      let payerField = try field(record, "payer_name")
      let payer = payerField.text.trimmingSpaces
      let weightField = try field(record, "payer_weight")
      guard let weight = WeightedBills.weight(weightField.text) else {
        throw Refusal(
          code: .ihatemoneyWeight,
          message: "payer_weight '\(EchoedText.quote(weightField.text))' is not a weight: expected a number of zero "
            + "or more, such as 1 or 1.5 (at most 6 decimals)", field: weightField)
      }
      if let known = weights[payer], known.weight != weight {
        throw Refusal(
          code: .ihatemoneyWeight,
          message: "\(EchoedText.quote(payer))'s payer_weight is \(EchoedText.quote(weightField.text.trimmingSpaces)) "
            + "here but \(known.text) on an earlier bill: a member has one weight", field: weightField)
      }
      let typeField = record.fields["bill_type"]
      let type = typeField?.text.trimmingSpaces.lowercased() ?? ""
      let isReimbursement: Bool
      switch type {
      case "", "expense", "billtype.expense": isReimbursement = false
      case "reimbursement", "billtype.reimbursement": isReimbursement = true
      default:
        throw Refusal(
          code: .ihatemoneyBillType,
          message: "bill_type '\(EchoedText.quote(typeField?.text ?? ""))': expected Expense or Reimbursement",
          field: typeField)
      }
      let owerFields =
        record.owers
        ?? record.fields["owers"].map { cell in
          IHateMoneyImport.split(owers: cell.text).map { Record.Field(text: $0, line: cell.line, column: cell.column) }
        } ?? []
      var owers: [String] = []
      for ower in owerFields.map({ $0.text.trimmingSpaces }) where !owers.contains(ower) {
        guard !ower.isEmpty else {
          throw Refusal(code: .ihatemoneyOwers, message: "an ower without a name", field: record.fields["owers"])
        }
        owers.append(ower)
      }
      guard !payer.isEmpty else {
        throw Refusal(code: .ihatemoneyPayer, message: "payer_name is empty", field: payerField)
      }
      guard !owers.isEmpty else {
        throw Refusal(
          code: .ihatemoneyOwers, message: "the bill is owed by nobody: expected one ower or more",
          field: record.fields["owers"])
      }
      weights[payer] = weights[payer] ?? (weight, weightField.text.trimmingSpaces)
      for person in [payer] + owers where !members.contains(person) { members.append(person) }
      let what = record.fields["what"]?.text ?? ""
      let day = date.description
      billsOnDate[day, default: 0] += 1
      let id = "ihm-\(day)-\(billsOnDate[day] ?? 1)"
      guard amount.minorUnits != 0 else {
        book.omitted.append(
          Diagnostic(
            in: file, .note, .ihatemoneyNoEffect,
            (record.label.map { "\($0): " } ?? "") + "\(date) '\(EchoedText.quote(what))': a zero amount (no effect on "
              + "balances)", line: record.line, column: 1))
        return nil
      }
      return WeightedBills.Bill(
        id: id, date: date, what: what, amount: amount, payer: payer,
        owers: owers.map { SpliitRule.Entry(participant: $0, weight: 0) }, isReimbursement: isReimbursement)
    }

    /// Gives every ower their weight (a payer's, else 1), works out each currency's balances by
    /// IHateMoney's rule and the whole-unit shares that give them, and writes the bills.
    mutating func finish() throws(Diagnostic) {
      let unit = WeightedBills.weightUnit
      let assumed = members.filter { weights[$0] == nil }
      if weights.values.contains(where: { $0.weight != unit }), !assumed.isEmpty {
        book.remarks.append(
          Diagnostic(
            in: file, .note, .ihatemoneyWeightsAssumed,
            "the export holds the weights of payers only: \(EchoedText.list(assumed)) never paid and "
              + "\(assumed.count == 1 ? "is" : "are") taken with weight 1, as IHateMoney's own import takes them"))
      }
      for index in expenses.indices {
        for owerIndex in expenses[index].owers.indices {
          let name = expenses[index].owers[owerIndex].participant
          expenses[index].owers[owerIndex].weight = weights[name]?.weight ?? unit
        }
      }
      var refused = Set<Int>()
      for (index, expense) in expenses.enumerated() where expense.owers.allSatisfy({ $0.weight == 0 }) {
        let issue = Diagnostic(
          in: file, .error, .ihatemoneyWeight,
          "\(expense.date.map { "\($0) " } ?? "")'\(EchoedText.quote(expense.what))': every ower has weight 0, so "
            + "nobody owes the bill (IHateMoney cannot show it either)")
        errors.append(issue)
        if skipInvalid { book.skipped.append(issue) }
        refused.insert(index)
      }
      expenses = expenses.enumerated().filter { !refused.contains($0.offset) }.map(\.element)
      var weighted = WeightedBills(
        app: "IHateMoney", file: file, rounding: .halfEven, roundingCode: .ihatemoneyRounding,
        residueCode: .ihatemoneyRoundingResidue)
      weighted.members = members
      weighted.bills = expenses
      try weighted.write(into: &book)
      if book.currencies.count > 1 {
        book.headerNotes.append(
          "IHateMoney shows one balance in the project's currency, converted at its rates, which the export does "
            + "not hold: the balances are kept and checked per currency.")
      }
    }

    /// Checks the balances against IHateMoney's settlements export: each member's balance is what
    /// they receive less what they pay there. IHateMoney rounds each transfer to the cent on its
    /// own (half down) and leaves out transfers under a cent, so a member's figure may lie as many
    /// cents off as they have transfers (a note); further off is an error naming the member.
    mutating func compare(with settlements: ImportCompanion) throws(Diagnostic) {
      let transfers = try IHateMoneyImport.transfers(settlements)
      let currencies = book.expectedBalances.keys.sorted()
      guard currencies.count == 1, let currency = currencies.first, let expected = book.expectedBalances[currency]
      else {
        book.remarks.append(
          IHateMoneyImport.settlementIssue(
            settlements.path, .warning, .ihatemoneySettlementsUnchecked,
            "not compared: the bills are in \(currencies.count) currencies, and IHateMoney's settlements are in "
              + "the project's currency at rates the export does not hold"))
        return
      }
      var received: [String: Int64] = [:]
      var count: [String: Int64] = [:]
      for transfer in transfers {
        guard transfer.currency.map({ $0 == "XXX" || $0 == currency.code }) ?? true else {
          book.remarks.append(
            IHateMoneyImport.settlementIssue(
              settlements.path, .warning, .ihatemoneySettlementsUnchecked,
              "not compared: the settlements are in \(EchoedText.quote(transfer.currency ?? "")), the bills in "
                + currency.code, line: transfer.line, column: 1))
          return
        }
        guard
          let amount = WeightedBills.plainDecimal(transfer.amount).flatMap({
            try? Money(parsing: $0, currency: currency)
          })
        else {
          throw IHateMoneyImport.settlementIssue(
            settlements.path, .error, .ihatemoneySettlementsFile,
            "amount '\(EchoedText.quote(transfer.amount))' is not an amount in \(currency.code)", line: transfer.line,
            column: 1)
        }
        received[transfer.receiver, default: 0] += amount.minorUnits
        received[transfer.ower, default: 0] -= amount.minorUnits
        count[transfer.receiver, default: 0] += 1
        count[transfer.ower, default: 0] += 1
      }
      for person in received.keys.sorted() where expected[person] == nil {
        errors.append(
          IHateMoneyImport.settlementIssue(
            settlements.path, .error, .ihatemoneySettlements,
            "\(EchoedText.quote(person)) is in the settlements but on no bill of the export"))
      }
      for person in members where expected[person] != nil {
        let balance = expected[person] ?? 0
        let settled = received[person] ?? 0
        let off = (balance - settled).magnitude
        guard off != 0 else { continue }
        let figures =
          "\(EchoedText.quote(person))'s balance is \(Money(minorUnits: balance, currency: currency)) by the bills, "
          + "\(Money(minorUnits: settled, currency: currency)) by the settlements"
        if off <= max(1, count[person] ?? 0).magnitude {
          book.remarks.append(
            IHateMoneyImport.settlementIssue(
              settlements.path, .note, .ihatemoneySettlementsRounded,
              figures + " (IHateMoney rounds each transfer to the cent on its own)"))
        } else {
          errors.append(IHateMoneyImport.settlementIssue(settlements.path, .error, .ihatemoneySettlements, figures))
        }
      }
      book.expectedFrom +=
        " and the settlements export \(settlements.path.split(separator: "/").last.map(String.init) ?? "")"
    }
  }

  /// A problem or remark about the settlements export: at its line when it has one, else about
  /// the whole file (never the bills export's).
  static func settlementIssue(
    _ path: String, _ severity: Diagnostic.Severity, _ code: ImportCode, _ message: String, line: Int? = nil,
    column: Int? = nil
  ) -> Diagnostic {
    Diagnostic(
      severity, .imported(code, message),
      at: line.map { SourceLocation(file: path, line: $0, column: column ?? 1) } ?? SourceLocation(wholeFile: path))
  }

  /// One transfer of the settlements export.
  struct Transfer {
    var amount: String
    var currency: String?
    var receiver: String
    var ower: String
    var line: Int?
  }

  /// The transfers of IHateMoney's settlements export (`transactions.json`: a list of `amount`,
  /// `currency`, `receiver`, `ower`; or the same as a CSV with that header).
  static func transfers(_ settlements: ImportCompanion) throws(Diagnostic) -> [Transfer] {
    let bytes = Array(ByteOrderMark.dropped(from: settlements.bytes))
    let path = settlements.path
    let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    if first == 0x5B {
      guard case .array(let items)? = JSON.parse(bytes) else {
        throw settlementIssue(
          path, .error, .ihatemoneySettlementsFile,
          "this is not IHateMoney's settlements export: expected a JSON list of transfers (amount, receiver, ower)")
      }
      var result: [Transfer] = []
      for (index, item) in items.enumerated() {
        guard let amount = item["amount"]?.numberText, let receiver = item["receiver"]?.string,
          let ower = item["ower"]?.string
        else {
          throw settlementIssue(
            path, .error, .ihatemoneySettlementsFile,
            "transfer [\(index)] lacks amount, receiver or ower: expected IHateMoney's settlements export")
        }
        result.append(Transfer(amount: amount, currency: item["currency"]?.string, receiver: receiver, ower: ower))
      }
      return result
    }
    guard String(validating: bytes, as: UTF8.self) != nil, let table = try? CSVTable(bytes),
      let header = table.rows.first(where: { !$0.isBlank })
    else {
      throw settlementIssue(
        path, .error, .ihatemoneySettlementsFile,
        "this is not IHateMoney's settlements export: expected JSON or a CSV with the header amount,currency,receiver,ower"
      )
    }
    let names = header.cells.map { $0.text.trimmingSpaces.lowercased() }
    guard let amount = names.firstIndex(of: "amount"), let receiver = names.firstIndex(of: "receiver"),
      let ower = names.firstIndex(of: "ower")
    else {
      throw settlementIssue(
        path, .error, .ihatemoneySettlementsFile,
        "the header lacks amount, receiver or ower: expected amount,currency,receiver,ower", line: header.line,
        column: 1)
    }
    let currency = names.firstIndex(of: "currency")
    return table.rows.drop(while: { $0.line <= header.line }).filter { !$0.isBlank }.map { row in
      Transfer(
        amount: row.cell(amount).text, currency: currency.map { row.cell($0).text },
        receiver: unescapedFormula(row.cell(receiver).text).trimmingSpaces,
        ower: unescapedFormula(row.cell(ower).text).trimmingSpaces, line: row.line)
    }
  }
}

/// A second file an import reads beside the export (IHateMoney's settlements export): its path as
/// given, for messages, and its bytes.
public struct ImportCompanion: Sendable {
  public var path: String
  public var bytes: [UInt8]
  public init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
  }
}

extension IHateMoneyImport: BookReader {
  package static let exportName = "IHateMoney export"
  package static func read(_ bytes: [UInt8], file: String, _ reading: ImportReading) throws(Diagnostic)
    -> ImportResult
  {
    try read(
      bytes, file: file, currency: reading.currency, settlements: reading.settlements, skipInvalid: reading.skipInvalid)
  }
}
