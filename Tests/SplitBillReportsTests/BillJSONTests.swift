import SplitBillJSON
import SplitBillModel
import Testing

@testable import SplitBillCore
@testable import SplitBillReports

@Suite struct BillJSONTests {
  /// The bill's byte writer gives exactly what the JSON tree gives, whatever the bill.
  @Test func fastWriterMatchesTheTree() throws {
    var ledger = LeftoverLedger()
    let eur = Currency(unchecked: "EUR", exponent: 2)
    let shapes: [(Diners, String?, String?, TipAdvice?)] = [
      (.anonymous(count: 3), nil, nil, nil),
      (
        .named([Diner(name: "Ana", weight: Weight(tenThousandths: 15_000)), Diner(name: "Bé\"n\\")]), "Ana",
        "Dîner \u{1}\n", nil
      ),
      (
        .named([Diner(name: "李雷"), Diner(name: "Ana")]), nil, "x",
        TipAdvice(
          percent: .preset10, reason: "slow — \"meh\"", advisor: "gemini", model: "m", fallback: true,
          fallbackReason: "gemini: timeout", clamped: true)
      ),
    ]
    for (index, (diners, payer, description, advice)) in shapes.enumerated() {
      let terms = BillTerms(
        amount: Money(minorUnits: 12_345, currency: eur), tip: .percent(Percent(tenThousandths: 125_000)),
        diners: diners,
        payer: payer, leftover: .toTip)
      let bill = Bill(
        id: "id-\(index)\u{2028}", source: SourceLocation(file: "dir/\"q\".yaml", line: 3, column: 5),
        // No date; a plain one; one whose parts all need zero padding.
        date: [nil, CalendarDate(year: 2026, month: 11, day: 20), CalendarDate(year: 987, month: 1, day: 2)][index],
        description: description, terms: terms,
        tipSource: .default)
      let reported = ReportedBill(bill: bill, split: try terms.split(ledger: &ledger), advice: advice)
      var sink = StringSink()
      JSON.object(reported.jsonMembers).write(to: &sink, indent: 2)
      var fast: [UInt8] = []
      reported.appendJSON(to: &fast)
      #expect(String(decoding: fast, as: UTF8.self) == sink.text)
      expectCalcAndSuggestMatchTheTree(reported.split, advice: advice)
    }
  }

  /// Itemized bills too: items, receipt and each share's breakdown, with and without advice.
  @Test func fastWriterMatchesTheTreeForItemizedBills() throws {
    var ledger = LeftoverLedger()
    let eur = Currency(unchecked: "EUR", exponent: 2)
    func money(_ units: Int64) -> Money { Money(minorUnits: units, currency: eur) }
    let receipt = Receipt(
      items: [
        try ReceiptItem(
          name: "Wine \"rouge\"", price: money(3_200), sharers: [Diner(name: "Ana"), Diner(name: "Bé\"n")]),
        try ReceiptItem(name: "Café\u{2028}", price: money(250), quantity: Weight(tenThousandths: 30_000)),
      ], discount: .percent(.preset10), discountItems: ["Wine \"rouge\""], service: .amount(money(300)),
      tax: .percent(Percent(tenThousandths: 200_000)), taxIncluded: true, receiptTotal: nil)
    for advice in [
      nil,
      TipAdvice(
        percent: .preset10, reason: "ok", advisor: "offline", model: nil, fallback: false, fallbackReason: nil,
        clamped: false),
    ] {
      let figures = try receipt.figures(currency: eur, rounding: .halfUp)
      let terms = BillTerms(
        amount: figures.beforeTip, tip: .percent(.preset15),
        diners: .named([Diner(name: "Ana"), Diner(name: "Bé\"n")]),
        payer: "Ana", receipt: receipt)
      let bill = Bill(
        id: "r1", source: SourceLocation(file: "r.yaml", line: 1, column: 3), terms: terms, tipSource: .percent)
      let reported = ReportedBill(bill: bill, split: try terms.split(ledger: &ledger), advice: advice)
      var sink = StringSink()
      JSON.object(reported.jsonMembers).write(to: &sink, indent: 2)
      var fast: [UInt8] = []
      reported.appendJSON(to: &fast)
      #expect(String(decoding: fast, as: UTF8.self) == sink.text)
      #expect(sink.text.contains("\"breakdown\": {"))
      expectCalcAndSuggestMatchTheTree(reported.split, advice: advice)
    }
  }

  /// `calc --json` (the bill at indent 0) and `suggest --json` (the advice, then the bill one
  /// level in) are the report's bytes moved left: the same as the tree at their indentation.
  func expectCalcAndSuggestMatchTheTree(_ split: BillSplit, advice: TipAdvice?) {
    var calc = StringSink()
    JSON.object(split.jsonMembers).write(to: &calc)
    #expect(split.jsonText(level: 0) == calc.text)
    let advice =
      advice
      ?? TipAdvice(
        percent: .preset15, reason: "no cue", advisor: "offline", model: nil, fallback: false, fallbackReason: nil,
        clamped: false)
    var suggest = StringSink()
    JSON.object(advice.jsonMembers + [("bill", .object(split.jsonMembers))]).write(to: &suggest)
    #expect(advice.suggestionJSON(bill: split) == suggest.text)
    var alone = StringSink()
    JSON.object(advice.jsonMembers).write(to: &alone)
    #expect(advice.suggestionJSON(bill: nil) == alone.text)
  }
}

