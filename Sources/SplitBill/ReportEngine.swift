@_exported import SplitBillAdvisor
import SplitBillFiles
import SplitBillInput
import SplitBillModel
@_exported import SplitBillReports
import SplitBillText

/// Where one report goes.
public struct ReportOutput: Sendable, Hashable {
  /// A file, replaced atomically once every output is complete; or the text returned in
  /// ``ReportOutcome/text`` (standard output, for the command line).
  public enum Destination: Sendable, Hashable {
    case file(String)
    case returned
  }

  public var format: ReportFormat
  public var destination: Destination

  /// A report in `format` to `destination`.
  public init(_ format: ReportFormat, to destination: Destination) {
    self.format = format
    self.destination = destination
  }
}

/// What `report` is asked to do: how to read, what to write, which period, how to settle.
public struct ReportOptions: Sendable {
  /// How bill files are read.
  public var reading: ReadingOptions
  /// The outputs, each complete or none written (at most one ``ReportOutput/Destination/returned``).
  public var outputs: [ReportOutput]
  /// Only the records in this period; earlier ones are carried into the opening balances.
  public var period: DateFilter?
  /// Journals: add the suggested settlements as pending transfers.
  public var journalSettlements: Bool
  /// Journals: this person's own books instead of the group journal.
  public var booksOf: String?
  /// Journals: account and commodity declarations (leave them out to append).
  public var declarations: Bool
  /// Journals: each category's expense account, by category (matched without case), before the
  /// built-in ones (docs/guide.md lists them): `["groceries": "Expenses:Food:Groceries"]`.
  public var categoryAccounts: [String: String]
  /// Journals: how the group journal's accounts are laid out.
  public var journalLayout: JournalLayout
  /// Convert every balance into this currency at each record's rate and settle once in it.
  public var settleIn: Currency?
  /// Rate files (YAML, `date,base,quote,rate` CSV or the ECB's), after the bill files' own rates.
  public var rateFiles: [String]
  /// A record converted at a rate more days older than its own day is warned of.
  public var maxRateAge: Int
  /// Pay settlements in multiples of this amount (`0.05`), in every currency settled.
  public var cashRounding: String?
  /// Which transfers settle each currency: the fewest (the default), pairwise, or named people
  /// kept pairwise. The pairwise plans settle each currency on its own: not with ``settleIn`` or
  /// a cash rounding.
  public var plan: SettlementPlan = .fewest
  /// Explain each transfer: the text, Markdown, HTML (folded) and JSON reports list, for everyone
  /// in a transfer, the bills and payments that make up their balance, row by row. It keeps a row
  /// per person and record until the end: memory grows with the books.
  public var explain = false
  /// A time written into the report (`2026-12-02T16:00:00Z`); without it equal inputs give equal bytes.
  public var stamp: String?
  /// Also write the settlements as payments (YAML) to this file, dated the period's last day
  /// (else the last record's, else ``today``).
  public var recordSettlementsTo: String?
  /// Replace ``recordSettlementsTo`` if it exists.
  public var replaceRecordedSettlements: Bool
  /// Colour the returned text report (for a terminal).
  public var color: Bool
  /// The day the run takes as today, when settlements are recorded and nothing else dates them.
  public var today: CalendarDate

  /// A text report returned to the caller, everything else left to the files.
  public init(
    reading: ReadingOptions = ReadingOptions(), outputs: [ReportOutput] = [ReportOutput(.text, to: .returned)],
    period: DateFilter? = nil, today: CalendarDate
  ) {
    self.reading = reading
    self.outputs = outputs
    self.period = period
    self.journalSettlements = false
    self.booksOf = nil
    self.declarations = true
    self.categoryAccounts = [:]
    self.journalLayout = .expenses
    self.settleIn = nil
    self.rateFiles = []
    self.maxRateAge = 7
    self.cashRounding = nil
    self.stamp = nil
    self.recordSettlementsTo = nil
    self.replaceRecordedSettlements = false
    self.color = false
    self.today = today
  }

