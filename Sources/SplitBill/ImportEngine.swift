@_exported import SplitBillCore
import SplitBillFiles
@_exported import SplitBillImport
import SplitBillInput
import SplitBillModel
import SplitBillText

/// What `import` is asked to do: which app the export comes from and how to read it.
public struct ImportOptions: Sendable {
  /// The app the export comes from.
  public var source: ImportSource
  /// The export's path as the user gave it (`-` for standard input): the summary names it, the
  /// YAML file's header its last component.
  public var path: String
  /// The date the header names: the same export on the same date gives the same bytes.
  public var date: CalendarDate
  /// Spliit: the group's currency when the export has no `currencyCode`; IHateMoney: the currency of
  /// bills without one; Cospend: the project's, when its export names none by code or symbol.
  public var currency: Currency?
  /// Spliit: the rounding rule that made the balances the app showed; `nil`, the export's era's.
  public var spliitRule: SpliitRule?
  /// Leave out the rows that cannot be imported (listed in the file) instead of failing.
  public var skipInvalid: Bool
  /// IHateMoney: the project's settlements export, to check the balances against.
  public var settlements: ImportCompanion?
  /// A CSV statement: the rules file that reads it (docs/import.md).
  public var rules: ImportCompanion?

  /// Options for an export of `source` at `path`, imported on `date`.
  public init(
    source: ImportSource, path: String, date: CalendarDate, currency: Currency? = nil,
    spliitRule: SpliitRule? = nil, skipInvalid: Bool = false, settlements: ImportCompanion? = nil,
    rules: ImportCompanion? = nil
  ) {
    self.rules = rules
    self.source = source
    self.path = path
    self.date = date
    self.currency = currency
    self.spliitRule = spliitRule
    self.skipInvalid = skipInvalid
    self.settlements = settlements
  }
}

/// What importing an export gave.
public struct ImportOutcome: Sendable {
  /// Whether a file may be written, and if not why.
  public enum Status: Sendable, Equatable {
    /// The YAML file is in ``ImportOutcome/yaml``; its balances are the source's.
    case imported
    /// The export cannot be read as one (not UTF-8, an unknown header, a quote never closed): its
    /// one error is in ``ImportOutcome/errors``.
    case unreadable
    /// An empty export.
    case empty
    /// Rows that cannot be imported (without `skipInvalid`), or balances that differ from the
    /// source's own (`mismatch`): `problems` of the errors stop it. Nothing may be written.
    case invalid(problems: Int, mismatch: Bool)
    /// Nothing moves a balance: no bill and no payment.
    case nothingToImport
  }

  /// Whether a file may be written.
  public var status: Status
  /// The splitbill YAML file when ``status`` is ``Status/imported``.
  public var yaml: String?
  /// Errors: rows that cannot be imported (also when skipped), checksum mismatches, in the export's
  /// order. Each names the export's path as ``ImportOptions/path`` gives it, and the line and column
  /// of a CSV export's.
  public var errors: [BillProblem]
  /// Warnings and notes (severity `note`): rows left out, mended drift, unchecked balances, the
  /// rule used, in the export's order.
  public var remarks: [BillProblem]
  /// The errors and the remarks together, in the export's order (those without a line last).
  public var problems: [BillProblem]
  /// What was imported, in one line (`imported x.csv: 8 rows read, 4 bills, …`), when imported.
  public var summary: String?
}

/// Why an import could not be finished: the written file would not read back with the source's
/// balances (a bug).
public struct ImportFailure: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public var message: String
  /// Whether it is a bug (the file would not read back as the source's balances): always, now
  /// that the check reads the file from memory (it once needed a temporary file, which could fail).
  public var isInternal: Bool

  public var description: String { message }
}

/// Another app's export as a splitbill YAML file, checked: the file is read back through the bill
/// reader, split by the core, and every person's balance compared with the source's own before
/// it is handed over. No I/O: the check reads the file from memory; writing it is the caller's.
public enum Importer {
  /// A rules file for the CSV statement `bytes` named `path`, proposed from its header and first
  /// rows for the user to check (`import csv` without `--rules`): who paid and who shares are left
  /// to fill in, and a date shape both day-first and month-first fit is left to choose.
  public static func proposeRules(for bytes: [UInt8], path: String) -> String {
    StatementProposal.propose(bytes, file: path)
  }

