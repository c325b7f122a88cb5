import Foundation
import SplitBill
import SplitBillCore
import SplitBillReports
import SplitBillText

#if canImport(Glibc)
  import Glibc
#endif

/// `splitbill add`: one bill or payment appended to a YAML or CSV file, from options or, on a
/// terminal without them, from prompts (as `hledger add` asks for a transaction).
enum AddCommand {
  static let command = Command(
    name: "add",
    summary: "append a bill or payment to a YAML or CSV file, from options or prompts",
    usage: "splitbill add FILE [--amount AMOUNT --diners NAMES --paid-by NAME ...] [--payment --from A --to B]",
    options: [
      .value("--amount", "AMOUNT", "The bill before tip (or the payment), as exact decimal text."),
      .value("--paid-by", "NAME", "Who paid; or Ana:60.00;Ben:50.59 when several did."),
      .value("--diners", "NAMES", "Who shares it: Ana,Ben,Chloé, weights as Ana=2,Ben; or a head count."),
      .value("--shares", "SHARES", "Exact shares instead of diners: Ana:12.50;Ben:7.50."),
      .value("--tip", "TIP", "A percentage (18, 18%) or 'ai'."),
      .value("--tip-amount", "AMOUNT", "A fixed tip instead of a percentage."),
      .value("--date", "DATE", "YYYY-MM-DD (default: today)."),
      .value("--description", "TEXT", "What it was for."),
      .value("--category", "CATEGORY", "Where the money went: groceries, rent, transport, ... (free text)."),
      .value("--notes", "TEXT", "Experience notes (for tip: ai), or how a payment was made."),
      .value("--id", "ID", "The record's id (default: made from the description and date, unique in the file)."),
      .value("--repeat", "RULE", "A recurring bill: month, week, year, or 'every: month; until: 2026-12-31'."),
      .flag("--payment", "Add a payment (--from, --to, --amount) instead of a bill."),
      .value("--from", "NAME", "Who paid the payment."),
      .value("--to", "NAME", "Who received it."),
      .flag("--dry-run", "Check and print the record without writing the file."),
      .flag("--strict", "Refuse the record on warnings too (a name like another, a probable duplicate)."),
    ] + InputOptions.specs.filter { $0.name != "--allow-empty" },
    details: """
      The record is written in the file's own format: YAML keeping every comment and the style of
      its items (block or one-line), CSV in its header's columns. It is checked with the whole file
      by the rules every bill is read by before anything is written; the file is then replaced
      atomically. A record with an error is refused with its located message, the file unchanged.
      A file that does not exist is made (YAML: version 1 and a bills list; CSV: a header of the
      columns given).

      Without --amount or --payment's fields, on a terminal, add asks for each field in turn:
      the default in brackets (from the file's last bill) is taken by Enter, a name is completed
      from its first letters when only one known name starts so, and each answer is checked as it
      is given. After each record it starts again; an empty first answer or Ctrl-D ends (exit 1
      when nothing was added).
      """,
    examples: [
      "splitbill add flat.yaml --amount 42.80 --diners Maya,Jonas,Ines --paid-by Maya --description Groceries",
      "splitbill add flat.csv --amount 1500 --diners Maya,Jonas,Ines --paid-by Maya --repeat month --tip 0",
      "splitbill add flat.yaml --payment --from Jonas --to Maya --amount 120",
      "splitbill add flat.yaml",
    ],
    run: run, operands: InputOptions.extensions)