  /// Whether some output is a journal (every record then needs a date).
  var hasJournal: Bool { outputs.contains { $0.format.isJournal } }
}

/// The problems a run found, located, and what the command line needs to show them.
public struct ReportProblems: Sendable {
  /// Every problem, in reading order: the inputs', the rate files', and those found while
  /// splitting (no date under a period, no rate with ``ReportOptions/settleIn``).
  public var problems: [BillProblem] { diagnostics.map { BillProblem($0) } }
  /// Warnings counted but not listed, by code (past the first 1,000 of one code).
  public var omittedWarnings: [(code: String, count: Int)]
  /// Errors counted but not listed, by code (past the first 1,000 of one code).
  public var omittedErrors: [(code: String, count: Int)] = []
  /// Errors of the run as a whole, after the problems (settlements not recorded).
  public var messages: [String]

  var diagnostics: [Diagnostic]
  var standardInput: StandardInputCopy?
}

/// A report run that wrote nothing: the reason, and the problems found before it.
public struct ReportFailure: Error, Sendable, CustomStringConvertible {
  /// What kind of failure it is (the command line's exit code follows it).
  public enum Kind: Sendable, Equatable {
    /// The options do not fit (an output over an input, a cash rounding finer than a currency's unit).
    case usage
    /// An input could not be read, or the inputs held no bill.
    case noInput
    /// An output could not be written.
    case cannotCreate
    /// The books did not reconcile: a bug.
    case internalError
  }

  public var kind: Kind
  /// The reason, its options named by whoever shows it (``EngineText/worded(_:)``).
  public var text: EngineText
  /// The problems found before it failed, if it got as far as reading.
  public var problems: ReportProblems?

  /// The reason, options named as a program sees them.
  public var message: String { text.description }
  public var description: String { message }

  package init(_ kind: Kind, _ text: EngineText, problems: ReportProblems? = nil) {
    self.kind = kind
    self.text = text
    self.problems = problems
  }
}

/// What a report run wrote.
public struct ReportOutcome: Sendable {
  /// Bills split (in the period).
  public var bills: Int
  /// Bills and payments that could not be used (listed in each report, and in ``problems``).
  public var invalid: Int
  /// The settlements: one per currency, or one in ``ReportOptions/settleIn``.
  public var settlements: [Settlement]
  /// Each person's figures, per currency (by currency code, then name); their ``PersonTotals/closing``
  /// balance is what the settlements settle.
  public var people: [PersonTotals] = []
  /// With ``ReportOptions/settleIn``: the rates used and each person's converted balance.
  public var conversion: Conversion?
  /// The files written, in the order given.
  public var written: [String]
  /// The ``ReportOutput/Destination/returned`` report.
  public var text: ReportText?
  /// What the run found.
  public var problems: ReportProblems
  /// Settlements asked to be recorded were not, though every bill was valid: a transfer is larger
  /// than a bill file can hold (``ReportProblems/messages`` says which).
  public var settlementsNotRecorded = false
  /// How people are paid, by name: their `people:` entries' details (and the configuration's).
  public var paymentDetails: [String: PaymentDetails] = [:]
}

/// A report held until read: in a temporary file, so a large one does not sit in memory.
public struct ReportText: @unchecked Sendable {
  // A spool is used by one thread at a time: the run that wrote it, then its reader.
  let spool: SpoolSink

  /// The report's bytes (UTF-8).
  public var bytes: [UInt8] {
    var sink = ByteSink()
    spool.copy(to: &sink)
    return sink.bytes
  }

  /// The report as a string.
  public var string: String { String(decoding: bytes, as: UTF8.self) }

  /// The temporary file holding the report could not be written or read back.
  public struct Unreadable: Error, Sendable {
    /// The `errno` of the failure.
    public var errorNumber: Int32
    /// Where it failed (a temporary file in a directory).
    public var place: String?
  }

