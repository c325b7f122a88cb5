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
    let options = try InputOptions.readOptions(arguments)
    // Reading blocks its thread (the CSV pipeline): not one of the cooperative pool's.
    return try await DedicatedThread.run(&context) { context in
      try check(arguments, format: format, options: options, &context)
    }
  }

  private static func check(
    _ arguments: ParsedArguments, format: Format, options: ReadOptions, _ context: inout CommandContext
  ) throws -> ExitCode {
    let outcome = Checker.run(arguments.positionals, readOptions: options, allowEmpty: arguments.flag("--allow-empty"))
    switch outcome.status {
    case .noBillFiles(let directory): throw InputOptions.noBillFiles(in: directory)
    // Checking nothing is not a pass (unreadable inputs are listed below and exit 66 too).
    case .noBills: throw InputOptions.noBills(arguments, writes: false)
    case .checked, .unreadable: break
    }
    let diagnostics = outcome.diagnostics
    let (errors, warnings) = (outcome.errors, outcome.warnings)
    // Problems past the first of their kind, counted: errors first, as they are listed.
    let omitted =
      outcome.omittedErrors.map { (severity: Diagnostic.Severity.error, code: $0.code, count: $0.count) }
      + outcome.omittedWarnings.map { (severity: Diagnostic.Severity.warning, code: $0.code, count: $0.count) }

    switch format {
    case .text:
      let lines = SourceLines.fetch(diagnostics.compactMap(\.location), standardInput: outcome.standardInput)
      for diagnostic in diagnostics {
        context.stdout.write(DiagnosticFormatter.text(diagnostic, lines: lines, color: context.colorsStdout))
      }
      for (severity, code, count) in omitted {
        context.stdout.write(DiagnosticFormatter.omitted(count, code: code, severity: severity))
      }
      context.stdout.write(
        "checked \(plural(outcome.files, "file")), \(plural(outcome.bills, "bill"))"
          + (outcome.payments > 0 ? ", \(plural(outcome.payments, "payment"))" : "") + ": "
          + "\(plural(errors, "error")), \(plural(warnings, "warning"))\n")
    case .github:
      for diagnostic in diagnostics { context.stdout.write(DiagnosticFormatter.github(diagnostic)) }
      for (severity, code, count) in omitted {
        context.stdout.write(
          "::\(severity.rawValue)::"
            + DiagnosticFormatter.escapeData(DiagnosticFormatter.omittedText(count, code: code, severity: severity))
            + "\n")
      }
    case .json:
      let value = JSON.object([
        ("files", .int(outcome.files)),
        ("bills", .int(outcome.bills)),
        ("payments", .int(outcome.payments)),
        ("errors", .int(errors)),
        ("warnings", .int(warnings)),
        ("diagnostics", .array(diagnostics.map(DiagnosticFormatter.json))),
        (
          "omitted_warnings",
          .array(
            outcome.omittedWarnings.map { code, count in .object([("code", .string(code)), ("count", .int(count))]) })
        ),
        (
          "omitted_errors",
          .array(
            outcome.omittedErrors.map { code, count in .object([("code", .string(code)), ("count", .int(count))]) })
        ),
      ])
      value.write(to: &context.stdout)
      context.stdout.write("\n")
    }
    if outcome.status == .unreadable { return .noInput }
    if errors > 0 || (arguments.flag("--strict") && warnings > 0) { return .invalidBills }
    return .success
  }
}

/// `3 bills`, `1 bill`.
