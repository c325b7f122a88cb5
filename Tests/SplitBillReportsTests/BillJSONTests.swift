import SplitBillInput
import SplitBillJSON
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
    ]
    members += split.jsonMembers
    members.insert(("tip_source", .string(bill.tipSource.rawValue)), at: members.count - 1)
    members.insert(("paid_by", .optional(split.payer)), at: members.count - 1)
    if let advice { members.append(("advice", .object(advice.jsonMembers))) }
    return members
  }
}