  /// Hands the report's bytes to `body` in order, a piece at a time: a large report is never
  /// held whole.
  public func forEachPiece(_ body: ([UInt8]) -> Void) throws(Unreadable) {
    try withoutActuallyEscaping(body) { (body) throws(Unreadable) in
      var sink = PieceSink(body: body)
      spool.copy(to: &sink)
      if let failure = sink.failure { throw failure }
    }
  }

  private struct ByteSink: OutputSink {
    var bytes: [UInt8] = []
    mutating func write(_ text: String) { bytes += text.utf8 }
    mutating func write(bytes: [UInt8]) { self.bytes += bytes }
  }

  private struct PieceSink: OutputSink {
    let body: ([UInt8]) -> Void
    var failure: Unreadable?
    mutating func write(_ text: String) { body(Array(text.utf8)) }
    mutating func write(bytes: [UInt8]) { body(bytes) }
    mutating func recordFailure(_ errorNumber: Int32, in place: String?) {
      if failure == nil { failure = Unreadable(errorNumber: errorNumber, place: place) }
    }
  }
}

/// The reconciled report: every bill split in reading order (the leftover state goes from bill to
/// bill), balances settled with the fewest transfers, written in every format asked for.
///
/// ```swift
/// var run = try Reporter.prepare(["trip.yaml"], options)
/// let advice = await myAdvisor.advise(run.adviceRequests())   // only for bills with `tip: ai`
/// let outcome = try run.write(advice: advice)
/// ```
public enum Reporter {
  /// Checks the options against the inputs `paths` name (files, directories, `-`) and reads the
  /// rate files; nothing is read from the bill files yet.
  public static func prepare(_ paths: [String], _ options: ReportOptions) throws(ReportFailure) -> ReportRun {
    try ReportRun(paths: paths, options: options, readOptions: options.reading.readOptions)
  }
}

/// One report run: prepared, optionally asked for the bills that want tip advice, then written.
/// Reading and writing block: call them off Swift's cooperative pool when they may read much.
public struct ReportRun: @unchecked Sendable {
  // A run is used by one thread at a time (the command line hands it from its task to a thread).
  let paths: [String]
  let options: ReportOptions
  let readOptions: ReadOptions
  let settling: Settling
  /// The journals' expense accounts, the user's checked.
  let categoryAccounts: CategoryAccounts
  private var stream: BillStream
  private let sources: [InputSource]
  /// With ``adviceRequests()``: every record, read once and held until the advice is in.
  private var held: [BillOutcome]?
  /// A writer given every record besides the outputs' (`export` keeps the split bills this way).
  var collector: RecordCollector?

  init(paths: [String], options: ReportOptions, readOptions: ReadOptions) throws(ReportFailure) {
    self.paths = paths
    self.options = options
    var readOptions = readOptions
    // Recurring bills without an end come up to the period's last day, else to today.
    if readOptions.repeatsThrough == nil { readOptions.repeatsThrough = options.period?.until ?? options.today }
    self.readOptions = readOptions
    guard options.outputs.count(where: { $0.destination == .returned }) <= 1 else {
      throw ReportFailure(.usage, "standard output ('-o -') is named twice")
    }
    if !options.rateFiles.isEmpty, options.settleIn == nil {
      throw ReportFailure(
        .usage, "\(.rateFiles) is for \(.settleIn, placeholder: "CODE"): give the currency to settle in")
    }
    if options.journalLayout == .people, options.booksOf != nil {
      throw ReportFailure(
        .usage,
        "the people layout (\(.journalLayout)) is the group journal's; \(.booksOf) writes one person's own books: leave out one"
      )
    }
    if options.plan != .fewest, options.settleIn != nil {
      throw ReportFailure(
        .usage,
        "the \(options.plan.name) plan (\(.plan)) settles each currency on its own; \(.settleIn) settles in one: leave out one"
      )
    }
    if case .keepingOut(let names) = options.plan, names.isEmpty {
      throw ReportFailure(.usage, "\(.keepOut) names nobody: give the people to keep out of the middle")
    }
    self.categoryAccounts = try Self.categoryAccounts(options.categoryAccounts)
    settling = try Settling(
      currency: options.settleIn.map(readOptions.kept), rateFiles: options.rateFiles, maxRateAge: options.maxRateAge,
      cashRounding: options.cashRounding, wholeUnits: readOptions.wholeUnits)
    var stream = BillStream(options: readOptions)
    sources = stream.sources(for: paths)
    self.stream = stream
    try requireReadable()
    var written: [(option: EngineOption, path: String)] = options.outputs.compactMap {
      if case .file(let path) = $0.destination { (.outputs, path) } else { nil }
    }
    if let path = options.recordSettlementsTo { written.append((.recordSettlementsTo, path)) }
    try Self.refuseOverwritingInputs(written, sources, rateFiles: options.rateFiles)
  }

