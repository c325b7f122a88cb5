import SplitBillAdvisor
import SplitBillCore
import SplitBillInput
import SplitBillReports
import SplitBillText

#if canImport(Glibc)
  import Glibc
#endif

/// `splitbill report`: the reconciled report, in every format people use.
enum ReportCommand {
  static let command = Command(
    name: "report",
    summary: "split every bill, reconcile, and say who owes whom (text, JSON, CSV, Markdown, HTML, journals)",
    usage: "splitbill report PATH... [--format FORMAT] [-o FILE]... [period] [options]",
    options: [
      .value(
        "--format", "FORMAT", "text (default), json, csv, markdown, html, hledger, ledger or beancount.",
        choices: ReportFormat.allCases.map(\.rawValue)),
      .value(
        "--output", short: "-o", "FILE", repeatable: true,
        "Write to FILE (repeatable), atomically; the format comes from the extension unless --format is given.",
        files: [""]),
      .value("--since", "DATE", "Only bills on or after DATE (YYYY-MM-DD)."),
      .value("--until", "DATE", "Only bills on or before DATE (YYYY-MM-DD)."),
      .value("--week", "WEEK", "Only bills in ISO week WEEK, such as 2026-W48."),
      .flag("--last-week", "Only bills in the ISO week before this one (see --today)."),
      .value("--today", "DATE", "Take DATE as today, for --last-week (reproducible cron runs)."),
      .flag("--stamp", "Add the time of the run to the report (otherwise equal inputs give equal bytes)."),
      .flag("--with-settlements", "Journals: add the suggested settlements as pending (!) transfers."),
      .value("--books-of", "NAME", "Journals: NAME's own books instead of the group journal."),
      .flag("--no-declarations", "Journals: leave out account and commodity declarations, for appending."),
      .value(
        "--record-settlements", "FILE",
        "Also write the suggested settlements as payments (YAML) to FILE, dated the period's last day.",
        files: ["yaml"]),
      .flag("--force", "With --record-settlements: replace FILE if it exists."),
      .value(
        "--settle-in", "CODE",
        "Convert every balance into CODE at each bill's rate and settle once, in CODE (see --rates)."
      ).under("One currency"),
      .value(
        "--rates", "FILE", repeatable: true,
        "Exchange rates (YAML, CSV date,base,quote,rate, or the ECB's eurofxref CSV); after the files' own rates:.",
        files: ["csv", "yaml", "yml"]
      ).under("One currency"),
      .value(
        "--max-rate-age", "DAYS",
        "Warn when a record converts at a rate more than DAYS older than its day (default 7), once a currency."
      ).under("One currency"),
      .value(
        "--cash-rounding", "AMOUNT",
        "Pay settlements in multiples of AMOUNT (0.05, 0.10, 1); residues are shown (else cash_rounding: in defaults)."
      ).under("One currency"),
    ] + InputOptions.specs + AdvisorOptions.specs(section: "Tip advice (bills with tip: ai)"),
    details: """
      Bills are processed in order (inputs as given, directories sorted, bills in file order): each is
      split with its leftover policy, added to per-person figures, and the balances are settled with
      the fewest transfers. Payments (a payments: list, or a CSV file with from and to columns) move
      balances. With a period, what comes before it is carried into each person's opening balance,
      later records are left out, and the closing balances are settled. Invalid bills are listed with their diagnostics (on stderr too); the valid
      ones are still reported and the exit code is 1. If any reconciliation identity failed, nothing is
      written and the exit code is 70.
      With --settle-in CODE, every bill and payment is converted at its rate (its own rate:, its
      file's rates:, then the --rates files; the latest on or before its date) and the converted
      balances are settled once; a record with no rate is invalid, at its line.
      Extensions: .txt .json .csv .md .html .hledger .journal .ledger .beancount.
      """,
    examples: [
      "splitbill report samples/trip.yaml",
      "splitbill report samples/trip.yaml -o report.html -o report.json",
      "splitbill report expenses/ --format markdown >> \"$GITHUB_STEP_SUMMARY\"",
      "splitbill report expenses/ --last-week -o weekly.html -o weekly.journal",
      "splitbill report samples/trip.yaml --format beancount --books-of Ana --with-settlements",
      "splitbill report samples/trip.yaml --settle-in EUR",
      "splitbill report trip.yaml --settle-in EUR --rates eurofxref-hist.csv --cash-rounding 0.05",
      "GEMINI_API_KEY=... splitbill report samples/trip.yaml --advisor gemini",
      "splitbill report samples/trip.yaml --advisor openai --ai-base-url http://localhost:11434/v1 --ai-model llama3.2",
    ],
    run: run, operands: InputOptions.extensions)

