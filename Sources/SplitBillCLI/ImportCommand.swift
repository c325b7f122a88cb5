import Foundation
import SplitBillCore
import SplitBillImport
import SplitBillInput
import SplitBillReports
import SplitBillText

#if canImport(Glibc)
  import Glibc
#endif

/// `splitbill import splitwise|spliit FILE`: another app's export as a splitbill YAML file.
enum ImportCommand {
  static let command = Command(
    name: "import",
    summary: "turn a Splitwise CSV or Spliit JSON export into a splitbill YAML file",
    usage:
      "splitbill import splitwise|spliit FILE [-o OUT] [--skip-invalid] [--currency CODE] [--spliit-rule RULE] [--today DATE]",
    options: [
      .value(
        "--output", short: "-o", "OUT", "Write the YAML to OUT (atomically) instead of standard output.", files: [""]),
      .flag("--force", "With -o: replace OUT if it exists."),
      .flag(
        "--skip-invalid",
        "Leave out rows that cannot be imported (listed on stderr and in the file) instead of failing."),
      .value("--currency", "CODE", "Spliit: the group's currency when the export has no currencyCode (older groups)."),
      .value(
        "--spliit-rule", "RULE",
        "Spliit: how the app rounded shares when it showed the balances: auto (default: largest-remainder for "
          + "an export with expense ids, rounded-balances without), largest-remainder (since 2026-08), "
          + "rounded-balances (2024-02 to 2026-08), floor-last (2024-01 to 2024-02)."),
      .value("--today", "DATE", "The import date the file's header names (default: today), for reproducible files."),
      .flag("--quiet", "Print nothing on stderr but errors."),
    ],
    details: """
      FILE is a Splitwise "Export as spreadsheet" CSV (any of its languages: English, German, French,
      Spanish, Italian, Portuguese, Dutch) or a Spliit JSON export; '-' reads standard input. The YAML
      keeps the source's dates, descriptions and ids (Splitwise has none: sw-DATE-N), with categories
      in notes; `check` accepts it and `report` settles it. Before anything is written, the file is
      read back and split by splitbill itself and every member's balance compared with the source's
      own: Splitwise's Total balance row, Spliit's rule. A difference is an error naming the member
      (exit 1, nothing written). A summary goes to stderr. See docs/import.md for the rules.
      """,
    examples: [
      "splitbill import splitwise export.csv -o trip.yaml",
      "splitbill import spliit lisbon.json -o lisbon.yaml && splitbill report lisbon.yaml",
    ],
    run: run, operands: ["csv", "json"], operandWords: ImportSource.allCases.map(\.rawValue))

  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) throws -> ExitCode {
    guard let name = arguments.positionals.first else {
      throw UsageError("name the app the export comes from: splitbill import splitwise FILE.csv (or spliit FILE.json)")
    }
    guard let source = ImportSource(rawValue: name.lowercased()) else {
      var message = "cannot import from '\(name)': expected splitwise or spliit"
      if let guess = Spelling.suggestion(for: name.lowercased(), among: ImportSource.allCases.map(\.rawValue)) {
        message += "; did you mean '\(guess)'?"
      }
      throw UsageError(message)
    }
    guard arguments.positionals.count == 2 else {
      throw UsageError(
        arguments.positionals.count < 2
          ? "no FILE given: splitbill import \(source.rawValue) FILE" : "import reads one FILE at a time")
    }
    let path = arguments.positionals[1]
    let currency = try arguments.parse("--currency") { text in
      guard let code = try? Currency(code: text.uppercased()) else {
        throw UsageError("unknown currency '\(text)': expected an ISO 4217 code such as EUR, USD or JPY")
      }
      return code
    }
    if currency != nil, source != .spliit {
      throw UsageError("--currency is for Spliit exports (Splitwise gives a currency on every row)")
    }
    let rules = ["auto"] + SpliitRule.allCases.map(\.rawValue)
    let rule = try arguments.parse("--spliit-rule") { text -> SpliitRule? in
      guard rules.contains(text) else {
        var message = "unknown Spliit rule '\(text)': expected \(rules.joined(separator: ", "))"
        if let guess = Spelling.suggestion(for: text, among: rules) { message += "; did you mean '\(guess)'?" }
        throw UsageError(message)
      }
      return SpliitRule(rawValue: text)
    }
    if arguments.value("--spliit-rule") != nil, source != .spliit {
      throw UsageError("--spliit-rule is for Spliit exports (Splitwise's cells are already rounded)")
    }
    let today =
      try arguments.parse("--today") { text in
        guard let date = CalendarDate(iso: text) else {
          throw UsageError("'\(text)' is not a date: expected YYYY-MM-DD, a date that exists")
        }
        return date
      } ?? ReportCommand.localToday()
    if arguments.flag("--force"), arguments.value("--output") == nil { throw UsageError("--force goes with -o OUT") }

    let bytes = try InputFile.bytes(path)
    let skipInvalid = arguments.flag("--skip-invalid")
    let result: ImportResult
    do {
      switch source {
      case .splitwise: result = try SplitwiseImport.read(bytes, skipInvalid: skipInvalid)
      case .spliit:
        result = try SpliitImport.read(bytes, currency: currency, rule: rule ?? nil, skipInvalid: skipInvalid)
      }
    } catch {
      report([error], path: path, bytes: bytes, &context)
      context.message("error: nothing imported from \(TerminalText.sanitize(path))")
      // An empty export holds nothing to import (66); one that cannot be read as an export is invalid (1).
      return error.code == "splitwise.empty" ? .noInput : .invalidBills
    }
    let book = result.book
    let shown = (result.errors + (arguments.flag("--quiet") ? [] : book.remarks + book.omitted))
      .sorted(by: ImportedBook.inFileOrder)
    report(shown, path: path, bytes: bytes, &context)
    let stopping = result.errors.filter { !skipInvalid || $0.code.hasSuffix(".total-balance") }
    guard stopping.isEmpty else {
      let rows = stopping.count == 1 ? "1 problem" : "\(stopping.count) problems"
      context.message(
        "error: \(rows) in \(TerminalText.sanitize(path)); nothing was written"
          + (skipInvalid || result.errors.contains { $0.code.hasSuffix(".total-balance") }
            ? "" : " (--skip-invalid leaves the invalid rows out)"))
      return .invalidBills
    }
    guard !book.bills.isEmpty || !book.payments.isEmpty else {
      throw CommandFailure(
        message: "\(path) holds no expense or payment to import; nothing was written", code: .noInput)
    }
    let yaml = book.yaml(sourceName: (path as NSString).lastPathComponent, date: today)
    try verify(yaml, book: book, source: source)
    if let output = arguments.value("--output"), output != "-" {
      do {
        try AtomicFile.write(to: output, overwrite: arguments.flag("--force")) { sink in sink.write(yaml) }
      } catch {
        throw CommandFailure(message: "\(error)", code: .cannotCreate)
      }
    } else {
      context.stdout.write(yaml)
    }
    if !arguments.flag("--quiet") { context.message(TerminalText.sanitize(summary(book, path: path))) }
    return .success
  }

  /// Prints issues like a compiler's diagnostics, with the export's line and a caret.
  static func report(_ issues: [ImportIssue], path: String, bytes: [UInt8], _ context: inout CommandContext) {
    guard !issues.isEmpty else { return }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    for issue in issues {
      let location = issue.line.map { SourceLocation(file: path, line: $0, column: issue.column ?? 1) }
      var source: [String: [Int: String]] = [:]
      if let line = issue.line, line >= 1, line <= lines.count {
        source[path] = [line: String(lines[line - 1]).trimmingSuffix("\r")]
      }
      context.stderr.write(
        DiagnosticFormatter.text(
          severity: issue.severity.rawValue, location: location, file: path, message: issue.message, lines: source,
          color: context.colorsStderr))
    }
  }

  /// Reads `yaml` back as `report` would, splits it, and compares every balance with the source's
  /// own: the import must never write a file whose balances differ from the app's.
  static func verify(_ yaml: String, book: ImportedBook, source: ImportSource) throws(CommandFailure) {
    let descriptor = TemporaryFile.open(in: TemporaryFile.directory(), prefix: "splitbill-import")
    guard descriptor >= 0 else {
      let reason = unsafe String(cString: strerror(errno))
      throw CommandFailure(
        message: "cannot check the import: no temporary file in \(TemporaryFile.directory()) (\(reason))",
        code: .cannotCreate)
    }
    defer { close(descriptor) }
    let written = unsafe Array(yaml.utf8).withUnsafeBytes { unsafe write(descriptor, $0.baseAddress, $0.count) }
    guard written == yaml.utf8.count else {
      throw CommandFailure(message: "cannot check the import: writing a temporary file failed", code: .cannotCreate)
    }
    var stream = BillStream(options: ReadOptions(inputFormat: .yaml))
    var ledger = ReportLedger()
    var leftovers = LeftoverLedger()
    var refused: [String] = []
    stream.read(stream.sources(for: ["/proc/self/fd/\(descriptor)"])) { outcome in
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
      throw CommandFailure(
        message: "internal error: the imported file does not read back: " + refused.prefix(3).joined(separator: "; "),
        code: .internalError)
    }
    var balances: [Currency: [String: Int64]] = [:]
    for totals in ledger.personTotals { balances[totals.currency, default: [:]][totals.person] = totals.balance }
    for (currency, expected) in book.expectedBalances {
      for (person, balance) in expected where (balances[currency]?[person] ?? 0) != balance {
        throw CommandFailure(
          message: "internal error: \(person)'s \(currency.code) balance reads back as "
            + "\(Money(minorUnits: balances[currency]?[person] ?? 0, currency: currency)) but \(book.expectedFrom) gives "
            + "\(Money(minorUnits: balance, currency: currency))", code: .internalError)
      }
    }
  }

  /// The stderr summary: what was read, what was made of it, and whether the balances matched.
  static func summary(_ book: ImportedBook, path: String) -> String {
    var parts = [book.billsSummary, plural(book.payments.count, "payment")]
    if !book.omitted.isEmpty { parts.append("\(book.omitted.count) left out (no effect on balances)") }
    if !book.skipped.isEmpty { parts.append("\(book.skipped.count) invalid and skipped") }
    var text = "imported \(path): \(plural(book.rowsRead, "row")) read, " + parts.joined(separator: ", ")
    let checked = book.expectedBalances.keys.sorted()
    if checked.isEmpty {
      let unreadable = book.remarks.contains { $0.code.hasSuffix(".total-balance") }
      text +=
        "; balances not checked ("
        + (unreadable ? "a skipped row that could not be read may be what they differ by" : "the export gives none")
        + ")"
    } else {
      text +=
        "; balances match \(book.expectedFrom) (\(checked.map(\.code).joined(separator: ", "))"
        + (book.skipped.isEmpty ? "" : ", the skipped rows taken out") + ")"
    }
    return text
  }
}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
