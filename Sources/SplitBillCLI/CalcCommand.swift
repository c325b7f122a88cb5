import Foundation
import SplitBillCore
import SplitBillInput
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
    let decimalComma = arguments.flag("--decimal-comma")
    let currency =
      try arguments.parse("--currency") { text throws(MoneyError) in try Currency(code: text) } ?? .usd
    let receipt = try receipt(from: arguments, currency: currency)
    guard receipt != nil || !arguments.positionals.isEmpty else {
      throw UsageError("missing the bill AMOUNT, for example: splitbill calc 84.50 --tip 18 --split 3")
    }
    guard arguments.positionals.count <= 1 else {
      throw UsageError(
        "expected one AMOUNT, got \(arguments.positionals.count): \(arguments.positionals.joined(separator: " "))")
    }
    var amount: Money
    let rounding = try arguments.choice("--rounding", RoundingMode.self) ?? .halfUp
    let figures: ReceiptFigures?
    do {
      figures = try receipt?.figures(currency: currency, rounding: rounding)
    } catch {
      throw UsageError(error.description)
    }
    guard let amountText = arguments.positionals.first else {
      guard let figures else { throw UsageError("missing the bill AMOUNT") }
      return try finish(figures.beforeTip, receipt: receipt, currency: currency, rounding: rounding, arguments)
    }
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
    if let figures {
      guard amount == figures.beforeTip else {
        throw UsageError(SplitError.amountDoesNotMatchItems(amount: amount, computed: figures.beforeTip).description)
      }
      amount = figures.beforeTip
    }
    return try finish(amount, receipt: receipt, currency: currency, rounding: rounding, arguments)
  }

  /// The terms for `amount`, with the tip, diners and policies the arguments give.
  private static func finish(
    _ amount: Money, receipt: Receipt?, currency: Currency, rounding: RoundingMode, _ arguments: ParsedArguments
  ) throws(UsageError) -> BillTerms {
    let decimalComma = arguments.flag("--decimal-comma")
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
      rounding: rounding, receipt: receipt)
  }

  /// The receipt `--item` and the adjustment options describe; `nil` without `--item`.
  static func receipt(from arguments: ParsedArguments, currency: Currency) throws(UsageError) -> Receipt? {
    let decimalComma = arguments.flag("--decimal-comma")
    let lines = arguments.values["--item"] ?? []
    guard !lines.isEmpty else {
      for option in ["--discount", "--discount-items", "--service", "--tax", "--tip-on", "--receipt-total"]
      where arguments.value(option) != nil {
        throw UsageError("\(option) is for itemized bills: add their lines with --item NAME=PRICE")
      }
      if arguments.flag("--tax-included") {
        throw UsageError("--tax-included is for itemized bills: add their lines with --item NAME=PRICE")
      }
      return nil
    }
    func money(_ text: Substring, _ what: String) throws(UsageError) -> Money {
      do {
        return try Money(
          parsing: text.trimmingCharacters(in: .whitespaces), currency: currency, decimalComma: decimalComma)
      } catch {
        throw UsageError(error.message(field: what))
      }
    }
    var items: [ReceiptItem] = []
    for line in lines {
      var body = Substring(line)
      var sharers: [Diner]?
      if let at = body.lastIndex(of: "@") {
        do {
          sharers = try DinerList.diners(in: String(body[body.index(after: at)...]), decimalComma: decimalComma)
        } catch {
          throw UsageError("--item '\(line)': \(error)")
        }
        body = body[..<at]
      }
      guard let equals = body.lastIndex(of: "="), !body[..<equals].trimmingCharacters(in: .whitespaces).isEmpty else {
        throw UsageError("--item '\(line)': expected NAME=PRICE, such as 'Wine=42.00@Ana;Ben' or 'Coffee=3.50x2'")
      }
      let name = body[..<equals].trimmingCharacters(in: .whitespaces)
      var priceText = body[body.index(after: equals)...]
      var quantity = Weight.one
      if let times = priceText.lastIndex(where: { $0 == "x" || $0 == "*" }) {
        do throws(SplitError) {
          quantity = try Weight(parsing: priceText[priceText.index(after: times)...], decimalComma: decimalComma)
        } catch {
          throw UsageError("--item '\(line)': quantity: " + error.description)
        }
        priceText = priceText[..<times]
      }
      let price = try money(priceText, "price")
      do throws(SplitError) {
        items.append(try ReceiptItem(name: name, price: price, quantity: quantity, sharers: sharers))
      } catch {
        throw UsageError("--item '\(line)': " + error.description)
      }
    }
    func adjustment(_ option: String) throws(UsageError) -> Adjustment? {
      guard let text = arguments.value(option)?.trimmingCharacters(in: .whitespaces) else { return nil }
      do throws(AdjustmentError) {
        return try Adjustment(parsing: text, currency: currency, decimalComma: decimalComma)
      } catch {
        switch error {
        case .percent: throw UsageError("\(option) '\(text)' is not a percentage from 0 to 100 such as 10%")
        case .amount(let error): throw UsageError(error.message(field: option))
        }
      }
    }
    let discountItems = arguments.value("--discount-items").map { text in
      text.split(whereSeparator: { $0 == ";" || $0 == "," }).map { $0.trimmingCharacters(in: .whitespaces) }
    }
    return Receipt(
      items: items, discount: try adjustment("--discount"), discountItems: discountItems,
      service: try adjustment("--service"), tax: try adjustment("--tax"), taxIncluded: arguments.flag("--tax-included"),
      tipOn: try arguments.choice("--tip-on", TipBase.self) ?? .pretax,
      receiptTotal: try arguments.value("--receipt-total").map { text throws(UsageError) in
        try money(Substring(text), "receipt total")
      })
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