  /// Imports the export's `bytes`.
  ///
  /// - Throws: ``ImportFailure`` when the import's own check fails (never for bad input: that is
  ///   an ``ImportOutcome/Status``).
  public static func run(_ bytes: [UInt8], _ options: ImportOptions) throws(ImportFailure) -> ImportOutcome {
    let result: ImportResult
    do {
      result = try options.source.read(
        bytes, file: options.path,
        ImportReading(
          currency: options.currency, spliitRule: options.spliitRule, settlements: options.settlements,
          rules: options.rules, skipInvalid: options.skipInvalid))
    } catch {
      let errors = [BillProblem(error, file: options.path)]
      return ImportOutcome(
        status: error.importCode?.isEmptyExport == true ? .empty : .unreadable, yaml: nil, errors: errors, remarks: [],
        problems: errors, summary: nil)
    }
    let book = result.book
    // `diagnostics` as the outcome hands them out: in the export's order, naming it.
    func inFileOrder(_ diagnostics: [Diagnostic]) -> [BillProblem] {
      diagnostics.sorted(by: ImportedBook.inFileOrder).map { BillProblem($0, file: options.path) }
    }
    let errors = inFileOrder(result.errors)
    let remarks = inFileOrder(book.remarks + book.omitted)
    let problems = inFileOrder(result.errors + book.remarks + book.omitted)
    let stopping = result.errors.filter { !options.skipInvalid || $0.importCode?.isBalanceMismatch == true }
    guard stopping.isEmpty else {
      let mismatch = result.errors.contains { $0.importCode?.isBalanceMismatch == true }
      return ImportOutcome(
        status: .invalid(problems: stopping.count, mismatch: mismatch), yaml: nil, errors: errors, remarks: remarks,
        problems: problems, summary: nil)
    }
    guard !book.bills.isEmpty || !book.payments.isEmpty else {
      return ImportOutcome(
        status: .nothingToImport, yaml: nil, errors: errors, remarks: remarks, problems: problems, summary: nil)
    }
    let name = options.path.split(separator: "/").last.map(String.init) ?? options.path
    let yaml = book.yaml(sourceName: name, date: options.date)
    try verify(yaml, book: book)
    return ImportOutcome(
      status: .imported, yaml: yaml, errors: errors, remarks: remarks, problems: problems,
      summary: summary(book, path: options.path))
  }

  /// Reads `yaml` back as `report` would, splits it, and compares every balance with the source's
  /// own: the import must never hand over a file whose balances differ from the app's.
  static func verify(_ yaml: String, book: ImportedBook) throws(ImportFailure) {
    // Read from memory, as standard input is: no file, no descriptor.
    var stream = BillStream(options: ReadOptions(inputFormat: .yaml))
    stream.read(standardInput: StandardInputCopy(bytes: Array(yaml.utf8)))
    var ledger = ReportLedger()
    var leftovers = LeftoverLedger()
    var refused: [String] = []
    stream.read(stream.sources(for: ["-"])) { outcome in
      switch outcome {
      case .valid(let bill):
        do throws(SplitError) { ledger.add(try bill.terms.split(ledger: &leftovers)) } catch {
          refused.append("\(bill.id): \(error)")
        }
      case .payment(let payment): ledger.add(payment.payment)
      case .invalid(let bill): refused.append(bill.id ?? "a bill")
      }
    }
    refused += stream.diagnostics.filter { $0.severity == .error }.map(\.message)
    guard refused.isEmpty else {
      throw ImportFailure(
        message: "internal error: the imported file does not read back: " + refused.prefix(3).joined(separator: "; "),
        isInternal: true)
    }
    var balances: [Currency: [String: Int64]] = [:]
    for totals in ledger.personTotals { balances[totals.currency, default: [:]][totals.person] = totals.balance }
    for (currency, expected) in book.expectedBalances {
      for (person, balance) in expected where (balances[currency]?[person] ?? 0) != balance {
        throw ImportFailure(
          message: "internal error: \(person)'s \(currency.code) balance reads back as "
            + "\(Money(minorUnits: balances[currency]?[person] ?? 0, currency: currency)) but \(book.expectedFrom) gives "
            + "\(Money(minorUnits: balance, currency: currency))", isInternal: true)
      }
    }
  }

  /// The one-line summary: what was read, what was made of it, and whether the balances matched.
  static func summary(_ book: ImportedBook, path: String) -> String {
    var parts = [book.billsSummary, plural(book.payments.count, "payment")]
    if !book.omitted.isEmpty { parts.append("\(book.omitted.count) left out (no effect on balances)") }
    if !book.skipped.isEmpty { parts.append("\(book.skipped.count) invalid and skipped") }
    var text = "imported \(path): \(plural(book.rowsRead, "row")) read, " + parts.joined(separator: ", ")
    let checked = book.expectedBalances.keys.sorted()
    if checked.isEmpty {
      let unreadable = book.remarks.contains { $0.importCode?.isBalanceMismatch == true }
      text +=
        "; balances not checked ("
        + (unreadable
          ? "a skipped row that could not be read may be what they differ by"
          : book.uncheckedWhy ?? "the export gives none")
        + ")"
    } else {
      text +=
        "; balances match \(book.expectedFrom) (\(checked.map(\.code).joined(separator: ", "))"
        + (book.skipped.isEmpty ? "" : ", the skipped rows taken out") + ")"
    }
    return text
  }
}
