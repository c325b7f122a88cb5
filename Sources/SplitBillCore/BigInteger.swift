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

  /// The product with one word.
  private func multiplied(byWord factor: UInt64) -> BigUInt {
    guard factor != 0, !isZero else { return .zero }
    var result = [UInt64](repeating: 0, count: words.count + 1)
    var carry: UInt64 = 0
    for (index, word) in words.enumerated() {
      let (high, low) = word.multipliedFullWidth(by: factor)
      let (sum, overflow) = low.addingReportingOverflow(carry)
      result[index] = sum
      carry = high &+ (overflow ? 1 : 0)
    }
    result[words.count] = carry
    return BigUInt(words: result)
  }

  /// The product with a 128-bit number.
  func multiplied(by factor: UInt128) -> BigUInt {
    let low = multiplied(byWord: UInt64(truncatingIfNeeded: factor))
    let highWord = UInt64(truncatingIfNeeded: factor >> 64)
    guard highWord != 0 else { return low }
    let high = multiplied(byWord: highWord)
    return low + BigUInt(words: [0] + high.words)
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

  /// The product with a non-negative big number (schoolbook, a word at a time).
  func multiplied(by factor: BigUInt) -> BigInt {
    var product = BigUInt.zero
    for (index, word) in factor.words.enumerated() where word != 0 {
      product = product + magnitude.multiplied(by: UInt128(word)).shiftedLeft(by: 64 * index)
    }
    return BigInt(negative: negative, magnitude: product)
  }
}
