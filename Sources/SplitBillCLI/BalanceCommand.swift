import Foundation
import SplitBill
import SplitBillCore
import SplitBillJSON
import SplitBillModel
import SplitBillReports
import SplitBillText

/// `splitbill balance [NAME] [PATH...]`: who owes whom right now, for everyone or one person, in
/// a line or two (a shell prompt, a chat bot).
enum BalanceCommand {
  /// The report's options `balance` takes too: the period, settling in one currency.
  static let reportOptions = ["--since", "--until", "--week", "--last-week", "--today"]
  static let settlingOptions = ["--plan", "--keep-out", "--settle-in", "--rates", "--max-rate-age", "--cash-rounding"]

  static let command = Command(
    name: "balance",
    summary: "who owes whom right now, for everyone or one person (text or JSON)",
    usage: "splitbill balance [NAME] [PATH...] [--format text|json] [period] [--settle-in CODE] [options]",
    options: [
      .value("--format", "FORMAT", "text (default) or json.", choices: Format.allCases.map(\.rawValue))
    ] + ReportCommand.command.options.filter { (reportOptions + settlingOptions).contains($0.name) }
      + InputOptions.specs,
    details: """
      Reads the books as report does (payments, a period's opening balances, --settle-in and
      --cash-rounding apply; tip: ai bills take the offline advisor's tip) and prints each
      person's balance and the transfers that settle them; with NAME, only theirs: what they owe
      or are owed, and to or from whom. A balance is positive when others owe the person.
      The first operand is NAME unless it is an existing path, '-' or ends in .yaml, .yml, .csv
      or .tsv; without PATH the current directory's bill files are read. A NAME the books do not
      hold is an error (exit 64) with the nearest name. Invalid bills are listed on stderr and
      exit 1, with the balances of the rest.
      """,
    examples: [
      "splitbill balance samples/trip.yaml",
      "splitbill balance Ana samples/trip.yaml",
      "splitbill balance Ana samples/trip.yaml --settle-in EUR",
      "cd ~/flat && splitbill balance Maya --format json",
    ],
    run: run, operands: InputOptions.extensions)

  enum Format: String, CaseIterable {
    case text, json
  }