  /// The bits of an id's hash that predict repeats (``BillStream/repeatPredictionMask``): tests
  /// narrow it to reach the second reading.
  package var repeatPredictionMask: UInt64 {
    get { stream.repeatPredictionMask }
    set { stream.repeatPredictionMask = newValue }
  }

  /// The tip the command line gives bills that give none, when it is a percentage.
  private var commandLineTip: Percent? {
    if case .percent(let percent) = readOptions.defaults.tip { return percent }
    return nil
  }

  /// The blocking `adviceRequests()`, for a caller on Swift's cooperative pool: the reading blocks a thread
  /// of its own, and the task awaits it.
  public mutating func adviceRequests() async -> [AdviceRequest] {
    let run = self
    let (requests, after) = await DedicatedThread.run { () -> ([AdviceRequest], ReportRun) in
      var reading = run
      return (reading.adviceRequests(), reading)
    }
    self = after
    return requests
  }

  /// The blocking `write(advice:)`, for a caller on Swift's cooperative pool: the reading, splitting and
  /// writing block a thread of their own, and the task awaits them.
  public consuming func write(advice: [String: TipAdvice] = [:]) async throws(ReportFailure) -> ReportOutcome {
    let run = self
    return try await DedicatedThread.run { () throws(ReportFailure) in
      let writing = run
      return try writing.write(advice: advice)
    }
  }

  /// Reads every input (once: the bills are held for ``write(advice:)``) and gives the bills
  /// with `tip: ai` in the report's reach: the period's, and those before it (carried into the
  /// opening balances). Their answers go to ``write(advice:)``, keyed by bill id.
  public mutating func adviceRequests() -> [AdviceRequest] {
    var outcomes: [BillOutcome] = []
    stream.read(sources) { outcomes.append($0) }
    if let repeats = stream.repeatsNeedingAnotherReading() {
      var again = BillStream(options: readOptions, repeats: repeats)
      again.reuseStandardInput(from: stream)
      outcomes = []
      again.read(again.sources(for: paths)) { outcomes.append($0) }
      stream = again
    } else {
      outcomes = outcomes.map { outcome in
        guard case .invalid(let invalid) = outcome else { return outcome }
        return .invalid(stream.completingRepeat(invalid))
      }
    }
    held = outcomes
    var requests: [AdviceRequest] = []
    for case .valid(let bill) in outcomes where bill.terms.tip == .advisor {
      if let until = options.period?.until, let date = bill.date, date > until { continue }
      requests.append(
        AdviceRequest(
          billID: bill.id, amount: bill.terms.amount, diners: bill.terms.diners.count, notes: bill.notes ?? "",
          base: bill.defaultTip ?? commandLineTip))
    }
    return requests
  }