  /// The options that name the record's fields, with the key each fills.
  static let fieldOptions: [(option: String, key: String)] = [
    ("--amount", "amount"), ("--paid-by", "paid_by"), ("--diners", "diners"), ("--shares", "shares"),
    ("--tip", "tip"), ("--tip-amount", "tip_amount"), ("--date", "date"), ("--description", "description"),
    ("--category", "category"),
    ("--notes", "notes"), ("--id", "id"), ("--repeat", "repeat"), ("--from", "from"), ("--to", "to"),
  ]

  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) async throws -> ExitCode {
    guard arguments.positionals.count == 1, let path = arguments.positionals.first, path != "-" else {
      throw UsageError("add takes one FILE: the YAML or CSV file to append to")
    }
    let options = try InputOptions.readOptions(arguments)
    let payment = arguments.flag("--payment")
    var values: [String: String] = [:]
    for (option, key) in fieldOptions { if let value = arguments.value(option) { values[key] = value } }
    // Options the kind does not take are mistakes, not silently dropped.
    let billOnly = [
      "--paid-by", "--diners", "--shares", "--tip", "--tip-amount", "--description", "--category", "--repeat",
    ]
    let paymentOnly = ["--from", "--to"]
    for option in payment ? billOnly : paymentOnly where arguments.value(option) != nil {
      throw UsageError(payment ? "\(option) is for bills: leave it out with --payment" : "\(option) is for --payment")
    }
    if let currency = arguments.value("--currency"), !arguments.configured.contains("--currency") {
      values["currency"] = currency
    }
    let today = CalendarDate.localToday()
    let kind: NewRecord.Kind = payment ? .payment : .bill
    let strict = arguments.flag("--strict")
    let dryRun = arguments.flag("--dry-run")
    let givesRecord = values["amount"] != nil || values["from"] != nil || values["to"] != nil
    // With --strict a warning refuses the record: it is checked first, then written.
    func add(_ record: NewRecord, _ context: inout CommandContext) throws -> ExitCode {
      if strict && !dryRun {
        let probe = Adder.add(record, to: path, options: options, today: today, dryRun: true)
        if probe.status == .added, probe.problems.contains(where: { $0.severity == "warning" }) {
          return try report(probe, kind: kind, path: path, strict: true, dryRun: true, &context)
        }
      }
      let outcome = Adder.add(record, to: path, options: options, today: today, dryRun: dryRun)
      return try report(outcome, kind: kind, path: path, strict: strict, dryRun: dryRun, &context)
    }
    if givesRecord { return try add(NewRecord(kind: kind, values: values), &context) }
    guard context.stdinIsTerminal else {
      throw UsageError(
        payment
          ? "give --from, --to and --amount (prompts need a terminal)"
          : "give at least --amount and --diners (prompts need a terminal)")
    }
    var prompter = Prompter(path: path, kind: kind, options: options, given: values)
    var added = 0
    while let record = prompter.ask() {
      // What adding says is shown at once, between the questions (the context's sinks buffer).
      var shown = context
      shown.stdout = StringSink()
      shown.stderr = StringSink()
      let code: ExitCode
      do {
        code = try add(record, &shown)
      } catch let failure as CommandFailure {
        // A record that cannot be added is said, and its answers offered again: nothing typed is lost.
        shown.message(failure.message)
        code = failure.code
      }
      for sink in [shown.stdout, shown.stderr] { prompter.say((sink as? StringSink)?.text ?? "", newline: false) }
      if code == .success { added += 1 } else { prompter.refused = record.values }
      prompter.say("")
    }
    return added > 0 ? .success : .invalidBills
  }

  /// Prints what adding did; the exit code it means.
  static func report(
    _ outcome: AddOutcome, kind: NewRecord.Kind, path: String, strict: Bool, dryRun: Bool,
    _ context: inout CommandContext
  ) throws -> ExitCode {
    for problem in outcome.problems {
      let place = [problem.file, problem.line.map(String.init), problem.column.map(String.init)]
        .compactMap { $0 }.joined(separator: ":")
      context.message("\(place): \(problem.severity): \(TerminalText.sanitize(problem.message))")
    }
    let noun = kind == .bill ? "bill" : "payment"
    switch outcome.status {
    case .failed(let message):
      throw CommandFailure(message: "cannot add to '\(path)': \(message)", code: .invalidBills)
    case .unwritable(let message):
      throw CommandFailure(message: "cannot write '\(path)': \(message)", code: .cannotCreate)
    case .refused:
      context.message("\(noun) not added: " + unchanged(path))
      return .invalidBills
    case .added:
      if strict, outcome.problems.contains(where: { $0.severity == "warning" }) {
        context.message("\(noun) not added (--strict, and a warning): " + unchanged(path))
        return .invalidBills
      }
      context.stdout.write(outcome.text)
      let id = outcome.id.map { " \($0)" } ?? ""
      context.message(dryRun ? "\(noun)\(id) checked; not written (--dry-run)" : "added \(noun)\(id) to \(path)")
      return .success
    }
  }

  /// `'flat.yaml' is unchanged`, or, of a file not made, `'flat.yaml' was not made`.
  static func unchanged(_ path: String) -> String {
    FileManager.default.fileExists(atPath: path) ? "'\(path)' is unchanged" : "'\(path)' was not made"
  }
}