/// The report's bill object built as a tree, the reference the fast writer is compared with.
extension ReportedBill {
  /// The report's bill object: `calc --json`'s members plus id, source, date, description,
  /// tip_source, paid_by and, for advised tips, `advice`.
  var jsonMembers: [(String, JSON)] {
    var members: [(String, JSON)] = [
      ("id", .string(bill.id)),
      ("source", .string(bill.source.description)),
      ("date", .optional(bill.date?.description)),
      ("description", .optional(bill.description)),
      ("category", .optional(bill.category)),
    ]
    members += split.jsonMembers
    let shares = members.firstIndex { $0.0 == "shares" } ?? members.count
    members.insert(("tip_source", .string(bill.tipSource.rawValue)), at: shares)
    members.insert(("paid_by", .optional(split.payer)), at: shares + 1)
    if split.anonymousDiners {
      // A head count is in no one's balance: said after the shares, with what it means for a payer.
      var said: [(String, JSON)] = [("in_balances", .bool(false))]
      if let note = split.headCountPayerNote { said.append(("note", .string(note))) }
      members.insert(contentsOf: said, at: shares + 3)
    }
    if let advice { members.append(("advice", .object(advice.jsonMembers))) }
    return members
  }
}

// The bill object built as a tree: an encoding written apart from the byte writer, the reference
// the tests compare it with.
extension BillSplit {
  /// The bill object `calc --json` prints and every report reuses:
  /// `currency, amount, tip_percent, tip, total, leftover_policy, leftover_to_tip, shares`.
  ///
  /// Money is a decimal string in the currency's digits (`"33.34"`), `tip_percent` a decimal
  /// string without a `%` (`"17.125"`, `null` for a fixed tip on a zero amount), `weight` a JSON
  /// number and `absorbed` an integer count of minor units.
  var jsonMembers: [(String, JSON)] {
    [
      ("currency", .string(currency.code)),
      ("amount", .money(amount)),
      ("tip_percent", .optional(tipPercent?.decimalString)),
      ("tip", .money(tip)),
      ("total", .money(total)),
      ("leftover_policy", .string(leftoverPolicy.rawValue)),
      ("leftover_to_tip", .money(leftoverToTip)),
      (
        "shares",
        .array(
          shares.enumerated().map { index, share in
            var members: [(String, JSON)] = [
              ("person", .string(share.person)),
              ("weight", .number(share.weight.description)),
              ("amount", .money(share.amount)),
              ("absorbed", .int(share.absorbed)),
            ]
            if let receipt { members.append(("breakdown", receipt.breakdownJSON(index))) }
            return .object(members)
          })
      ),
    ] + (receipt.map { [("items", $0.itemsJSON), ("receipt", $0.figuresJSON)] } ?? [])
  }
}

extension ReceiptSplit {
  /// The bill's `items` array: each line's name, price, quantity, total and who shares it
  /// (`for`: `null` for every diner, else people with their weights).
  var itemsJSON: JSON {
    .array(
      receipt.items.map { item in
        .object([
          ("name", .string(item.name)),
          ("price", .money(item.price)),
          ("quantity", .number(item.quantity.description)),
          ("total", .money(item.total)),
          (
            "for",
            item.sharers.map { sharers in
              .array(
                sharers.map { .object([("person", .string($0.name)), ("weight", .number($0.weight.description))]) })
            } ?? .null
          ),
        ])
      })
  }

  /// The bill's `receipt` object: subtotal, discount (with the items it is on), service, tax,
  /// tax_included, tip_on, tip_base and receipt_total, money as decimal strings.
  var figuresJSON: JSON {
    .object([
      ("subtotal", .money(figures.subtotal)),
      ("discount", .money(figures.discount)),
      (
        "discount_rate",
        .optional(receipt.discount?.rate?.decimalString)
      ),
      ("discount_items", receipt.discountItems.map { .array($0.map(JSON.string)) } ?? .null),
      ("service", .money(figures.service)),
      (
        "service_rate",
        .optional(receipt.service?.rate?.decimalString)
      ),
      ("tax", .money(figures.tax)),
      ("tax_rate", .optional(receipt.tax?.rate?.decimalString)),
      ("tax_included", .bool(figures.taxIncluded)),
      ("before_tip", .money(figures.beforeTip)),
      ("tip_on", .string(receipt.tipOn.rawValue)),
      ("tip_base", .money(figures.tipBase)),
      ("receipt_total", receipt.receiptTotal.map(JSON.money) ?? .null),
    ])
  }

  /// A share's `breakdown`: its items, discount (zero or negative), service, tax and tip parts,
  /// which with its absorbed units add up to its amount (tax not, when included in the prices),
  /// and its `portions` of the lines it shares.
  func breakdownJSON(_ index: Int) -> JSON {
    let breakdown = breakdowns[index]
    return .object([
      ("items", .money(breakdown.items)),
      ("discount", .money(breakdown.discount)),
      ("service", .money(breakdown.service)),
      ("tax", .money(breakdown.tax)),
      ("tip", .money(breakdown.tip)),
      (
        "portions",
        .array(
          breakdown.portions.map {
            .object([("item", .string(receipt.items[$0.item].name)), ("portion", .string($0.fraction))])
          })
      ),
    ])
  }
}
