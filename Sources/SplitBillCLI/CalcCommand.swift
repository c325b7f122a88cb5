import SplitBillCore
import SplitBillInput
import SplitBillJSON
import SplitBillReports

/// `splitbill calc`: the original app's single-bill screen as a command.
enum CalcCommand {
  static let command = Command(
    name: "calc",
    summary: "work out one bill: tip, total, each person's share and who absorbs leftover cents",
    usage: "splitbill calc AMOUNT [--tip PERCENT | --tip-amount AMOUNT] [--split N | --people NAMES] [options]",
    options: [
      .value("--tip", "PERCENT", "Tip percentage: 10, 15, 20 (the presets) or any value such as 12.5 or 18%."),
      .value("--tip-amount", "AMOUNT", "A fixed tip instead of a percentage."),
      .value("--split", "N", "Split among N anonymous people (Diner 1 … Diner N). Default 1."),
      .value(
        "--people", "NAMES",
        "Split among named people: Ana,Ben,Chloé; weights as Ana=2,Ben=1 (the CSV diners grammar: ; or , between names, : or = before a weight)."
      ),
      .value("--payer", "NAME", "Who paid (needed by --leftover payer)."),
      .value("--currency", "CODE", "ISO 4217 currency code. Default USD."),
      .value(
        "--leftover", "POLICY", "Who absorbs leftover units: balanced (default), remainder, first, payer, to-tip.",
        choices: LeftoverPolicy.allCases.map(\.rawValue)),
      .value(
        "--rounding", "MODE", "How a percentage tip is rounded: half-up (default), half-even, up, down.",
        choices: RoundingMode.allCases.map(\.rawValue)),
      .flag("--decimal-comma", "Read amounts written as 84,50."),
      .flag("--json", "Print one JSON object instead of the table."),
      .flag("--interactive", short: "-i", "Open the calculator screen in the terminal; the options fill it in."),
    ] + AdvisorOptions.specs(section: "Tip advice in interactive mode (--interactive)"),
    details: """
      The tip is exactly one of --tip or --tip-amount; giving none is an error, not a silent default.
      Each share is the floor of its exact part of the total; the leftover units go one each to the
      diners the --leftover policy picks, and the output names who absorbed them.
      """,
    examples: [
      "splitbill calc 84.50 --tip 18 --split 3",
      "splitbill calc 84.50 --tip 15% --people Ana,Ben,Chloé --currency EUR",
      "splitbill calc 10000 --currency JPY --tip-amount 500 --people Ana=2,Ben=1 --leftover remainder",
      "splitbill calc 100 --tip 0 --split 3 --json",
      "splitbill calc --interactive",
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) async throws -> ExitCode {
    if arguments.flag("--interactive") { return try await InteractiveCalc.run(arguments, &context) }
    let terms = try terms(from: arguments)
    var ledger = LeftoverLedger()
    let split: BillSplit
    do {
      split = try terms.split(ledger: &ledger)
    } catch {
      throw UsageError(error.description)
    }
    if arguments.flag("--json") {
      JSON.object(split.jsonMembers).write(to: &context.stdout)
      context.stdout.write("\n")
    } else {
      context.stdout.write(split.text)
    }
    return .success
  }

  /// The bill the arguments describe; every mistake names its option.
  static func terms(from arguments: ParsedArguments) throws(UsageError) -> BillTerms {
    guard let amountText = arguments.positionals.first else {
      throw UsageError("missing the bill AMOUNT, for example: splitbill calc 84.50 --tip 18 --split 3")
    }
    guard arguments.positionals.count == 1 else {
      throw UsageError(
        "expected one AMOUNT, got \(arguments.positionals.count): \(arguments.positionals.joined(separator: " "))")
    }
    let decimalComma = arguments.flag("--decimal-comma")
    let currency =
      try arguments.parse("--currency") { text throws(MoneyError) in try Currency(code: text) } ?? .usd
    let amount: Money
    // `84,50`: a decimal comma is the likelier reading than a thousands separator; say so first.
    if !decimalComma, let comma = amountText.firstIndex(of: ","), !amountText.contains("."),
      amountText[amountText.index(after: comma)...].count <= 2,
      amountText.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ",") })
    {
      throw UsageError(
        "decimal comma? amount '\(amountText)': use --decimal-comma to read it so, or write \(amountText.replacingOccurrences(of: ",", with: "."))"
      )
    }
    do {
      amount = try Money(parsing: amountText, currency: currency, decimalComma: decimalComma)
    } catch {
      throw UsageError(error.message(field: "amount"))
    }
    let percent = try arguments.parse("--tip") { text in
      switch try TipText.parsing(text, decimalComma: decimalComma) {
      case .percent(let percent): return percent
      case .advisor: throw UsageError("'ai' tips are for bill files; give a percentage such as 15")
      }
    }
    let fixed = try arguments.parse("--tip-amount") { text in
      do throws(MoneyError) {
        return try Money(parsing: text, currency: currency, decimalComma: decimalComma)
      } catch {
        throw UsageError(error.message(field: "tip amount"))
      }
    }
    let choice: TipChoice?
    do {
      choice = try TipChoice.resolve(percent: percent, fixed: fixed, askAdvisor: false)
    } catch {
      throw UsageError("give either --tip or --tip-amount, not both")
    }
    guard let choice else {
      throw UsageError("no tip given: add --tip PERCENT (for example --tip 15) or --tip-amount AMOUNT")
    }
    let diners = try diners(from: arguments)
    return BillTerms(
      amount: amount, tip: choice, diners: diners, payer: arguments.value("--payer"),
      leftover: try arguments.choice("--leftover", LeftoverPolicy.self) ?? .balanced,
      rounding: try arguments.choice("--rounding", RoundingMode.self) ?? .halfUp)
  }

  /// The diners `--people` or `--split` name (one anonymous person when neither is given).
  static func diners(from arguments: ParsedArguments) throws(UsageError) -> Diners {
    if arguments.value("--split") != nil && arguments.value("--people") != nil {
      throw UsageError("give either --split N or --people NAMES, not both")
    }
    if let people = try arguments.parse(
      "--people",
      { text throws(DinerList.Problem) in
        try DinerList.diners(in: text, decimalComma: arguments.flag("--decimal-comma"))
      })
    {
      return .named(people)
    }
    let count = try arguments.parse("--split") { text in
      guard let count = Int(text), count > 0 else {
        throw UsageError("'\(text)' is not a number of people: expected a whole number of at least 1")
      }
      return count
    }
    return .anonymous(count: count ?? 1)
  }
}
