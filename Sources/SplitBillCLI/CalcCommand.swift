import Foundation
import SplitBill
import SplitBillCore
import SplitBillJSON
import SplitBillReports

/// `splitbill calc`: the original app's single-bill screen as a command.
enum CalcCommand {
  static let command = Command(
    name: "calc",
    summary: "work out one bill: tip, total, each person's share and who absorbs leftover cents",
    usage:
      "splitbill calc AMOUNT [--tip PERCENT | --tip-amount AMOUNT] [--split N | --people NAMES] [options]\n"
      + "       splitbill calc --item NAME=PRICE[xQTY][@NAMES]... [--tax RATE%] [--tip PERCENT] [options]",
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
      .value(
        "--item", "NAME=PRICE[xQTY][@NAMES]", repeatable: true,
        "An itemized bill's line (repeatable): 'Wine=42.00@Ana;Ben', 'Coffee=3.50x2'; without @, every person shares it. AMOUNT is then optional (checked when given)."
      ).under("Itemized bills"),
      .value(
        "--discount", "RATE%|AMOUNT", "Off the items before tax: 10% or 5.00."
      ).under("Itemized bills"),
      .value(
        "--discount-items", "NAMES", "The items the discount is on (Wine;Dessert); default every item."
      ).under("Itemized bills"),
      .value("--service", "RATE%|AMOUNT", "A service charge on the subtotal after discount.").under("Itemized bills"),
      .value("--tax", "RATE%|AMOUNT", "Tax on the subtotal after discount and service.").under("Itemized bills"),
      .flag("--tax-included", "The prices include the tax (VAT): it is reported, not added.").under("Itemized bills"),
      .value(
        "--tip-on", "BASE", "What a percentage tip is on: subtotal, pretax (default) or total.",
        choices: TipBase.allCases.map(\.rawValue)
      ).under("Itemized bills"),
      .value(
        "--receipt-total", "AMOUNT", "The receipt's printed total, checked before the tip or with it."
      ).under("Itemized bills"),
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
      "splitbill calc --people Ana,Ben,Cy --item 'Pizza=18.00@Ana;Ben' --item 'Wine=9.00x3' --tax 8.875% --tip 20",
      "splitbill calc --interactive",
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) async throws -> ExitCode {
    if arguments.flag("--interactive") { return try await InteractiveCalc.run(arguments, &context) }
    let split: BillSplit
    do {
      split = try Calculator.split(try request(from: arguments))
    } catch let failure as CalcFailure {
      throw UsageError(failure.text.commandLine)
    }
    context.stdout.write(arguments.flag("--json") ? Calculator.json(of: split) + "\n" : Calculator.text(of: split))
    return .success
  }

  /// The bill the arguments describe, for the engine (``Calculator``), which names each mistake's option.
  static func request(from arguments: ParsedArguments) throws(UsageError) -> CalcRequest {
    guard arguments.positionals.count <= 1 else {
      throw UsageError(
        "expected one AMOUNT, got \(arguments.positionals.count): \(arguments.positionals.joined(separator: " "))")
    }
    var request = CalcRequest()
    request.amount = arguments.positionals.first
    request.tip = arguments.value("--tip")
    request.tipAmount = arguments.value("--tip-amount")
    request.split = arguments.value("--split")
    request.people = arguments.value("--people")
    request.payer = arguments.value("--payer")
    request.currency = arguments.value("--currency")
    request.leftover = try arguments.choice("--leftover", LeftoverPolicy.self)
    request.rounding = try arguments.choice("--rounding", RoundingMode.self)
    request.decimalComma = arguments.flag("--decimal-comma")
    request.items = arguments.values["--item"] ?? []
    request.discount = arguments.value("--discount")
    request.discountItems = arguments.value("--discount-items")
    request.service = arguments.value("--service")
    request.tax = arguments.value("--tax")
    request.taxIncluded = arguments.flag("--tax-included")
    request.tipOn = try arguments.choice("--tip-on", TipBase.self)
    request.receiptTotal = arguments.value("--receipt-total")
    return request
  }

  /// The diners `--people` or `--split` name (one anonymous person when neither is given).
  static func diners(from arguments: ParsedArguments) throws(UsageError) -> Diners {
    do {
      return try Calculator.diners(
        people: arguments.value("--people"), split: arguments.value("--split"),
        decimalComma: arguments.flag("--decimal-comma"))
    } catch {
      throw UsageError(error.text.commandLine)
    }
  }
}
