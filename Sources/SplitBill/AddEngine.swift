import Foundation
import SplitBillCore
import SplitBillFiles
import SplitBillInput
import SplitBillModel
import SplitBillReports
import SplitBillText
import SplitBillYAML

/// A bill or payment to add to a file, its values as a person types them.
public struct NewRecord: Sendable, Equatable {
  /// What the record is.
  public enum Kind: Sendable, Equatable { case bill, payment }

  public var kind: Kind
  /// Keys of the format (`amount`, `paid_by`, `diners`, `repeat`, `from`, ...) and their text in
  /// the grammar of a CSV cell: diners `Ana, Ben=2` or `3`, several payers `Ana:60.00; Ben:50.59`,
  /// shares `Ana:12.50; Ben:7.50`, a repeat `month` or `every: month; count: 12; skip: 2026-08`.
  public var values: [String: String]

  /// Creates a record.
  public init(kind: Kind, values: [String: String]) {
    self.kind = kind
    self.values = values
  }
}

/// What adding a record did.
public struct AddOutcome: Sendable {
  /// Whether the file was changed.
  public enum Status: Sendable, Equatable {
    /// The record was appended (or, for a dry run, would be).
    case added
    /// The record breaks a rule (``AddOutcome/problems``): the file is unchanged.
    case refused
    /// The file could not be read or added to (its syntax, a flow list, a missing column): why.
    /// The file is unchanged.
    case failed(String)
    /// The file could not be written: why. The file is unchanged.
    case unwritable(String)
  }

  public var status: Status
  /// The record's id, when the file has ids (generated unless given).
  public var id: String?
  /// The lines appended, as written in the file.
  public var text: String
  /// The record's errors and warnings, located in the file as it would be.
  public var problems: [BillProblem]
}

/// What a file holds that helps to add to it: the ids taken, the names known, the last bill.
public struct AddContext: Sendable {
  /// Every id in the file (bills, recurring instances, payments).
  public var ids: Set<String> = []
  /// The names a record may use: the file's roster (or the `--people` one), else every name seen.
  public var names: [String] = []
  /// Whether ``names`` is a roster (a name outside it is an error) rather than the names seen.
  public var namesAreRoster = false
  /// The last valid bill's values, as a record would give them (currency, tip, diners, paid_by,
  /// category). A recurring bill (the rent) counts by its latest instance up to today.
  public var lastBill: [String: String] = [:]
  /// The currency a bill added to the file gets without one (its `defaults: currency:`, or the
  /// command line's): `add` then asks for none.
  public var currency: String?
}

/// `splitbill add`: appends one bill or payment to a YAML or CSV file, in the file's own format
/// (YAML keeping every comment and the style of its items; CSV in its header's columns), after
/// checking the file with it by the rules every bill is read by. The file is replaced atomically
/// and only when the new record has no error, under the books file's lock (``BooksLock``): two
/// `add`s at once both land.
public enum Adder {
  /// What `path` holds that helps to add to it (nothing, for a file that does not exist yet).
  public static func context(of path: String, options: ReadingOptions) -> AddContext {
    context(of: path, readOptions: options.readOptions)
  }

