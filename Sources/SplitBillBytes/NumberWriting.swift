extension ByteCursor {
  /// Writes `value / 10^scale` in decimal, as UTF-8: `-`, the integer part (at least one digit),
  /// and with a positive `scale` a point and exactly `scale` fraction digits (`12345`, scale 2:
  /// `123.45`; `-5`, scale 3: `-0.005`). The length is counted first, then the digits are put in
  /// place from the last, the fraction's two at a time. A negative scale counts as 0.
  @inlinable
  public mutating func writeDecimal(_ value: Int64, scale: Int) {
    let length = Self.decimalLength(value, scale: scale)
    let scale = max(scale, 0)
    var magnitude = value.magnitude
    let negative = value < 0
    let start = unsafe take(length)
    var position = unsafe start + length
    if scale > 0 {
      var fraction = scale
      while fraction >= 2 {
        let pair = magnitude % 100
        magnitude /= 100
        unsafe position -= 2
        unsafe position[0] = UInt8(truncatingIfNeeded: pair / 10) &+ 0x30
        unsafe position[1] = UInt8(truncatingIfNeeded: pair % 10) &+ 0x30
        fraction -= 2
      }
      if fraction == 1 {
        unsafe position -= 1
        unsafe position[0] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
        magnitude /= 10
      }
      unsafe position -= 1
      unsafe position[0] = 0x2E
    }
    repeat {
      unsafe position -= 1
      unsafe position[0] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
      magnitude /= 10
    } while magnitude > 0
    if negative { unsafe start[0] = 0x2D }
  }

  /// How many bytes ``writeDecimal(_:scale:)`` writes for `value` and `scale`.
  @inlinable
  public static func decimalLength(_ value: Int64, scale: Int) -> Int {
    let scale = max(scale, 0)
    let magnitude = value.magnitude
    var digits = 1
    var limit: UInt64 = 10
    while digits < 19 && magnitude >= limit {
      digits += 1
      limit &*= 10
    }
    return max(digits, scale + 1) + (scale > 0 ? 1 : 0) + (value < 0 ? 1 : 0)
  }

  /// Writes a date as `YYYY-MM-DD`, ten bytes. The caller checks the ranges first: `year` in
  /// 0...9999, `month` and `day` in 0...99 (a part out of range is a precondition failure).
  @inlinable
  public mutating func writeISODate(year: Int, month: Int, day: Int) {
    precondition((0...9999).contains(year) && (0...99).contains(month) && (0...99).contains(day))
    func digit(_ value: Int) -> UInt8 { 0x30 &+ UInt8(truncatingIfNeeded: value) }
    let out = unsafe take(10)
    unsafe out[0] = digit(year / 1000)
    unsafe out[1] = digit(year / 100 % 10)
    unsafe out[2] = digit(year / 10 % 10)
    unsafe out[3] = digit(year % 10)
    unsafe out[4] = 0x2D
    unsafe out[5] = digit(month / 10)
    unsafe out[6] = digit(month % 10)
    unsafe out[7] = 0x2D
    unsafe out[8] = digit(day / 10)
    unsafe out[9] = digit(day % 10)
  }
}

/// Short ASCII strings made without a buffer in between.
public enum ASCIIText {
  /// The string of three ASCII bytes (a currency code's letters), or U+FFFD for a byte past ASCII.
  @inlinable
  public static func string(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> String {
    unsafe String(unsafeUninitializedCapacity: 3) { buffer in
      unsafe buffer[0] = first
      unsafe buffer[1] = second
      unsafe buffer[2] = third
      return 3
    }
  }
}