  /// Reads the inputs (unless ``adviceRequests()`` did), splits, reconciles, settles and writes
  /// every output; bills with `tip: ai` take their tip from `advice`, else from the offline advisor.
  public consuming func write(advice: [String: TipAdvice] = [:]) throws(ReportFailure) -> ReportOutcome {
    var pass = try read(advice: advice)
    do {
      try requireReadable()
      try requireBills()
    } catch {
      pass.abort()
      throw error
    }
    let fileErrors = (settling.rateProblems.filter { $0.severity == .error } + stream.fileErrors).map {
      InvalidBill(id: nil, source: $0.location, diagnostics: [$0])
    }
    /// The stream's and the report's counts of problems not listed, by code.
    func omitted(_ severity: Diagnostic.Severity) -> [(code: String, count: Int)] {
      let stream = severity == .error ? stream.omittedErrors : stream.omittedWarnings
      return stream.merging(pass.problemTally.omitted(severity), uniquingKeysWith: +).sorted { $0.key < $1.key }
        .map { ($0.key, $0.value) }
    }
    var problems = ReportProblems(
      omittedWarnings: omitted(.warning), omittedErrors: omitted(.error), messages: [],
      diagnostics: settling.rateProblems + stream.diagnostics + pass.reportProblems,
      standardInput: stream.standardInput)
    let settled: Settling.Settled
    do {
      try pass.ledger.reconcile()
      settled = try settling.settle(
        pass.ledger, pass.conversion, cashRules: stream.cashRules, readOptions: readOptions, plan: options.plan)
    } catch var failure as ReportFailure {
      pass.abort()
      failure.problems = problems
      throw failure
    } catch {
      pass.abort()
      throw ReportFailure(
        .internalError, "internal error: the books do not reconcile (\(error)); nothing was written",
        problems: problems)
    }
    var summary = ReportSummary(
      people: pass.ledger.personTotals, totals: pass.ledger.currencyTotals, settlements: settled.settlements,
      invalid: fileErrors + pass.invalid, payments: pass.payments, filteredOut: pass.filteredOut,
      period: options.period?.description, stamp: options.stamp)
    summary.invalidNotListed = pass.invalidNotListed
    summary.conversion = settled.conversion
    summary.categories = pass.categories.categories(totals: summary.totals, people: summary.people)
    summary.weeklyBalances = pass.ledger.weeklyBalances
    if !summary.categories.isEmpty { summary.convertedCategories = pass.convertedCategories?.categories }
    summary.cash = settled.cash
    summary.payees = stream.payees
    summary.explanation = pass.explanation
    // Headed by the first file's title, else by the one input's name.
    summary.title =
      stream.title
      ?? (paths.count == 1 && paths[0] != "-"
        ? String(paths[0].split(separator: "/").last ?? Substring(paths[0])) : nil)
    let reviewCode = Problem.receiptToReview(note: "").code
    summary.marksToReview =
      stream.diagnostics.count { $0.code == reviewCode } + (stream.omittedWarnings[reviewCode] ?? 0)
    for index in pass.writers.indices { pass.writers[index].finish(summary) }
    var recordRefused = false
    if let path = options.recordSettlementsTo, summary.invalidCount > 0 {
      // Transfers worked out without some bills would be recorded as paid: refused, loudly.
      problems.messages.append(
        "error: the settlements were not recorded in \(path): \(plural(summary.invalidCount, "bill or payment", "bills or payments")) could not be used (above); fix them and run again"
      )
    } else if let path = options.recordSettlementsTo,
      let large = summary.settlements.flatMap(\.transfers).first(where: {
        $0.amount.minorUnits > Money.maximumMinorUnits
      })
    {
      // A recorded file must read back: the readers take at most 15 digits.
      problems.messages.append(
        "error: the settlements were not recorded in \(path): \(large.from) pays \(large.to) \(large.amount.decimalString) \(large.amount.currency.code), more than the 15 digits a bill file holds; settle it in parts"
      )
      recordRefused = true
    } else if let path = options.recordSettlementsTo {
      // Dated the period's last day, else the last record's: the day the balances were settled.
      let date = options.period?.until ?? pass.lastDate ?? options.today
      do {
        // The recorded file is a books file: held locked until the report's outputs are renamed.
        pass.locks.append(try BooksLock(books: path, command: "splitbill report, recording settlements"))
        let file = try PendingFile(path: path, overwrite: options.replaceRecordedSettlements)
        file.sink.write(SettlementRecord.yaml(summary.settlements, date: date, period: summary.period))
        pass.pending.append(file)
      } catch {
        pass.abort()
        throw ReportFailure(.cannotCreate, "\(error); nothing was written", problems: problems)
      }
    }
    do {
      // Every output complete and on disk before any replaces its target: a full disk on the
      // second leaves the first as it was. (The renames themselves are one at a time.)
      for file in pass.pending { try file.prepare() }
      for file in pass.pending { try file.commit() }
    } catch {
      pass.abort()
      throw ReportFailure(
        .cannotCreate, "\(error); the previous file, if any, is unchanged", problems: problems)
    }
    return ReportOutcome(
      bills: summary.billCount, invalid: summary.invalidCount, settlements: summary.settlements,
      people: summary.people, conversion: summary.conversion, written: pass.pending.map(\.path),
      text: pass.spool.map { ReportText(spool: $0) }, problems: problems, settlementsNotRecorded: recordRefused,
      paymentDetails: summary.payees)
  }

