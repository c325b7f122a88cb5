import SplitBillCore

/// A validated payment from an input file: money one person handed another to settle up.
package struct PaymentRecord: Hashable, Sendable {
  /// Unique across all bills and payments of the run: the file's `id`, or `<file>#p<n>`.
  package var id: String
  /// Where the payment starts in its file.
  package var source: SourceLocation
  /// When it was paid, if given (needed under a date filter and in journals).
  package var date: CalendarDate?
  /// Free text ("bank transfer").
  package var notes: String?
  /// Who paid whom how much.
  package var payment: Payment
  /// Its file's `rates:`, if it has any (for `--settle-in`).
  package var rates: RecordRates?

  /// Creates a payment record.
  package init(
    id: String, source: SourceLocation, date: CalendarDate?, notes: String?, payment: Payment,
    rates: RecordRates? = nil
  ) {
    self.rates = rates
    self.id = id
    self.source = source
    self.date = date
    self.notes = notes
    self.payment = payment
  }
}

/// One key of a payment record, version 1: the table the rules, the schema and the docs share.
package struct PaymentField: Sendable {
  /// The key as written in YAML, and the CSV column name.
  package var name: String
  /// Whether a payment must give it.
  package var required: Bool
  /// One line for the schema and the docs.
  package var summary: String

  /// Every payment key, in the documented order.
  package static let all: [PaymentField] = [
    PaymentField(name: "id", required: false, summary: "Unique across all bills and payments; default '<file>#p<n>'."),
    PaymentField(name: "date", required: false, summary: "ISO date YYYY-MM-DD; required under a date filter."),
    PaymentField(name: "from", required: true, summary: "Who paid (their balance goes up by the amount)."),
    PaymentField(name: "to", required: true, summary: "Who received it (their balance goes down)."),
    PaymentField(
      name: "amount", required: true,
      summary: "More than zero, as exact decimal text in the currency's digits."),
    PaymentField(
      name: "currency", required: false, summary: "ISO 4217 code; default from defaults or --currency."),
    PaymentField(name: "notes", required: false, summary: "Free text (how it was paid)."),
  ]

  /// The keys a payment may have.
  package static let keys = all.map(\.name)
}
