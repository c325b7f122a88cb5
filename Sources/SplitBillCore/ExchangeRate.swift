/// A rate as written: an exact positive decimal, `mantissa / 10^scale`, never a float.
///
///     DecimalRate(parsing: "161.23")   // mantissa 16123, scale 2
public struct DecimalRate: Hashable, Sendable, CustomStringConvertible {
  /// The digits, as a whole number.
  public let mantissa: Int64
  /// How many of them are decimals (one byte: a bill carries its rate from stage to stage).
  private let decimals: UInt8

  /// How many of the digits are decimals.
  public var scale: Int { Int(decimals) }

  /// The most digits a rate may have (ECB's have at most six significant ones).
  public static let maximumDigits = 15

  /// Parses plain decimal text (`161.23`, `0.0058`, `1`) with ``DecimalText``, at as many
  /// decimals as written; `nil` for anything else: signs, exponents, separators, zero, more than
  /// ``maximumDigits`` significant digits.
  public init?(parsing text: some StringProtocol) {
    let isBlank = { (character: Character) in character == " " || character == "\t" }
    let trimmed = String(text.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    guard !trimmed.hasPrefix("+") else { return nil }
    // The decimals written, trailing zeros aside (1.0870 is 1.087).
    let fraction = trimmed.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first
    let decimals = fraction.map { $0.reversed().drop { $0 == "0" }.count } ?? 0
    // At most `maximumDigits` digits in all (the integer part gets what the decimals leave), so
    // the value always fits 64 bits.
    guard decimals <= 18,
      let value = try? DecimalText.parse(
        trimmed, scale: decimals, maxIntegerDigits: max(0, Self.maximumDigits - decimals)),
      value > 0, value < 1_000_000_000_000_000
    else { return nil }
    mantissa = value
    self.decimals = UInt8(decimals)
  }

  /// `mantissa ÷ 10^decimals`, the decimals' trailing zeros taken off as parsing does (`10870`, 4
  /// is 1.087); `nil` for zero or less, or more digits than ``maximumDigits``. For readers that
  /// have the digits already (the ECB's history).
  public init?(mantissa: Int64, decimals: Int) {
    var (value, scale) = (mantissa, decimals)
    while scale > 0, value % 10 == 0 {
      value /= 10
      scale -= 1
    }
    // As parsing allows: at most `maximumDigits` digits and 18 decimals.
    guard value > 0, value < Self.mantissaLimit, (0...18).contains(scale) else { return nil }
    self.mantissa = value
    self.decimals = UInt8(scale)
  }

  /// 10^``maximumDigits``: every mantissa is below it.
  private static let mantissaLimit: Int64 = {
    var limit: Int64 = 1
    for _ in 0..<maximumDigits { limit *= 10 }
    return limit
  }()

  /// The rate as a ratio.
  public var ratio: ExactRatio {
    var power: Int128 = 1
    for _ in 0..<scale { power *= 10 }
    return ExactRatio(unchecked: Int128(mantissa), power)
  }

  /// The shortest decimal text: `161.23`, `0.0058`.
  public var description: String { DecimalText.format(mantissa, scale: scale) }
}

/// An exact positive ratio of two whole numbers, reduced.
public struct ExactRatio: Hashable, Sendable, CustomStringConvertible {
  /// Over ``denominator``; both positive, with no common factor.
  public let numerator: Int128
  /// Positive.
  public let denominator: Int128

  /// One.
  public static let one = ExactRatio(unchecked: 1, 1)

  /// `numerator / denominator`, reduced; both must be positive.
  init(unchecked numerator: Int128, _ denominator: Int128) {
    let divisor = Fraction.gcd(numerator, denominator)
    self.numerator = numerator / divisor
    self.denominator = denominator / divisor
  }

  /// One over this ratio.
  public var inverse: ExactRatio { ExactRatio(unchecked: denominator, numerator) }

