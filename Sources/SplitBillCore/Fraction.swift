/// An exact fraction for the receipt arithmetic, kept reduced with a positive denominator.
///
/// Every operation checks for overflow and throws ``SplitError/receiptTooComplex`` rather than
/// wrap or trap: 128 bits hold any receipt of real amounts and weights with a few decimals.
struct Fraction: Hashable, Sendable {
  private(set) var numerator: Int128
  private(set) var denominator: Int128

  static let zero = Fraction(whole: 0)

  init(whole: Int128) {
    numerator = whole
    denominator = 1
  }

  /// `numerator / denominator`, reduced; the denominator must not be zero.
  init(_ numerator: Int128, over denominator: Int128) throws(SplitError) {
    guard denominator != 0 else { throw .receiptTooComplex }
    let divisor = Self.gcd(numerator, denominator)
    var (top, bottom) = divisor == 1 ? (numerator, denominator) : (numerator / divisor, denominator / divisor)
    if bottom < 0 {
      guard top != .min, bottom != .min else { throw .receiptTooComplex }
      (top, bottom) = (-top, -bottom)
    }
    self.numerator = top
    self.denominator = bottom
  }

  /// The greatest common divisor of `a` and `b` (1 when both are zero). Binary (Stein's): shifts
  /// and subtractions, no 128-bit division, which is done in software; 64-bit numbers, nearly all,
  /// take the same steps in one register.
  static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
    let (x, y) = (a.magnitude, b.magnitude)
    if x <= UInt64.max && y <= UInt64.max { return Int128(binaryGCD(UInt64(x), UInt64(y))) }
    return Int128(truncatingIfNeeded: binaryGCD(x, y))
  }

  private static func binaryGCD<T: FixedWidthInteger & UnsignedInteger>(_ a: T, _ b: T) -> T {
    var (x, y) = (a, b)
    if x == 0 { return y == 0 ? 1 : y }
    if y == 0 { return x }
    let shift = (x | y).trailingZeroBitCount
    x >>= x.trailingZeroBitCount
    repeat {
      y >>= y.trailingZeroBitCount
      if x > y { swap(&x, &y) }
      y -= x
    } while y != 0
    return x << shift
  }

  /// The smallest common multiple of two positive numbers.
  static func lcm(_ a: Int128, _ b: Int128) throws(SplitError) -> Int128 {
    try checked((a / gcd(a, b)).multipliedReportingOverflow(by: b))
  }

  static func checked(_ result: (partialValue: Int128, overflow: Bool)) throws(SplitError) -> Int128 {
    guard !result.overflow else { throw .receiptTooComplex }
    return result.partialValue
  }

  func adding(_ other: Fraction) throws(SplitError) -> Fraction {
    let common = try Self.lcm(denominator, other.denominator)
    let left = try Self.checked(numerator.multipliedReportingOverflow(by: common / denominator))
    let right = try Self.checked(other.numerator.multipliedReportingOverflow(by: common / other.denominator))
    return try Fraction(Self.checked(left.addingReportingOverflow(right)), over: common)
  }

  func subtracting(_ other: Fraction) throws(SplitError) -> Fraction {
    try adding(Fraction(-other.numerator, over: other.denominator))
  }

  /// This fraction times `factor / divisor` (`divisor` not zero), cross-reduced first.
  func scaled(by factor: Int128, over divisor: Int128) throws(SplitError) -> Fraction {
    let first = Self.gcd(numerator, divisor)
    let second = Self.gcd(factor, denominator)
    let top = try Self.checked((numerator / first).multipliedReportingOverflow(by: factor / second))
    let bottom = try Self.checked((denominator / second).multipliedReportingOverflow(by: divisor / first))
    return try Fraction(top, over: bottom)
  }

  /// The largest whole number not above it.
  var floor: Int128 {
    let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
    return remainder < 0 ? quotient - 1 : quotient
  }

  /// Its numerator over `common`, a multiple of its denominator.
  func numerator(over common: Int128) throws(SplitError) -> Int128 {
    try Self.checked(numerator.multipliedReportingOverflow(by: common / denominator))
  }
}
