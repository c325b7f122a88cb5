import SplitBill
import SplitBillCore
import SplitBillFiles
import SplitBillInput
import SplitBillModel
import SplitBillReports

#if canImport(Glibc)
  import Glibc
#endif

/// The questions `splitbill add` asks on a terminal, one field at a time, each answer checked as
/// it is given: defaults from the file's last bill (Enter takes them), names completed from the
/// names the file knows (its roster, else everyone in it) when one name starts with what was typed.
struct Prompter {
  let path: String
  let kind: NewRecord.Kind
  let options: ReadOptions
  /// Values given as options: not asked.
  let given: [String: String]

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
    let context = Adder.context(of: path, readOptions: options)
    let known = context.names
    let today = CalendarDate.localToday()
    if !known.isEmpty {
      say((context.namesAreRoster ? "People: " : "Names in the file: ") + known.joined(separator: ", "))
    }
    var values = given

    /// A known name from what was typed: itself, or the one known name it starts (any case).
    func complete(_ typed: String) throws(AnswerProblem) -> String {
      let name = PersonName.normalized(typed)
      if name.isEmpty { throw AnswerProblem(message: "a name is needed") }
      if known.contains(name) { return name }
      let lowered = name.lowercased()
      let starting = known.filter { $0.lowercased().hasPrefix(lowered) }
      if starting.count == 1 { return starting[0] }
      if starting.count > 1 {
        throw AnswerProblem(message: "'\(typed)' may be \(starting.joined(separator: ", ")): type more of the name")
      }
      if context.namesAreRoster {
        throw AnswerProblem(message: "'\(typed)' is not in people (\(known.joined(separator: ", ")))")
      }
      return name
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

    let currencyText = values["currency"] ?? options.defaults.currency?.code ?? context.lastBill["currency"]
    func amount(_ typed: String) throws(AnswerProblem) -> String {
      guard let code = values["currency"] ?? currencyText, let currency = try? Currency(code: code) else {
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

    // The first question ends the session when nothing is typed: it has no default.
    func first(_ key: String, _ prompt: String) -> Bool {
      guard values[key] == nil else { return true }
      guard let answer = line(prompt + " (Enter to finish)", default: nil), !answer.isEmpty else { return false }
      values[key] = answer
      return true
    }
    func field(
      _ key: String, _ prompt: String, default value: String? = nil,
      _ check: (String) throws(AnswerProblem) -> String = { $0 }
    ) -> Bool {
      guard values[key] == nil else { return true }
      guard let answer = ask(prompt, default: value, check) else { return false }
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

    switch kind {
    case .bill:
      guard first("description", "Description"),
        field("date", "Date", default: today.description, date),
        currencyText != nil || field("currency", "Currency", currencyCode),
        field("amount", "Amount" + (currencyText.map { " (\($0))" } ?? ""), amount),
        field("paid_by", "Paid by", default: context.lastBill["paid_by"], complete),
        field("diners", "Diners", default: context.lastBill["diners"], names),
        field("tip", "Tip", default: context.lastBill["tip"] ?? "0", tip),
        field("category", "Category", default: context.lastBill["category"] ?? ""),
        field("notes", "Notes", default: "")
      else { return nil }
    case .payment:
      guard first("from", "From"),
        let from = values["from"].map({ (try? complete($0)) ?? $0 }),
        field("to", "To", complete),
        field("date", "Date", default: today.description, date),
        field("amount", "Amount" + (currencyText.map { " (\($0))" } ?? ""), amount),
        field("notes", "Notes", default: "")
      else { return nil }
      values["from"] = from
    }
    return NewRecord(kind: kind, values: values)
  }
}
