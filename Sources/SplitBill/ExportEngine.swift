import SplitBillInput
import SplitBillModel
import SplitBillReports
import SplitBillText

/// What `export` is asked to do: which app to write for, and which of the books' records.
public struct ExportOptions: Sendable {
  /// The app the file is for.
  public var target: ExportTarget
  /// How the books are read (as `report` reads them).
  public var reading: ReadingOptions
  /// The currency whose records are written, when the books have several (an app's group has one).
  public var currency: Currency?
  /// The export's date: records without a date take it (the apps need one), and the summary row
  /// names it. The same books on the same date give the same bytes.
  public var date: CalendarDate

  /// Options to write `target`'s file on `date`.
  public init(target: ExportTarget, date: CalendarDate, currency: Currency? = nil, reading: ReadingOptions = .init()) {
    self.target = target
    self.date = date
    self.currency = currency
    self.reading = reading
  }
}

/// What exporting the books gave.
public struct ExportOutcome: Sendable {
  /// Whether the file may be written.
  public enum Status: Sendable, Equatable {
    /// ``ExportOutcome/bytes`` holds the file; read back, its balances are the books'.
    case exported
    /// Records of the books could not be used (listed in ``ExportOutcome/problems``): a file
    /// without them would give other balances, so there is none.
    case invalid(records: Int)
  }

  public var status: Status
  /// The file, when ``status`` is ``Status/exported``.
  public var bytes: [UInt8]?
  /// What the app's format could not hold as it was, and how it was folded (`3 bills are written as
  /// 7 IHateMoney bills: …`): for stderr, never dropped silently.
  public var remarks: [ExportRemark]
  /// One line: what was written and that the balances read back the same.
  public var summary: String?
  /// What reading the books found (warnings; errors when ``status`` is ``Status/invalid(records:)``).
  public var problems: ReportProblems
}

/// splitbill's books written for another app: every bill split by the core, written in the app's
/// import format, then read back with splitbill's importer of that app and every person's balance
/// compared with the books' before the file is handed over. No I/O: writing the file is the caller's.
///
/// ```swift
/// let outcome = try Exporter.run(["trip.yaml"], ExportOptions(target: .ihatemoney, date: today))
/// if let bytes = outcome.bytes { try Data(bytes).write(to: URL(filePath: "trip-ihatemoney.json")) }
/// ```
public enum Exporter {
  /// Reads the books at `paths` as `report` does and writes them for ``ExportOptions/target``.
  ///
  /// - Throws: ``ReportFailure``: the books cannot be read or hold nothing (`noInput`), several
  ///   currencies without ``ExportOptions/currency`` (`usage`), or the file would not read back
  ///   with the books' balances (`internalError`, a bug).
  /// The blocking `run(_:_:)`, for a caller on Swift's cooperative pool: the reading blocks a thread of
  /// its own, and the task awaits it.
  public static func run(_ paths: [String], _ options: ExportOptions) async throws(ReportFailure) -> ExportOutcome {
    try await DedicatedThread.run { () throws(ReportFailure) in try run(paths, options) }
  }

  public static func run(_ paths: [String], _ options: ExportOptions) throws(ReportFailure) -> ExportOutcome {
    var report = ReportOptions(reading: options.reading, outputs: [], today: options.date)
    report.reading.allowEmpty = false
    var run = try Reporter.prepare(paths, report)
    let collector = RecordCollector()
    run.collector = collector
    let outcome = try run.write()
    guard outcome.invalid == 0 else {
      return ExportOutcome(
        status: .invalid(records: outcome.invalid), bytes: nil, remarks: [], summary: nil, problems: outcome.problems)
    }
    var (book, remarks) = try self.book(collector, options)
    let file = options.target.write(book, date: options.date)
    try readBack(file, of: book, options)
    remarks += file.remarks
    book.people = book.people.map { file.renamed[$0] ?? $0 }
    let currency = book.currencies.first?.code ?? ""
    let summary =
      "exported \(plural(book.bills.count, "bill")) and \(plural(book.payments.count, "payment")) of "
      + "\(plural(book.people.count, "person", "people")) (\(currency)) for \(options.target.appName); read back with "
      + "`splitbill import \(options.target.readBack.rawValue)`, every balance is the books'"
    return ExportOutcome(
      status: .exported, bytes: file.bytes, remarks: remarks, summary: summary, problems: outcome.problems)
  }