  /// One reading of the inputs (or the held records) into every output. A record whose id
  /// repeated is invalid as it comes (``BillStream``); only two different ids with equal hashes
  /// make the inputs be read again.
  private mutating func read(advice: [String: TipAdvice]) throws(ReportFailure) -> Pass {
    var pass = try makePass()
    var splitter = splitter(advice: advice)
    if let held {
      self.held = nil
      for outcome in held { pass.take(splitter.prepare(outcome)) }
      pass.finish(splitter)
      return pass
    }
    ReadingThread.read(&stream, sources) { outcome in pass.take(splitter.prepare(consume outcome)) }
    pass.finish(splitter)
    guard let repeats = stream.repeatsNeedingAnotherReading() else {
      pass.invalid = pass.invalid.map(stream.completingRepeat)
      return pass
    }
    pass.abort()
    var again = BillStream(options: readOptions, repeats: repeats)
    again.reuseStandardInput(from: stream)
    let sources = again.sources(for: paths)
    pass = try makePass()
    splitter = self.splitter(advice: advice)
    ReadingThread.read(&again, sources) { outcome in pass.take(splitter.prepare(consume outcome)) }
    pass.finish(splitter)
    stream = again
    return pass
  }

  /// The user's category accounts, each checked (``CategoryAccounts/problem(of:)``).
  static func categoryAccounts(_ given: [String: String]) throws(ReportFailure) -> CategoryAccounts {
    var accounts = CategoryAccounts()
    for (category, account) in given.sorted(by: { $0.key < $1.key }) {
      if let problem = accounts.map(category, to: account) {
        throw ReportFailure(
          .usage, "the account '\(EchoedText.quote(account))' for category '\(EchoedText.quote(category))': \(problem)")
      }
    }
    return accounts
  }

  private func splitter(advice: [String: TipAdvice]) -> BillSplitter {
    BillSplitter(
      filter: options.period, needsDates: options.hasJournal, answers: advice, commandLineTip: commandLineTip,
      settleIn: settling.currency, rateTables: settling.tables, maxRateAge: settling.maxRateAge)
  }

  /// The outputs, opened: files next to their target, the returned text in a spool; nothing is
  /// visible until the books reconcile.
  private func makePass() throws(ReportFailure) -> Pass {
    var pass = Pass()
    if let collector {
      // A second reading starts the records again.
      collector.restart()
      pass.writers.append(collector)
    }
    // The HTML report draws each person's balance week by week.
    // The pairwise plans need what passed between each two people.
    if options.explain { pass.explanation = BalanceExplanation() }
    pass.ledger = ReportLedger(
      tracksWeeks: options.outputs.contains { $0.format == .html }, tracksPairs: options.plan != .fewest)
    let journal = JournalOptions(
      withSettlements: options.journalSettlements, booksOf: options.booksOf, declarations: options.declarations,
      periodStart: options.period?.since, categoryAccounts: categoryAccounts, layout: options.journalLayout)
    let period = options.period?.description
    do {
      for output in options.outputs {
        switch output.destination {
        case .file(let path):
          let file = try PendingFile(path: path)
          pass.pending.append(file)
          pass.writers.append(
            ReportWriters.make(output.format, sink: file.sink, color: false, journal: journal, period: period))
        case .returned:
          let sink = SpoolSink()
          pass.spool = sink
          pass.writers.append(
            ReportWriters.make(output.format, sink: sink, color: options.color, journal: journal, period: period))
        }
      }
    } catch {
      pass.abort()
      throw ReportFailure(.cannotCreate, "\(error)")
    }
    return pass
  }

