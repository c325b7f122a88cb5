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
  /// The rates `--settle-in` may convert it with: its own `rate:` and its file's `rates:`; `nil`
  /// when it has neither (nearly every bill: one reference, as a bill is moved from stage to stage
  /// and every word more is copied each time).
  package var rates: RecordRates?
  /// Where the money went (`category:`, or the file's default): `groceries`, `rent`.
  package var category: String? {
    get { extras?.category }
    set { extras = BillExtras(category: newValue, recurrence: recurrence) }
  }
  /// How the bill repeats (`repeat:`), while it is read: the stream hands on its instances
  /// (``BillStream``), each without one.
  package var recurrence: Recurrence? {
    get { extras?.recurrence }
    set { extras = BillExtras(category: category, recurrence: newValue) }
  }
  /// What few bills give (a category, a repeat rule), in one reference that is nil for the rest:
  /// a bill is copied from stage to stage, and every field more is a retain and a release each time.
  private var extras: BillExtras?

  /// The bill's own exchange rate (`rate:`).
  package var rate: BillRate? { rates?.own }
}

extension Bill {
  /// Creates a bill. (Written in an extension, calling the memberwise initializer: an initializer
  /// in the type's body that sets its variables one by one was compiled into a copy of the whole
  /// bill and a release of the original, a retain and a release of each of its strings.)
  package init(
    id: String, source: SourceLocation, date: CalendarDate? = nil, description: String? = nil,
    notes: String? = nil, terms: BillTerms, tipSource: TipSource, defaultTip: Percent? = nil,
    rates: RecordRates? = nil
  ) {
    self.init(
      id: id, source: source, date: date, description: description, notes: notes, terms: terms,
      tipSource: tipSource, defaultTip: defaultTip, rates: rates, extras: nil)
  }
}

/// The rates a bill or payment may be converted with: its own (a bill's `rate:`) and its file's
/// (`rates:`, shared by the file's records).
package final class RecordRates: Hashable, Sendable {
  /// A bill's own rate, which wins.
  package let own: BillRate?
  /// The `rates:` of the file (YAML document) it is in.
  package let file: RateTable

  package init(own: BillRate?, file: RateTable) {
    self.own = own
    self.file = file
  }

  package static func == (lhs: RecordRates, rhs: RecordRates) -> Bool { lhs === rhs || lhs.own == rhs.own }

  package func hash(into hasher: inout Hasher) { hasher.combine(own) }
}

/// A bill's rarely given values (``Bill/category``, ``Bill/recurrence``), boxed.
final class BillExtras: Hashable, Sendable {
  package let category: String?
  package let recurrence: Recurrence?
  package init?(category: String?, recurrence: Recurrence?) {
    guard category != nil || recurrence != nil else { return nil }
    self.category = category
    self.recurrence = recurrence
  }
  package static func == (lhs: BillExtras, rhs: BillExtras) -> Bool {
    lhs.category == rhs.category && lhs.recurrence == rhs.recurrence
  }
  package func hash(into hasher: inout Hasher) {
    hasher.combine(category)
    hasher.combine(recurrence)
  }
}
