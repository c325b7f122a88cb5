/// How a tip that falls between two minor units is rounded.
public enum RoundingMode: String, CaseIterable, Sendable, Codable {
  /// Halves go up (the default): 2.125 → 2.13.
  case halfUp = "half-up"
  /// Halves go to the even unit (banker's rounding): 2.125 → 2.12, 2.135 → 2.14.
  case halfEven = "half-even"
  /// Any fraction goes up: 2.121 → 2.13.
  case up
  /// Any fraction is dropped: 2.129 → 2.12.
  case down

  /// `numerator / denominator` rounded by this mode; both must be non-negative, the denominator positive.
  ///
  ///     RoundingMode.halfEven.divide(25, by: 10)   // 2
  public func divide(_ numerator: Int128, by denominator: Int128) -> Int128 {
    let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
    guard remainder != 0 else { return quotient }
    switch self {
    case .down: return quotient
    case .up: return quotient + 1
    case .halfUp: return remainder * 2 >= denominator ? quotient + 1 : quotient
    case .halfEven:
      let twice = remainder * 2
      if twice > denominator { return quotient + 1 }
      if twice < denominator { return quotient }
      return quotient % 2 == 0 ? quotient : quotient + 1
    }
  }
}