  /// Fails the run, before anything is written, when an input cannot be read or a directory holds
  /// no bill file (unless `allowEmpty`): a cron job must not get a report for inputs it never saw.
  private func requireReadable() throws(ReportFailure) {
    if stream.unreadableInput {
      let reasons = stream.fileErrors.filter { $0.location?.isWholeFile == true }.map(\.message)
      throw ReportFailure(.noInput, "\(reasons.joined(separator: "; ")); nothing was written")
    }
    if !options.reading.allowEmpty, let directory = stream.directoriesWithoutBills.first {
      throw ReportFailure(.noInput, ReportRun.noBillFilesMessage(in: directory))
    }
  }

  /// Fails the run when the inputs, all read, held no bill at all and nothing else was wrong.
  private func requireBills() throws(ReportFailure) {
    guard stream.billCount + stream.paymentCount == 0, !options.reading.allowEmpty, stream.fileErrors.isEmpty
    else { return }
    throw ReportFailure(.noInput, ReportRun.noBillsMessage(paths, writes: true))
  }

  /// A directory named as an input holds no bill file.
  public static func noBillFilesMessage(in directory: String) -> EngineText {
    "no bill files found in \(directory) (looked for \(BillStream.billExtensions)) (\(.allowEmpty) accepts it)"
  }

  /// The inputs held no bill at all.
  public static func noBillsMessage(_ paths: [String], writes: Bool) -> EngineText {
    "no bills found in \(paths.joined(separator: ", "))\(writes ? "; nothing was written" : "") (\(.allowEmpty) accepts it)"
  }

  /// A report written over one of its own inputs would lose them; two outputs to one file would
  /// lose one. `outputs` pairs each file written with the option that named it; the inputs are the
  /// bill files, the items files read beside them and the rate files.
  static func refuseOverwritingInputs(
    _ outputs: [(option: EngineOption, path: String)], _ sources: [InputSource], rateFiles: [String]
  ) throws(ReportFailure) {
    var inputs: [(identity: FileIdentity, path: String, what: String)] = []
    for source in sources where source.path != "-" {
      if let identity = FileIdentity(regularFile: source.path) { inputs.append((identity, source.path, "bills")) }
      if let items = ItemTable.path(besides: source.path), let identity = FileIdentity(regularFile: items) {
        inputs.append((identity, items, "items"))
      }
    }
    for path in rateFiles {
      if let identity = FileIdentity(regularFile: path) { inputs.append((identity, path, "rates")) }
    }
    var written: [String: (option: EngineOption, path: String)] = [:]
    for (option, path) in outputs {
      let identity = FileIdentity(regularFile: path)
      if let identity, let input = inputs.first(where: { $0.identity == identity }) {
        let what = input.what == "bills" ? "the input" : input.what == "items" ? "the items file" : "the rates file"
        throw ReportFailure(
          .usage, "\(option) \(path) is \(what) \(input.path): the report would replace its own \(input.what)")
      }
      let key = identity.map { "\($0.device):\($0.inode)" } ?? FileIdentity.absolute(path)
      if let first = written[key] {
        throw ReportFailure(
          .usage, "\(first.option) \(first.path) and \(option) \(path) are one file: give each output its own")
      }
      written[key] = (option, path)
    }
  }
}