  /// The operands as NAME and PATHs (``command``'s details say how).
  static func operands(_ positionals: [String]) -> (name: String?, paths: [String]) {
    guard let first = positionals.first else { return (nil, ["."]) }
    let lowered = first.lowercased()
    let looksLikePath =
      first == "-" || FileManager.default.fileExists(atPath: first)
      || [".yaml", ".yml", ".csv", ".tsv"].contains { lowered.hasSuffix($0) }
    if looksLikePath { return (nil, positionals) }
    let rest = Array(positionals.dropFirst())
    return (first, rest.isEmpty ? ["."] : rest)
  }

  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) async throws -> ExitCode {
    var arguments = arguments
    let (name, paths) = operands(arguments.positionals)
    arguments.positionals = paths
    arguments = context.readingStandardInput(arguments)
    let format = try arguments.choice("--format", Format.self) ?? .text
    var options = ReportOptions(outputs: [], period: try ReportCommand.dateFilter(arguments), today: .localToday())
    try ReportCommand.settlingOptions(arguments, into: &options)
    options.reading = try InputOptions.readOptions(arguments)
    let sheet: BalanceSheet
    do {
      sheet = try await Balances.compute(arguments.positionals, options)
    } catch {
      throw ReportCommand.commandFailure(error)
    }
    ReportCommand.show(sheet.problems, &context)
    var mine: (balances: [BalanceSheet.Line], transfers: [(currency: Currency, transfer: Transfer)])?
    if let name {
      guard let found = sheet.of(name) else {
        let guess = sheet.suggestion(for: name).map { "; did you mean '\(EchoedText.quote($0))'?" } ?? ""
        let known = sheet.people.isEmpty ? "nobody" : sheet.people.map(EchoedText.quote).joined(separator: ", ")
        throw UsageError(
          "'\(EchoedText.quote(name))' is in none of the books read (\(known))\(guess)")
      }
      mine = found
    }
    switch format {
    case .text: context.stdout.write(text(sheet, name: name.map(PersonName.normalized), mine: mine))
    case .json:
      json(sheet, name: name.map(PersonName.normalized), mine: mine).write(to: &context.stdout)
      context.stdout.write("\n")
    }
    return sheet.invalid == 0 ? .success : .invalidBills
  }

  /// `12.30 EUR`.
  static func amount(_ money: Money) -> String { "\(money.decimalString) \(money.currency.code)" }

  /// Names and amounts joined as prose: `Ben 11.39 EUR and Chloé 54.56 EUR`.
  static func list(_ items: [String]) -> String { SettleUpWords.list(items) }

  /// The text answer: everyone's balances and transfers by currency, or one person's in a line a
  /// currency (`Ana owes 65.95 EUR: to Ben 11.39 EUR and Chloé 54.56 EUR`).
  static func text(
    _ sheet: BalanceSheet, name: String?,
    mine: (balances: [BalanceSheet.Line], transfers: [(currency: Currency, transfer: Transfer)])?
  ) -> String {
    let show = { (text: String) in TerminalText.sanitize(text) }
    if let name, let mine {
      let incomplete = coverageNote(sheet).map { "Incomplete: \($0); settling now would be wrong\n" } ?? ""
      guard !mine.balances.isEmpty else { return incomplete + "\(show(name)) is settled up\n" }
      var lines: [String] = []
      for line in mine.balances {
        let transfers = mine.transfers.filter { $0.currency == line.balance.currency }.map(\.transfer)
        if line.balance.minorUnits < 0 {
          let to = transfers.map { "\(show($0.to)) \(amount($0.amount))" }
          let owed = Money(minorUnits: -line.balance.minorUnits, currency: line.balance.currency)
          lines.append("\(show(name)) owes \(amount(owed))" + (to.isEmpty ? "" : ": to \(list(to))"))
          // How to pay each of them, when their people: entry says.
          for transfer in transfers {
            guard let details = sheet.paymentDetails[transfer.to],
              let how = SettleUpWords.howToPay(details, escape: show)
            else { continue }
            lines.append("  pay \(show(transfer.to)): \(how)")
          }
        } else {
          let from = transfers.map { "\(show($0.from)) \(amount($0.amount))" }
          lines.append("\(show(name)) is owed \(amount(line.balance))" + (from.isEmpty ? "" : ": from \(list(from))"))
        }
      }
      return incomplete + lines.joined(separator: "\n") + "\n"
    }
    var lines: [String] = []
    let currencies = Array(Set(sheet.balances.map(\.balance.currency))).sorted()
    for currency in currencies {
      let own = sheet.balances.filter { $0.balance.currency == currency }
      lines.append(currency.code + ":")
      var table = TextTable(alignments: [.left, .right, .left])
      for line in own {
        let state = line.balance.minorUnits > 0 ? "is owed" : line.balance.minorUnits < 0 ? "owes" : "settled up"
        table.rows.append([show(line.person), line.balance.decimalString, state])
      }
      lines += table.lines(indent: "  ", trimmed: true)
      let transfers = sheet.settlements.filter { $0.currency == currency }.flatMap(\.transfers)
      for transfer in transfers {
        lines.append("  \(show(transfer.from)) pays \(show(transfer.to)) \(amount(transfer.amount))")
      }
      if transfers.isEmpty { lines.append("  nothing to settle") }
    }
    if lines.isEmpty { lines.append("nobody owes anybody: no bill names a person") }
    if let incomplete = coverageNote(sheet) {
      lines.insert("Incomplete: \(incomplete); settling now would be wrong", at: 0)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The JSON answer: `person` (null for everyone), `balances` and `settlements` (only the
  /// person's with NAME), `bills`, `invalid`.
  static func json(
    _ sheet: BalanceSheet, name: String?,
    mine: (balances: [BalanceSheet.Line], transfers: [(currency: Currency, transfer: Transfer)])?
  ) -> JSON {
    let lines = name.map { name in sheet.balances.filter { $0.person == name } } ?? sheet.balances
    let transfers =
      mine?.transfers
      ?? sheet.settlements.flatMap { settlement in settlement.transfers.map { (settlement.currency, $0) } }
    return .object([
      ("schema_version", .int(1)),
      ("person", .optional(name)),
      (
        "balances",
        .array(
          lines.map {
            .object([
              ("person", .string($0.person)), ("currency", .string($0.balance.currency.code)),
              ("balance", .money($0.balance)),
            ])
          })
      ),
      (
        "settlements",
        .array(
          transfers.map { currency, transfer in
            // How to pay the receiver, when their people: entry says (as the report's messages).
            .object(
              [
                ("currency", .string(currency.code)), ("from", .string(transfer.from)), ("to", .string(transfer.to)),
                ("amount", .money(transfer.amount)),
              ] + JSON.paymentFields(sheet.paymentDetails[transfer.to]))
          })
      ),
      ("bills", .int(sheet.bills)),
      ("invalid", .int(sheet.invalid)),
      ("complete", .bool(sheet.invalid == 0)),
    ])
  }

  /// `from 8 bills used: 1 invalid record left out, see the errors above`, when the balances were
  /// computed without some records or inputs (``BalanceSheet/invalid`` counts both); `nil` when
  /// from all of them.
  static func coverageNote(_ sheet: BalanceSheet) -> String? {
    guard sheet.invalid > 0 else { return nil }
    let why = "\(plural(sheet.invalid, "invalid record")) left out"
    return "from \(plural(sheet.bills, "bill")) used: \(why), see the errors above"
  }
}
