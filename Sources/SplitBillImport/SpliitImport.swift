import SplitBillCore
import SplitBillInput
import SplitBillJSON

/// Reads Spliit's JSON export (`/groups/<id>/expenses/export/json`) into an ``ImportedBook``.
///
/// Amounts are integer minor units of the group's `currencyCode`. Each expense's shares are worked
/// out as Spliit works them: every participant of `paidFor` but the last gets
/// `⌊amount × shares / Σ shares⌋` (shares are 1 each for `EVENLY`, weights for `BY_SHARES`,
/// basis points for `BY_PERCENTAGE`, minor units for `BY_AMOUNT`), the last gets what is left.
/// They are written as exact shares, so the imported balances are Spliit's to the unit; a comment
/// above each bill says how Spliit split it. `isReimbursement` expenses are payments from the
/// payer to each participant. Expenses splitbill cannot take as they are (a negative amount, the
/// `ITEMIZED` mode, an unknown field shape) are errors naming the expense, skipped only with
/// `--skip-invalid`: never dropped silently.
package enum SpliitImport {
  /// Reads the export's bytes; `currency` stands in for a missing `currencyCode` (older groups).
  package static func read(
    _ bytes: [UInt8], currency fallback: Currency? = nil, skipInvalid: Bool = false
  ) throws(ImportIssue) -> ImportResult {
    guard let root = JSON.parse(bytes) else {
      let offset = JSON.errorOffset(bytes) ?? 0
      let (line, column) = Self.position(of: offset, in: bytes)
      throw ImportIssue(
        .error, "spliit.json", "this is not valid JSON: a Spliit export is one JSON object", line: line, column: column)
    }
    guard case .object = root, case .array = root["participants"], case .array = root["expenses"] else {
      throw ImportIssue(
        .error, "spliit.shape",
        "this is not a Spliit export: expected an object with 'participants' and 'expenses' arrays")
    }
    let currency: Currency
    if let code = root["currencyCode"]?.string, !code.isEmpty {
      do { currency = try Currency(code: code) } catch {
        throw ImportIssue(.error, "spliit.currency", error.message(field: "currencyCode"))
      }
    } else if let fallback {
      currency = fallback
    } else {
      throw ImportIssue(
        .error, "spliit.currency",
        "the group has no currencyCode (older Spliit groups have only a symbol, "
          + "'\(EchoedText.quote(root["currency"]?.string ?? ""))'): give its ISO code with --currency, such as --currency EUR"
      )
    }
    var reader = Reader(currency: currency, skipInvalid: skipInvalid)
    try reader.readParticipants(root["participants"]?.items ?? [])
    for (index, expense) in (root["expenses"]?.items ?? []).enumerated() { reader.read(expense, index: index) }
    reader.book.expectedBalances = reader.book.balances.filter { !$0.value.isEmpty }
    return ImportResult(book: reader.book, errors: reader.errors)
  }

  /// The 1-based line and column (in characters) of byte `offset`.
  static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
    var line = 1
    var column = 1
    for byte in bytes.prefix(offset) {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
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
    var code: String
    var message: String
  }

  struct Reader {
    let currency: Currency
    let skipInvalid: Bool
    var book = ImportedBook(source: .spliit)
    var errors: [ImportIssue] = []
    var names: [String: String] = [:]

    init(currency: Currency, skipInvalid: Bool) {
      self.currency = currency
      self.skipInvalid = skipInvalid
      book.expectedFrom = "Spliit's own rule (each share rounded down, the rest to the last participant)"
    }

    mutating func readParticipants(_ participants: [JSON]) throws(ImportIssue) {
      for (index, participant) in participants.enumerated() {
        guard let id = Self.identifier(participant["id"]), let raw = participant["name"]?.string else {
          throw ImportIssue(.error, "spliit.participant", "participants[\(index)] has no id or no name")
        }
        let name = PersonName.normalized(raw)
        guard !name.isEmpty else {
          throw ImportIssue(
            .error, "spliit.participant", "participants[\(index)] (id \(EchoedText.quote(id))) has an empty name")
        }
        guard !book.people.contains(name) else {
          throw ImportIssue(
            .error, "spliit.participant-twice",
            "two participants are named '\(EchoedText.quote(name))': rename one in Spliit so their balances stay apart")
        }
        names[id] = name
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
      let id = Self.identifier(expense["id"]) ?? "spliit-\(index + 1)"
      let label = "expenses[\(index)] '\(EchoedText.quote(title))' (id \(EchoedText.quote(id)))"
      do {
        try read(expense, id: id, title: title, label: label)
      } catch {
        let issue = ImportIssue(.error, error.code, "\(label): \(error.message)")
        errors.append(issue)
        if skipInvalid { book.skipped.append(issue) }
      }
    }

    mutating func read(_ expense: JSON, id: String, title: String, label: String) throws(Refusal) {
      guard let amountText = expense["amount"]?.numberText, let amount = Int64(amountText) else {
        throw Refusal(code: "spliit.amount", message: "amount is not a whole number of minor units")
      }
      guard amount >= 0 else {
        throw Refusal(
          code: "spliit.negative",
          message: "amount \(Money(minorUnits: amount, currency: currency)) is negative (a refund): splitbill "
            + "bills are never negative; enter it as a payment or skip it with --skip-invalid")
      }
      let date = Self.date(expense["expenseDate"]) ?? Self.date(expense["createdAt"])
      guard amount > 0 else {
        book.omitted.append(
          ImportIssue(.note, "spliit.no-effect", "\(label): amount 0, no effect on balances"))
        return
      }
      let total = Money(minorUnits: amount, currency: currency)
      let modeText = expense["splitMode"]?.string ?? "EVENLY"
      guard let mode = SplitMode(rawValue: modeText) else {
        throw Refusal(
          code: "spliit.split-mode",
          message: "split mode '\(EchoedText.quote(modeText))' is not one splitbill imports "
            + "(EVENLY, BY_SHARES, BY_PERCENTAGE, BY_AMOUNT): enter it by hand, or skip it with --skip-invalid")
      }
      let owed = try parts(expense["paidFor"], mode: mode, amount: amount, what: "paidFor")
      let paid: [ImportedPart]
      switch expense["paidBy"] {
      case .array?:
        let payerMode = SplitMode(rawValue: expense["paidBySplitMode"]?.string ?? "BY_AMOUNT") ?? .byAmount
        paid = try parts(expense["paidBy"], mode: payerMode, amount: amount, what: "paidBy")
      default:
        guard let payerID = Self.identifier(expense["paidById"]) ?? Self.identifier(expense["paidBy"]?["id"]) else {
          throw Refusal(code: "spliit.paid-by", message: "no paidById: who paid is not known")
        }
        guard let payer = names[payerID] else {
          throw Refusal(
            code: "spliit.participant-unknown", message: "paidById '\(EchoedText.quote(payerID))' is no participant")
        }
        paid = [ImportedPart(person: payer, minorUnits: amount)]
      }
      var notes: [String] = []
      let isPayment = expense["isReimbursement"] == .bool(true)
      if !isPayment, let category = Self.category(expense["category"]) { notes.append("Spliit category: \(category)") }
      if let original = originalAmount(expense) { notes.append(original) }
      if let text = expense["notes"]?.string, !text.isEmpty { notes.append(text) }
      if isPayment {
        guard paid.count == 1 else {
          throw Refusal(code: "spliit.paid-by", message: "a reimbursement with several payers cannot be a payment")
        }
        let receivers = owed.filter { $0.person != paid[0].person && $0.minorUnits > 0 }
        for (number, part) in receivers.enumerated() {
          book.payments.append(
            ImportedPayment(
              id: receivers.count == 1 ? id : ImportedBook.id(id, part: number), date: date, from: paid[0].person,
              to: part.person,
              amount: Money(minorUnits: part.minorUnits, currency: currency),
              notes: ([title].filter { !$0.isEmpty } + notes).joined(separator: "; ").nilIfEmpty))
        }
        return
      }
      book.bills.append(
        ImportedBill(
          id: id, date: date, description: title.isEmpty ? nil : title, amount: total,
          payers: paid.filter { $0.minorUnits > 0 }, shares: owed.filter { $0.minorUnits > 0 },
          notes: notes.joined(separator: "; ").nilIfEmpty, comment: Self.comment(mode, expense["paidFor"]?.items ?? []))
      )
    }

    /// Each listed participant's part of `amount` by Spliit's rule (see the type).
    func parts(_ list: JSON?, mode: SplitMode, amount: Int64, what: String) throws(Refusal) -> [ImportedPart] {
      guard case .array(let entries)? = list, !entries.isEmpty else {
        throw Refusal(code: "spliit.\(what == "paidFor" ? "paid-for" : "paid-by")", message: "\(what) lists nobody")
      }
      var people: [String] = []
      var weights: [Int64] = []
      for entry in entries {
        guard let participant = Self.identifier(entry["participantId"]) ?? Self.identifier(entry["participant"]?["id"])
        else {
          throw Refusal(code: "spliit.participant-unknown", message: "an entry of \(what) names no participantId")
        }
        guard let name = names[participant] else {
          throw Refusal(
            code: "spliit.participant-unknown",
            message: "\(what) names '\(EchoedText.quote(participant))', who is no participant")
        }
        var weight: Int64 = 1
        if mode != .evenly {
          let text = entry["shares"]?.numberText ?? ""
          let scale = mode == .byAmount ? 0 : 4
          guard let value = try? DecimalText.parse(text, scale: scale), value >= 0 else {
            throw Refusal(
              code: "spliit.shares",
              message: "\(what) shares '\(EchoedText.quote(text))' of \(EchoedText.quote(name)) is not "
                + (mode == .byAmount ? "a whole number of minor units" : "a number of zero or more"))
          }
          weight = value
        }
        people.append(name)
        weights.append(weight)
      }
      var sum: Int64 = 0
      for weight in weights {
        let (next, overflow) = sum.addingReportingOverflow(weight)
        guard !overflow else { throw Refusal(code: "spliit.shares", message: "\(what) shares are too large") }
        sum = next
      }
      guard sum > 0 else { throw Refusal(code: "spliit.shares", message: "\(what) shares add up to zero") }
      if mode == .byAmount, sum != amount {
        throw Refusal(
          code: "spliit.amounts-sum",
          message: "\(what) amounts add up to \(Money(minorUnits: sum, currency: currency)), "
            + "not the expense's \(Money(minorUnits: amount, currency: currency))")
      }
      var remaining = amount
      var result: [ImportedPart] = []
      for index in people.indices {
        let part: Int64
        if index == people.count - 1 {
          part = remaining
        } else {
          let product = amount.multipliedFullWidth(by: weights[index])
          part = sum.dividingFullWidth(product).quotient
        }
        remaining -= part
        result.append(ImportedPart(person: people[index], minorUnits: part))
      }
      return Self.merged(result)
    }

    /// Parts of one person listed twice made one.
    static func merged(_ parts: [ImportedPart]) -> [ImportedPart] {
      var result: [ImportedPart] = []
      for part in parts {
        if let index = result.firstIndex(where: { $0.person == part.person }) {
          result[index].minorUnits += part.minorUnits
        } else {
          result.append(part)
        }
      }
      return result
    }

    static func date(_ value: JSON?) -> CalendarDate? {
      guard let text = value?.string, text.utf8.count >= 10 else { return nil }
      return CalendarDate(iso: text.prefix(10))
    }

    static func category(_ value: JSON?) -> String? {
      switch value {
      case .object?:
        let parts = [value?["grouping"]?.string, value?["name"]?.string].compactMap { $0 }.filter { !$0.isEmpty }
        // Spliit's default category says nothing.
        guard !parts.isEmpty, parts != ["Uncategorized", "General"] else { return nil }
        return parts.joined(separator: " / ")
      case .string(let text)?: return text.isEmpty ? nil : text
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
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
