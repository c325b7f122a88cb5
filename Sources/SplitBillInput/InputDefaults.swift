import SplitBillCore

/// A default tip: a percentage, or asking the advisor.
public enum DefaultTip: Hashable, Sendable {
  case percent(Percent)
  case advisor
}

/// Defaults from the command line, used after a bill's own values and its file's `defaults`.
public struct InputDefaults: Sendable {
  /// `--currency`.
  public var currency: Currency?
  /// `--default-tip`.
  public var tip: DefaultTip?
  /// `--leftover`.
  public var leftover: LeftoverPolicy?
  /// `--rounding`.
  public var rounding: RoundingMode?

  /// Creates defaults; all optional.
  public init(
    currency: Currency? = nil, tip: DefaultTip? = nil, leftover: LeftoverPolicy? = nil, rounding: RoundingMode? = nil
  ) {
    self.currency = currency
    self.tip = tip
    self.leftover = leftover
    self.rounding = rounding
  }
}

/// How the readers take their input.
public struct ReadOptions: Sendable {
  /// Command-line defaults.
  public var defaults: InputDefaults
  /// `--delimiter`: overrides detection for CSV.
  public var delimiter: UInt8?
  /// `--decimal-comma`: amounts, percentages and weights written `84,50`.
  public var decimalComma: Bool
  /// `--input-format`: the format of standard input (and of files with other extensions).
  public var inputFormat: InputFormat?

  /// Creates options.
  public init(
    defaults: InputDefaults = InputDefaults(), delimiter: UInt8? = nil, decimalComma: Bool = false,
    inputFormat: InputFormat? = nil
  ) {
    self.defaults = defaults
    self.delimiter = delimiter
    self.decimalComma = decimalComma
    self.inputFormat = inputFormat
  }
}

/// The two input formats.
public enum InputFormat: String, Sendable, CaseIterable {
  case yaml, csv
}
