import SplitBill
import SplitBillCore
import SplitBillFiles
import SplitBillImport
import SplitBillInput
import SplitBillReports
import SplitBillText

/// `splitbill export ihatemoney|cospend|spliit-csv BOOKS... -o FILE`: the books as a file the app imports.
enum ExportCommand {
  /// The apps, as the usage names them: `ihatemoney|cospend|spliit-csv`.
  static let apps = ExportTarget.allCases.map(\.rawValue).joined(separator: "|")

  static let command = Command(
    name: "export",
    summary: "write the books as a file IHateMoney, Cospend or Spliit imports, checked by reading it back",
    usage: "splitbill export \(apps) [PATH...] -o FILE [--currency CODE] [--force] [--today DATE] [options]",
    options: [
      .value(
        "--output", short: "-o", "FILE", "Write the file to FILE (atomically); '-' writes standard output.", files: [""]
      ),
      .flag("--force", "Replace FILE if it exists."),
      .value(
        "--currency", "CODE",
        "The currency whose bills and payments are written, when the books have several (an app's group has one)."),
      .value(
        "--today", "DATE",
        "The export's date (default: today): records without a date take it, for reproducible files."),
      .flag("--quiet", "Print nothing on stderr but errors."),
    ] + InputOptions.specs,
    details: """
      Reads the books as report does (without PATH, the current directory's bill files) and writes
      them in the format the app's own import reads: ihatemoney is IHateMoney's bills JSON
      (Settings, Import), cospend is Cospend's project CSV (Import project), spliit-csv is the
      Splitwise-layout CSV Spliit's import reads. Each bill is written with its tip and leftover
      cents in the shares, exactly as splitbill split it; what the app's format cannot hold (several
      payers or unequal shares in one bill, tips, items, ids) is folded into what it can and said on
      stderr. Before anything is written, the file is read back with splitbill's own importer of that
      app and every person's balance compared with the books': a difference is a bug (exit 70),
      and nothing is written. Invalid bills are listed and nothing is written (exit 1): a file
      without them would give other balances. See docs/export.md.
      """,
    examples: [
      "splitbill export ihatemoney samples/trip.yaml -o trip-ihatemoney.json",
      "splitbill export cospend ~/flat -o flat.csv --currency EUR",
      "splitbill export spliit-csv samples/trip.yaml -o - | head",
    ],
    run: run, operands: InputOptions.extensions, operandWords: ExportTarget.allCases.map(\.rawValue))

  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) async throws -> ExitCode {
    guard let name = arguments.positionals.first else {
      throw UsageError("name the app to export for: splitbill export \(apps) BOOKS -o FILE")
    }
    guard let target = ExportTarget(rawValue: name.lowercased()) else {
      let names = ExportTarget.allCases.map(\.rawValue)
      var message = "cannot export for '\(EchoedText.quote(name))': expected \(names.joined(separator: ", "))"
      if let guess = Spelling.suggestion(for: name.lowercased(), among: names) {
        message += "; did you mean '\(guess)'?"
      }
      throw UsageError(message)
    }
    guard let output = arguments.value("--output") else {
      throw UsageError("name the file to write: -o FILE (or -o - for standard output)")
    }
    var arguments = arguments
    arguments.positionals = Array(arguments.positionals.dropFirst())
    if arguments.positionals.isEmpty { arguments.positionals = ["."] }
    arguments = context.readingStandardInput(arguments)
    if arguments.flag("--force"), output == "-" { throw UsageError("--force is for -o FILE, not standard output") }
    if output != "-", let written = FileIdentity(regularFile: output),
      let input = arguments.positionals.first(where: { FileIdentity(regularFile: $0) == written })
    {
      throw UsageError("-o \(output) is the input \(input): the export would replace the books it reads")
    }
    let currency = try ImportCommand.currency(arguments)
    let today = try ReportCommand.date(arguments, "--today") ?? ReportCommand.localToday()
    let options = ExportOptions(
      target: target, date: today, currency: currency, reading: try InputOptions.readOptions(arguments))
    let outcome: ExportOutcome
    do {
      outcome = try await Exporter.run(arguments.positionals, options)
    } catch {
      throw ReportCommand.commandFailure(error)
    }
    ReportCommand.show(outcome.problems, &context)
    guard case .exported = outcome.status, let bytes = outcome.bytes else {
      if case .invalid(let records) = outcome.status {
        context.message(
          "error: \(plural(records, "bill or payment", "bills or payments")) could not be used (above); a file "
            + "for \(target.appName) without them would give other balances, so nothing was written")
      }
      return .invalidBills
    }
    let quiet = arguments.flag("--quiet")
    if !quiet {
      for remark in outcome.remarks {
        // The engine names no flag: the command line says which one exports another currency.
        let how = remark.code == .otherCurrency ? " (--currency CODE)" : ""
        context.message("note: " + TerminalText.sanitize(remark.message) + how)
      }
    }
    if output == "-" {
      context.stdout.write(bytes: bytes)
    } else {
      do {
        try AtomicFile.write(to: output, overwrite: arguments.flag("--force")) { sink in sink.write(bytes: bytes) }
      } catch {
        throw CommandFailure(message: "\(error)", code: .cannotCreate)
      }
    }
    if !quiet, let summary = outcome.summary {
      context.message(TerminalText.sanitize(summary + (output == "-" ? "" : " (\(output))")))
    }
    return .success
  }
}
