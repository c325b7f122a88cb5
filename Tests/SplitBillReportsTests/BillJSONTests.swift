import SplitBillJSON
import SplitBillModel
import Testing

@testable import SplitBillCore
@testable import SplitBillReports

@Suite struct BillJSONTests {
  /// The report's fast bill writer gives exactly what the JSON tree gives, whatever the bill.
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
    }
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
    if let advice { members.append(("advice", .object(advice.jsonMembers))) }
    return members
  }
}
