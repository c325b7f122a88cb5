import SplitBillCore

/// Where a bill's tip came from, as reports show it.
package enum TipSource: String, Sendable, Hashable {
  /// The bill's own percentage.
  case percent
  /// The bill's own fixed tip amount.
  case fixed
  /// A default from the file or the command line.
  case `default`
  /// The advisor (`tip: ai`).
  case advisor
}

/// A validated bill from an input file, ready to be split.
package struct Bill: Hashable, Sendable {
  /// Unique across all inputs: the file's `id`, or `<file>#<n>`.
  package var id: String
  /// Where the bill starts in its file.
  package var source: SourceLocation
  /// The bill's date, if given.
  package var date: CalendarDate?
  /// A short description ("Dinner at Cervejaria").
  package var description: String?
  /// Experience notes for the advisor.
  package var notes: String?
  /// Amount, tip choice, diners, payer, leftover policy and rounding.
  package var terms: BillTerms
  /// Where the tip choice came from.
  package var tipSource: TipSource
  /// The default tip percentage the file or command line gives, if any: the advisor's starting
  /// point when the notes say nothing.
  package var defaultTip: Percent?
  /// The bill's own exchange rate (`rate:`), for `--settle-in`.
  package var rate: BillRate?

  /// Creates a bill.
  package init(
    id: String, source: SourceLocation, date: CalendarDate? = nil, description: String? = nil,
    notes: String? = nil, terms: BillTerms, tipSource: TipSource, defaultTip: Percent? = nil, rate: BillRate? = nil
  ) {
    self.rate = rate
    self.defaultTip = defaultTip
    self.id = id
    self.source = source
    self.date = date
    self.description = description
    self.notes = notes
    self.terms = terms
    self.tipSource = tipSource
  }
}
