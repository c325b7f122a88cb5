import SplitBill
import SplitBillCore
import SplitBillFiles
import SplitBillInput
import SplitBillModel
import SplitBillReports
import SplitBillText

#if canImport(Glibc)
  import Glibc
#endif

/// The questions `splitbill add` asks on a terminal, one field at a time, each answer checked as
/// it is given: defaults from the file's last bill (Enter takes them), names completed from the
/// names the file knows (its roster, else everyone in it) when one name starts with what was typed.
struct Prompter {
  let path: String
  let kind: NewRecord.Kind
  let options: ReadingOptions
  /// Values given as options: not asked.
  let given: [String: String]
  /// The answers of a record the file refused: the next record's defaults, so nothing typed is
  /// lost (Enter keeps each, and the one to mend is typed again).
  var refused: [String: String]?

  /// Writes a line to the terminal at once.
  func say(_ text: String, newline: Bool = true) { write(text + (newline ? "\n" : "")) }

  private func write(_ text: String) { _ = SystemCalls.write(Array(text.utf8), to: 1) }

  /// One line typed, without its line end; `nil` at the end of input (Ctrl-D).
  private func line(_ prompt: String, default value: String?) -> String? {
    write(prompt + (value.map { $0.isEmpty ? "" : " [\($0)]" } ?? "") + ": ")
    guard let typed = readLine(strippingNewline: true) else {
      write("\n")
      return nil
    }
    let trimmed = typed.trimmingCharacters(in: .whitespaces)
    return trimmed.isEmpty ? (value ?? "") : trimmed
  }

  /// Asks until `check` accepts the answer (it gives the value kept, or throws what is wrong).
  private func ask(
    _ prompt: String, default value: String?, _ check: (String) throws(AnswerProblem) -> String
  ) -> String?? {
    while true {
      guard let answer = line(prompt, default: value) else { return .some(nil) }
      do {
        return .some(try check(answer))
      } catch {
        say("  \(error.message)")
      }
    }
  }

  struct AnswerProblem: Error {
    var message: String
  }

