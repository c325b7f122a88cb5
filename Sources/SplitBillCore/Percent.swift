/// An exact tip percentage from 0 to 100 with at most four decimals, kept in ten-thousandths.
///
///     try Percent(parsing: "17.125%").tenThousandths   // 171_250
///     Percent.preset15.decimalString                   // "15"
public struct Percent: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The percentage times 10,000: 15 % is `150_000`.
  public let tenThousandths: Int64

  /// Decimal places a percentage may have.
  public static let scale = 4
  /// 100 %, the largest tip percentage accepted.
  public static let hundred = Percent(tenThousandths: 1_000_000)
  /// The original app's preset buttons.
  public static let preset10 = Percent(tenThousandths: 100_000)
  /// The original app's preset buttons.
  public static let preset15 = Percent(tenThousandths: 150_000)
  /// The original app's preset buttons.
  public static let preset20 = Percent(tenThousandths: 200_000)
  /// 10 %, 15 % and 20 %.
  public static let presets = [preset10, preset15, preset20]

  /// Creates a percentage from ten-thousandths of a percent.
  ///
  /// Parsed percentages are within 0...100; a percentage derived from a fixed tip may be larger.
  public init(tenThousandths: Int64) {
    self.tenThousandths = tenThousandths
  }

  /// Parses `15`, `15%`, `15 %`, `12.5` or `17.125`: at most four decimals, from 0 to 100.
  ///
  /// - Throws: ``PercentError`` naming the text and what was expected.
  public init(parsing text: some StringProtocol, decimalComma: Bool = false) throws(PercentError) {
    var body = Substring(text)
    while body.last == " " { body.removeLast() }
    if body.last == "%" {
      body.removeLast()
      while body.last == " " { body.removeLast() }
    }
    let value: Int64
    do {
      value = try DecimalText.parse(
        body, scale: Percent.scale, maxIntegerDigits: 4, decimalComma: decimalComma,
        allowNegative: true)
    } catch .tooManyDecimals {
      throw PercentError(text: String(text), problem: .tooManyDecimals)
    } catch .tooLarge {
      throw PercentError(text: String(text), problem: .outOfRange)
    } catch {
      throw PercentError(text: String(text), problem: .notANumber)
    }
    guard value >= 0, value <= Percent.hundred.tenThousandths else {
      throw PercentError(text: String(text), problem: .outOfRange)
    }
    self.tenThousandths = value
  }

  /// The percentage without trailing zeros and without a `%` sign: `18`, `12.5`, `17.125`.
  public var decimalString: String { DecimalText.trimmed(tenThousandths, scale: Percent.scale) }

  /// `18%`.
  public var description: String { decimalString + "%" }

  public static func < (lhs: Percent, rhs: Percent) -> Bool { lhs.tenThousandths < rhs.tenThousandths }
}

/// A percentage text that was refused, and why.
public struct PercentError: Error, Hashable, Sendable {
  /// What was wrong with the text.
  public enum Problem: Hashable, Sendable {
    /// Not a plain decimal number.
    case notANumber
    /// More than four decimals.
    case tooManyDecimals
    /// Below 0 or above 100.
    case outOfRange
  }

  /// The text as given.
  public var text: String
  /// What was wrong with it.
  public var problem: Problem
}

/// A diner's relative share of a bill: a positive decimal with at most four places (`1`, `2`, `1.5`).
public struct Weight: Hashable, Sendable, CustomStringConvertible {
  /// The weight times 10,000.
  public let tenThousandths: Int64

  /// The default weight, 1.
  public static let one = Weight(tenThousandths: 10_000)
  /// The largest weight accepted: 1,000,000.
  public static let maximum = Weight(tenThousandths: 10_000_000_000)

  /// A whole-number weight; `count` must be between 1 and 1,000,000.
  public init(_ count: Int) throws(SplitError) {
    guard count > 0 else { throw .nonPositiveWeight(String(count)) }
    guard count <= 1_000_000 else { throw .weightTooLarge(String(count)) }
    self.tenThousandths = Int64(count) * 10_000
  }

  /// A weight in ten-thousandths; the caller keeps it positive.
  public init(tenThousandths: Int64) { self.tenThousandths = tenThousandths }

  /// Parses a weight as ``init(parsing:)`` does; with `decimalComma`, `1,5` is `1.5`.
  public init(parsing text: some StringProtocol, decimalComma: Bool) throws(SplitError) {
    guard decimalComma else {
      try self.init(parsing: text)
      return
    }
    try self.init(parsing: String(text.map { $0 == "," ? "." : $0 }))
  }

  /// Parses `2`, `1.5` or `0.25`; zero, negative or malformed text is a ``SplitError``.
  public init(parsing text: some StringProtocol) throws(SplitError) {
    let value: Int64
    do {
      value = try DecimalText.parse(text, scale: 4, maxIntegerDigits: 7, allowNegative: true)
    } catch .tooLarge {
      throw .weightTooLarge(String(text))
    } catch {
      throw .invalidWeight(String(text))
    }
    guard value > 0 else { throw .nonPositiveWeight(String(text)) }
    guard value <= Weight.maximum.tenThousandths else { throw .weightTooLarge(String(text)) }
    self.tenThousandths = value
  }

  /// `2`, `1.5`.
  public var description: String { DecimalText.trimmed(tenThousandths, scale: 4) }
}
