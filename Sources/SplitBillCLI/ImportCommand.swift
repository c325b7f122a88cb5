import Foundation
import SplitBill
import SplitBillCore
import SplitBillFiles
import SplitBillImport
import SplitBillInput
import SplitBillModel
import SplitBillReports
import SplitBillText

#if canImport(Glibc)
  import Glibc
#endif

/// `splitbill import splitwise|spliit|ihatemoney|cospend FILE`: another app's export as a splitbill YAML file.
enum ImportCommand {
  static let command = Command(
    name: "import",
    summary:
      "turn a Splitwise, Spliit, IHateMoney or Cospend export, or a bank's CSV by rules, into a splitbill YAML file",
    usage:
      "splitbill import \(ImportSource.allCases.map(\.rawValue).joined(separator: "|")) FILE [-o OUT] [--skip-invalid] "
      + "[--currency CODE]"
      + " [--spliit-rule RULE] [--settlements FILE] [--rules FILE] [--today DATE]",
    options: [
      .value(
        "--output", short: "-o", "OUT", "Write the YAML to OUT (atomically) instead of standard output.", files: [""]),
      .flag("--force", "With -o: replace OUT if it exists."),
      .flag(
        "--skip-invalid",
        "Leave out rows that cannot be imported (listed on stderr and in the file) instead of failing."),
      .value(
        "--currency", "CODE",
        "Spliit: the group's currency when the export has no currencyCode (older groups); IHateMoney: the "
          + "currency of bills without one (XXX, a project without a currency); Cospend: the project's, when "
          + "the export names it by neither code nor symbol."),
      .value(
        "--settlements", "FILE",
        "IHateMoney: the project's settlements export (transactions.json or .csv) to check every member's "
          + "balance against.", files: ["json", "csv"]),
      .value(
        "--rules", "FILE",
        "csv: the rules file that reads the statement (columns, date shape, decimal mark, sign, who paid and "
          + "shares, if blocks); without it, a proposed one is printed.", files: ["rules", "txt"]),
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
      Spanish, Italian, Portuguese, Dutch), a Spliit JSON export, an IHateMoney bills export (JSON
      or CSV), a Cospend project export (CSV), or with csv a bank's, a card's or an app's CSV
      statement read by a rules file (--rules; without it the rules proposed from the header and
      first rows are printed, nothing imported, exit 64); '-' reads standard input, and a
      pipe or FIFO is read to its end. The YAML keeps the source's dates, descriptions and ids
      (Splitwise has none: sw-DATE-N), categories kept as categories; `check` accepts it and `report`
      settles it. Before anything is written, the file is read back and split by splitbill itself and
      every member's balance compared with the source's own: Splitwise's Total balance row, the
      balances Spliit showed (by the rule of the export's era, --spliit-rule), the balances IHateMoney
      shows (and its settlements export, with --settlements), the balances Cospend shows. A difference is an
      error naming the member (exit 1, nothing written). A summary goes to stderr. See
      docs/import.md for the rules.
      """,
    examples: [
      "splitbill import splitwise export.csv -o trip.yaml",
      "splitbill import spliit lisbon.json -o lisbon.yaml && splitbill report lisbon.yaml",
      "splitbill import ihatemoney raclette-bills.json --settlements raclette-transactions.json -o raclette.yaml",
      "splitbill import csv statement.csv > bank.rules",
      "splitbill import csv statement.csv --rules bank.rules -o flat-bank.yaml",
    ],
    run: run, operands: ["csv", "json"], operandWords: ImportSource.allCases.map(\.rawValue))

  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) throws -> ExitCode {
    guard let name = arguments.positionals.first else {
      throw UsageError(
        "name the app the export comes from: splitbill import splitwise FILE.csv (or spliit FILE.json, ihatemoney FILE, cospend FILE, csv FILE --rules RULES)"
      )
    }
    guard let source = ImportSource(rawValue: name.lowercased()) else {
      var message = "cannot import from '\(name)': expected splitwise, spliit, ihatemoney, cospend or csv"
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
    let currency = try ImportCommand.currency(arguments)
    if currency != nil, source == .splitwise {
      throw UsageError(
        "--currency is for Spliit, IHateMoney and Cospend exports (Splitwise gives a currency on every row)")
    }
    if arguments.value("--rules") != nil, source != .csv {
      throw UsageError("--rules is for csv statements (import csv FILE --rules RULES)")
    }
    if arguments.value("--settlements") != nil, source != .ihatemoney {
      throw UsageError("--settlements is for IHateMoney exports (its settlements export, beside the bills)")
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
    let today = try ReportCommand.date(arguments, "--today") ?? ReportCommand.localToday()
    if arguments.flag("--force"), arguments.value("--output") == nil { throw UsageError("--force goes with -o OUT") }
    if let output = arguments.value("--output"), path != "-", let written = FileIdentity(regularFile: output),
      written == FileIdentity(regularFile: path)
    {
      throw UsageError("-o \(output) is the export \(path): the import would replace what it reads")
    }

    let bytes: [UInt8]
    do {
      bytes = try InputFile.bytes(path)
    } catch {
      throw CommandFailure(message: error.message, code: .noInput)
    }
    var rulesFile: ImportCompanion?
    if source == .csv {
      guard let rulesPath = arguments.value("--rules") else {
        context.stdout.write(Importer.proposeRules(for: bytes, path: path))
        throw UsageError(
          "no --rules: the rules above are proposed from \(path)'s header and first rows; check them (who paid, who "
            + "shares, the date's shape), save them, and run: splitbill import csv \(path) --rules RULES")
      }
      do {
        rulesFile = ImportCompanion(path: rulesPath, bytes: try InputFile.bytes(rulesPath))
      } catch {
        throw CommandFailure(message: error.message, code: .noInput)
      }
    }
    var settlements: ImportCompanion?
    if let settlementsPath = arguments.value("--settlements") {
      do {
        settlements = ImportCompanion(path: settlementsPath, bytes: try InputFile.bytes(settlementsPath))
      } catch {
        throw CommandFailure(message: error.message, code: .noInput)
      }
    }
    let skipInvalid = arguments.flag("--skip-invalid")
    let options = ImportOptions(
      source: source, path: path, date: today, currency: currency, spliitRule: rule ?? nil, skipInvalid: skipInvalid,
      settlements: settlements, rules: rulesFile)
    let outcome: ImportOutcome
    do {
      outcome = try Importer.run(bytes, options)
    } catch {
      throw CommandFailure(message: error.message, code: error.isInternal ? .internalError : .cannotCreate)
    }
    switch outcome.status {
    case .unreadable, .empty:
      report(outcome.errors, path: path, bytes: bytes, &context)
      context.message("error: nothing imported from \(TerminalText.sanitize(path))")
      // An empty export holds nothing to import (66); one that cannot be read as an export is invalid (1).
      return outcome.status == .empty ? .noInput : .invalidBills
    case .invalid(let problems, let mismatch):
      report(shown(outcome, quiet: arguments.flag("--quiet")), path: path, bytes: bytes, &context)
      context.message(
        "error: \(problems == 1 ? "1 problem" : "\(problems) problems") in \(TerminalText.sanitize(path)); nothing was written"
          + (skipInvalid || mismatch ? "" : " (--skip-invalid leaves the invalid rows out)"))
      return .invalidBills
    case .nothingToImport:
      report(shown(outcome, quiet: arguments.flag("--quiet")), path: path, bytes: bytes, &context)
      throw CommandFailure(
        message: "\(path) holds no expense or payment to import; nothing was written", code: .noInput)
    case .imported:
      report(shown(outcome, quiet: arguments.flag("--quiet")), path: path, bytes: bytes, &context)
    }
    let yaml = outcome.yaml ?? ""
    if let output = arguments.value("--output"), output != "-" {
      do {
        // Replacing books another command may be adding to: under their lock (``BooksLock``).
        let lock = try BooksLock(books: output, command: "splitbill import")
        defer { lock.release() }
        try AtomicFile.write(to: output, overwrite: arguments.flag("--force")) { sink in sink.write(yaml) }
      } catch {
        throw CommandFailure(message: "\(error)", code: .cannotCreate)
      }
    } else {
      context.stdout.write(yaml)
    }
    if !arguments.flag("--quiet"), let summary = outcome.summary { context.message(TerminalText.sanitize(summary)) }
    return .success
  }

  /// The currency `--currency` names, if any (an ISO 4217 code, any case).
  static func currency(_ arguments: ParsedArguments) throws -> Currency? {
    try arguments.parse("--currency") { text in
      guard let code = try? Currency(code: text.uppercased()) else {
        throw UsageError("unknown currency '\(text)': expected an ISO 4217 code such as EUR, USD or JPY")
      }
      return code
    }
  }

  /// What is printed of an outcome: its errors, and unless `quiet` its warnings and notes, in file order.
  static func shown(_ outcome: ImportOutcome, quiet: Bool) -> [BillProblem] {
    quiet ? outcome.errors : outcome.problems
  }

  /// Prints issues like a compiler's diagnostics, with the export's line and a caret.
  static func report(_ issues: [BillProblem], path: String, bytes: [UInt8], _ context: inout CommandContext) {
    guard !issues.isEmpty else { return }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    for issue in issues {
      // A second file's issues (IHateMoney's settlements) name it, without the export's lines.
      let file = issue.file ?? path
      let location = issue.line.map { SourceLocation(file: file, line: $0, column: issue.column ?? 1) }
      var source: [String: [Int: String]] = [:]
      if file == path, let line = issue.line, line >= 1, line <= lines.count {
        // Up to a little past the column: the excerpt is cut around it anyway, and a line of 20 MB
        // is not made into characters whole.
        let shown = lines[line - 1].prefix((issue.column ?? 1) + 512)
        source[path] = [line: String(shown).trimmingSuffix("\r")]
      }
      context.stderr.write(
        DiagnosticFormatter.text(
          severity: issue.severity, location: location, file: file, message: issue.message, lines: source,
          color: context.colorsStderr))
    }
  }

}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
