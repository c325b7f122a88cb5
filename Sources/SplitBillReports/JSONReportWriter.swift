@_spi(ByteWriters) import SplitBillBytes
@_spi(ByteWriters) import SplitBillCore
@_spi(ByteWriters) import SplitBillJSON
import SplitBillModel

extension ReportedBill {
  /// Appends the bill object: `calc --json`'s members (``BillSplit/appendJSON(to:)``) plus id,
  /// source, date, description, category, tip_source, paid_by (or payers), for a bill of a head
  /// count `in_balances: false` (and, when somebody paid it, a `note` that the payer is not paid
  /// back), and for advised tips `advice`, as `JSON.object` writes them at indent 2, as UTF-8 bytes and without building the
  /// tree: this runs once per bill in every JSON report.
  ///
  /// `file` is the bill's source path already escaped, which a report's bills nearly all share;
  /// by default it is escaped here.
  func appendJSON(to out: inout [UInt8], file: EscapedPath? = nil) {
    let file = file.flatMap { $0.file == bill.source.sourceFile ? $0 : nil } ?? EscapedPath(bill.source.sourceFile)
    let split = self.split
    var room = split.jsonRoom + JSON.maximumEscapedLength(bill.id) + file.escaped.count
    if let description = bill.description { room += JSON.maximumEscapedLength(description) }
    if let category = bill.category { room += JSON.maximumEscapedLength(category) }
    if let payer = split.payer { room += JSON.maximumEscapedLength(payer) }
    if split.hasSeveralPayers {
      for part in split.payers { room += 128 + JSON.maximumEscapedLength(part.person) }
    }
    let breakdowns = split.breakdownsJSON
    out.append(atMost: room + breakdowns.room) { out in
      out.write("{\n      \"id\": \"")
      JSON.writeEscaped(bill.id, to: &out)
      out.write("\",\n      \"source\": \"")
      out.write(bytes: file.escaped)
      out.write(0x3A)
      BillSplit.writeInteger(bill.source.line, to: &out)
      out.write(0x3A)
      BillSplit.writeInteger(bill.source.column, to: &out)
      if let date = bill.date {
        out.write("\",\n      \"date\": \"")
        date.writeISO(to: &out)
        out.write("\",\n      \"description\": ")
      } else {
        out.write("\",\n      \"date\": null,\n      \"description\": ")
      }
      BillSplit.writeText(
        bill.description, then: "\",\n      \"category\": ", orNull: "null,\n      \"category\": ", to: &out)
      BillSplit.writeText(
        bill.category, then: "\",\n      \"currency\": \"", orNull: "null,\n      \"currency\": \"", to: &out)
      split.writeFigures(to: &out)
      out.write("\",\n      \"tip_source\": \"")
      out.write(utf8: bill.tipSource.rawValue)
      out.write("\",\n      \"paid_by\": ")
      if split.hasSeveralPayers {
        // Several payers: paid_by is null, payers says who paid what.
        out.write("null,\n      \"payers\": [\n")
        for (index, part) in split.payers.enumerated() {
          out.write("        {\n          \"person\": \"")
          JSON.writeEscaped(part.person, to: &out)
          out.write("\",\n          \"amount\": \"")
          BillSplit.writeMoney(part.amount, to: &out)
          out.write(index == split.payers.count - 1 ? "\"\n        }\n" : "\"\n        },\n")
        }
        out.write("      ],\n      \"shares\": [\n")
      } else {
        BillSplit.writeText(
          split.payer, then: "\",\n      \"shares\": [\n", orNull: "null,\n      \"shares\": [\n", to: &out)
      }
      split.writeShares(to: &out, breakdowns: breakdowns.bytes)
      out.write(advice == nil && split.itemizedReceipt == nil && !split.anonymousDiners ? "      ]\n    }" : "      ]")
    }
    if split.anonymousDiners {
      // A head count: in no one's balance, and, when somebody paid, what that means for them.
      let note = split.headCountPayerNote
      out.append(atMost: 256 + (note.map(JSON.maximumEscapedLength) ?? 0)) { out in
        out.write(",\n      \"in_balances\": false")
        if let note {
          out.write(",\n      \"note\": \"")
          JSON.writeEscaped(note, to: &out)
          out.write(0x22)
        }
        if advice == nil && split.itemizedReceipt == nil { out.write("\n    }") }
      }
    }
    split.appendReceiptJSON(to: &out)
    guard let advice else {
      if split.itemizedReceipt != nil { out.append(contentsOf: "\n    }".utf8) }
      return
    }
    out.append(contentsOf: ",\n      \"advice\": ".utf8)
    // Only advised bills have this: the tree is fine here.
    var object = StringSink()
    JSON.object(advice.jsonMembers).write(to: &object, indent: 3)
    out.append(contentsOf: object.text.utf8)
    out.append(contentsOf: "\n    }".utf8)
  }
}

