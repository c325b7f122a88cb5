import SplitBillCore
import SplitBillText

/// One message a person, ready to paste into a chat (`report --format messages`): the trip's title
/// and their name, their paragraph of ``SettleUpWords``, then a line for each transfer they make
/// or get. The bills are not listed (the full report is for that). Names and the title are
/// untrusted: control characters are made visible, as in the text report.
package struct MessagesReportWriter<Sink: OutputSink>: ReportWriter {
  private var sink: Sink

  /// Writes to `sink` when the report finishes.
  package init(sink: Sink) { self.sink = sink }

  package mutating func write(_ reported: ReportedBill) {}

  package mutating func finish(_ summary: ReportSummary) {
    let title = TerminalText.sanitize(summary.heading)
    var messages: [String] = []
    if let incomplete = summary.coverage.note() {
      messages.append("Incomplete: balances \(incomplete); settling now would be wrong.")
    }
    let byPerson = SettleUpWords.transfersByPerson(summary)
    for (person, text) in SettleUpWords.paragraphs(summary, escape: TerminalText.sanitize) {
      var lines = ["\(title): \(TerminalText.sanitize(person))", text]
      for (transfer, currency) in byPerson[person] ?? [] {
        let amount = "\(transfer.amount.groupedString) \(currency.code)"
        let how = summary.payees[transfer.to].flatMap { SettleUpWords.howToPay($0, escape: TerminalText.sanitize) }
        lines.append(
          transfer.from == person
            ? "→ pay \(TerminalText.sanitize(transfer.to)) \(amount)" + (how.map { ": " + $0 } ?? "")
            : "← \(TerminalText.sanitize(transfer.from)) pays you \(amount)")
      }
      messages.append(lines.joined(separator: "\n"))
    }
    if messages.isEmpty { messages.append("\(title): no bills, nothing to settle.") }
    sink.write(messages.joined(separator: "\n\n") + "\n")
  }
}
