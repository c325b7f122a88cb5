import SplitBillCore

/// A default tip: a percentage, or asking the advisor.
package enum DefaultTip: Hashable, Sendable {
  case percent(Percent)
  case advisor
}

/// Defaults from the command line, used after a bill's own values and its file's `defaults`.
package struct InputDefaults: Sendable {
  /// `--currency`.
  package var currency: Currency?
  /// `--default-tip`.
  package var tip: DefaultTip?
  /// `--leftover`.
  package var leftover: LeftoverPolicy?
  /// `--rounding`.
  package var rounding: RoundingMode?

  /// Creates defaults; all optional.
  package init(
    currency: Currency? = nil, tip: DefaultTip? = nil, leftover: LeftoverPolicy? = nil, rounding: RoundingMode? = nil
  ) {
    self.currency = currency
    self.tip = tip
    self.leftover = leftover
    self.rounding = rounding
  }
}

/// How the readers take their input.
package struct ReadOptions: Sendable {
  /// Command-line defaults.
  package var defaults: InputDefaults
  /// `--delimiter`: overrides detection for CSV.
  package var delimiter: UInt8?
  /// `--decimal-comma`: amounts, percentages and weights written `84,50`.
  package var decimalComma: Bool
  /// `--input-format`: the format of standard input (and of files with other extensions).
  package var inputFormat: InputFormat?
  /// `--people` (or the configuration's `people:`): the roster of every file that has none of its
  /// own (every CSV file; YAML files without `people:`), NFC names.
  package var people: [String]?
  /// How people are paid, by NFC name: the configuration's `people:` entries with details (a
  /// file's own entries add to them).
  package var payees: [String: PaymentDetails] = [:]
  /// The last day a recurring bill without `until` or `count` has instances on: the report's
  /// period end, else today. `nil`: such a bill is an error (it needs an end).
  package var repeatsThrough: CalendarDate?
  /// `--max-instances`: the most instances the recurring bills of a run expand to, all rules
  /// together (each rule is also held to ``Recurrence/instanceLimit``). A rule that would pass it
  /// is an error (`repeat.run-limit`) and makes none: a few kilobytes of rules cannot make a run
  /// of millions of bills.
  package var instanceLimit = ReadOptions.defaultInstanceLimit
  /// ``instanceLimit`` unless told otherwise: a household's rent, bills and subscriptions, weekly
  /// and monthly, over decades.
  package static let defaultInstanceLimit = 100_000
  /// `--whole-units` (or the configuration's `whole-units:`): the currencies every file keeps in
  /// whole units (``Currency/inWholeUnits``); a file's `defaults: whole_units:` adds its own.
  package var wholeUnits: Set<Currency> = []

  /// `currency` as the run keeps it: in whole units when ``wholeUnits`` names it.
  package func kept(_ currency: Currency) -> Currency {
    currency.kept(wholeUnits: wholeUnits)
  }

  /// Creates options.
  package init(
    defaults: InputDefaults = InputDefaults(), delimiter: UInt8? = nil, decimalComma: Bool = false,
    inputFormat: InputFormat? = nil, people: [String]? = nil, repeatsThrough: CalendarDate? = nil
  ) {
    self.repeatsThrough = repeatsThrough
    self.defaults = defaults
    self.delimiter = delimiter
    self.decimalComma = decimalComma
    self.inputFormat = inputFormat
    self.people = people
  }
}

/// The two input formats.
package enum InputFormat: String, Sendable, CaseIterable {
  case yaml, csv
}