extension BillSplit {
  /// Appends the bill object `calc --json` prints, as UTF-8 bytes at a report's indentation
  /// (indent 2: its members six spaces in): `currency, amount, tip_percent, tip, total,
  /// leftover_policy, leftover_to_tip, shares` (each share's `person, weight, amount, absorbed`,
  /// its `part` on a bill of exact shares, its `breakdown` on an itemized one), then an itemized
  /// bill's `items` and `receipt`.
  ///
  /// Money is a decimal string in the currency's digits (`"33.34"`), `tip_percent` a decimal
  /// string without a `%` (`"17.125"`, `null` for a fixed tip on a zero amount), `weight` a JSON
  /// number and `absorbed` an integer count of minor units. A report's bill object
  /// (``ReportedBill/appendJSON(to:file:)``) is written of the same parts.
  func appendJSON(to out: inout [UInt8]) {
    let breakdowns = breakdownsJSON
    out.append(atMost: jsonRoom + breakdowns.room) { out in
      out.write("{\n      \"currency\": \"")
      writeFigures(to: &out)
      out.write("\",\n      \"shares\": [\n")
      writeShares(to: &out, breakdowns: breakdowns.bytes)
      out.write(itemizedReceipt == nil ? "      ]\n    }" : "      ]")
    }
    guard itemizedReceipt != nil else { return }
    appendReceiptJSON(to: &out)
    out.append(contentsOf: "\n    }".utf8)
  }

  /// The receipt of an itemized bill, else `nil`.
  var itemizedReceipt: ReceiptSplit? { isItemized ? receipt : nil }

  /// Room for the worst case of the members ``writeFigures(to:)`` and ``writeShares(to:breakdowns:)``
  /// write: the literals, numbers, and every name escaped six bytes a byte.
  var jsonRoom: Int {
    var room = 2_048
    for share in shares { room += 256 + JSON.maximumEscapedLength(share.person) }
    return room
  }

  /// An itemized bill's share breakdowns, written apart (they are few) before the fixed part,
  /// and the room they take in it.
  var breakdownsJSON: (bytes: [[UInt8]], room: Int) {
    guard let receipt = itemizedReceipt else { return ([], 0) }
    let bytes = shares.indices.map { index in
      var writer = ReceiptJSONWriter(out: [])
      writer.breakdown(receipt, index, level: 5)
      return writer.out
    }
    return (bytes, bytes.reduce(0) { $0 + $1.count + 32 })
  }

  /// The currency's code (its opening quote already written) to `leftover_to_tip`'s value (its
  /// closing quote not yet written).
  func writeFigures(to out: inout ByteCursor) {
    currency.writeCode(to: &out)
    out.write("\",\n      \"amount\": \"")
    Self.writeMoney(amount, to: &out)
    if let percent = tipPercent {
      out.write("\",\n      \"tip_percent\": \"")
      DecimalText.writeTrimmed(percent.tenThousandths, scale: Percent.scale, to: &out)
      out.write("\",\n      \"tip\": \"")
    } else {
      out.write("\",\n      \"tip_percent\": null,\n      \"tip\": \"")
    }
    Self.writeMoney(tip, to: &out)
    out.write("\",\n      \"total\": \"")
    Self.writeMoney(total, to: &out)
    out.write("\",\n      \"leftover_policy\": \"")
    // A choice's name: letters and hyphens, nothing to escape.
    out.write(utf8: leftoverPolicy.rawValue)
    out.write("\",\n      \"leftover_to_tip\": \"")
    Self.writeMoney(leftoverToTip, to: &out)
  }