  /// Where one output goes.
  struct Output {
    var format: ReportFormat
    var path: String?
  }

  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) async throws -> ExitCode {
    let arguments = context.readingStandardInput(arguments)
    guard !arguments.positionals.isEmpty else {
      throw UsageError("no PATH given: name bill files or directories, for example: splitbill report samples/trip.yaml")
    }
    let outputs = try outputs(arguments)
    // Options that would do nothing in this run are mistakes, not silence.
    if arguments.flag("--force"), arguments.value("--record-settlements") == nil {
      throw UsageError("--force goes with --record-settlements FILE (report outputs are always replaced)")
    }
    if !outputs.contains(where: { $0.format.isJournal }),
      let idle = ["--with-settlements", "--no-declarations", "--books-of"].first(where: {
        arguments.flag($0) || arguments.value($0) != nil
      })
    {
      throw UsageError("\(idle) is for the journals: add --format hledger, ledger or beancount (or -o FILE.journal)")
    }
    let filter = try dateFilter(arguments)
    let settling = try SettlingOptions(arguments)
    let journalOptions = JournalOptions(
      withSettlements: arguments.flag("--with-settlements"), booksOf: arguments.value("--books-of"),
      declarations: !arguments.flag("--no-declarations"), periodStart: filter?.since)
    let needsDates = outputs.contains { $0.format.isJournal }
    let readOptions = try InputOptions.readOptions(arguments)
    let network = try AdvisorOptions.network(arguments, environment: context.environment)
    var stream = BillStream(options: readOptions)
    let sources = stream.sources(for: arguments.positionals)
    try InputOptions.requireReadable(stream, arguments)
    try refuseOverwritingInputs(
      outputs.compactMap { output in output.path.map { ("-o", $0) } }
        + (arguments.value("--record-settlements").map { [("--record-settlements", $0)] } ?? []), sources)
    let commandLineTip: Percent? = {
      if case .percent(let percent) = readOptions.defaults.tip { return percent }
      return nil
    }()

    // A network advisor answers many bills per request: a first pass finds the bills to ask about.
    var answers: [String: TipAdvice] = [:]
    if let network {
      var requests: [AdviceRequest] = []
      var scan = BillStream(options: readOptions)
      // Standard input is read once (telling CSV from YAML already read it): the scan shares it.
      scan.reuseStandardInput(from: stream)
      scan.read(scan.sources(for: arguments.positionals)) { outcome in
        guard case .valid(let bill) = outcome, bill.terms.tip == .advisor else { return }
        // Bills before the period are split too (carried into the opening balances), so they are
        // asked about as well: with the cache, what an earlier week's run was told.
        if let until = filter?.until, let date = bill.date, date > until { return }
        requests.append(
          AdviceRequest(
            billID: bill.id, amount: bill.terms.amount, diners: bill.terms.diners.count, notes: bill.notes ?? "",
            base: bill.defaultTip ?? commandLineTip))
      }
      stream.reuseStandardInput(from: scan)
      answers = await AdvisorOptions.advise(requests, network: network, context: &context)
      let fellBack = requests.filter { answers[$0.billID]?.fallback ?? true }
      if network.requireAI, let first = fellBack.first {
        throw CommandFailure(
          message:
            "\(plural(fellBack.count, "bill")) got no advice from \(network.provider.name) (\(first.billID): \(answers[first.billID]?.fallbackReason ?? "no answer")); --require-ai: nothing was written",
          code: .unavailable)
      }
      // Unattended runs see only stderr and the exit code: a fallback is said there, once.
      if let first = fellBack.first, !network.quiet {
        let reason = answers[first.billID]?.fallbackReason ?? "no answer"
        context.message(
          "warning: \(fellBack.count) of \(plural(requests.count, "advised bill")) got no advice from "
            + "\(network.provider.name) and used the offline advisor (\(first.billID): \(reason))")
      }
    }
    // Reading, splitting and writing block their thread (the reading pipeline): not one of the
    // cooperative pool's (DedicatedThread).
    let run = Run(
      arguments: arguments, outputs: outputs, filter: filter, journalOptions: journalOptions, needsDates: needsDates,
      readOptions: readOptions, answers: answers, commandLineTip: commandLineTip, settling: settling)
    let firstStream = stream
    return try await DedicatedThread.run(&context) { context in
      var stream = firstStream
      return try run.readAndWrite(&stream, sources, &context)
    }
  }

  /// What a report run settled before reading: its outputs, period, options and tip advice.
  struct Run {
    let arguments: ParsedArguments
    let outputs: [Output]
    let filter: DateFilter?
    let journalOptions: JournalOptions
    let needsDates: Bool
    let readOptions: ReadOptions
    let answers: [String: TipAdvice]
    let commandLineTip: Percent?
    let settling: SettlingOptions

    /// Reads `sources` once into every output (twice if an id repeated), reconciles, and commits
    /// the outputs.
    func readAndWrite(_ stream: inout BillStream, _ sources: [InputSource], _ context: inout CommandContext) throws
      -> ExitCode
    {
      let color = context.colorsStdout
      var pass = try readInputs(&stream, sources, color: color)
      let repeats = stream.findRepeats()
      if repeats.hasRepeatedIDs {
        // Bills whose id repeated were handed on as valid (repeats are found after the reading):
        // read again, with them marked invalid as they come. Only a run with such errors pays this.
        pass.abort()
        var again = BillStream(options: readOptions, repeats: repeats)
        again.reuseStandardInput(from: stream)
        let sources = again.sources(for: arguments.positionals)
        pass = try readInputs(&again, sources, color: color)
        stream = again
      }
      // A file that could not be opened, or inputs that held no bill: nothing is committed.
      do {
        try InputOptions.requireReadable(stream, arguments)
        try InputOptions.requireBills(stream, arguments)
      } catch {
        pass.abort()
        throw error
      }
      let fileErrors = (settling.rateProblems + stream.fileErrors).map {
        InvalidBill(id: nil, source: $0.location ?? SourceLocation(file: "-", line: 0, column: 0), diagnostics: [$0])
      }
      ReportCommand.printDiagnostics(
        settling.rateProblems + stream.diagnostics + pass.reportProblems, stream: stream, context: &context)

      var settled: SettlingOptions.Settled
      do {
        try pass.ledger.reconcile()
        settled = try settling.settle(
          pass.ledger, pass.conversion, cashRules: stream.cashRules, readOptions: readOptions)
      } catch let failure as CommandFailure {
        pass.abort()
        throw failure
      } catch let usage as UsageError {
        pass.abort()
        throw usage
      } catch {
        pass.abort()
        throw CommandFailure(
          message: "internal error: the books do not reconcile (\(error)); nothing was written", code: .internalError)
      }
      var summary = ReportSummary(
        people: pass.ledger.personTotals, totals: pass.ledger.currencyTotals, settlements: settled.settlements,
        invalid: fileErrors + pass.invalid, payments: pass.payments, filteredOut: pass.filteredOut,
        period: filter?.description,
        stamp: arguments.flag("--stamp") ? ReportCommand.timestamp() : nil)
      summary.conversion = settled.conversion
      summary.cash = settled.cash
      for index in pass.writers.indices { pass.writers[index].finish(summary) }
      if let path = arguments.value("--record-settlements"), !summary.invalid.isEmpty {
        // Transfers worked out without some bills would be recorded as paid: refused, loudly.
        context.message(
          "error: the settlements were not recorded in \(path): \(plural(summary.invalid.count, "bill or payment", "bills or payments")) could not be used (above); fix them and run again"
        )
      } else if let path = arguments.value("--record-settlements") {
        // Dated the period's last day, else the last record's: the day the balances were settled.
        let date = filter?.until ?? pass.lastDate ?? ReportCommand.localToday()
        do {
          let file = try PendingFile(path: path, overwrite: arguments.flag("--force"))
          file.sink.write(SettlementRecord.yaml(summary.settlements, date: date, period: summary.period))
          pass.pending.append(file)
        } catch {
          pass.abort()
          throw CommandFailure(message: "\(error); nothing was written", code: .cannotCreate)
        }
      }
      do {
        // Every output complete and on disk before any replaces its target: a full disk on the
        // second leaves the first as it was. (The renames themselves are one at a time.)
        for file in pass.pending { try file.prepare() }
        for file in pass.pending { try file.commit() }
      } catch {
        pass.abort()
        throw CommandFailure(message: "\(error); the previous file, if any, is unchanged", code: .cannotCreate)
      }
      pass.spool?.copy(to: &context.stdout)
      if !arguments.flag("--quiet") { for file in pass.pending { context.message("wrote \(file.path)") } }
      if stream.unreadableInput { return .noInput }
      return summary.invalid.isEmpty ? .success : .invalidBills
    }

    /// One reading of the inputs into every output. Outputs go to a temporary place first: files
    /// next to their target, standard output to a spool; nothing is visible until the books reconcile.
    private func readInputs(_ stream: inout BillStream, _ sources: [InputSource], color: Bool) throws -> Pass {
      var pass = Pass()
      do {
        for output in outputs {
          if let path = output.path {
            let file = try PendingFile(path: path)
            pass.pending.append(file)
            pass.writers.append(
              ReportCommand.makeWriter(
                output.format, sink: file.sink, color: false, journal: journalOptions, period: filter?.description))
          } else {
            let sink = SpoolSink()
            pass.spool = sink
            pass.writers.append(
              ReportCommand.makeWriter(
                output.format, sink: sink, color: color, journal: journalOptions, period: filter?.description))
          }
        }
      } catch {
        pass.abort()
        throw CommandFailure(message: "\(error)", code: .cannotCreate)
      }
      var splitter = BillSplitter(
        filter: filter, needsDates: needsDates, answers: answers, commandLineTip: commandLineTip,
        settleIn: settling.currency, rateTables: settling.tables, maxRateAge: settling.maxRateAge)
      ReadingThread.read(&stream, sources) { outcome in
        switch splitter.prepare(outcome) {
        case .invalid(let bill):
          pass.invalid.append(bill)
        case .refused(let bill):
          pass.reportProblems += bill.diagnostics
          pass.invalid.append(bill)
        case .filteredOut:
          pass.filteredOut += 1
        case .split(let reported):
          pass.ledger.add(reported.split)
          if let date = reported.bill.date { pass.lastDate = max(pass.lastDate ?? date, date) }
          for index in pass.writers.indices { pass.writers[index].write(reported) }
        case .carried(let reported):
          pass.ledger.carry(reported.split)
          for index in pass.writers.indices { pass.writers[index].carry(reported) }
        case .payment(let payment):
          pass.ledger.add(payment.payment)
          if let date = payment.date { pass.lastDate = max(pass.lastDate ?? date, date) }
          pass.payments.append(payment)
          for index in pass.writers.indices { pass.writers[index].write(payment) }
        case .carriedPayment(let payment):
          pass.ledger.carry(payment.payment)
          for index in pass.writers.indices { pass.writers[index].carry(payment) }
        }
      }
      pass.conversion = splitter.conversion
      pass.reportProblems += splitter.staleRateWarnings
      return pass
    }
  }

  /// Splits each bill in reading order (the leftover ledger goes from bill to bill), after the
  /// date filter and tip advice.
  struct BillSplitter {
    /// What became of one bill.
    enum Prepared {
      /// Invalid as read.
      case invalid(InvalidBill)
      /// Valid as read but not reportable here (no date under a filter or in a journal, a split that
      /// failed, no rate with `--settle-in`).
      case refused(InvalidBill)
      /// After the period (left out and counted).
      case filteredOut
      /// Split, ready to book and write.
      case split(ReportedBill)
      /// Before the period: split (the leftover state goes through it), carried into the opening
      /// balances, not shown.
      case carried(ReportedBill)
      /// A payment in the period.
      case payment(PaymentRecord)
      /// A payment before the period, carried into the opening balances.
      case carriedPayment(PaymentRecord)
    }

    let filter: DateFilter?
    let needsDates: Bool
    let answers: [String: TipAdvice]
    let commandLineTip: Percent?
    /// With `--settle-in`: the currency, and the `--rates` tables.
    let settleIn: Currency?
    let rateTables: [RateTable]
    let advisor = OfflineAdvisor()
    var leftovers = LeftoverLedger()
    /// With `--settle-in`: every balance change booked at the rate it converts at.
    var conversion: ConversionLedger?

    /// Days a rate may be older than the record it converts before a warning.
    let maxRateAge: Int
    /// By currency: the record converted at the oldest rate past ``maxRateAge``, and on how many
    /// record days (a day's records look their rate up once) one was.
    private var stale: [Currency: (oldest: StaleRate, recordDays: Int)] = [:]

    private struct StaleRate {
      var days: Int
      var id: String
      var kind: RecordKind
      var recordDate: CalendarDate
      var rateDate: CalendarDate
      var origin: String
      var source: SourceLocation
    }

    init(
      filter: DateFilter?, needsDates: Bool, answers: [String: TipAdvice], commandLineTip: Percent?,
      settleIn: Currency?, rateTables: [RateTable], maxRateAge: Int
    ) {
      self.maxRateAge = maxRateAge
      self.filter = filter
      self.needsDates = needsDates
      self.answers = answers
      self.commandLineTip = commandLineTip
      self.settleIn = settleIn
      self.rateTables = rateTables
      conversion = settleIn.map(ConversionLedger.init(currency:))
    }

    /// How a record in `currency` on `date` converts into the settlement currency (its own rate,
    /// else its file's rates, else the `--rates` files': ``RateBook/conversion(of:into:on:own:record:)``);
    /// a located error when none can say; `nil` without `--settle-in`.
    func rateUse(
      _ currency: Currency, on date: CalendarDate?, rates: RecordRates?, id: String, kind: RecordKind,
      at source: SourceLocation
    ) -> Result<RateUse, InvalidBill>? {
      guard let target = settleIn else { return nil }
      let book = RateBook(rates.map { [$0.file] + rateTables } ?? rateTables)
      switch book.conversion(of: currency, into: target, on: date, own: rates?.own, record: id) {
      case .success(let use): return .success(use)
      case .failure(let failure):
        let problem: Problem =
          switch failure {
          case .missing(let from, let to): .missingRate(id: id, kind: kind, from: from, to: to, date: date)
          case .tooPrecise: .rateTooPrecise(id: id, from: currency, to: target)
          }
        return .failure(InvalidBill(id: id, source: source, diagnostics: [.error(problem, at: source)], kind: kind))
      }
    }

    /// Records without a rate of their own, by currency, day and file: the conversion group their
    /// rate has (a run meets a few hundred rates, and looks each up once).
    private var groups: [GroupKey: Int] = [:]

    private struct GroupKey: Hashable {
      var currency: Currency
      var date: CalendarDate?
      var file: ObjectIdentifier?
    }

    /// The conversion group a record in `currency` on `date` is booked in, or the record made
    /// invalid when it has no rate. (Out of line: it runs only with `--settle-in`, in a loop every
    /// bill goes through.)
    @inline(never)
    mutating func group(
      _ currency: Currency, on date: CalendarDate?, rates: RecordRates?, id: String, kind: RecordKind,
      at source: SourceLocation
    ) -> Result<Int, InvalidBill> {
      let key = GroupKey(currency: currency, date: date, file: rates.map(ObjectIdentifier.init))
      let cacheable = rates?.own == nil
      if cacheable, let known = groups[key] { return .success(known) }
      switch rateUse(currency, on: date, rates: rates, id: id, kind: kind, at: source) {
      case .failure(let invalid)?: return .failure(invalid)
      case .success(let use)?:
        if let date { noteAge(of: use, for: currency, on: date, id: id, kind: kind, at: source) }
        guard let number = conversion?.group(for: use) else {
          let problem = Problem.rateTooPrecise(id: id, from: currency, to: use.to)
          return .failure(InvalidBill(id: id, source: source, diagnostics: [.error(problem, at: source)], kind: kind))
        }
        if cacheable { groups[key] = number }
        return .success(number)
      case nil: return .success(0)  // without --settle-in, which never asks
      }
    }

    /// Notes a conversion at a rate more than ``maxRateAge`` days older than the record's `date`
    /// (its oldest leg: a cross rate is as old as its older rate).
    private mutating func noteAge(
      of use: RateUse, for currency: Currency, on date: CalendarDate, id: String, kind: RecordKind,
      at source: SourceLocation
    ) {
      guard let oldest = use.oldestDatedLeg, let rateDate = oldest.date else { return }
      let days = date.daysSinceEpoch - rateDate.daysSinceEpoch
      guard days > maxRateAge else { return }
      let found = StaleRate(
        days: days, id: id, kind: kind, recordDate: date, rateDate: rateDate, origin: oldest.origin, source: source)
      let known = stale[currency]
      stale[currency] = (
        known.map { $0.oldest.days >= days ? $0.oldest : found } ?? found, (known?.recordDays ?? 0) + 1
      )
    }

    /// One warning a currency converted at a rate past ``maxRateAge``, by code.
    var staleRateWarnings: [Diagnostic] {
      stale.sorted { $0.key < $1.key }.map { currency, entry in
        let found = entry.oldest
        return .warning(
          .staleRate(
            currency: currency, days: found.days, limit: maxRateAge, id: found.id, kind: found.kind,
            recordDate: found.recordDate, rateDate: found.rateDate, origin: found.origin, recordDays: entry.recordDays),
          at: found.source)
      }
    }

    /// Books a split bill in conversion group `number`.
    @inline(never)
    mutating func book(_ split: BillSplit, group number: Int) { conversion?.add(split, group: number) }

    /// Books a payment in the conversion ledger, or makes it invalid when it has no rate.
    @inline(never)
    mutating func book(_ record: PaymentRecord) -> InvalidBill? {
      switch group(
        record.payment.currency, on: record.date, rates: record.rates, id: record.id, kind: .payment,
        at: record.source)
      {
      case .success(let number):
        conversion?.add(record.payment, group: number)
        return nil
      case .failure(let invalid): return invalid
      }
    }

    @inline(__always)
    mutating func prepare(_ outcome: BillOutcome) -> Prepared {
      var bill: Bill
      switch outcome {
      case .invalid(let invalid): return .invalid(invalid)
      case .valid(let valid): bill = valid
      case .payment(let payment):
        if filter != nil || needsDates, payment.date == nil {
          let problem = Diagnostic.error(
            .missingDate(id: payment.id, journal: filter == nil, kind: .payment), at: payment.source)
          return .refused(InvalidBill(id: payment.id, source: payment.source, diagnostics: [problem], kind: .payment))
        }
        var before = false
        if let filter, let date = payment.date, !filter.contains(date) {
          guard filter.since.map({ date < $0 }) == true else { return .filteredOut }
          before = true
        }
        if conversion != nil, let invalid = book(payment) { return .refused(invalid) }
        return before ? .carriedPayment(payment) : .payment(payment)
      }
      if filter != nil || needsDates, bill.date == nil {
        let problem = Diagnostic.error(.missingDate(id: bill.id, journal: filter == nil), at: bill.source)
        return .refused(InvalidBill(id: bill.id, source: bill.source, diagnostics: [problem]))
      }
      // Bills after the period are left out before they are split: the leftover state comes from
      // every bill up to the period's end, in input order. Bills before it are split and carried.
      var before = false
      if let filter, let date = bill.date, !filter.contains(date) {
        guard filter.since.map({ date < $0 }) == true else { return .filteredOut }
        before = true
      }
      var advice: TipAdvice?
      if bill.terms.tip == .advisor {
        let suggestion =
          answers[bill.id] ?? advisor.suggest(notes: bill.notes, base: bill.defaultTip ?? commandLineTip)
        bill.terms.tip = .percent(suggestion.percent)
        advice = suggestion
      }
      // With --settle-in, a bill with no rate is refused before it is split (it then leaves the
      // leftover state as it was) or booked.
      var group: Int?
      if conversion != nil {
        switch self.group(
          bill.terms.amount.currency, on: bill.date, rates: bill.rates, id: bill.id, kind: .bill, at: bill.source)
        {
        case .success(let number): group = number
        case .failure(let invalid): return .refused(invalid)
        }
      }
      do throws(SplitError) {
        let split = try bill.terms.split(ledger: &leftovers)
        if let group { book(split, group: group) }
        let reported = ReportedBill(bill: bill, split: split, advice: advice)
        return before ? .carried(reported) : .split(reported)
      } catch {
        let problem = Diagnostic.error(.split(error), at: bill.source)
        return .refused(InvalidBill(id: bill.id, source: bill.source, diagnostics: [problem]))
      }
    }
  }

  /// What one reading of the inputs produced: outputs not yet committed, and the books.
  struct Pass {
    var pending: [PendingFile] = []
    var spool: SpoolSink?
    var writers: [any ReportWriter] = []
    var ledger = ReportLedger()
    /// With `--settle-in`: every balance change booked at the rate it converts at.
    var conversion: ConversionLedger?
    var invalid: [InvalidBill] = []
    /// The period's payments, in reading order (they are few: kept for the summary).
    var payments: [PaymentRecord] = []
    /// The latest date of the period's records.
    var lastDate: CalendarDate?
    var filteredOut = 0
    /// Problems found here rather than by the reader (no date under a filter, a split that failed).
    var reportProblems: [Diagnostic] = []

    /// Removes the temporary files.
    func abort() { for file in pending { file.abort() } }
  }

  static func makeWriter(
    _ format: ReportFormat, sink: some OutputSink, color: Bool, journal: JournalOptions, period: String? = nil
  ) -> any ReportWriter {
    switch format {
    case .text: return TextReportWriter(sink: sink, color: color, period: period)
    case .json: return JSONReportWriter(sink: sink)
    case .csv: return CSVReportWriter(sink: sink)
    case .markdown: return MarkdownReportWriter(sink: sink)
    case .html: return HTMLReportWriter(sink: sink)
    case .hledger, .ledger, .beancount: return JournalWriter(sink: sink, flavor: format, options: journal)
    }
  }

  /// A report written over one of its own inputs would lose the bills: a usage error (64).
  /// `outputs` pairs each file written with the option that named it.
  static func refuseOverwritingInputs(_ outputs: [(option: String, path: String)], _ sources: [InputSource])
    throws(UsageError)
  {
    func identity(_ path: String) -> (dev_t, ino_t)? {
      var status = stat()
      guard unsafe stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
      return (status.st_dev, status.st_ino)
    }
    let inputs = sources.filter { $0.path != "-" }.compactMap { source in
      identity(source.path).map { ($0, source.path) }
    }
    for (option, path) in outputs {
      guard let written = identity(path) else { continue }
      if let input = inputs.first(where: { $0.0 == written }) {
        throw UsageError("\(option) \(path) is the input \(input.1): the report would replace its own bills")
      }
    }
  }

  static func outputs(_ arguments: ParsedArguments) throws(UsageError) -> [Output] {
    let format = try arguments.choice("--format", ReportFormat.self)
    let paths = arguments.values["--output"] ?? []
    guard !paths.isEmpty else { return [Output(format: format ?? .text, path: nil)] }
    var outputs: [Output] = []
    for path in paths {
      if path == "-" {
        outputs.append(Output(format: format ?? .text, path: nil))
        continue
      }
      guard let chosen = format ?? ReportFormat(fileName: path) else {
        throw UsageError(
          "cannot tell the format of '\(path)' from its extension: use .txt .json .csv .md .html .hledger .journal .ledger .beancount, or --format"
        )
      }
      outputs.append(Output(format: chosen, path: path))
    }
    if outputs.filter({ $0.path == nil }).count > 1 { throw UsageError("standard output ('-o -') is named twice") }
    return outputs
  }

  static func dateFilter(_ arguments: ParsedArguments) throws(UsageError) -> DateFilter? {
    func date(_ name: String) throws(UsageError) -> CalendarDate? {
      try arguments.parse(name) { text in
        guard let date = CalendarDate(iso: text) else {
          throw UsageError("'\(text)' is not a date: expected YYYY-MM-DD, a date that exists")
        }
        return date
      }
    }
    let since = try date("--since")
    let until = try date("--until")
    let today = try date("--today")
    let week = try arguments.parse("--week") { text in
      guard let (year, number) = DateFilter.parseWeek(text), let filter = DateFilter.isoWeek(year: year, week: number)
      else { throw UsageError("'\(text)' is not an ISO week: expected YYYY-Www such as 2026-W48") }
      return filter
    }
    let lastWeek = arguments.flag("--last-week")
    if today != nil, !lastWeek {
      throw UsageError(
        "--today only moves --last-week (the one period relative to today); give --last-week, or drop it")
    }
    let choices = [since != nil || until != nil, week != nil, lastWeek].filter { $0 }.count
    guard choices <= 1 else { throw UsageError("use one of --since/--until, --week or --last-week") }
    if let since, let until, since > until { throw UsageError("--since \(since) is after --until \(until)") }
    if lastWeek { return DateFilter.lastWeek(before: today ?? localToday()) }
    if let week { return week }
    if since != nil || until != nil { return DateFilter(since: since, until: until) }
    return nil
  }

  static func printDiagnostics(_ diagnostics: [Diagnostic], stream: BillStream, context: inout CommandContext) {
    guard !diagnostics.isEmpty || !stream.omittedWarnings.isEmpty else { return }
    let lines = SourceLines.fetch(diagnostics.compactMap(\.location), standardInput: stream.standardInput)
    for diagnostic in diagnostics {
      context.stderr.write(DiagnosticFormatter.text(diagnostic, lines: lines, color: context.colorsStderr))
    }
    for (code, count) in stream.omittedWarnings.sorted(by: { $0.key < $1.key }) {
      context.stderr.write(DiagnosticFormatter.omitted(count, code: code))
    }
  }

  /// Today in the local time zone.
  static func localToday() -> CalendarDate {
    var now = time(nil)
    var parts = unsafe tm()
    unsafe localtime_r(&now, &parts)
    return unsafe CalendarDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
      ?? CalendarDate(daysSinceEpoch: 0)
  }

  /// Now, as ISO 8601 UTC.
  static func timestamp() -> String {
    let seconds = Int(time(nil))
    let date = CalendarDate(daysSinceEpoch: seconds / 86_400)
    let rest = seconds % 86_400
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(date)T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
  }
}
