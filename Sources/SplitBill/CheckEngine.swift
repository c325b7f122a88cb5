import SplitBillFiles
import SplitBillInput
import SplitBillModel

/// How bill files are read: the defaults a command line gives (after a bill's own values and its
/// file's `defaults`) and how CSV is written.
public struct ReadingOptions: Sendable {
  /// A bill's tip when neither it nor its file gives one.
  public enum DefaultTip: Sendable, Hashable {
    /// A percentage.
    case percent(Percent)
    /// Asked of the tip advisor.
    case advisor
  }

  /// The two input formats.
  public enum Format: String, Sendable, CaseIterable {
    case yaml, csv
  }

  /// The currency of bills that name none.
  public var currency: Currency?
  /// The tip of bills that give none.
  public var defaultTip: DefaultTip?
  /// Who absorbs the leftover units of bills that do not say.
  public var leftover: LeftoverPolicy?
  /// How bills that do not say round their tip.
  public var rounding: RoundingMode?
  /// The CSV delimiter, instead of telling it from the header.
  public var delimiter: UInt8?
  /// Amounts, percentages and weights written with a decimal comma (`84,50`).
  public var decimalComma: Bool
  /// The format of standard input (`-`) and of files with other extensions.
  public var format: Format?
  /// Accept a directory without bill files, or inputs without bills (else they fail the run).
  public var allowEmpty: Bool
  /// The roster of every file that has none of its own (CSV files, YAML files without `people:`):
  /// a name outside it is an error. Without any roster, names that look alike are warned of.
  public var people: [String]?
  /// How people are paid, by name (a configuration's `people:` entries with details); a file's
  /// own `people:` entries add to them. Reports show them beside the transfers to each person.
  public var paymentDetails: [String: PaymentDetails] = [:]
  /// The currencies every file keeps in whole units (``Currency/inWholeUnits``), besides those a
  /// file's `defaults: whole_units:` names.
  public var wholeUnits: Set<Currency>
  /// The most instances the recurring bills of a run expand to, all rules together: a rule that
  /// would pass it is an error (`repeat.run-limit`) and makes none.
  public var instanceLimit: Int
  /// ``instanceLimit`` unless told otherwise: a household's rent, bills and subscriptions, weekly
  /// and monthly, over decades.
  public static let defaultInstanceLimit = ReadOptions.defaultInstanceLimit

  /// Options with everything left to the files.
  public init(
    currency: Currency? = nil, defaultTip: DefaultTip? = nil, leftover: LeftoverPolicy? = nil,
    rounding: RoundingMode? = nil, delimiter: UInt8? = nil, decimalComma: Bool = false, format: Format? = nil,
    allowEmpty: Bool = false, people: [String]? = nil, wholeUnits: Set<Currency> = [],
    instanceLimit: Int = ReadingOptions.defaultInstanceLimit
  ) {
    self.people = people
    self.wholeUnits = wholeUnits
    self.instanceLimit = instanceLimit
    self.currency = currency
    self.defaultTip = defaultTip
    self.leftover = leftover
    self.rounding = rounding
    self.delimiter = delimiter
    self.decimalComma = decimalComma
    self.format = format
    self.allowEmpty = allowEmpty
  }

  /// The readers' options.
  var readOptions: ReadOptions {
    let tip: SplitBillInput.DefaultTip? =
      switch defaultTip {
      case .percent(let percent)?: .percent(percent)
      case .advisor?: .advisor
      case nil: nil
      }
    var options = ReadOptions(
      defaults: InputDefaults(
        currency: currency.map { $0.kept(wholeUnits: wholeUnits) }, tip: tip, leftover: leftover, rounding: rounding),
      delimiter: delimiter, decimalComma: decimalComma,
      inputFormat: format.flatMap { InputFormat(rawValue: $0.rawValue) },
      people: people?.map(PersonName.normalized))
    options.wholeUnits = wholeUnits
    options.instanceLimit = instanceLimit
    for (name, details) in paymentDetails { options.payees[PersonName.normalized(name)] = details }
    return options
  }
}