  /// The next record, or `nil` when the person is done (Ctrl-D, or nothing typed for the first field).
  mutating func ask() -> NewRecord? {
    let context = Adder.context(of: path, options: options)
    let known = context.names
    let today = CalendarDate.localToday()
    if !known.isEmpty {
      say((context.namesAreRoster ? "People: " : "Names in the file: ") + known.joined(separator: ", "))
    }
    var values = given
    let previous = refused ?? [:]
    if refused != nil {
      say("The record was not added: Enter keeps each answer in brackets; type the one to mend.")
    }
    refused = nil
    /// New names typed once: typed again, the person is new (never from one slip of the keyboard).
    var newNames: Set<String> = []

    /// A known name from what was typed: itself, or the one known name it starts (any case). A
    /// name the file does not know is asked again, and taken as a new person when typed again.
    func complete(_ typed: String) throws(AnswerProblem) -> String {
      let name = PersonName.normalized(typed)
      if name.isEmpty { throw AnswerProblem(message: "a name is needed") }
      if known.contains(name) { return name }
      // A date or an amount typed a question early is no name.
      if CalendarDate(iso: name) != nil || name.allSatisfy({ $0.isNumber || $0 == "." || $0 == "," || $0 == "-" }) {
        throw AnswerProblem(message: "'\(name)' is not a name: expected who, such as \(known.first ?? "Ana")")
      }
      let lowered = name.lowercased()
      let starting = known.filter { $0.lowercased().hasPrefix(lowered) }
      if starting.count == 1 { return starting[0] }
      if starting.count > 1 {
        throw AnswerProblem(message: "'\(name)' may be \(starting.joined(separator: ", ")): type more of the name")
      }
      if context.namesAreRoster {
        throw AnswerProblem(message: "'\(name)' is not in people (\(known.joined(separator: ", ")))")
      }
      if known.isEmpty || newNames.contains(name) { return name }
      newNames.insert(name)
      let like = Spelling.suggestion(for: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
      throw AnswerProblem(
        message:
          "'\(name)' is nobody in the file (\(known.joined(separator: ", ")))\(like): type it again to add a new person"
      )
    }
    func names(_ typed: String) throws(AnswerProblem) -> String {
      if typed.allSatisfy(\.isNumber) { return typed }
      var out: [String] = []
      for (name, weight) in DinerList.entries(in: typed, decimalComma: options.decimalComma) {
        let completed = try complete(name)
        out.append(weight.map { "\(completed)=\($0.trimmingCharacters(in: .whitespaces))" } ?? completed)
      }
      // The names completed, checked by the diner-list grammar's own rules (a name twice, a weight).
      let list = out.joined(separator: "; ")
      do throws(DinerList.Problem) {
        _ = try DinerList.diners(in: list, decimalComma: options.decimalComma)
      } catch {
        throw AnswerProblem(message: error.description)
      }
      guard !out.isEmpty else {
        throw AnswerProblem(message: "name who shares it, such as \(known.prefix(3).joined(separator: ", "))")
      }
      return list
    }

    // The currency the file gives a record without one (its defaults, or --currency): not asked,
    // not written. Without one, the currency is asked (the last bill's by default) and written.
    let fileCurrency = context.currency
    func amount(_ typed: String) throws(AnswerProblem) -> String {
      guard let code = values["currency"] ?? fileCurrency, let currency = try? Currency(code: code) else {
        return typed
      }
      let money: Money
      do throws(MoneyError) {
        money = try Money(parsing: typed, currency: currency, decimalComma: options.decimalComma)
      } catch {
        throw AnswerProblem(message: error.message(field: "amount"))
      }
      if money.minorUnits == 0 && kind == .payment { throw AnswerProblem(message: "a payment is more than zero") }
      return typed
    }

    // The first question ends the session when nothing is typed: it has no default (but a
    // refused record's answer, when there is one: Ctrl-D ends then). Its answer is checked too.
    func first(
      _ key: String, _ prompt: String, _ check: (String) throws(AnswerProblem) -> String = { $0 }
    ) -> Bool {
      guard values[key] == nil else { return true }
      let kept = previous[key]
      while true {
        guard let answer = line(prompt + (kept == nil ? " (Enter to finish)" : ""), default: kept), !answer.isEmpty
        else { return false }
        do {
          values[key] = try check(answer)
          return true
        } catch {
          say("  \(error.message)")
        }
      }
    }
    func field(
      _ key: String, _ prompt: String, default value: String? = nil,
      _ check: (String) throws(AnswerProblem) -> String = { $0 }
    ) -> Bool {
      guard values[key] == nil else { return true }
      guard let answer = ask(prompt, default: previous[key] ?? value, check) else { return false }
      guard let answer else { return false }
      if !answer.isEmpty { values[key] = answer }
      return true
    }
    let date: (String) throws(AnswerProblem) -> String = { typed throws(AnswerProblem) in
      guard CalendarDate(iso: typed) != nil else {
        throw AnswerProblem(message: "'\(typed)' is not a date: expected YYYY-MM-DD, such as \(today)")
      }
      return typed
    }

    let currencyCode: (String) throws(AnswerProblem) -> String = { typed throws(AnswerProblem) in
      guard (try? Currency(code: typed)) != nil else {
        throw AnswerProblem(message: "'\(typed)' is not an ISO 4217 code, such as EUR or USD")
      }
      return typed.uppercased()
    }
    let tip: (String) throws(AnswerProblem) -> String = { typed throws(AnswerProblem) in
      do throws(PercentError) {
        _ = try TipText.parsing(typed, decimalComma: options.decimalComma)
        return typed
      } catch {
        throw AnswerProblem(message: error.message(field: "tip") + " (or 'ai')")
      }
    }

    let lastCurrency = context.lastBill["currency"]
    func currencyField() -> Bool {
      fileCurrency != nil || field("currency", "Currency", default: lastCurrency, currencyCode)
    }
    func amountPrompt() -> String {
      "Amount" + ((values["currency"] ?? fileCurrency).map { " (\($0))" } ?? "")
    }
    switch kind {
    case .bill:
      guard first("description", "Description"),
        field("date", "Date", default: today.description, date),
        currencyField(),
        field("amount", amountPrompt(), amount),
        field("paid_by", "Paid by", default: context.lastBill["paid_by"], complete),
        field("diners", "Diners", default: context.lastBill["diners"], names),
        field("tip", "Tip", default: context.lastBill["tip"] ?? "0", tip),
        field("category", "Category", default: context.lastBill["category"] ?? ""),
        field("notes", "Notes", default: "")
      else { return nil }
    case .payment:
      guard first("from", "From", complete),
        field("to", "To", complete),
        field("date", "Date", default: today.description, date),
        currencyField(),
        field("amount", amountPrompt(), amount),
        field("notes", "Notes", default: "")
      else { return nil }
    }
    return NewRecord(kind: kind, values: values)
  }
}