extension BillProblem {
  /// `diagnostic` as the engine hands it out; `file` names the input when the diagnostic has no
  /// location (a JSON export's problems).
  init(_ diagnostic: Diagnostic, file: String? = nil) {
    self.init(
      severity: diagnostic.severity.rawValue, code: diagnostic.code, message: diagnostic.message,
      file: diagnostic.location?.file ?? file, line: diagnostic.location?.position?.line,
      column: diagnostic.location?.position?.column)
  }
}

/// What one reading of the inputs produced: outputs not yet committed, and the books.
struct Pass {
  var pending: [PendingFile] = []
  /// The books files' locks held until the outputs are renamed (``BooksLock``), released as the
  /// pass ends.
  var locks: [BooksLock] = []
  var spool: SpoolSink?
  var writers: [any ReportWriter] = []
  var ledger = ReportLedger()
  /// With `--explain`: the rows behind each balance.
  var explanation: BalanceExplanation?
  /// The period's bills that have a category, by category.
  var categories = CategoryLedger()
  /// With `settleIn`: the period's spending by category in the settlement currency.
  var convertedCategories: ConvertedCategoryLedger?
  /// With `settleIn`: every balance change booked at the rate it converts at.
  var conversion: ConversionLedger?
  /// The first ``ReportSummary/invalidListed`` invalid records; the rest counted.
  var invalid: [InvalidBill] = []
  var invalidNotListed: (bills: Int, payments: Int) = (0, 0)
  /// The period's payments, in reading order (they are few: kept for the summary).
  var payments: [PaymentRecord] = []
  /// The latest date of the period's records.
  var lastDate: CalendarDate?
  var filteredOut = 0
  /// Problems found here rather than by the reader (no date under a filter, a split that failed):
  /// the first ``ProblemTally/keptPerKind`` of each kind; the rest counted in ``problemTally``.
  var reportProblems: [Diagnostic] = []
  var problemTally = ProblemTally()

  /// Keeps `bill` for the report's list of invalid records, or counts it past the list's end.
  mutating func keep(_ bill: InvalidBill) {
    guard invalid.count >= ReportSummary.invalidListed else { return invalid.append(bill) }
    if bill.kind == .payment { invalidNotListed.payments += 1 } else { invalidNotListed.bills += 1 }
  }

  /// Keeps `diagnostics` among ``reportProblems``, or counts them past ``ProblemTally/keptPerKind``
  /// of their kind.
  mutating func note(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics where problemTally.keeps(diagnostic) { reportProblems.append(diagnostic) }
  }

  /// Books and writes what became of one record.
  @inline(__always)
  mutating func take(_ prepared: consuming BillSplitter.Prepared) {
    switch consume prepared {
    case .invalid(let bill):
      keep(bill)
    case .refused(let bill):
      note(bill.diagnostics)
      keep(bill)
    case .filteredOut:
      filteredOut += 1
    case .split(let reported):
      ledger.add(reported.split, on: reported.bill.date)
      explanation?.add(reported)
      if let category = reported.bill.category { categories.add(reported.split, category: category) }
      if let date = reported.bill.date { lastDate = max(lastDate ?? date, date) }
      for index in writers.indices { writers[index].write(reported) }
    case .carried(let reported):
      ledger.carry(reported.split)
      for index in writers.indices { writers[index].carry(reported) }
    case .payment(let payment):
      ledger.add(payment.payment, on: payment.date)
      explanation?.add(payment)
      if let date = payment.date { lastDate = max(lastDate ?? date, date) }
      payments.append(payment)
      for index in writers.indices { writers[index].write(payment) }
    case .carriedPayment(let payment):
      ledger.carry(payment.payment)
      for index in writers.indices { writers[index].carry(payment) }
    }
  }

  /// Takes the splitter's conversion ledger and warnings once every record went through it.
  mutating func finish(_ splitter: BillSplitter) {
    conversion = splitter.conversion
    convertedCategories = splitter.convertedCategories
    reportProblems += splitter.staleRateWarnings
  }

  /// Removes the temporary files.
  func abort() { for file in pending { file.abort() } }
}