  static func context(of path: String, readOptions options: ReadOptions) -> AddContext {
    var context = AddContext()
    context.currency = options.defaults.currency?.code
    guard FileManager.default.fileExists(atPath: path) else {
      context.names = options.people ?? []
      context.namesAreRoster = options.people != nil
      return context
    }
    // A recurring bill without an end (the rent) has instances up to today, as `check` reads it:
    // without a day to stop at it would be an error, and its names and values unknown.
    var options = options
    if options.repeatsThrough == nil { options.repeatsThrough = .localToday() }
    var stream = BillStream(options: options)
    var seen: [String] = []
    var seenSet: Set<String> = []
    func see(_ name: String) { if seenSet.insert(name).inserted { seen.append(name) } }
    var last: Bill?
    stream.read(stream.sources(for: [path])) { outcome in
      switch consume outcome {
      case .valid(let bill):
        context.ids.insert(bill.id)
        if let payer = bill.terms.payer { see(payer) }
        for payer in bill.terms.payers { see(payer.person) }
        switch bill.terms.diners {
        case .named(let diners), .exact(let diners): for diner in diners { see(diner.name) }
        default: break
        }
        last = bill
      case .payment(let payment):
        context.ids.insert(payment.id)
        see(payment.payment.from)
        see(payment.payment.to)
      case .invalid(let invalid):
        if let id = invalid.id { context.ids.insert(id) }
      }
    }
    if let currency = stream.documentCurrency { context.currency = currency.code }
    if let roster = stream.roster ?? options.people {
      context.names = roster
      context.namesAreRoster = true
    } else {
      context.names = seen
    }
    if let last {
      context.lastBill["currency"] = last.terms.amount.currency.code
      switch last.terms.tip {
      case .percent(let percent): context.lastBill["tip"] = percent.description
      case .advisor: context.lastBill["tip"] = "ai"
      case .fixed: break
      }
      if let payer = last.terms.payer { context.lastBill["paid_by"] = payer }
      if let category = last.category { context.lastBill["category"] = category }
      switch last.terms.diners {
      case .anonymous(let count): context.lastBill["diners"] = String(count)
      case .named(let diners):
        context.lastBill["diners"] = diners.map {
          $0.weight == .one ? $0.name : "\($0.name)=\($0.weight)"
        }.joined(separator: ", ")
      case .exact, .itemized: break
      }
    }
    return context
  }

  /// Adds `record` to `path` (made if it does not exist): checks the file with it, then, unless
  /// `dryRun`, replaces the file atomically. `today` dates a bill or payment given no date.
  public static func add(
    _ record: NewRecord, to path: String, options: ReadingOptions, today: CalendarDate, dryRun: Bool = false
  ) -> AddOutcome {
    var readOptions = options.readOptions
    // Recurring bills without an end come up to `today`, as the file is checked.
    readOptions.repeatsThrough = today
    return add(record, to: path, readOptions: readOptions, today: today, dryRun: dryRun)
  }

  static func add(
    _ record: NewRecord, to path: String, readOptions options: ReadOptions, today: CalendarDate, dryRun: Bool = false
  ) -> AddOutcome {
    func failed(_ message: String) -> AddOutcome {
      AddOutcome(status: .failed(message), id: nil, text: "", problems: [])
    }
    func unwritable(_ error: WriteError) -> AddOutcome {
      AddOutcome(status: .unwritable(error.reason), id: nil, text: "", problems: [])
    }
    // The format as the readers tell it: the name, else --input-format.
    guard
      let source = BillStream.source(for: path, override: nil)
        ?? BillStream.source(for: path, override: options.inputFormat)
    else { return failed(Problem.unknownFormat(path: path).message) }
    let isCSV = source.format == .csv
    // Held from the reading to the rename: another `add` (or any command that writes books) waits,
    // then reads the file with this record in it (``BooksLock``). A dry run writes nothing.
    var lock: BooksLock?
    if !dryRun {
      do throws(WriteError) {
        lock = try BooksLock(books: path, command: "splitbill add")
      } catch {
        return unwritable(error)
      }
    }
    defer { lock?.release() }
    let exists = FileManager.default.fileExists(atPath: path)
    var original: [UInt8] = []
    if exists {
      guard let data = FileManager.default.contents(atPath: path) else {
        return failed("cannot read '\(path)'")
      }
      original = Array(data)
    }
    var values = record.values.filter { !$0.value.trimmingSpaces.isEmpty }
    let dateGiven = values["date"] != nil
    if !dateGiven { values["date"] = today.description }
    let context = exists ? Self.context(of: path, readOptions: options) : AddContext()
    let edit: Edit
    do throws(AddFailure) {
      edit =
        isCSV
        ? try csvEdit(
          record.kind, values, original, path: path, tabSeparated: source.isTabSeparated, dateGiven: dateGiven,
          options: options, takenIDs: context.ids)
        : try yamlEdit(record.kind, values, original, takenIDs: context.ids, decimalComma: options.decimalComma)
    } catch {
      return failed(error.message)
    }

    // The file as it would be is written to the temporary file that will replace it (removed on a
    // signal, as every output's is), checked there by the same rules, then renamed into place.
    let pending: PendingFile
    do throws(WriteError) {
      pending = try PendingFile(path: path)
      pending.sink.write(bytes: edit.bytes)
      try pending.prepare()
    } catch {
      return unwritable(error)
    }
    guard let scratch = pending.preparedPath else {
      pending.abort()
      return failed("'\(path)' is not a regular file")
    }
    var checking = options
    checking.inputFormat = source.format
    if source.isTabSeparated, checking.delimiter == nil { checking.delimiter = 0x09 }
    let checked = Checker.run([scratch], readOptions: checking, allowEmpty: true)
    guard checked.status == .checked else {
      pending.abort()
      return failed("the file with the record could not be checked")
    }
    let problems = checked.problems.filter { $0.file == scratch && edit.lines.contains($0.line ?? 0) }.map {
      var problem = $0
      problem.file = path
      problem.message = problem.message.replacingOccurrences(of: scratch, with: path)
      return problem
    }
    var outcome = AddOutcome(status: .added, id: edit.id, text: edit.text, problems: problems)
    if problems.contains(where: { $0.severity == "error" }) { outcome.status = .refused }
    guard outcome.status == .added, !dryRun else {
      pending.abort()
      return outcome
    }
    do throws(WriteError) {
      try pending.commit()
    } catch {
      outcome.status = .unwritable(error.reason)
    }
    return outcome
  }