  /// The product, or `nil` when it does not fit 128 bits even reduced.
  public func multiplied(by other: ExactRatio) -> ExactRatio? {
    let first = Fraction.gcd(numerator, other.denominator)
    let second = Fraction.gcd(other.numerator, denominator)
    let (top, topOverflow) = (numerator / first).multipliedReportingOverflow(by: other.numerator / second)
    let (bottom, bottomOverflow) = (denominator / second).multipliedReportingOverflow(by: other.denominator / first)
    guard !topOverflow, !bottomOverflow else { return nil }
    return ExactRatio(unchecked: top, bottom)
  }

  /// This ratio times 10^`power` (`power` may be negative), or `nil` on overflow.
  public func scaled(byPowerOfTen power: Int) -> ExactRatio? {
    var ten: Int128 = 1
    for _ in 0..<abs(power) {
      let (next, overflow) = ten.multipliedReportingOverflow(by: 10)
      guard !overflow else { return nil }
      ten = next
    }
    return multiplied(by: power >= 0 ? ExactRatio(unchecked: ten, 1) : ExactRatio(unchecked: 1, ten))
  }

  /// `n/d`, or `n` when the denominator is one.
  public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }
}

/// One published or agreed rate: on `date`, one `base` is worth `rate` `quote`s (the ECB's
/// convention: base EUR, quote USD, rate 1.0876).
public struct ExchangeRate: Hashable, Sendable {
  /// The currency priced.
  public var base: Currency
  /// The currency it is priced in.
  public var quote: Currency
  /// How many `quote`s one `base` is worth.
  public var rate: DecimalRate
  /// The day it applies from; `nil`: every day (a rate agreed for the whole trip).
  public var date: CalendarDate?
  /// Where it was read: a file, `ECB file.csv`, or `bill <id>` (one string shared by a file's
  /// rates: an ECB history holds a quarter of a million).
  public var source: String
  /// The line of ``source`` it is on, for a file.
  public var line: Int?

  /// Creates a rate.
  public init(
    base: Currency, quote: Currency, rate: DecimalRate, date: CalendarDate?, source: String, line: Int? = nil
  ) {
    self.base = base
    self.quote = quote
    self.rate = rate
    self.date = date
    self.source = source
    self.line = line
  }

  /// ``source`` with the line: `samples/trip.yaml:17`, `ECB eurofxref-hist.csv:3`, `bill tyo-02`.
  public var origin: String { line.map { "\(source):\($0)" } ?? source }
}

/// How one amount was converted: the price of one `from` in `to`, and the rates it came from.
public struct RateUse: Hashable, Sendable {
  /// The currency converted.
  public var from: Currency
  /// The currency converted into.
  public var to: Currency
  /// What one `from` is worth in `to` (major units), exactly.
  public var price: ExactRatio
  /// The rates used, in the order applied: one for a direct or inverse rate, two for a cross rate
  /// through a third currency, one more ahead for a bill's own rate.
  public var legs: [ExchangeRate]

  /// Creates a use of rates.
  public init(from: Currency, to: Currency, price: ExactRatio, legs: [ExchangeRate]) {
    self.from = from
    self.to = to
    self.price = price
    self.legs = legs
  }

  /// The dated rate among ``legs`` with the oldest day: how old the conversion is (a cross rate is
  /// as old as its older rate; a rate for every day has no age). `nil` when no leg is dated.
  public var oldestDatedLeg: ExchangeRate? {
    legs.filter { $0.date != nil }.min { ($0.date?.daysSinceEpoch ?? 0) < ($1.date?.daysSinceEpoch ?? 0) }
  }

  /// `price` in minor units: what one minor unit of `from` is worth in minor units of `to`.
  public var minorUnitFactor: ExactRatio? { price.scaled(byPowerOfTen: to.exponent - from.exponent) }

  /// This use followed by `next` (from `to` to `next.to`), or `nil` on overflow.
  public func then(_ next: RateUse) -> RateUse? {
    guard let price = price.multiplied(by: next.price) else { return nil }
    return RateUse(from: from, to: next.to, price: price, legs: legs + next.legs)
  }
}