  /// The shares' objects, after `"shares": [` and its line break, up to the array's closing
  /// bracket (not written).
  func writeShares(to out: inout ByteCursor, breakdowns: [[UInt8]]) {
    for (index, share) in shares.enumerated() {
      out.write("        {\n          \"person\": \"")
      JSON.writeEscaped(share.person, to: &out)
      out.write("\",\n          \"weight\": ")
      // Exact shares' weights are their parts (below): their weight is 1.
      DecimalText.writeTrimmed(exactShares ? 10_000 : share.weight.tenThousandths, scale: 4, to: &out)
      out.write(",\n          \"amount\": \"")
      Self.writeMoney(share.amount, to: &out)
      out.write("\",\n          \"absorbed\": ")
      Self.writeInteger(share.absorbed, to: &out)
      if let part = part(of: share) {
        out.write(",\n          \"part\": \"")
        Self.writeMoney(part, to: &out)
        out.write(0x22)
      }
      if !breakdowns.isEmpty {
        out.write(",\n          \"breakdown\": ")
        out.write(bytes: breakdowns[index])
      }
      if index == shares.count - 1 {
        out.write("\n        }\n")
      } else {
        out.write("\n        },\n")
      }
    }
  }

  /// An itemized bill's `items` and `receipt` members, after the shares' closing bracket (the
  /// object's closing brace not written).
  func appendReceiptJSON(to out: inout [UInt8]) {
    guard let receipt = itemizedReceipt else { return }
    var writer = ReceiptJSONWriter(out: [])
    swap(&writer.out, &out)
    writer.out.append(contentsOf: ",\n      \"items\": ".utf8)
    writer.items(receipt.receipt, level: 3)
    writer.out.append(contentsOf: ",\n      \"receipt\": ".utf8)
    writer.figures(receipt, level: 3)
    swap(&writer.out, &out)
  }

  /// A string value and what follows it (the closing quote first), or `null` and what follows.
  static func writeText(
    _ value: String?, then next: StaticString, orNull nullNext: StaticString, to out: inout ByteCursor
  ) {
    if let value {
      out.write(0x22)
      JSON.writeEscaped(value, to: &out)
      out.write(next)
    } else {
      out.write(nullNext)
    }
  }

  static func writeMoney(_ value: Money, to out: inout ByteCursor) {
    DecimalText.write(value.minorUnits, scale: value.currency.exponent, to: &out)
  }

  static func writeInteger(_ value: Int, to out: inout ByteCursor) {
    DecimalText.write(Int64(value), scale: 0, to: &out)
  }
}

extension BillSplit {
  /// The bill object as `calc --json` (`level` 0) and `suggest --json` (1: its `bill`) print
  /// it: ``appendJSON(to:)``'s bytes with each line after the first moved left to
  /// the level's indentation. A JSON string holds no line break, so every one is the layout's.
  package func jsonText(level: Int) -> String {
    precondition((0...2).contains(level), "a bill object is written at indent 0, 1 or 2")
    var written: [UInt8] = []
    appendJSON(to: &written)
    let surplus = 2 * (2 - level)
    var text: [UInt8] = []
    text.reserveCapacity(written.count)
    var toDrop = 0
    for byte in written {
      if byte == 0x0A {
        toDrop = surplus
      } else if toDrop > 0, byte == 0x20 {
        toDrop -= 1
        continue
      } else {
        toDrop = 0
      }
      text.append(byte)
    }
    return String(decoding: text, as: UTF8.self)
  }
}

/// A source file's path as it stands inside a JSON string.
struct EscapedPath {
  let file: SourceFile
  let escaped: [UInt8]

  init(_ file: SourceFile) {
    self.file = file
    var escaped: [UInt8] = []
    JSON.appendEscaped(file.path, to: &escaped)
    self.escaped = escaped
  }
}

