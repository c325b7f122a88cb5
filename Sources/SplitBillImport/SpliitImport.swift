import SplitBillCore
import SplitBillFiles
import SplitBillJSON
import SplitBillModel
import SplitBillText

/// Reads Spliit's JSON export (`/groups/<id>/expenses/export/json`) into an ``ImportedBook``.
///
/// Amounts are integer minor units of the group's `currencyCode`. Each expense's parts are worked
/// out by the ``SpliitRule`` of the export's era (or the one asked for) and written as exact
/// shares, so the imported balances are the ones Spliit showed; a comment above each bill says
/// how Spliit split it. `isReimbursement` expenses are payments from the payer to each participant.
/// A negative amount (income, a refund) is written as the balances it moves. Expenses splitbill
/// cannot take (the `ITEMIZED` mode, an unknown participant) are errors naming the expense,
/// skipped only with `--skip-invalid`: never dropped silently.
///
/// The balances the import is checked against are worked out apart from the bills, the way
/// Spliit's balance page adds them up (paid minus paid for, per participant, rounded as the era
/// rounded them).
package enum SpliitImport {
  /// Reads the export's bytes; `currency` stands in for a missing `currencyCode` (older groups),
  /// `rule` for the export's era's rule.
  /// `file` names the export in the diagnostics.
  package static func read(
    _ export: [UInt8], file: String, currency fallback: Currency? = nil, rule chosen: SpliitRule? = nil,
    skipInvalid: Bool = false
  ) throws(Diagnostic) -> ImportResult {
    let bytes = Array(ByteOrderMark.dropped(from: export))
    guard let root = JSON.parse(bytes) else {
      let offset = JSON.errorOffset(bytes) ?? 0
      let (line, column) = Self.position(of: offset, in: bytes)
      throw Diagnostic(
        in: file, .error, .spliitJson, "this is not valid JSON: a Spliit export is one JSON object", line: line,
        column: column)
    }
    guard case .object = root, case .array = root["participants"], case .array = root["expenses"] else {
      throw Diagnostic(
        in: file, .error, .spliitShape,
        "this is not a Spliit export: expected an object with 'participants' and 'expenses' arrays")
    }
    let currency: Currency
    var remarks: [Diagnostic] = []
    // A group without a currency code (made before Spliit had them) kept every amount in
    // hundredths, whatever its symbol stood for.
    var hundredths = false
    let symbol = root["currency"]?.string ?? ""
    if let code = root["currencyCode"]?.string, !code.isEmpty {
      do { currency = try Currency(code: code) } catch {
        throw Diagnostic(in: file, .error, .spliitCurrency, error.message(field: "currencyCode"))
      }
    } else if let known = fallback ?? Self.currency(ofSymbol: symbol) {
      currency = known
      hundredths = true
      if fallback == nil {
        remarks.append(
          Diagnostic(
            in: file, .note, .spliitCurrencySymbol,
            "the group has no currencyCode: its symbol '\(EchoedText.quote(symbol))' is taken as \(known.code) "
              + "(--currency CODE says otherwise)"))
      }
    } else {
      throw Diagnostic(
        in: file, .error, .spliitCurrency,
        "the group has no currencyCode (older Spliit groups have only a symbol, '\(EchoedText.quote(symbol))', "
          + "which could be several currencies): give its ISO code with --currency, such as --currency EUR")
    }
    let expenses = root["expenses"]?.items ?? []
    let hasIDs = expenses.contains { Reader.identifier($0["id"]).map { !$0.isEmpty } ?? false }
    let rule = chosen ?? SpliitRule.era(hasExpenseIDs: hasIDs)
    var reader = Reader(file: file, currency: currency, rule: rule, skipInvalid: skipInvalid, hundredths: hundredths)
    reader.book.remarks += remarks
    reader.book.headerNotes.append(
      "Spliit rule: \(rule.summary); "
        + (chosen != nil
          ? "chosen with --spliit-rule"
          : hasIDs ? "the export has expense ids" : "the export has no expense ids (made before 2026-08-13)"))
    try reader.readParticipants(root["participants"]?.items ?? [])
    for (index, expense) in expenses.enumerated() { reader.read(expense, index: index) }
    try reader.finish()
    return ImportResult(book: reader.book, errors: reader.errors)
  }

  /// The currency a group's symbol stands for when only one does (`€`, `£`, `₹`, or an ISO code
  /// written as the symbol); `nil` for `$`, `¥`, `kr` and the like, which several currencies use.
  static func currency(ofSymbol symbol: String) -> Currency? {
    let trimmed = symbol.trimmingSpaces
    let symbols = [
      "€": "EUR", "£": "GBP", "₹": "INR", "₽": "RUB", "₺": "TRY", "₩": "KRW", "₪": "ILS", "₫": "VND", "₴": "UAH",
      "zł": "PLN", "Kč": "CZK", "₱": "PHP", "฿": "THB", "R$": "BRL", "lei": "RON", "лв": "BGN", "лв.": "BGN",
      "Ft": "HUF", "₦": "NGN", "₸": "KZT", "₾": "GEL",
    ]
    if let code = symbols[trimmed] { return try? Currency(code: code) }
    guard trimmed.count == 3, trimmed.allSatisfy({ $0.isASCII && $0.isUppercase }) else { return nil }
    return try? Currency(code: trimmed)
  }

  /// The 1-based line and column (in characters) of byte `offset`.
  static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
    var line = 1
    var column = 1
    for byte in bytes.prefix(offset) { ByteReader.move(line: &line, column: &column, past: byte) }
    return (line, column)
  }

  /// The split modes Spliit has, and how each reads `shares`.
  enum SplitMode: String {
    case evenly = "EVENLY"
    case byShares = "BY_SHARES"
    case byPercentage = "BY_PERCENTAGE"
    case byAmount = "BY_AMOUNT"
  }

  /// An expense that cannot be imported: its message, already naming it.
  struct Refusal: Error {
    var code: ImportCode
    var message: String
  }

  /// An expense as read and checked, before its parts are worked out by the rule.
  struct Expense {
    /// Spliit's id, or `spliit-N` (its place in the export) when the export has none.
    var id: String
    /// Spliit's own id, which seeds today's rule's rotation; `nil` when the export has none.
    var seed: String?
    var title: String
    var date: CalendarDate?
    var amount: Int64
    /// `paidFor`, one entry per participant (listed twice: weights added), in the export's order.
    var paidFor: [SpliitRule.Entry]
    /// One payer (weight 1), or several with their weights (a fork's `paidBy` list).
    var payers: [SpliitRule.Entry]
    var isReimbursement: Bool
    var notes: [String]
    /// Spliit's category name (`Dining Out`), the default one's (`General`) too.
    var category: String?
    /// How Spliit split it, written above the bill.
    var comment: String
  }

  struct Reader {
    /// The export's path, for the diagnostics.
    let file: String
    let currency: Currency
    let rule: SpliitRule
    let skipInvalid: Bool
    var book = ImportedBook(source: .spliit)
    var errors: [Diagnostic] = []
    /// Participants' names by id, and their ids in the export's order.
    var names: [String: String] = [:]
    var participants: [String] = []
    var expenses: [Expense] = []

    /// Whether amounts are hundredths of the currency (a group without a currency code).
    let hundredths: Bool

    init(file: String, currency: Currency, rule: SpliitRule, skipInvalid: Bool, hundredths: Bool = false) {
      self.file = file
      self.currency = currency
      self.rule = rule
      self.skipInvalid = skipInvalid
      self.hundredths = hundredths
      book.expectedFrom = "what Spliit showed, by the \(rule.rawValue) rule"
    }

    mutating func readParticipants(_ list: [JSON]) throws(Diagnostic) {
      for (index, participant) in list.enumerated() {
        guard let id = Self.identifier(participant["id"]), let raw = participant["name"]?.string else {
          throw Diagnostic(in: file, .error, .spliitParticipant, "participants[\(index)] has no id or no name")
        }
        let name = PersonName.normalized(raw)
        guard !name.isEmpty else {
          throw Diagnostic(
            in: file, .error, .spliitParticipant,
            "participants[\(index)] (id \(EchoedText.quote(id))) has an empty name")
        }
        if let problem = PersonName.importProblem(name) {
          throw Diagnostic(
            in: file, .error, .spliitParticipant, "participants[\(index)] (id \(EchoedText.quote(id))) has \(problem)")
        }
        guard !book.people.contains(name) else {
          throw Diagnostic(
            in: file, .error, .spliitParticipantTwice,
            "two participants are named '\(EchoedText.quote(name))': rename one in Spliit so their balances stay apart")
        }
        names[id] = name
        participants.append(id)
        book.people.append(name)
      }
    }

    static func identifier(_ value: JSON?) -> String? {
      switch value {
      case .string(let text)?: return text
      case .number(let text)?: return text
      default: return nil
      }
    }

    mutating func read(_ expense: JSON, index: Int) {
      book.rowsRead += 1
      let title = expense["title"]?.string ?? ""
      let own = Self.identifier(expense["id"]).flatMap { $0.isEmpty ? nil : $0 }
      let id = own ?? "spliit-\(index + 1)"
      let label = "expenses[\(index)] '\(EchoedText.quote(title))' (id \(EchoedText.quote(id)))"
      do {
        if let read = try read(expense, id: id, seed: own, title: title, label: label) { expenses.append(read) }
      } catch {
        let issue = Diagnostic(in: file, .error, error.code, "\(label): \(error.message)")
        errors.append(issue)
        if skipInvalid { book.skipped.append(issue) }
      }
    }

    /// The expense checked, or `nil` when it has no effect (a zero amount, noted).
    mutating func read(
      _ expense: JSON, id: String, seed: String?, title: String, label: String
    ) throws(Refusal) -> Expense? {
      // Numbers, or numbers written as strings (as some tools that pass an export on write them).
      guard let amountText = expense["amount"]?.numberText ?? expense["amount"]?.string,
        let written = Int64(amountText.trimmingSpaces)
      else {
        throw Refusal(code: .spliitAmount, message: "amount is not a whole number of minor units")
      }
      let amount = try minorUnits(written)
      guard amount.magnitude <= Money.maximumMinorUnits.magnitude else {
        throw Refusal(
          code: .spliitAmount,
          message: "amount \(written) is more than splitbill's largest amount (\(Money.maximumMinorUnits) minor units)")
      }
      guard amount != 0 else {
        book.omitted.append(Diagnostic(in: file, .note, .spliitNoEffect, "\(label): amount 0, no effect on balances"))
        return nil
      }
      let modeText = expense["splitMode"]?.string ?? "EVENLY"
      guard let mode = SplitMode(rawValue: modeText) else {
        throw Refusal(
          code: .spliitSplitMode,
          message: "split mode '\(EchoedText.quote(modeText))' is not one splitbill imports "
            + "(EVENLY, BY_SHARES, BY_PERCENTAGE, BY_AMOUNT): enter it by hand, or skip it with --skip-invalid")
      }
      let paidFor = try entries(expense["paidFor"], mode: mode, what: "paidFor")
      let weights = paidFor.reduce(Int128(0)) { $0 + Int128($1.weight) }
      // Spliit splits in proportion to the shares whatever they add up to; so does the import.
      if mode == .byAmount, weights != Int128(written) {
        book.remarks.append(
          Diagnostic(
            in: file, .warning, .spliitAmountsSum,
            "\(label): the amounts of paidFor add up to \(Money(minorUnits: (try? minorUnits(Int64(weights))) ?? Int64(weights), currency: currency)), "
              + "not the expense's \(Money(minorUnits: amount, currency: currency)); split in proportion to them, "
              + "as Spliit does"))
      } else if mode == .byPercentage, weights != 10_000 * Self.weightScale {
        book.remarks.append(
          Diagnostic(
            in: file, .warning, .spliitAmountsSum,
            "\(label): the percentages of paidFor add up to "
              + "\(DecimalText.trimmed(Int64(weights / Self.weightScale), scale: 2))%, not 100%; split in "
              + "proportion to them, as Spliit does"))
      }
      let payers: [SpliitRule.Entry]
      if case .array? = expense["paidBy"] {
        let payerMode = SplitMode(rawValue: expense["paidBySplitMode"]?.string ?? "BY_AMOUNT") ?? .byAmount
        payers = try entries(expense["paidBy"], mode: payerMode, what: "paidBy")
      } else {
        guard let payer = Self.identifier(expense["paidById"]) ?? Self.identifier(expense["paidBy"]?["id"]) else {
          throw Refusal(code: .spliitPaidBy, message: "no paidById: who paid is not known")
        }
        guard names[payer] != nil else {
          throw Refusal(
            code: .spliitParticipantUnknown, message: "paidById '\(EchoedText.quote(payer))' is no participant")
        }
        payers = [SpliitRule.Entry(participant: payer, weight: 1)]
      }
      let isReimbursement = expense["isReimbursement"] == .bool(true)
      if isReimbursement, payers.count != 1 {
        throw Refusal(code: .spliitPaidBy, message: "a reimbursement with several payers cannot be a payment")
      }
      var notes: [String] = []
      if let original = originalAmount(expense) { notes.append(original) }
      if let text = expense["notes"]?.string, !text.isEmpty { notes.append(text) }
      var date = Self.date(expense["expenseDate"])
      if date == nil {
        date = Self.date(expense["createdAt"])
        // Said when the export gave a date that is none: the expense moves to another day.
        if let given = expense["expenseDate"], given != .null {
          let text = given.string.map { "'\(EchoedText.quote($0))'" } ?? "not text"
          book.remarks.append(
            Diagnostic(
              in: file, .warning, .spliitDate,
              "\(label): expenseDate \(text) is not a date: dated by createdAt, "
                + (date.map { "\($0)" } ?? "which is none either, so undated")))
        }
      }
      return Expense(
        id: id, seed: seed, title: title, date: date, amount: amount, paidFor: paidFor, payers: payers,
        isReimbursement: isReimbursement, notes: notes,
        category: isReimbursement ? nil : Self.category(expense["category"]),
        comment: Self.comment(mode, expense["paidFor"]?.items ?? []))
    }

    /// An amount of the export in the currency's minor units: as written, or from hundredths for a
    /// group without a currency code (1500.00 JPY written 150000 is 1500 JPY).
    func minorUnits(_ written: Int64) throws(Refusal) -> Int64 {
      guard hundredths, currency.exponent != 2 else { return written }
      if currency.exponent > 2 {
        let (scaled, overflow) = written.multipliedReportingOverflow(by: currency.minorUnitsPerMajor / 100)
        guard !overflow else { throw Refusal(code: .spliitAmount, message: "amount \(written) is too large") }
        return scaled
      }
      let per = 100 / currency.minorUnitsPerMajor
      guard written % per == 0 else {
        throw Refusal(
          code: .spliitAmount,
          message: "amount \(written) hundredths is not a whole number of \(currency.code) "
            + "\(currency.minorUnitName)s (\(currency.code) has \(currency.exponent) decimals): is --currency right?")
      }
      return written / per
    }

    /// `shares` of BY_SHARES and BY_PERCENTAGE are read with four decimals (a ratio is all that
    /// counts); BY_AMOUNT's are whole minor units.
    static let weightScale: Int128 = 10_000

    /// The participants of `paidFor` (or `paidBy`) with their weights, each once.
    func entries(_ list: JSON?, mode: SplitMode, what: String) throws(Refusal) -> [SpliitRule.Entry] {
      guard case .array(let items)? = list, !items.isEmpty else {
        throw Refusal(code: what == "paidFor" ? .spliitPaidFor : .spliitPaidBy, message: "\(what) lists nobody")
      }
      var result: [SpliitRule.Entry] = []
      for item in items {
        guard let participant = Self.identifier(item["participantId"]) ?? Self.identifier(item["participant"]?["id"])
        else {
          throw Refusal(code: .spliitParticipantUnknown, message: "an entry of \(what) names no participantId")
        }
        guard let name = names[participant] else {
          throw Refusal(
            code: .spliitParticipantUnknown,
            message: "\(what) names '\(EchoedText.quote(participant))', who is no participant")
        }
        var weight: Int64 = 1
        if mode != .evenly {
          let text = (item["shares"]?.numberText ?? item["shares"]?.string ?? "").trimmingSpaces
          guard let value = try? DecimalText.parse(text, scale: mode == .byAmount ? 0 : 4), value >= 0 else {
            throw Refusal(
              code: .spliitShares,
              message: "\(what) shares '\(EchoedText.quote(text))' of \(EchoedText.quote(name)) is not "
                + (mode == .byAmount ? "a whole number of minor units" : "a number of zero or more"))
          }
          weight = value
        }
        if let index = result.firstIndex(where: { $0.participant == participant }) {
          let (sum, overflow) = result[index].weight.addingReportingOverflow(weight)
          guard !overflow else { throw Refusal(code: .spliitShares, message: "\(what) shares are too large") }
          result[index].weight = sum
        } else {
          result.append(SpliitRule.Entry(participant: participant, weight: weight))
        }
      }
      let total = result.reduce(Int128(0)) { $0 + Int128($1.weight) }
      guard total > 0 else { throw Refusal(code: .spliitShares, message: "\(what) shares add up to zero") }
      guard total <= Int128(Int64.max) else {
        throw Refusal(code: .spliitShares, message: "\(what) shares are too large")
      }
      return result
    }

    /// What each payer paid: the whole amount, or several payers' parts by the rule.
    func paid(_ expense: Expense) -> [Int64] {
      expense.payers.count == 1
        ? [expense.amount] : rule.parts(of: expense.amount, among: expense.payers, seed: expense.seed)
    }

    /// The expense as a bill, payments (a reimbursement) or a refund, with `shares` its parts.
    mutating func record(_ expense: Expense, shares: [Int64]) {
      let names = self.names
      let name = { (entry: SpliitRule.Entry) in names[entry.participant] ?? entry.participant }
      let owed = zip(expense.paidFor, shares).map { ImportedPart(person: name($0), minorUnits: $1) }
      let paid = zip(expense.payers, self.paid(expense)).map { ImportedPart(person: name($0), minorUnits: $1) }
      let notes = expense.notes.joined(separator: "; ").nilIfEmpty
      if expense.isReimbursement, expense.amount > 0 {
        let receivers = owed.filter { $0.person != paid[0].person && $0.minorUnits > 0 }
        for (number, part) in receivers.enumerated() {
          book.payments.append(
            ImportedPayment(
              id: receivers.count == 1 ? expense.id : ImportedBook.id(expense.id, part: number), date: expense.date,
              from: paid[0].person, to: part.person, amount: Money(minorUnits: part.minorUnits, currency: currency),
              notes: ([expense.title].filter { !$0.isEmpty } + expense.notes).joined(separator: "; ").nilIfEmpty))
        }
        return
      }
      let total = Money(minorUnits: expense.amount, currency: currency)
      if expense.amount < 0 {
        let effects = ImportedBill.netted(
          paid + owed.map { ImportedPart(person: $0.person, minorUnits: -$0.minorUnits) })
        book.bills.append(
          ImportedBill.moving(
            effects, refund: total, id: expense.id, date: expense.date,
            description: expense.title.isEmpty ? nil : expense.title,
            notes: (expense.notes + ["Spliit refund of \(total)"]).joined(separator: "; "),
            comment: "\(expense.comment); a refund of \(total), written as the balances it moves",
            category: expense.category))
        return
      }
      book.bills.append(
        ImportedBill(
          id: expense.id, date: expense.date, description: expense.title.isEmpty ? nil : expense.title, amount: total,
          payers: paid.filter { $0.minorUnits > 0 }, shares: owed.filter { $0.minorUnits > 0 },
          notes: notes, comment: expense.comment, category: expense.category))
    }

    static func date(_ value: JSON?) -> CalendarDate? {
      guard let text = value?.string, text.utf8.count >= 10 else { return nil }
      return CalendarDate(iso: text.prefix(10))
    }

    /// The category's name (`{grouping: Food and Drink, name: Dining Out}` is `Dining Out`: names
    /// are unique across Spliit's groupings, and are Splitwise's), or its grouping without one.
    static func category(_ value: JSON?) -> String? {
      switch value {
      case .object?:
        let name = value?["name"]?.string?.trimmingSpaces ?? ""
        let grouping = value?["grouping"]?.string?.trimmingSpaces ?? ""
        return name.isEmpty ? grouping.nilIfEmpty : name
      case .string(let text)?: return text.trimmingSpaces.nilIfEmpty
      default: return nil
      }
    }

    func originalAmount(_ expense: JSON) -> String? {
      guard let code = expense["originalCurrency"]?.string, !code.isEmpty,
        let units = expense["originalAmount"]?.numberText.flatMap({ Int64($0) }),
        let original = try? Currency(code: code)
      else { return nil }
      let rate = expense["conversionRate"]?.numberText.map { " at rate \($0)" } ?? ""
      return "entered as \(Money(minorUnits: units, currency: original))\(rate)"
    }

    /// How Spliit split it, for the comment above the bill.
    static func comment(_ mode: SplitMode, _ entries: [JSON]) -> String {
      switch mode {
      case .evenly: return "Spliit: split evenly"
      case .byShares:
        return "Spliit: split by shares " + entries.map { $0["shares"]?.numberText ?? "?" }.joined(separator: ":")
      case .byPercentage:
        return "Spliit: split by percentage "
          + entries.map { entry in
            (entry["shares"]?.numberText.flatMap { Int64($0) }.map { DecimalText.trimmed($0, scale: 2) } ?? "?") + "%"
          }.joined(separator: "/")
      case .byAmount: return "Spliit: split by amount"
      }
    }
  }
}

extension String {
  var nilIfEmpty: String? { isEmpty ? nil : self }
}

extension SpliitImport: BookReader {
  package static let exportName = "Spliit export"
  package static func read(_ bytes: [UInt8], file: String, _ reading: ImportReading) throws(Diagnostic)
    -> ImportResult
  {
    try read(
      bytes, file: file, currency: reading.currency, rule: reading.spliitRule, skipInvalid: reading.skipInvalid)
  }
}
