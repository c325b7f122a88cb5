import SplitBillCore
import SplitBillModel
import SplitBillText

/// A payment as a reader found it, before any rule: its keys and values, each located. Payments are
/// few (a handful a week), so unlike bills they are read as strings, not as views of the bytes.
struct RawRecord: Sendable {
  /// One key and its value.
  struct Entry: Sendable {
    enum Value: Sendable {
      /// A YAML null or an empty CSV cell.
      case null
      /// One value.
      case text(String)
      /// A list or a mapping, described ("a list").
      case other(String)
    }
    var key: String
    var keyLocation: SourceLocation
    var value: Value
    var valueLocation: SourceLocation
  }

  /// The record's 1-based position among its file's payments.
  var index: Int
  /// Where it starts.
  var start: SourceLocation
  var entries: [Entry]
  /// What makes it unreadable as a record (a YAML item that is not a mapping, a CSV row of the
  /// wrong length), if anything: then there are no entries.
  var problem: Diagnostic?
  /// Whether it is a CSV row (no file defaults to suggest).
  var isCSVRow = false
}

/// The rules of payment records (``PaymentField``): every problem found, each located.
enum PaymentRules {
  /// The payment `raw` gives, or every problem with it.
  static func read(_ raw: RawRecord, context: DocumentContext, options: ReadOptions) -> Result<
    PaymentRecord, InvalidBill
  > {
    var problems: [Diagnostic] = []
    let defaultID = "\(context.file)#p\(raw.index)"
    if let problem = raw.problem {
      return .failure(InvalidBill(id: defaultID, source: raw.start, diagnostics: [problem], kind: .payment))
    }
    var given: [String: RawRecord.Entry] = [:]
    for entry in raw.entries {
      guard PaymentField.keys.contains(entry.key) else {
        let guess = Spelling.suggestion(for: entry.key, among: PaymentField.keys)
        problems.append(
          .error(
            .unknownKey(entry.key, place: "payment", allowed: PaymentField.keys, guess: guess), at: entry.keyLocation))
        continue
      }
      if let first = given[entry.key] {
        problems.append(
          .error(.repeatedKey(entry.key, place: "payment", first: first.keyLocation), at: entry.keyLocation))
        continue
      }
      given[entry.key] = entry
    }
    /// The text of `key`: `nil` when absent or null; other shapes are reported.
    func text(_ key: String) -> (String, SourceLocation)? {
      guard let entry = given[key] else { return nil }
      switch entry.value {
      case .null: return nil
      case .text(let text): return (text, entry.valueLocation)
      case .other(let shape):
        problems.append(.error(.notSingleValue(key: key, shape: shape), at: entry.valueLocation))
        return nil
      }
    }

    var id = defaultID
    if let (text, location) = text("id") {
      let trimmed = text.trimmingSpaces
      if trimmed.isEmpty {
        problems.append(.error(.emptyID, at: location))
      } else {
        id = trimmed
      }
    }
    var date: CalendarDate?
    if let (text, location) = text("date") {
      date = CalendarDate(iso: text)
      if date == nil { problems.append(.error(.badDate(text), at: location)) }
    }
    let notes = text("notes")?.0

    var people: [String?] = []
    for key in ["from", "to"] {
      guard let (text, location) = text(key) else {
        if given[key] == nil || isNull(given[key]) {
          problems.append(.error(.paymentMissing(key: key), at: given[key]?.valueLocation ?? raw.start))
        }
        people.append(nil)
        continue
      }
      let name = PersonName.normalized(text)
      if name.isEmpty {
        problems.append(.error(.paymentMissing(key: key), at: location))
        people.append(nil)
        continue
      }
      if !context.admits(name), let roster = context.roster {
        problems.append(
          .error(
            .notInRoster(role: key, name: name, roster: roster, guess: Spelling.suggestion(for: name, among: roster)),
            at: location))
      }
      people.append(name)
    }
    if let from = people[0], let to = people[1], from == to {
      problems.append(.error(.paymentToSelf(from), at: given["to"]?.valueLocation ?? raw.start))
    }

    var currency: Currency?
    if let (text, location) = text("currency") {
      do {
        currency = context.kept(try Currency(code: text))
      } catch {
        problems.append(.error(.badCurrency(text), at: location))
      }
    } else {
      switch context.currency {
      case .value(let value): currency = value
      case .unset:
        // Missing, not given in a shape already reported.
        if given["currency"] == nil || isNull(given["currency"]) {
          problems.append(.error(.noCurrency(inCSV: raw.isCSVRow, kind: .payment), at: raw.start))
        }
      case .invalid(let location):
        problems.append(.error(.invalidDefault(key: "currency", at: location), at: raw.start))
      }
    }
    var amount: Money?
    if let (text, location) = text("amount") {
      if let currency {
        do {
          let parsed = try Money(parsing: text, currency: currency, decimalComma: options.decimalComma)
          if parsed.minorUnits > 0 {
            amount = parsed
          } else {
            problems.append(.error(.paymentNotPositive(text), at: location))
          }
        } catch {
          problems.append(.error(.invalidMoney(field: "amount", error), at: location))
        }
      }
    } else if given["amount"] == nil || isNull(given["amount"]) {
      problems.append(.error(.paymentMissing(key: "amount"), at: given["amount"]?.valueLocation ?? raw.start))
    }

    guard problems.isEmpty, let from = people[0], let to = people[1], let amount else {
      return .failure(InvalidBill(id: id, source: raw.start, diagnostics: problems, kind: .payment))
    }
    return .success(
      PaymentRecord(
        id: id, source: raw.start, date: date, notes: notes, payment: Payment(from: from, to: to, amount: amount),
        rates: context.rates))
  }

  private static func isNull(_ entry: RawRecord.Entry?) -> Bool {
    guard let entry, case .null = entry.value else { return false }
    return true
  }
}