/// Rates of one base that a table reads only when a pair is asked for: a long history (the ECB's,
/// a quarter of a million rates in 41 columns) of which a run needs a column or two.
public protocol RateColumns: Sendable {
  /// The base of every rate (EUR for the ECB's).
  var base: Currency { get }
  /// The currencies it has a column for.
  var quotes: Set<Currency> { get }
  /// The `base`→`quote` rates, oldest first, one a day; read on the first call.
  func rates(to quote: Currency) -> [ExchangeRate]
}

/// The rates of one source (a file's `rates:` section, a rates file), looked up by pair and day.
///
/// The rate for a day is the latest on or before it, in either direction (an inverse is exact:
/// one over the rate); without one, a cross rate through a third currency that has both (ECB files
/// go through EUR). Undated rates apply to every day, before any dated one.
public struct RateTable: Sendable {
  private struct Pair: Hashable {
    var base: Currency
    var quote: Currency
  }

  /// By pair, oldest first (undated ones first of all).
  private var rates: [Pair: [ExchangeRate]] = [:]
  /// Currencies each currency has a rate with.
  private var neighbours: [Currency: Set<Currency>] = [:]
  /// Rates read column by column when first asked for, besides ``rates``.
  private var columns: (any RateColumns)?

  /// An empty table.
  public init() {}

  /// A table of `columns`, each read when a pair first needs it.
  public init(columns: any RateColumns) {
    self.columns = columns
  }

  /// A table of `rates`; of two for the same pair and day, the later in the list.
  public init(_ rates: [ExchangeRate]) {
    var byPair: [Pair: [ExchangeRate]] = [:]
    for rate in rates { byPair[Pair(base: rate.base, quote: rate.quote), default: []].append(rate) }
    for (pair, list) in byPair {
      // Sorted once (stable: the later of two on one day stays later), then one a day.
      let sorted = list.enumerated().sorted { a, b in
        Self.isBefore(a.element.date, b.element.date) || (a.element.date == b.element.date && a.offset < b.offset)
      }
      var kept: [ExchangeRate] = []
      for (_, rate) in sorted {
        if let last = kept.last, last.date == rate.date { kept[kept.count - 1] = rate } else { kept.append(rate) }
      }
      self.rates[pair] = kept
      neighbours[pair.base, default: []].insert(pair.quote)
      neighbours[pair.quote, default: []].insert(pair.base)
    }
  }

  private static func isBefore(_ lhs: CalendarDate?, _ rhs: CalendarDate?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return false
    case (nil, _): return true
    case (_, nil): return false
    case (let left?, let right?): return left < right
    }
  }

  /// The latest rate of `base`→`quote` on or before `date` (without a date: undated rates only).
  private func latest(_ base: Currency, _ quote: Currency, on date: CalendarDate?) -> ExchangeRate? {
    guard let list = rates[Pair(base: base, quote: quote)] ?? column(base, quote) else { return nil }
    guard let date else { return list.last { $0.date == nil } }
    // Oldest first: the last one not after `date`.
    var low = 0
    var high = list.count
    while low < high {
      let middle = (low + high) / 2
      if let day = list[middle].date, day > date { high = middle } else { low = middle + 1 }
    }
    return low == 0 ? nil : list[low - 1]
  }

  /// The column of ``columns`` for `base`→`quote`, read now if it was not.
  private func column(_ base: Currency, _ quote: Currency) -> [ExchangeRate]? {
    guard let columns, columns.base == base, columns.quotes.contains(quote) else { return nil }
    return columns.rates(to: quote)
  }

  /// The currencies `currency` has a rate with, the columns' included.
  private func neighbours(of currency: Currency) -> Set<Currency> {
    var found = neighbours[currency] ?? []
    if let columns {
      if currency == columns.base { found.formUnion(columns.quotes) }
      if columns.quotes.contains(currency) { found.insert(columns.base) }
    }
    return found
  }

  /// A direct or inverse rate from `from` to `to` on `date`: the later of the two; a tie goes to
  /// the direct one.
  private func oneLeg(_ from: Currency, _ to: Currency, on date: CalendarDate?) -> RateUse? {
    let direct = latest(from, to, on: date)
    let inverse = latest(to, from, on: date)
    if let direct, inverse == nil || !Self.isBefore(direct.date, inverse?.date) {
      return RateUse(from: from, to: to, price: direct.rate.ratio, legs: [direct])
    }
    if let inverse {
      return RateUse(from: from, to: to, price: inverse.rate.ratio.inverse, legs: [inverse])
    }
    return nil
  }

  /// What one `from` is worth in `to` on `date`: a direct or inverse rate, else a cross rate
  /// through the third currency whose older leg is the most recent (ties by code); `nil` when the
  /// table cannot say (or the cross rate does not fit 128 bits).
  public func rate(from: Currency, to: Currency, on date: CalendarDate?) -> RateUse? {
    if from == to { return RateUse(from: from, to: to, price: .one, legs: []) }
    if let single = oneLeg(from, to, on: date) { return single }
    var best: (use: RateUse, oldest: CalendarDate?)?
    for via in neighbours(of: from).sorted() where via != to {
      guard let first = oneLeg(from, via, on: date), let second = oneLeg(via, to, on: date),
        let cross = first.then(second)
      else { continue }
      let oldest = Self.isBefore(first.legs[0].date, second.legs[0].date) ? first.legs[0].date : second.legs[0].date
      if best == nil || Self.isBefore(best?.oldest, oldest) { best = (cross, oldest) }
    }
    return best?.use
  }
}