/// A problem of a bill file, located: what `check` lists.
public struct BillProblem: Sendable, Hashable {
  /// `error` or `warning` (or `note`).
  public var severity: String
  /// Stable, documented in docs/format.md (`amount.decimals`).
  public var code: String
  /// What is wrong and what was expected.
  public var message: String
  /// The file (`-` for standard input), and the 1-based line and column when there is one.
  public var file: String?
  public var line: Int?
  public var column: Int?
}

/// What checking bill files found.
public struct CheckOutcome: Sendable {
  /// Whether the inputs could be checked at all.
  public enum Status: Sendable, Equatable {
    /// Every input was read: the problems are all there is.
    case checked
    /// An input could not be read (the problems say which).
    case unreadable
    /// A directory named holds no bill file (without `allowEmpty`); nothing was read.
    case noBillFiles(directory: String)
    /// The inputs hold no bill and no payment (without `allowEmpty`).
    case noBills
  }

  public var status: Status
  /// Files, bills and payments read.
  public var files: Int
  public var bills: Int
  public var payments: Int
  /// Errors and warnings found (those left out of ``problems`` included).
  public var errors: Int
  public var warnings: Int
  /// Every problem, in reading order, but past the first 1,000 of one code (errors and warnings
  /// alike), which are only counted: memory stays bounded whatever the input.
  public var problems: [BillProblem]
  /// Warnings counted but not listed, by code.
  public var omittedWarnings: [(code: String, count: Int)]
  /// Errors counted but not listed, by code.
  public var omittedErrors: [(code: String, count: Int)]

  /// The diagnostics as the readers made them, and what standard input held, for the CLI's
  /// renderings (source lines under each problem).
  var diagnostics: [Diagnostic]
  var standardInput: StandardInputCopy?
}

/// Bill files checked as a report would read them, without the network: syntax, keys, amounts in
/// their currency's digits, tips, diners, payers, dates, ids unique across all inputs.
public enum Checker {
  /// Checks `paths` (files, directories read recursively in path order, `-` for standard input).
  /// Blocks while it reads: call it off Swift's cooperative pool (a `Thread`, or a detached task's
  /// own thread) when it may read much.
  public static func run(_ paths: [String], options: ReadingOptions) -> CheckOutcome {
    run(paths, readOptions: options.readOptions, allowEmpty: options.allowEmpty)
  }

  /// The blocking `run(_:options:)`, for a caller on Swift's cooperative pool: the reading blocks a
  /// thread of its own, and the task awaits it.
  public static func run(_ paths: [String], options: ReadingOptions) async -> CheckOutcome {
    await DedicatedThread.run { run(paths, options: options) }
  }

  /// Recurring bills without an end (`repeat: month`) are checked up to today.
  static func run(_ paths: [String], readOptions: ReadOptions, allowEmpty: Bool) -> CheckOutcome {
    var readOptions = readOptions
    if readOptions.repeatsThrough == nil { readOptions.repeatsThrough = CalendarDate.localToday() }
    var stream = BillStream(options: readOptions)
    let sources = stream.sources(for: paths)
    if !allowEmpty, let directory = stream.directoriesWithoutBills.first {
      return outcome(.noBillFiles(directory: directory), stream)
    }
    stream.read(sources) { _ in }
    _ = stream.findRepeats()
    if stream.unreadableInput { return outcome(.unreadable, stream) }
    // Checking nothing is not a pass.
    if stream.billCount + stream.paymentCount == 0, !allowEmpty, stream.fileErrors.isEmpty {
      return outcome(.noBills, stream)
    }
    return outcome(.checked, stream)
  }

  private static func outcome(_ status: CheckOutcome.Status, _ stream: BillStream) -> CheckOutcome {
    let (errors, warnings) = stream.counts
    let diagnostics = stream.diagnostics
    return CheckOutcome(
      status: status, files: stream.fileCount, bills: stream.billCount, payments: stream.paymentCount, errors: errors,
      warnings: warnings,
      problems: diagnostics.map {
        BillProblem(
          severity: $0.severity.rawValue, code: $0.code, message: $0.message, file: $0.location?.file,
          line: $0.location?.position?.line, column: $0.location?.position?.column)
      },
      omittedWarnings: stream.omittedWarnings.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
      omittedErrors: stream.omittedErrors.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
      diagnostics: diagnostics, standardInput: stream.standardInput)
  }
}
