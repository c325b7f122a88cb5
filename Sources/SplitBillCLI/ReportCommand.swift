import SplitBill
import SplitBillAdvisor
import SplitBillCore
import SplitBillFiles
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
        "--format", "FORMAT",
        "text (default), json, csv, markdown, html, hledger, ledger, beancount, or messages (one a person, for a chat).",
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
        "--category-account", "CATEGORY=ACCOUNT", repeatable: true,
        "Journals: book CATEGORY's expenses to ACCOUNT (repeatable; the configuration's category-accounts: mapping)."),
      .value(
        "--journal-layout", "LAYOUT",
        "Journals: expenses (default: shares to each category's expense account) or people (each person's accounts under Equity:People:NAME, one net line each).",
        choices: JournalLayout.allCases.map(\.rawValue)),
      .value(
        "--record-settlements", "FILE",
        "Also write the suggested settlements as payments (YAML) to FILE, dated the period's last day.",
        files: ["yaml"]),
      .flag("--force", "With --record-settlements: replace FILE if it exists."),
      .value(
        "--plan", "PLAN",
        "Which transfers settle up: fewest (default; money may go between people who shared no bill) or pairwise (each pair settles what passed between them).",
        choices: ["fewest", "pairwise"]
      ).under("Settling up"),
      .value(
        "--keep-out", "NAMES",
        "Keep these people (comma-separated) out of the middle: they settle pairwise, only with those they shared bills with; the others with the fewest transfers."
      ).under("Settling up"),
      .flag(
        "--explain",
        "Explain each transfer: the bills and payments that make up the balances of the people in it, row by row (HTML: a folded section)."
      ).under("Settling up"),
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
        "Pay settlements in multiples of AMOUNT (0.05, 0.10, 1), or by currency: HUF=5,CHF=0.05; residues are shown (else cash_rounding: in defaults)."
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
      "splitbill report samples/trip.yaml -o trip.journal --journal-layout people --category-account groceries=Expenses:Food:Market",
      "splitbill report samples/trip.yaml --settle-in EUR",
      "splitbill report trip.yaml --settle-in EUR --rates eurofxref-hist.csv --cash-rounding 0.05",
      "GEMINI_API_KEY=... splitbill report samples/trip.yaml --advisor gemini",
      "splitbill report samples/trip.yaml --advisor openai --ai-base-url http://localhost:11434/v1 --ai-model llama3.2",
    ],
    run: run, operands: InputOptions.extensions)

  /// `--category-account CATEGORY=ACCOUNT`s (the configuration's first, so the command line's win).
  static func categoryAccounts(_ arguments: ParsedArguments) throws -> [String: String] {
    var accounts: [String: String] = [:]
    for given in arguments.values["--category-account"] ?? [] {
      guard let equals = given.firstIndex(of: "="), equals != given.startIndex else {
        throw UsageError(
          "--category-account '\(EchoedText.quote(given))': expected CATEGORY=ACCOUNT, such as 'groceries=Expenses:Food:Groceries'"
        )
      }
      let category = String(given[..<equals]).trimmingSpaces
      accounts[category.lowercased()] = String(given[given.index(after: equals)...]).trimmingSpaces
    }
    return accounts
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
      let idle = ["--with-settlements", "--no-declarations", "--books-of", "--category-account", "--journal-layout"]
        .first(where: {
          // A configuration file's settings serve every run: only the command line's are idle.
          !arguments.configured.contains($0) && (arguments.flag($0) || arguments.value($0) != nil)
        })
    {
      throw UsageError("\(idle) is for the journals: add --format hledger, ledger or beancount (or -o FILE.journal)")
    }
    var options = ReportOptions(outputs: outputs, period: try dateFilter(arguments), today: localToday())
    try settlingOptions(arguments, into: &options)
    options.journalSettlements = arguments.flag("--with-settlements")
    options.booksOf = arguments.value("--books-of")
    options.declarations = !arguments.flag("--no-declarations")
    options.categoryAccounts = try categoryAccounts(arguments)
    options.journalLayout = arguments.value("--journal-layout").flatMap(JournalLayout.init(rawValue:)) ?? .expenses
    options.stamp = arguments.flag("--stamp") ? timestamp() : nil
    options.recordSettlementsTo = arguments.value("--record-settlements")
    options.replaceRecordedSettlements = arguments.flag("--force")
    options.color = context.colorsStdout
    options.reading = try InputOptions.readOptions(arguments)
    let network = try AdvisorOptions.network(arguments, environment: context.environment)
    var run = try commandFailure { () throws(ReportFailure) in try Reporter.prepare(arguments.positionals, options) }

    // A network advisor answers many bills per request: the bills are read (once) and held, and
    // those that want advice are asked about together.
    var answers: [String: TipAdvice] = [:]
    if let network {
      let requests = await run.adviceRequests()
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
    let outcome: ReportOutcome
    do throws(ReportFailure) {
      outcome = try await run.write(advice: answers)
    } catch {
      if let problems = error.problems { show(problems, &context) }
      throw commandFailure(error)
    }
    show(outcome.problems, &context)
    do throws(ReportText.Unreadable) {
      try outcome.text?.forEachPiece { context.stdout.write(bytes: $0) }
    } catch {
      context.stdout.recordFailure(error.errorNumber, in: error.place)
    }
    if !arguments.flag("--quiet") { for path in outcome.written { context.message("wrote \(path)") } }
    return outcome.invalid == 0 && !outcome.settlementsNotRecorded ? .success : .invalidBills
  }

  /// The command line's failure for the engine's.
  static func commandFailure(_ failure: ReportFailure) -> any Error {
    switch failure.kind {
    case .usage: UsageError(failure.text.commandLine)
    case .noInput: CommandFailure(message: failure.text.commandLine, code: .noInput)
    case .cannotCreate: CommandFailure(message: failure.text.commandLine, code: .cannotCreate)
    case .internalError: CommandFailure(message: failure.text.commandLine, code: .internalError)
    }
  }

  /// Runs `body`, giving a failure as the command line's.
  static func commandFailure<Value>(_ body: () throws(ReportFailure) -> Value) throws -> Value {
    do {
      return try body()
    } catch {
      throw commandFailure(error)
    }
  }

  /// `--settle-in`, `--rates`, `--max-rate-age` and `--cash-rounding`.
  static func settlingOptions(_ arguments: ParsedArguments, into options: inout ReportOptions) throws {
    options.settleIn = try arguments.parse("--settle-in") { text in
      do {
        return try Currency(code: text)
      } catch {
        throw UsageError("--settle-in '\(text)' is not a currency: expected an ISO 4217 code such as EUR")
      }
    }
    options.rateFiles = arguments.values["--rates"] ?? []
    if !options.rateFiles.isEmpty, options.settleIn == nil {
      throw UsageError("--rates is for --settle-in CODE: give the currency to settle in")
    }
    options.maxRateAge =
      try arguments.parse("--max-rate-age") { text in
        guard let days = Int(text), days >= 0 else {
          throw UsageError("'\(text)' is not a number of days: expected a whole number such as 7")
        }
        return days
      } ?? 7
    if arguments.value("--max-rate-age") != nil, options.settleIn == nil {
      throw UsageError("--max-rate-age is for --settle-in CODE: give the currency to settle in")
    }
    options.cashRounding = arguments.value("--cash-rounding")
    options.explain = arguments.flag("--explain")
    let plan = try arguments.choice("--plan", PlanName.self)
    if let text = arguments.value("--keep-out") {
      guard plan != .pairwise else {
        throw UsageError(
          "--keep-out is a plan of its own (the others settle with the fewest transfers): leave out --plan pairwise")
      }
      let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty }) else {
        throw UsageError(
          "--keep-out '\(text)' has an empty name: expected names separated by commas, such as 'Ana, Ben'")
      }
      options.plan = .keepingOut(Set(names))
    } else if plan == .pairwise {
      options.plan = .pairwise
    }
  }

  /// `--plan`'s values.
  enum PlanName: String, CaseIterable { case fewest, pairwise }

  /// Prints the problems like a compiler's diagnostics, with their source lines, on stderr.
  static func show(_ problems: ReportProblems, _ context: inout CommandContext) {
    let color = context.colorsStderr
    problems.list(color: color) { context.stderr.write($0) }
    for message in problems.messages { context.message(message) }
  }

  /// The outputs `-o` (and `--format`) name; standard output's text is returned by the engine.
  static func outputs(_ arguments: ParsedArguments) throws(UsageError) -> [ReportOutput] {
    let format = try arguments.choice("--format", ReportFormat.self)
    let paths = arguments.values["--output"] ?? []
    guard !paths.isEmpty else { return [ReportOutput(format ?? .text, to: .returned)] }
    var outputs: [ReportOutput] = []
    for path in paths {
      if path == "-" {
        outputs.append(ReportOutput(format ?? .text, to: .returned))
        continue
      }
      guard let chosen = format ?? ReportFormat(fileName: path) else {
        throw UsageError(
          "cannot tell the format of '\(path)' from its extension: use .txt .json .csv .md .html .hledger .journal .ledger .beancount, or --format"
        )
      }
      outputs.append(ReportOutput(chosen, to: .file(path)))
    }
    if outputs.count(where: { $0.destination == .returned }) > 1 {
      throw UsageError("standard output ('-o -') is named twice")
    }
    return outputs
  }

  /// The date option `name` gives, if any (`YYYY-MM-DD`, a date that exists).
  static func date(_ arguments: ParsedArguments, _ name: String) throws(UsageError) -> CalendarDate? {
    try arguments.parse(name) { text in
      guard let date = CalendarDate(iso: text) else {
        throw UsageError("'\(text)' is not a date: expected YYYY-MM-DD, a date that exists")
      }
      return date
    }
  }

  static func dateFilter(_ arguments: ParsedArguments) throws(UsageError) -> DateFilter? {
    func date(_ name: String) throws(UsageError) -> CalendarDate? { try Self.date(arguments, name) }
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

  /// Today in the local time zone.
  static func localToday() -> CalendarDate { CalendarDate.localToday() }

  /// Now, as ISO 8601 UTC.
  static func timestamp() -> String {
    let seconds = Int(time(nil))
    let date = CalendarDate(daysSinceEpoch: seconds / 86_400)
    let rest = seconds % 86_400
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(date)T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
  }
}
