/// An ISO 4217 currency: its three-letter code and the number of decimal digits of its minor unit.
///
///     try Currency(code: "JPY").exponent   // 0
///     try Currency(code: "KWD").exponent   // 3
///
/// Eight bytes with no reference in them: every amount carries its currency, and amounts are copied
/// many times a bill.
public struct Currency: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The code's three ASCII letters, the first in the high byte: comparing two of them compares the
  /// codes.
  @usableFromInline let letters: UInt32
  private var digits: UInt8

  /// The upper-case ISO 4217 code, such as `EUR`.
  public var code: String {
    String(decoding: [codeByte(0), codeByte(1), codeByte(2)], as: UTF8.self)
  }

  /// The code's letter at `index` (0, 1 or 2), as an ASCII byte.
  @inlinable @inline(__always)
  public func codeByte(_ index: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: letters >> (16 - 8 * UInt32(index)))
  }

  /// Decimal digits of the minor unit: 0 for JPY, 2 for EUR, 3 for KWD, 4 for CLF.
  public var exponent: Int { Int(digits) }

  /// Looks a code up in the ISO 4217 table; lower-case input is accepted.
  ///
  /// Withdrawn currencies the ECB's history still quotes (ISO 4217 list three: HRK, CYP, TRL, …) are
  /// known too, with their last minor unit, so that old rates and receipts read.
  ///
  /// - Throws: ``MoneyError/unknownCurrency(_:)`` when the code is no ISO 4217 currency the table knows.
  public init(code: String) throws(MoneyError) {
    // Codes are nearly always written in capitals already.
    let upper = code.utf8.allSatisfy { (0x41...0x5A).contains($0) } ? code : code.uppercased()
    guard let exponent = Currency.exponents[upper] else { throw .unknownCurrency(code) }
    self.init(unchecked: upper, exponent: exponent)
  }

  /// The currency used when neither the bill, the file nor the command line names one.
  public static let usd = Currency(unchecked: "USD", exponent: 2)
  /// The euro, the ECB rates' base.
  public static let eur = Currency(unchecked: "EUR", exponent: 2)

  /// A currency for a code of three ASCII letters (the table's codes) and its exponent (0 to 4).
  init(unchecked uncheckedCode: String, exponent: Int) {
    var letters: UInt32 = 0
    for byte in uncheckedCode.utf8.prefix(3) { letters = letters << 8 | UInt32(byte) }
    self.letters = letters
    self.digits = UInt8(truncatingIfNeeded: exponent)
  }

  /// `10^exponent`: how many minor units make one major unit.
  public var minorUnitsPerMajor: Int64 {
    var result: Int64 = 1
    for _ in 0..<exponent { result *= 10 }
    return result
  }

  /// What one minor unit is called in messages: "cent" for two-decimal currencies, else "unit".
  public var minorUnitName: String { exponent == 2 ? "cent" : "unit" }

  public var description: String { code }

  public static func < (lhs: Currency, rhs: Currency) -> Bool { lhs.letters < rhs.letters }

  /// A currency is its code: the forint kept in whole units (``inWholeUnits``) is the forint, so
  /// rates and settlements find it; a run never holds amounts of one code in two exponents (the
  /// readers refuse a record that would mix them).
  @inlinable public static func == (lhs: Currency, rhs: Currency) -> Bool { lhs.letters == rhs.letters }

  @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(letters) }

  /// The same currency counted in whole units (exponent 0): what a group declares for a currency
  /// people pay without its minor unit (the forint in cash), so that amounts, tips, shares and
  /// transfers are whole.
  /// Itself in whole units when `wholeUnits` names it, else itself: the one rule every reader and
  /// the settling use.
  @inlinable public func kept(wholeUnits: Set<Currency>) -> Currency {
    !wholeUnits.isEmpty && wholeUnits.contains(self) ? inWholeUnits : self
  }

  public var inWholeUnits: Currency {
    var whole = self
    whole.digits = 0
    return whole
  }

  /// Every ISO 4217 code known (funds codes and the withdrawn codes of ``withdrawn`` included,
  /// precious metals and testing codes excluded): the generated table in ISO4217.swift.
  public static var allCodes: [String] { exponents.keys.sorted() }

  /// Whether ISO 4217 has withdrawn the currency (list three), and when (`2023-01` for HRK).
  public var withdrawn: String? { Currency.withdrawnCodes[code] }
}
