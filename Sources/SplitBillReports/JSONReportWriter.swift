import SplitBillCore
import SplitBillInput

extension ReportedBill {
  /// The report's bill object: `calc --json`'s members plus id, source, date, description,
  /// tip_source, paid_by and, for advised tips, `advice`.
  public var jsonMembers: [(String, JSON)] {
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

extension ReportedBill {
  /// Appends the bill object exactly as `JSON.object(jsonMembers)` writes it at indent 2, as
  /// UTF-8 bytes and without building the tree: this runs once per bill in every JSON report.
  func appendJSON(to out: inout [UInt8]) {
    let split = self.split
    // Each literal below is the punctuation, indentation and key between two values, appended at
    // once: a bill is a few dozen appends.
    func put(_ text: StaticString) {
      out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
    func text(_ value: String?) { if let value { JSON.appendQuoted(value, to: &out) } else { put("null") } }
    func money(_ value: Money) {
      out.append(0x22)
      DecimalText.append(value.minorUnits, scale: value.currency.exponent, to: &out)
      out.append(0x22)
    }
    func integer(_ value: Int) { DecimalText.append(Int64(value), scale: 0, to: &out) }
    put("{\n      \"id\": ")
    JSON.appendQuoted(bill.id, to: &out)
    put(",\n      \"source\": \"")
    JSON.appendEscaped(bill.source.file, to: &out)
    out.append(0x3A)
    integer(bill.source.line)
    out.append(0x3A)
    integer(bill.source.column)
    put("\",\n      \"date\": ")
    if let date = bill.date {
      out.append(0x22)
      date.appendISO(to: &out)
      out.append(0x22)
    } else {
      put("null")
    }
    put(",\n      \"description\": ")
    text(bill.description)
    put(",\n      \"currency\": ")
    JSON.appendQuoted(split.currency.code, to: &out)
    put(",\n      \"amount\": ")
    money(split.amount)
    put(",\n      \"tip_percent\": ")
    if let percent = split.tipPercent {
      out.append(0x22)
      DecimalText.appendTrimmed(percent.tenThousandths, scale: Percent.scale, to: &out)
      out.append(0x22)
    } else {
      put("null")
    }
    put(",\n      \"tip\": ")
    money(split.tip)
    put(",\n      \"total\": ")
    money(split.total)
    put(",\n      \"leftover_policy\": ")
    JSON.appendQuoted(split.leftoverPolicy.rawValue, to: &out)
    put(",\n      \"leftover_to_tip\": ")
    money(split.leftoverToTip)
    put(",\n      \"tip_source\": ")
    JSON.appendQuoted(bill.tipSource.rawValue, to: &out)
    put(",\n      \"paid_by\": ")
    text(split.payer)
    put(",\n      \"shares\": [\n")
    for (index, share) in split.shares.enumerated() {
      put("        {\n          \"person\": ")
      JSON.appendQuoted(share.person, to: &out)
      put(",\n          \"weight\": ")
      DecimalText.appendTrimmed(share.weight.tenThousandths, scale: 4, to: &out)
      put(",\n          \"amount\": ")
      money(share.amount)
      put(",\n          \"absorbed\": ")
      integer(share.absorbed)
      if index == split.shares.count - 1 { put("\n        }\n") } else { put("\n        },\n") }
    }
    guard let advice else {
      put("      ]\n    }")
      return
    }
    // Only advised bills have this: the tree is fine here.
    var object = StringSink()
    JSON.object(advice.jsonMembers).write(to: &object, indent: 3)
    put("      ],\n      \"advice\": ")
    out.append(contentsOf: object.text.utf8)
    put("\n    }")
  }
}

/// The JSON report, schema version 1, streamed: bills as they come, then the summary.
///
/// Keys: `schema_version`, `generated` (only with `--stamp`), `period`, `bills`, `invalid`,
/// `people`, `settlements`, `totals`, `filtered_out`, `reconciled`. Money is a decimal string in the
/// currency's digits; counts of minor units (`absorbed`) are integers.
public struct JSONReportWriter<Sink: OutputSink>: ReportWriter {
  private var sink: Sink
  private var count = 0

  /// Starts the document in `sink`.
  public init(sink: Sink) {
    self.sink = sink
    self.sink.write("{\n  \"schema_version\": 1,\n  \"bills\": [")
  }

  public mutating func write(_ bill: ReportedBill) {
    let separator: StaticString = count == 0 ? "\n    " : ",\n    "
    sink.append { out in
      out.append(contentsOf: UnsafeBufferPointer(start: separator.utf8Start, count: separator.utf8CodeUnitCount))
      bill.appendJSON(to: &out)
    }
    count += 1
  }

  public mutating func finish(_ summary: ReportSummary) {
    sink.write(count == 0 ? "],\n" : "\n  ],\n")
    var members: [(String, JSON)] = [
      (
        "invalid",
        .array(
          summary.invalid.map { invalid in
            .object([
              ("source", .string(invalid.source.line > 0 ? invalid.source.description : invalid.source.file)),
              ("id", .optional(invalid.id)),
              ("message", .string(invalid.diagnostics.map(\.message).joined(separator: "; "))),
            ])
          })
      ),
      (
        "people",
        .array(
          summary.people.map { person in
            .object([
              ("person", .string(person.person)),
              ("currency", .string(person.currency.code)),
              ("consumed", .money(Money(minorUnits: person.consumed, currency: person.currency))),
              ("paid", .money(Money(minorUnits: person.paid, currency: person.currency))),
              ("balance", .money(Money(minorUnits: person.balance, currency: person.currency))),
              ("absorbed", .int(person.absorbed)),
            ])
          })
      ),
      (
        "settlements",
        .array(
          summary.settlements.flatMap { settlement in
            settlement.transfers.map { transfer in
              .object([
                ("currency", .string(settlement.currency.code)),
                ("from", .string(transfer.from)),
                ("to", .string(transfer.to)),
                ("amount", .money(transfer.amount)),
              ])
            }
          })
      ),
      (
        "totals",
        .array(
          zip(summary.totals, summary.settlements).map { totals, settlement in
            let money = { (units: Int64) in JSON.money(Money(minorUnits: units, currency: totals.currency)) }
            return .object([
              ("currency", .string(totals.currency.code)),
              ("bills", .int(totals.bills)),
              ("amounts", money(totals.amounts)),
              ("tips", money(totals.tips)),
              ("totals", money(totals.totals)),
              ("shares", money(totals.shares)),
              ("paid", money(totals.paid)),
              ("balances", money(totals.balances)),
              ("absorbed", .int(totals.absorbed)),
              ("leftover_to_tip", money(totals.leftoverToTip)),
              ("anonymous_bills", .int(totals.anonymousBills)),
              ("unpaid_bills", .int(totals.unpaidBills)),
              ("settlement_method", .string(settlement.method.rawValue)),
              ("transfers", .int(settlement.transfers.count)),
            ])
          })
      ),
      ("filtered_out", .int(summary.filteredOut)),
      ("period", .optional(summary.period)),
    ]
    if let stamp = summary.stamp { members.append(("generated", .string(stamp))) }
    members.append(("reconciled", .bool(true)))
    for (index, (key, value)) in members.enumerated() {
      sink.write("  " + JSON.quote(key) + ": ")
      value.write(to: &sink, indent: 1)
      sink.write(index == members.count - 1 ? "\n}\n" : ",\n")
    }
  }
}