/// Rate tables in the order they are asked: the first that knows a pair on a day answers.
public struct RateBook: Sendable {
  /// The tables, most specific first (a bill file's own rates before `--rates` files).
  public var tables: [RateTable]

  /// A book of `tables`, asked in order.
  public init(_ tables: [RateTable]) { self.tables = tables }

  /// What one `from` is worth in `to` on `date`, from the first table that can say.
  public func rate(from: Currency, to: Currency, on date: CalendarDate?) -> RateUse? {
    if from == to { return RateUse(from: from, to: to, price: .one, legs: []) }
    for table in tables {
      if let use = table.rate(from: from, to: to, on: date) { return use }
    }
    return nil
  }
}

/// Why a record cannot be converted.
public enum RateLookupFailure: Error, Hashable, Sendable {
  /// No rate from `from` to `to` on or before the record's day.
  case missing(from: Currency, to: Currency)
  /// The rates' exact product does not fit 128 bits.
  case tooPrecise
}

extension RateBook {
  /// How a record in `currency` on `date` converts into `target`: by its own rate (a bill's card
  /// rate) when it has one, which wins, going on through the tables when it is priced in a third
  /// currency; else by the tables' rate. `id` names the record as the own rate's source.
  public func conversion(
    of currency: Currency, into target: Currency, on date: CalendarDate?, own: BillRate?, record id: String
  ) -> Result<RateUse, RateLookupFailure> {
    guard let own else {
      guard let use = rate(from: currency, to: target, on: date) else {
        return .failure(.missing(from: currency, to: target))
      }
      return .success(use)
    }
    let first = RateUse(
      from: currency, to: own.currency, price: own.price.ratio,
      legs: [own.exchangeRate(from: currency, on: date, bill: id)])
    if own.currency == target { return .success(first) }
    guard let rest = rate(from: own.currency, to: target, on: date) else {
      return .failure(.missing(from: own.currency, to: target))
    }
    guard let joined = first.then(rest) else { return .failure(.tooPrecise) }
    return .success(joined)
  }
}

/// A bill's own `rate`: what one unit of its currency actually cost in `currency` (the card
/// statement's rate). It wins over every table for that bill.
public struct BillRate: Hashable, Sendable {
  /// What one unit of the bill's currency cost.
  public var price: DecimalRate
  /// The currency it cost that in.
  public var currency: Currency

  /// Creates a bill's rate.
  public init(price: DecimalRate, currency: Currency) {
    self.price = price
    self.currency = currency
  }

  /// The rate as one of a table's: `billCurrency` priced in ``currency``, on `date`, from the bill `id`.
  public func exchangeRate(from billCurrency: Currency, on date: CalendarDate?, bill id: String) -> ExchangeRate {
    ExchangeRate(base: billCurrency, quote: currency, rate: price, date: date, source: "bill \(id)")
  }
}