/// The JSON report, schema version 1, streamed: bills as they come, then the summary.
///
/// Keys: `schema_version`, `generated` (only with `--stamp`), `period`, `bills`, `invalid`,
/// `people` (with `opening` and `closing` balances), `payments`, `settlements` (of the closing
/// balances), `totals`, `categories` (spending by category of the period, per currency, the bills
/// without a category as `"category": null`; empty when no bill has one), `filtered_out` (records
/// after the period), `reconciled`; with `--settle-in`, `conversion` (its `categories` in the
/// settlement currency). Money is a decimal string in the currency's digits; counts of minor units
/// (`absorbed`) are integers.
package struct JSONReportWriter<Sink: OutputSink>: ReportWriter {
  private var sink: Sink
  private var count = 0
  /// The last bill's source path, escaped.
  private var file: EscapedPath?

  /// Starts the document in `sink`.
  package init(sink: Sink) {
    self.sink = sink
    self.sink.write("{\n  \"schema_version\": 1,\n  \"bills\": [")
  }

  package mutating func write(_ bill: ReportedBill) {
    let separator: StaticString = count == 0 ? "\n    " : ",\n    "
    if file?.file != bill.bill.source.sourceFile { file = EscapedPath(bill.bill.source.sourceFile) }
    sink.append { out in
      out.append(atMost: 8) { $0.write(separator) }
      bill.appendJSON(to: &out, file: file)
    }
    count += 1
  }

  /// The `conversion` object: the currency, the rates used, each person's converted balance (with
  /// its parts by currency) and the units each absorbed.
  /// Spending by category: each category's currency, bills, total and each person's part.
  static func categories(_ categories: [CategoryTotals]) -> JSON {
    .array(
      categories.map { category in
        let money = { (units: Int64) in JSON.money(Money(minorUnits: units, currency: category.currency)) }
        return .object([
          ("category", .optional(category.category)),
          ("currency", .string(category.currency.code)),
          ("bills", .int(category.bills)),
          ("total", money(category.total)),
          (
            "people",
            .array(
              category.people.map { .object([("person", .string($0.person)), ("consumed", money($0.consumed))]) })
          ),
        ])
      })
  }

  static func conversion(_ conversion: Conversion, categories: [CategoryTotals]?) -> JSON {
    var members: [(String, JSON)] = [
      ("currency", .string(conversion.currency.code)),
      ("rounding", .string("half-even")),
      (
        "rates",
        .array(
          conversion.rates.map { used in
            .object([
              ("base", .string(used.rate.base.code)),
              ("quote", .string(used.rate.quote.code)),
              ("rate", .string(used.rate.rate.description)),
              ("date", .optional(used.rate.date.map { "\($0)" })),
              ("source", .string(used.rate.origin)),
              ("records", .int(used.records)),
            ])
          })
      ),
      (
        "balances",
        .array(
          conversion.balances.map { person in
            .object([
              ("person", .string(person.person)),
              ("balance", .money(person.balance)),
              ("absorbed", .int(person.absorbed)),
              (
                "parts",
                .array(
                  person.parts.map { part in
                    .object([
                      ("currency", .string(part.original.currency.code)),
                      ("balance", .money(part.original)),
                      ("converted", .money(part.converted)),
                    ])
                  })
              ),
            ])
          })
      ),
      (
        "absorbed",
        .array(
          conversion.balances.filter { $0.absorbed != 0 }.map { person in
            .object([
              ("person", .string(person.person)), ("units", .int(person.absorbed)),
              ("amount", .money(Money(minorUnits: Int64(person.absorbed), currency: conversion.currency))),
            ])
          })
      ),
      ("converted_records", .int(conversion.converted)),
      ("unconverted_records", .int(conversion.unconverted)),
    ]
    if let categories { members.append(("categories", Self.categories(categories))) }
    return .object(members)
  }

  package mutating func finish(_ summary: ReportSummary) {
    sink.write(count == 0 ? "],\n" : "\n  ],\n")
    let beforePayments: [(String, JSON)] = [
      (
        "invalid",
        .array(
          summary.invalid.map { invalid in
            .object([
              ("source", .string(invalid.shownSource)),
              ("id", .optional(invalid.id)),
              ("message", .string(invalid.diagnostics.map(\.message).joined(separator: "; "))),
              ("codes", .array(invalid.diagnostics.map { .string($0.code) })),
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
              ("sent", .money(Money(minorUnits: person.sent, currency: person.currency))),
              ("received", .money(Money(minorUnits: person.received, currency: person.currency))),
              ("opening", .money(Money(minorUnits: person.opening, currency: person.currency))),
              ("closing", .money(Money(minorUnits: person.closing, currency: person.currency))),
            ])
          })
      ),
    ]
    for (key, value) in beforePayments { writeMember(key) { value.write(to: &$0, indent: 1) } }
    // Payments can be many (a long run's): each is made into JSON only as it is written.
    writeMember("payments") { sink in
      JSON.writeArray(summary.payments, to: &sink, indent: 1) { record in
        .object([
          ("id", .string(record.id)),
          ("source", .string(record.source.description)),
          ("date", .optional(record.date?.description)),
          ("from", .string(record.payment.from)),
          ("to", .string(record.payment.to)),
          ("amount", .money(record.payment.amount)),
          ("currency", .string(record.payment.currency.code)),
          ("notes", .optional(record.notes)),
        ])
      }
    }
    let byPerson = SettleUpWords.transfersByPerson(summary)
    var afterPayments: [(String, JSON)] = [
      (
        "messages",
        .array(
          SettleUpWords.paragraphs(summary, escape: { $0 }).map { person, text in
            let transfers = byPerson[person] ?? []
            func list(_ paying: Bool) -> JSON {
              .array(
                transfers.filter { ($0.0.from == person) == paying }.map { transfer, currency in
                  // How to pay them, when their people: entry says.
                  .object(
                    [
                      (paying ? "to" : "from", .string(paying ? transfer.to : transfer.from)),
                      ("amount", .money(transfer.amount)), ("currency", .string(currency.code)),
                    ] + JSON.paymentFields(paying ? summary.payees[transfer.to] : nil))
                })
            }
            return .object([
              ("person", .string(person)), ("text", .string(text)), ("pays", list(true)), ("gets", list(false)),
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
          summary.totals.map { totals in
            // With --settle-in, a currency is settled only through the conversion.
            let settlement =
              summary.settlements.first { $0.currency == totals.currency }
              ?? Settlement(currency: totals.currency, method: .minimal, transfers: [])
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
              ("payments", .int(totals.payments)),
              ("payments_amount", money(totals.paymentsAmount)),
              ("carried", .int(totals.carried)),
              (
                "settlement_method",
                .string(
                  summary.conversion.map { $0.currency == totals.currency } == false
                    ? "converted" : settlement.method.rawValue)
              ),
              ("transfers", .int(settlement.transfers.count)),
            ])
          })
      ),
      ("categories", Self.categories(summary.categories)),
      ("filtered_out", .int(summary.filteredOut)),
      ("period", .optional(summary.period)),
    ]
    if let explanation = summary.explanation {
      // `--explain`: the rows behind the balance of everyone in a transfer.
      afterPayments.append(
        (
          "explanation",
          .array(
            explanation.balances(for: summary).map { balance in
              let money = { (units: Int64) in JSON.money(Money(minorUnits: units, currency: balance.currency)) }
              return .object([
                ("person", .string(balance.person)), ("currency", .string(balance.currency.code)),
                ("opening", money(balance.opening)),
                (
                  "rows",
                  .array(
                    balance.rows.map { row in
                      .object([
                        ("record", .string(row.record)), ("date", row.date.isEmpty ? .null : .string(row.date)),
                        ("kind", .string(row.isPayment ? "payment" : "bill")), ("paid", money(row.paid)),
                        ("share", money(row.share)), ("balance", money(row.running)),
                      ])
                    })
                ),
                ("closing", money(balance.closing)),
              ])
            })
        ))
    }
    if let conversion = summary.conversion {
      afterPayments.append(("conversion", Self.conversion(conversion, categories: summary.convertedCategories)))
    }
    // Only past the first ReportSummary.invalidListed invalid records, which `invalid` lists.
    if summary.invalidCount > summary.invalid.count {
      afterPayments.append(("invalid_not_listed", .int(summary.invalidCount - summary.invalid.count)))
    }
    if !summary.cash.isEmpty {
      afterPayments.append(
        (
          "cash_rounding",
          .array(
            summary.cash.map { cash in
              .object([
                ("currency", .string(cash.increment.currency.code)),
                ("increment", .money(cash.increment)),
                (
                  "residues",
                  .array(
                    cash.residues.map { .object([("person", .string($0.person)), ("amount", .money($0.amount))]) })
                ),
              ])
            })
        ))
    }
    if let stamp = summary.stamp { afterPayments.append(("generated", .string(stamp))) }
    // Whether the balances and settlements are computed from every record: a program tests
    // `complete` before paying what `settlements` says.
    let coverage = summary.coverage
    afterPayments.append(("complete", .bool(coverage.isComplete)))
    afterPayments.append(("review_marks", .int(summary.marksToReview)))
    afterPayments.append(
      (
        "left_out",
        .object([
          ("bills", .int(coverage.leftOutBills)), ("payments", .int(coverage.leftOutPayments)),
          ("input_problems", .int(coverage.inputProblems)),
        ])
      ))
    afterPayments.append(("reconciled", .bool(true)))
    for (index, (key, value)) in afterPayments.enumerated() {
      writeMember(key, last: index == afterPayments.count - 1) { value.write(to: &$0, indent: 1) }
    }
  }

  /// Writes one member of the report's top-level object: its key, what `value` writes, and the
  /// comma after it (or the object's end after the last).
  private mutating func writeMember(_ key: String, last: Bool = false, _ value: (inout Sink) -> Void) {
    sink.write("  " + JSON.quote(key) + ": ")
    value(&sink)
    sink.write(last ? "\n}\n" : ",\n")
  }
}
