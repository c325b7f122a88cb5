/// An exact amount of money: a whole number of minor units (cents, yen, fils) in one currency.
///
///     let money = try Money(parsing: "84.5", currency: Currency(code: "EUR"))
///     money.minorUnits      // 8450
///     money.decimalString   // "84.50"
public struct Money: Hashable, Sendable, CustomStringConvertible {
  /// The amount in minor units; negative only for balances, never for a bill.
  public var minorUnits: Int64
  /// The currency the units count.
  public var currency: Currency

  /// The largest magnitude accepted from text, in minor units (`10^15 - 1`).
  ///
  /// Any product the core forms (amount × percent, total × weight) is computed in 128 bits, and
  /// sums over a million bills of this size still fit in 64 bits.
  public static let maximumMinorUnits: Int64 = 999_999_999_999_999

  /// Creates an amount from a count of minor units.
  public init(minorUnits: Int64, currency: Currency) {
    self.minorUnits = minorUnits
    self.currency = currency
  }

  /// Zero in `currency`.
  public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

  /// Digits of ``maximumMinorUnits``, counted once (amounts are parsed for every bill).
  private static let maximumDigits = maximumMinorUnits.description.count

  /// Parses plain decimal text exactly: `84.50`, `84.5`, `84` and `+84.50` are all accepted.
  ///
  /// - Parameters:
  ///   - decimalComma: read `84,50` instead of `84.50`.
  ///   - allowNegative: accept `-5.00` (balances); bill amounts never do.
  /// - Throws: ``MoneyError/invalidAmount(_:_:currency:)`` with the reason: empty text, exponent
  ///   notation, thousands separators, a negative amount, more decimals than the currency has, or
  ///   a value above ``maximumMinorUnits``.
  public init(
    parsing text: some StringProtocol, currency: Currency, decimalComma: Bool = false,
    allowNegative: Bool = false
  ) throws(MoneyError) {
    let digits = Money.maximumDigits - currency.exponent
    do {
      let units = try DecimalText.parse(
        text, scale: currency.exponent, maxIntegerDigits: digits, decimalComma: decimalComma,
        allowNegative: allowNegative)
      self.init(minorUnits: units, currency: currency)
    } catch {
      throw .invalidAmount(String(text), error, currency: currency)
    }
  }

  /// ``init(parsing:currency:decimalComma:allowNegative:)`` of UTF-8 bytes (the readers' cells),
  /// without a string or an error: `nil` for anything that initializer refuses.
  package init?(utf8 bytes: Span<UInt8>, currency: Currency, decimalComma: Bool = false) {
    let digits = Money.maximumDigits - currency.exponent
    guard
      let units = DecimalText.parse(
        utf8: bytes, scale: currency.exponent, maxIntegerDigits: digits, decimalComma: decimalComma)
    else { return nil }
    self.init(minorUnits: units, currency: currency)
  }

  /// The amount in the currency's own digits: `33.34` EUR, `4780` JPY, `10.005` KWD, `-1.50` EUR.
  public var decimalString: String { DecimalText.format(minorUnits, scale: currency.exponent) }

  /// ``decimalString`` with the whole part in groups of three, for people: `1,234.50` EUR,
  /// `150,111` JPY. Files and programs (JSON, CSV, journals) get ``decimalString``.
  public var groupedString: String { DecimalText.grouped(minorUnits, scale: currency.exponent) }

  /// `decimalString` followed by the currency code: `33.34 EUR`.
  public var description: String { "\(decimalString) \(currency.code)" }
}

/// Why an amount, a currency or a calculation on them was refused.
public enum MoneyError: Error, Hashable, Sendable {
  /// The code is not in the ISO 4217 table.
  case unknownCurrency(String)
  /// The text is not an acceptable amount in that currency; the syntax error says why.
  case invalidAmount(String, DecimalText.SyntaxError, currency: Currency)
  /// Two amounts in different currencies were combined.
  case currencyMismatch(Currency, Currency)
  /// A sum left the range the core guarantees to compute exactly.
  case overflow
}

extension Money {
  /// The sum, or ``MoneyError/currencyMismatch(_:_:)`` / ``MoneyError/overflow``.
  public func adding(_ other: Money) throws(MoneyError) -> Money {
    guard currency == other.currency else { throw .currencyMismatch(currency, other.currency) }
    let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
    if overflow { throw .overflow }
    return Money(minorUnits: sum, currency: currency)
  }
}
