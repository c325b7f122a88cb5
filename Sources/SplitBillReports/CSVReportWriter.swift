import SplitBillCore

/// One CSV row per share: bill id, date, description, currency, person, weight, share, absorbed, paid_by.
///
/// RFC 4180 quoting; cells that a spreadsheet would run as a formula (starting with `=`, `+`, `-`,
/// `@`, tab or carriage return) are prefixed with `'`. Amounts are never negative here, so no
/// number is touched.
package struct CSVReportWriter<Sink: OutputSink>: ReportWriter {
  private var sink: Sink

  /// Starts the file with its header row.
  package init(sink: Sink) {
    self.sink = sink
    self.sink.write("bill_id,date,description,currency,person,weight,share,absorbed,paid_by\r\n")
  }

  package mutating func write(_ bill: ReportedBill) {
    let fixed = [
      Self.cell(bill.bill.id), bill.bill.date?.description ?? "", Self.cell(bill.bill.description ?? ""),
      bill.split.currency.code,
    ]
    let payer = Self.cell(bill.split.payer ?? "")
    for share in bill.split.shares {
      let row =
        fixed + [
          Self.cell(share.person), share.weight.description, share.amount.decimalString, String(share.absorbed), payer,
        ]
      sink.write(row.joined(separator: ",") + "\r\n")
    }
  }

  package mutating func finish(_ summary: ReportSummary) {}

  /// `text` safe for a spreadsheet: formula triggers neutralised, quoted when needed.
  package static func cell(_ text: String) -> String {
    var value = text
    if let first = value.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) {
      value = "'" + value
    }
    let needsQuotes = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
    guard needsQuotes else { return value }
    var quoted = "\""
    for scalar in value.unicodeScalars {
      if scalar == "\"" { quoted += "\"\"" } else { quoted.unicodeScalars.append(scalar) }
    }
    return quoted + "\""
  }
}
