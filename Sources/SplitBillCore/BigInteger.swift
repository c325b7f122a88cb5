/// A non-negative integer of any size, in 64-bit words, least significant first.
///
/// Converted balances are sums of `units × rate` over every rate met, each rate with its own
/// denominator: their common denominator grows with every rate, past any fixed width. This type
/// does only what that needs: sums, differences, products by 128-bit numbers, comparisons and a
/// quotient that fits 126 bits.
struct BigUInt: Hashable, Sendable, Comparable {
  /// No trailing zero word: zero has none.
  private(set) var words: [UInt64]

  static let zero = BigUInt(words: [])

  private init(words: [UInt64]) {
    self.words = words
    normalize()
  }

  init(_ value: UInt128) {
    self.init(words: [UInt64(truncatingIfNeeded: value), UInt64(truncatingIfNeeded: value >> 64)])
  }

  var isZero: Bool { words.isEmpty }

  private mutating func normalize() {
    while let last = words.last, last == 0 { words.removeLast() }
  }

  static func < (lhs: BigUInt, rhs: BigUInt) -> Bool {
    if lhs.words.count != rhs.words.count { return lhs.words.count < rhs.words.count }
    for index in lhs.words.indices.reversed() where lhs.words[index] != rhs.words[index] {
      return lhs.words[index] < rhs.words[index]
    }
    return false
  }

  static func + (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
    var result = [UInt64](repeating: 0, count: max(lhs.words.count, rhs.words.count) + 1)
    var carry: UInt64 = 0
    for index in 0..<(result.count - 1) {
      let left = index < lhs.words.count ? lhs.words[index] : 0
      let right = index < rhs.words.count ? rhs.words[index] : 0
      let (sum1, overflow1) = left.addingReportingOverflow(right)
      let (sum2, overflow2) = sum1.addingReportingOverflow(carry)
      result[index] = sum2
      carry = (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
    }
    result[result.count - 1] = carry
    return BigUInt(words: result)
  }

  /// `lhs − rhs`; `rhs` must not be larger.
  static func - (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
    precondition(rhs <= lhs, "BigUInt subtraction below zero")
    var result = lhs.words
    var borrow: UInt64 = 0
    for index in result.indices {
      let right = index < rhs.words.count ? rhs.words[index] : 0
      let (difference1, overflow1) = result[index].subtractingReportingOverflow(right)
      let (difference2, overflow2) = difference1.subtractingReportingOverflow(borrow)
      result[index] = difference2
      borrow = (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
    }
    return BigUInt(words: result)
  }

  /// The product (schoolbook: the numbers multiplied here have a few words on one side).
  static func * (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
    guard !lhs.isZero, !rhs.isZero else { return .zero }
    var result = [UInt64](repeating: 0, count: lhs.words.count + rhs.words.count)
    for (i, left) in lhs.words.enumerated() where left != 0 {
      var carry: UInt64 = 0
      for (j, right) in rhs.words.enumerated() {
        let (high, low) = left.multipliedFullWidth(by: right)
        let (sum1, overflow1) = result[i + j].addingReportingOverflow(low)
        let (sum2, overflow2) = sum1.addingReportingOverflow(carry)
        result[i + j] = sum2
        carry = high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0)
      }
      result[i + rhs.words.count] = carry
    }
    return BigUInt(words: result)
  }

  /// The product with a 128-bit number.
  func multiplied(by factor: UInt128) -> BigUInt { self * BigUInt(factor) }

  /// The quotient (rounded down) and remainder by one word, not zero.
  func quotientAndRemainder(dividingBy divisor: UInt64) -> (quotient: BigUInt, remainder: UInt64) {
    precondition(divisor != 0, "BigUInt division by zero")
    var quotient = [UInt64](repeating: 0, count: words.count)
    var remainder: UInt64 = 0
    for index in words.indices.reversed() {
      (quotient[index], remainder) = divisor.dividingFullWidth((remainder, words[index]))
    }
    return (BigUInt(words: quotient), remainder)
  }

  /// This number times 2^`bits`.
  func shiftedLeft(by bits: Int) -> BigUInt {
    guard !isZero, bits > 0 else { return self }
    let (wordShift, bitShift) = (bits / 64, bits % 64)
    var result = [UInt64](repeating: 0, count: words.count + wordShift + 1)
    for (index, word) in words.enumerated() {
      result[index + wordShift] |= bitShift == 0 ? word : word << bitShift
      if bitShift != 0 { result[index + wordShift + 1] |= word >> (64 - bitShift) }
    }
    return BigUInt(words: result)
  }

  /// The quotient and remainder by `divisor` (not zero), or `nil` when the quotient needs more
  /// than 126 bits. Shift and subtract: the quotients asked for are small.
  func quotientAndRemainder(dividingBy divisor: BigUInt) -> (quotient: UInt128, remainder: BigUInt)? {
    precondition(!divisor.isZero, "BigUInt division by zero")
    let limit = 126
    if divisor.shiftedLeft(by: limit) <= self { return nil }
    var remainder = self
    var quotient: UInt128 = 0
    for bit in stride(from: limit - 1, through: 0, by: -1) {
      let shifted = divisor.shiftedLeft(by: bit)
      if shifted <= remainder {
        remainder = remainder - shifted
        quotient |= 1 << UInt128(bit)
      }
    }
    return (quotient, remainder)
  }
}

/// A signed integer of any size: a sign and a ``BigUInt`` magnitude (zero is never negative).
struct BigInt: Hashable, Sendable, Comparable {
  private(set) var negative: Bool
  private(set) var magnitude: BigUInt

  static let zero = BigInt(negative: false, magnitude: .zero)

  init(negative: Bool, magnitude: BigUInt) {
    self.negative = negative && !magnitude.isZero
    self.magnitude = magnitude
  }

  init(_ value: Int128) {
    self.init(negative: value < 0, magnitude: BigUInt(value.magnitude))
  }

  var signum: Int { magnitude.isZero ? 0 : negative ? -1 : 1 }

  static func < (lhs: BigInt, rhs: BigInt) -> Bool {
    switch (lhs.negative, rhs.negative) {
    case (true, false): return true
    case (false, true): return false
    case (false, false): return lhs.magnitude < rhs.magnitude
    case (true, true): return rhs.magnitude < lhs.magnitude
    }
  }

  static prefix func - (value: BigInt) -> BigInt { BigInt(negative: !value.negative, magnitude: value.magnitude) }

  static func + (lhs: BigInt, rhs: BigInt) -> BigInt {
    if lhs.negative == rhs.negative { return BigInt(negative: lhs.negative, magnitude: lhs.magnitude + rhs.magnitude) }
    if lhs.magnitude >= rhs.magnitude {
      return BigInt(negative: lhs.negative, magnitude: lhs.magnitude - rhs.magnitude)
    }
    return BigInt(negative: rhs.negative, magnitude: rhs.magnitude - lhs.magnitude)
  }

  static func - (lhs: BigInt, rhs: BigInt) -> BigInt { lhs + -rhs }

  /// The product with a 128-bit number.
  func multiplied(by factor: Int128) -> BigInt {
    BigInt(negative: negative != (factor < 0), magnitude: magnitude.multiplied(by: factor.magnitude))
  }

  /// The product with a non-negative big number.
  func multiplied(by factor: BigUInt) -> BigInt { BigInt(negative: negative, magnitude: magnitude * factor) }
}