  /// The collected records of one currency as a book, each bill with its payers' amounts and exact
  /// shares (tip included), every record dated; and what was left out or filled in, said.
  static func book(_ records: RecordCollector, _ options: ExportOptions) throws(ReportFailure) -> (
    ImportedBook, [ExportRemark]
  ) {
    let currencies = Set(records.bills.map(\.split.currency) + records.payments.map(\.payment.currency)).sorted()
    let currency: Currency
    if let chosen = options.currency {
      guard currencies.contains(chosen) else {
        throw ReportFailure(
          .usage,
          "the books have no \(chosen.code) records (they have \(currencies.map(\.code).joined(separator: ", ")))")
      }
      currency = chosen
    } else if currencies.count == 1 {
      currency = currencies[0]
    } else {
      throw ReportFailure(
        .usage,
        """
        the books are in \(currencies.map(\.code).joined(separator: ", ")), and a group in \(options.target.appName) \
        has one currency: export one at a time (\(.currency) \(currencies[0].code))
        """)
    }
    var book = ImportedBook(source: options.target.readBack)
    var remarks: [ExportRemark] = []
    var otherCurrency = 0
    var noEffect: [String] = []
    var undated: [String] = []
    var tipped = 0
    var itemized = 0
    var people: [String] = []
    var seen = Set<String>()
    func meet(_ person: String) {
      if seen.insert(person).inserted { people.append(person) }
    }
    for reported in records.bills {
      let split = reported.split
      let bill = reported.bill
      guard split.currency == currency else {
        otherCurrency += 1
        continue
      }
      // A head-count bill, one nobody paid or one of nothing is in nobody's balance.
      guard split.movesBalances, split.total.minorUnits > 0 else {
        noEffect.append(bill.id)
        continue
      }
      if bill.date == nil { undated.append(bill.id) }
      if split.tip.minorUnits > 0 { tipped += 1 }
      if split.receipt != nil { itemized += 1 }
      var payers: [ImportedPart] = []
      split.forEachPayer { person, amount in payers.append(ImportedPart(person: person, minorUnits: amount.minorUnits))
      }
      let shares = split.shares.filter { $0.amount.minorUnits > 0 }.map {
        ImportedPart(person: $0.person, minorUnits: $0.amount.minorUnits)
      }
      for part in payers + shares { meet(part.person) }
      book.bills.append(
        ImportedBill(
          id: bill.id, date: bill.date ?? options.date, description: bill.description, amount: split.total,
          payers: payers, shares: shares, notes: bill.notes, comment: nil, category: bill.category))
    }
    for record in records.payments {
      let payment = record.payment
      guard payment.currency == currency else {
        otherCurrency += 1
        continue
      }
      if record.date == nil { undated.append(record.id) }
      meet(payment.from)
      meet(payment.to)
      book.payments.append(
        ImportedPayment(
          id: record.id, date: record.date ?? options.date, from: payment.from, to: payment.to, amount: payment.amount,
          notes: record.notes))
    }
    book.people = people
    if otherCurrency > 0 {
      remarks.append(
        ExportRemark(
          .otherCurrency,
          "\(plural(otherCurrency, "record")) in other currencies than \(currency.code) \(BookExport.verb(otherCurrency)) not in this file: export "
            + "each currency on its own"))
    }
    if !noEffect.isEmpty {
      remarks.append(
        ExportRemark(
          .leftOut,
          "\(BookExport.count(noEffect)) \(BookExport.verb(noEffect.count)) left out: a head count, nobody paid or nothing to pay, so they are in "
            + "nobody's balance"))
    }
    if !undated.isEmpty {
      remarks.append(
        ExportRemark(
          .undated,
          "\(BookExport.count(undated, "record")) \(undated.count == 1 ? "has" : "have") no date: written dated \(options.date), the export's date "
            + "(\(options.target.appName) needs one)"))
    }
    if tipped > 0 {
      remarks.append(
        ExportRemark(
          .tipFolded,
          "\(plural(tipped, "bill")) had a tip: written with the tip in the amount and in each share "
            + "(\(options.target.appName) has no tip)"))
    }
    if itemized > 0 {
      remarks.append(
        ExportRemark(
          .splitBills,
          "\(plural(itemized, "itemized bill")): written as each diner's share, without the items "
            + "(\(options.target.appName) has no receipt lines)"))
    }
    guard !book.bills.isEmpty || !book.payments.isEmpty else {
      throw ReportFailure(
        .noInput, "nothing to export: no bill or payment moves a \(currency.code) balance; nothing was written")
    }
    return (book, remarks)
  }

  /// Reads `file` back with splitbill's importer of the app and compares every balance with the
  /// book's: the export must never hand over a file the app would read with other balances.
  static func readBack(_ file: ExportedFile, of book: ImportedBook, _ options: ExportOptions) throws(ReportFailure) {
    let source = options.target.readBack
    let result: ImportResult
    do {
      result = try source.read(file.bytes, file: "the \(options.target.fileName)", ImportReading())
    } catch {
      throw ReportFailure(
        .internalError, "internal error: the \(options.target.fileName) does not read back: \(error.message)")
    }
    if let error = result.errors.first {
      throw ReportFailure(
        .internalError, "internal error: the \(options.target.fileName) does not read back: \(error.message)")
    }
    let currency = book.currencies.first
    let want = (currency.flatMap { book.balances[$0] } ?? [:]).reduce(into: [String: Int64]()) {
      $0[file.renamed[$1.key] ?? $1.key] = $1.value
    }
    var views: [(balances: [Currency: [String: Int64]], what: String)] = [(result.book.balances, "its records")]
    if !result.book.expectedBalances.isEmpty { views.append((result.book.expectedBalances, "the app's own rule")) }
    for (balances, what) in views {
      let have = currency.flatMap { balances[$0] } ?? [:]
      for person in Set(want.keys).union(have.keys) where (want[person] ?? 0) != (have[person] ?? 0) {
        let money = { (units: Int64) in Money(minorUnits: units, currency: currency ?? .eur).decimalString }
        throw ReportFailure(
          .internalError,
          EngineText(
            verbatim: "internal error: read back, the \(options.target.fileName) gives \(EchoedText.quote(person)) "
              + "\(money(have[person] ?? 0)) by \(what), the books \(money(want[person] ?? 0)); nothing was written"))
      }
    }
  }
}

/// Keeps every split bill and payment of a report run, for ``Exporter``.
final class RecordCollector: ReportWriter, @unchecked Sendable {
  // Used by the one thread that runs the report.
  var bills: [ReportedBill] = []
  var payments: [PaymentRecord] = []

  /// Forgets what an abandoned reading kept.
  func restart() {
    bills = []
    payments = []
  }

  func write(_ bill: ReportedBill) { bills.append(bill) }
  func write(_ payment: PaymentRecord) { payments.append(payment) }
  func carry(_ bill: ReportedBill) { bills.append(bill) }
  func carry(_ payment: PaymentRecord) { payments.append(payment) }
  func finish(_ summary: ReportSummary) {}
}
