import SplitBill
import SplitBillCore
import SplitBillFiles
import SplitBillInput
import SplitBillJSON
import SplitBillModel
import SplitBillReports
import SplitBillText

/// `splitbill check`: validate bill files like a compiler, for people and for CI.
enum CheckCommand {
  static let command = Command(
    name: "check",
    summary: "validate bill files (YAML, CSV) and list every problem with its position",
    usage: "splitbill check PATH... [--format text|github|json] [--strict] [options]",
    options: [
      .value(
        "--format", "FORMAT", "text (default), github (workflow commands for GitHub Actions) or json.",
        choices: Format.allCases.map(\.rawValue)),
      .flag("--strict", "Fail on warnings too (probable duplicate receipts)."),
    ] + InputOptions.specs,
    details: """
      Checks everything a report would need, without the network: syntax, keys, amounts in their
      currency's digits, tips, diners, payers, dates, ids unique across all inputs. Every problem is
      listed, not just the first. PATH may be a file, a directory (read recursively, sorted by path)
      or '-' for standard input.
      """,
    examples: [
      "splitbill check samples",
      "splitbill check samples/invalid",
      "splitbill check expenses/ --format github --strict",
      "cat bills.csv | splitbill check - --input-format csv --format json",
    ],
    run: run, operands: InputOptions.extensions)

  enum Format: String, CaseIterable {
    case text, github, json
  }

  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) async throws -> ExitCode {
    let arguments = context.readingStandardInput(arguments)
    guard !arguments.positionals.isEmpty else {
      throw UsageError("no PATH given: name bill files or directories, for example: splitbill check samples")
    }
    let format = try arguments.choice("--format", Format.self) ?? .text
    let outcome = await Checker.run(arguments.positionals, options: try InputOptions.readOptions(arguments))
    return try show(outcome, arguments, format: format, &context)
  }

  private static func show(
    _ outcome: CheckOutcome, _ arguments: ParsedArguments, format: Format, _ context: inout CommandContext
  ) throws -> ExitCode {
    switch outcome.status {
    case .noBillFiles(let directory): throw InputOptions.noBillFiles(in: directory)
    // Checking nothing is not a pass (unreadable inputs are listed below and exit 66 too).
    case .noBills: throw InputOptions.noBills(arguments, writes: false)
    case .checked, .unreadable: break
    }
    let (errors, warnings) = (outcome.errors, outcome.warnings)
    switch format {
    case .text:
      let color = context.colorsStdout
      outcome.list(color: color) { context.stdout.write($0) }
      context.stdout.write(
        "checked \(plural(outcome.files, "file")), \(plural(outcome.bills, "bill"))"
          + (outcome.payments > 0 ? ", \(plural(outcome.payments, "payment"))" : "") + ": "
          + "\(plural(errors, "error")), \(plural(warnings, "warning"))\n")
    case .github: outcome.annotations { context.stdout.write($0) }
    case .json: outcome.json { context.stdout.write($0) }
    }
    if outcome.status == .unreadable { return .noInput }
    if errors > 0 || (arguments.flag("--strict") && warnings > 0) { return .invalidBills }
    return .success
  }
}

/// `3 bills`, `1 bill`.