  // MARK: - Editing

  /// The file with the record in it: its bytes, the lines the record takes, its text and id.
  struct Edit {
    var bytes: [UInt8]
    var lines: ClosedRange<Int>
    var text: String
    var id: String?
  }

  struct AddFailure: Error {
    var message: String
  }

  /// The keys of each kind of record, in the order they are written.
  static func keys(of kind: NewRecord.Kind) -> [String] {
    kind == .bill ? BillField.billKeys.filter { $0 != "items" } : PaymentField.all.map(\.name)
  }

  /// An id not in `taken`: the description's words (or `bill`, `payment`) and the date, then
  /// `-2`, `-3`, ... (`groceries-2026-12-02`).
  static func newID(_ kind: NewRecord.Kind, _ values: [String: String], takenIDs taken: Set<String>) -> String {
    let plain = (values["description"] ?? "").lowercased().folding(options: .diacriticInsensitive, locale: nil)
      .replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "\u{2019}", with: "")
    let words = plain.unicodeScalars.map {
      ("a"..."z").contains($0) || ("0"..."9").contains($0) ? Character($0) : "-"
    }
    let slug = String(words).split(separator: "-").prefix(4).joined(separator: "-")
    let stem =
      (slug.isEmpty ? (kind == .bill ? "bill" : "payment") : String(slug.prefix(32))) + "-"
      + (values["date"] ?? "")
    var candidate = stem
    var number = 1
    while taken.contains(candidate) || taken.contains(where: { $0.hasPrefix(candidate + "#") }) {
      number += 1
      candidate = "\(stem)-\(number)"
    }
    return candidate
  }

  static func yamlEdit(
    _ kind: NewRecord.Kind, _ given: [String: String], _ original: [UInt8], takenIDs: Set<String>,
    decimalComma: Bool
  ) throws(AddFailure) -> Edit {
    var values = given
    if values["id"] == nil { values["id"] = newID(kind, values, takenIDs: takenIDs) }
    let section = kind == .bill ? "bills" : "payments"
    let plan: YAMLAppendPlan
    do throws(YAMLAppendPlan.Problem) {
      plan = try YAMLAppendPlan.plan(for: original, section: section)
    } catch {
      throw AddFailure(message: error.message)
    }
    // A new file starts with what the next record needs: its currency and a tip of 0 as the
    // defaults (rent has no tip; a restaurant bill says its own), and the people named as the
    // roster, so that a name typed wrong later is an error rather than a new person.
    var header: [String] = []
    if original.isEmpty {
      header.append("version: 1")
      var defaults: [String] = []
      if let currency = values.removeValue(forKey: "currency") {
        defaults.append("currency: " + YAMLText.scalar(currency.trimmingSpaces.uppercased()))
      }
      if kind == .bill { defaults.append("tip: 0") }
      if !defaults.isEmpty { header.append("defaults: {" + defaults.joined(separator: ", ") + "}") }
      let people = names(in: values, decimalComma: decimalComma)
      if !people.isEmpty { header.append("people: [" + people.map(YAMLText.scalar).joined(separator: ", ") + "]") }
    }
    let pairs = keys(of: kind).compactMap { key in
      values[key].map { (key, yamlValue(key, $0, decimalComma: decimalComma)) }
    }
    var lines = header
    if plan.writesSectionKey { lines.append("\(section):") }
    let dash = String(repeating: " ", count: plan.dashColumn)
    if plan.flowItems {
      lines.append(dash + "- {" + pairs.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}")
    } else {
      let indent = String(repeating: " ", count: plan.keyColumn)
      let gap = String(repeating: " ", count: max(plan.keyColumn - plan.dashColumn - 1, 1))
      for (index, (key, value)) in pairs.enumerated() {
        lines.append((index == 0 ? dash + "-" + gap : indent) + "\(key): \(value)")
      }
    }
    let bytes = plan.inserting(lines, into: original)
    let first = plan.afterLine + 1 + header.count + (plan.writesSectionKey ? 1 : 0)
    return Edit(
      bytes: bytes, lines: first...(plan.afterLine + lines.count), text: lines.joined(separator: "\n") + "\n",
      id: values["id"])
  }

  /// The people a record names (payers, diners, shares, a payment's two), once each, in order;
  /// a head count names nobody.
  static func names(in values: [String: String], decimalComma: Bool) -> [String] {
    var found: [String] = []
    for key in ["paid_by", "diners", "shares", "from", "to"] {
      guard let text = values[key], !text.trimmingSpaces.allSatisfy(\.isNumber) else { continue }
      for entry in DinerList.entries(in: text, decimalComma: decimalComma) {
        let name = PersonName.normalized(entry.name.trimmingSpaces)
        if !name.isEmpty && !found.contains(name) { found.append(name) }
      }
    }
    return found
  }

  /// A value written in YAML: names lists and mappings as flow collections, texts as scalars.
  static func yamlValue(_ key: String, _ text: String, decimalComma: Bool) -> String {
    func entries(_ text: String) -> [(name: String, value: String?)] {
      DinerList.entries(in: text, decimalComma: decimalComma).map {
        ($0.name.trimmingSpaces, $0.weight?.trimmingSpaces)
      }
      .filter { !$0.name.isEmpty }
    }
    func mapping(_ items: [(name: String, value: String?)], _ value: (String, String?) -> String) -> String {
      "{" + items.map { "\(YAMLText.scalar($0.name)): \(value($0.name, $0.value))" }.joined(separator: ", ") + "}"
    }
    let hasMarks = text.contains(":") || text.contains("=")
    switch key {
    case "diners" where text.trimmingSpaces.allSatisfy(\.isNumber):
      return YAMLText.scalar(text.trimmingSpaces)
    case "diners", "discount_items":
      let items = entries(text)
      if items.allSatisfy({ $0.value == nil }) {
        return "[" + items.map { YAMLText.scalar($0.name) }.joined(separator: ", ") + "]"
      }
      return mapping(items) { _, weight in YAMLText.scalar(weight ?? "1") }
    case "paid_by" where hasMarks || text.contains(";"), "shares":
      return mapping(entries(text)) { _, amount in YAMLText.scalar(amount ?? "") }
    case "repeat" where hasMarks:
      return mapping(entries(text)) { name, value in
        let value = value ?? ""
        guard name == "skip" else { return YAMLText.scalar(value) }
        return "[" + value.split(separator: " ").map { YAMLText.scalar(String($0)) }.joined(separator: ", ") + "]"
      }
    default:
      return YAMLText.scalar(text.trimmingSpaces)
    }
  }

  static func csvEdit(
    _ kind: NewRecord.Kind, _ given: [String: String], _ original: [UInt8], path: String, tabSeparated: Bool,
    dateGiven: Bool, options: ReadOptions, takenIDs: Set<String>
  ) throws(AddFailure) -> Edit {
    var values = given
    var original = original
    var header = ""
    let plan: CSVAppendPlan
    if original.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      // A new (or blank) file: the columns the record gives, in the format's order, and an id column.
      original = []
      if values["id"] == nil { values["id"] = newID(kind, values, takenIDs: takenIDs) }
      // A CSV file has no defaults: a bill that gives no tip has a tip of 0 (rent), written out.
      if kind == .bill, values["tip"] == nil, values["tip_amount"] == nil { values["tip"] = "0" }
      let columns = keys(of: kind).filter { values[$0] != nil }
      let delimiter = options.delimiter ?? (tabSeparated ? 0x09 : 0x2C)
      plan = CSVAppendPlan(delimiter: delimiter, columns: columns, lineEnd: "\n", endsWithLineEnd: true)
      header = columns.joined(separator: String(UnicodeScalar(delimiter))) + "\n"
    } else if let found = CSVAppendPlan.plan(
      for: original, file: path, delimiter: options.delimiter, tabSeparated: tabSeparated)
    {
      plan = found
    } else {
      throw AddFailure(message: "its header cannot be read: check it with splitbill check \(path)")
    }
    if plan.columns.contains("id"), values["id"] == nil { values["id"] = newID(kind, values, takenIDs: takenIDs) }
    // Today's date goes only where the file has dates; a date given goes nowhere else.
    if !plan.columns.contains("date"), !dateGiven { values["date"] = nil }
    return try csvRow(kind, values, original, header: header, plan: plan, path: path, options: options)
  }

  /// `original` with the record's row (after `header`, for a new file) in `plan`'s columns.
  static func csvRow(
    _ kind: NewRecord.Kind, _ values: [String: String], _ original: [UInt8], header: String, plan: CSVAppendPlan,
    path: String, options: ReadOptions
  ) throws(AddFailure) -> Edit {
    if kind == .payment && !plan.holdsPayments {
      throw AddFailure(message: "'\(path)' holds bills: payments go in a CSV file whose header has from, to and amount")
    }
    if kind == .bill && plan.holdsPayments {
      throw AddFailure(message: "'\(path)' holds payments (its header has from and to): bills go in another file")
    }
    let missing = keys(of: kind).filter { values[$0] != nil && !plan.columns.contains($0) }
    if let key = missing.first {
      throw AddFailure(
        message:
          "'\(path)' has no '\(key)' column: add it to the header (\(plan.columns.joined(separator: ","))), or leave \(key) out"
      )
    }
    let row = plan.columns.map { column in
      plan.cell(values[column].map { csvValue(column, $0, decimalComma: options.decimalComma) } ?? "")
    }
    .joined(separator: String(UnicodeScalar(plan.delimiter)))
    var bytes = original
    var text = header
    if !original.isEmpty && !plan.endsWithLineEnd { text += plan.lineEnd }
    text += row + plan.lineEnd
    bytes += Array(text.utf8)
    let line = SourceLines.count(in: bytes)
    return Edit(bytes: bytes, lines: line...line, text: header + row + "\n", id: values["id"])
  }

  /// A value in a CSV cell: names separated by `;` (the diner-list grammar's), texts as typed.
  static func csvValue(_ key: String, _ text: String, decimalComma: Bool) -> String {
    switch key {
    case "diners", "paid_by", "shares", "discount_items":
      if text.trimmingSpaces.allSatisfy(\.isNumber) { return text.trimmingSpaces }
      return DinerList.entries(in: text, decimalComma: decimalComma).map { entry in
        let name = entry.name.trimmingSpaces
        return entry.weight.map { "\(name):\($0.trimmingSpaces)" } ?? name
      }.filter { !$0.isEmpty }.joined(separator: ";")
    default:
      return text.trimmingSpaces
    }
  }
}
