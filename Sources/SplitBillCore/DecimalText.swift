@_spi(ByteWriters) import SplitBillBytes

/// Exact parsing and printing of plain decimal text (`84.50`, `+12.5`, `17.125`) as scaled integers.
///
/// Money, percentages and weights are all fixed-point integers: `84.50` at scale 2 is `8450`.
/// Nothing here goes through floating point.
public enum DecimalText {
  /// Why a text is not a plain decimal number.
  public enum SyntaxError: Error, Hashable, Sendable {
    /// The text is empty or only white space.
    case empty
    /// Scientific notation such as `1e3`.
    case exponentNotation
    /// Grouping such as `1,234.50`, `1 234` or `1_000`.
    case thousandsSeparator
    /// A minus sign.
    case negative
    /// Anything else: letters, two decimal points, a lone sign.
    case notANumber
    /// More fraction digits than allowed; carries how many there were.
    case tooManyDecimals(Int)
    /// More integer digits than the value may have.
    case tooLarge
  }

  /// Parses `text` into an integer scaled by `10^scale`.
  ///
  ///     try DecimalText.parse("84.5", scale: 2)    // 8450
  ///     try DecimalText.parse("12.345", scale: 2)  // throws .tooManyDecimals(3)
  ///
  /// Leading and trailing spaces are ignored; one leading `+` is allowed. With `decimalComma`,
  /// a comma is the decimal separator instead of a point. The integer part may have at most
  /// `maxIntegerDigits` significant digits, which keeps every later product far from overflow.
  public static func parse(
    _ text: some StringProtocol, scale: Int, maxIntegerDigits: Int = 15, decimalComma: Bool = false,
    allowNegative: Bool = false
  ) throws(SyntaxError) -> Int64 {
    let string = String(text)
    return try parse(
      string.utf8.span, scale: scale, maxIntegerDigits: maxIntegerDigits, decimalComma: decimalComma,
      allowNegative: allowNegative
    ).get()
  }

  /// ``parse(_:scale:maxIntegerDigits:decimalComma:allowNegative:)`` of UTF-8 bytes; `nil` where
  /// that throws.
  package static func parse(
    utf8 bytes: Span<UInt8>, scale: Int, maxIntegerDigits: Int = 15, decimalComma: Bool = false,
    allowNegative: Bool = false
  ) -> Int64? {
    try? parse(
      bytes, scale: scale, maxIntegerDigits: maxIntegerDigits, decimalComma: decimalComma, allowNegative: allowNegative
    ).get()
  }

  /// ``parse(_:scale:maxIntegerDigits:decimalComma:allowNegative:)`` on UTF-8 bytes, in one pass
  /// and without allocating: it runs for every amount, tip and weight of a run.
  private static func parse(
    _ bytes: Span<UInt8>, scale: Int, maxIntegerDigits: Int, decimalComma: Bool, allowNegative: Bool
  ) -> Result<Int64, SyntaxError> {
    let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    var end = bytes.count
    while end > 0, isBlank(bytes[end - 1]) { end -= 1 }
    var index = 0
    while index < end, isBlank(bytes[index]) { index += 1 }
    guard index < end else { return .failure(.empty) }

    let point: UInt8 = decimalComma ? 0x2C : 0x2E
    // Grouping marks: `,` (or `.` with a decimal comma), space, `_` and `'`.
    let isGroupSeparator = { (byte: UInt8) in
      byte == (decimalComma ? 0x2E : 0x2C) || byte == 0x20 || byte == 0x5F || byte == 0x27
    }
    var negative = false
    if bytes[index] == 0x2B {
      index += 1
    } else if bytes[index] == 0x2D {
      negative = true
      index += 1
    }
    var integerDigits = 0
    var significantDigits = 0
    var integerValue: Int64 = 0
    var fractionDigits = 0
    var fractionValue: Int64 = 0  // the first `scale` fraction digits
    var trailingZeros = 0  // of the fraction
    var sawPoint = false
    while index < end {
      let byte = bytes[index]
      switch byte {
      case 0x30...0x39:
        let digit = Int64(byte - 0x30)
        if sawPoint {
          if fractionDigits < scale { fractionValue = fractionValue * 10 + digit }
          fractionDigits += 1
          trailingZeros = digit == 0 ? trailingZeros + 1 : 0
        } else {
          integerDigits += 1
          if significantDigits > 0 || digit != 0 { significantDigits += 1 }
          if significantDigits <= maxIntegerDigits { integerValue = integerValue * 10 + digit }
        }
      case point where !sawPoint:
        sawPoint = true
      case 0x65, 0x45:  // e, E
        return .failure(integerDigits + fractionDigits > 0 ? .exponentNotation : .notANumber)
      case _ where isGroupSeparator(byte) && !sawPoint && integerDigits > 0:
        return .failure(.thousandsSeparator)
      default:
        return .failure(.notANumber)
      }
      index += 1
    }
    guard integerDigits > 0, !sawPoint || fractionDigits > 0 else { return .failure(.notANumber) }
    if negative && !allowNegative { return .failure(.negative) }
    // Trailing zeros beyond the scale carry no value: `84.500` is fine at scale 2.
    let decimals = fractionDigits > scale ? max(scale, fractionDigits - trailingZeros) : fractionDigits
    if decimals > scale { return .failure(.tooManyDecimals(decimals)) }
    if significantDigits > maxIntegerDigits { return .failure(.tooLarge) }
    var value = integerValue
    for _ in 0..<max(scale, 0) { value *= 10 }
    var fraction = fractionValue
    for _ in min(fractionDigits, scale)..<max(scale, 0) { fraction *= 10 }
    value += fraction
    return .success(negative ? -value : value)
  }

  /// Prints `value / 10^scale` with exactly `scale` decimals: `format(3334, scale: 2)` is `33.34`.
  public static func format(_ value: Int64, scale: Int) -> String {
    var bytes: [UInt8] = []
    append(value, scale: scale, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends what ``format(_:scale:)`` prints to `bytes`, as UTF-8, with no string in between
  /// (report writers call this once per amount).
  public static func append(_ value: Int64, scale: Int, to bytes: inout [UInt8]) {
    bytes.append(atMost: maximumLength(scale: scale)) { write(value, scale: scale, to: &$0) }
  }

  /// The most bytes ``write(_:scale:to:)`` writes: 19 digits, a point, `scale` zeros and a sign.
  @_spi(ByteWriters) @inlinable public static func maximumLength(scale: Int) -> Int { 22 + max(scale, 0) }

  /// Writes what ``format(_:scale:)`` prints at `cursor`, as UTF-8: the length counted first, then
  /// the digits put in place from the last (the fraction's `scale` digits, two at a time, the
  /// point, then the integer part's, at least one).
  @_spi(ByteWriters) @inlinable public static func write(_ value: Int64, scale: Int, to cursor: inout ByteCursor) {
    let scale = max(scale, 0)
    var magnitude = value.magnitude
    // As ``length(_:scale:)`` counts (the digit count is needed again below).
    var digits = 1
    var limit: UInt64 = 10
    while digits < 19 && magnitude >= limit {
      digits += 1
      limit &*= 10
    }
    let negative = value < 0
    let length = max(digits, scale + 1) + (scale > 0 ? 1 : 0) + (negative ? 1 : 0)
    let start = unsafe cursor.take(length)
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

  /// How many bytes ``format(_:scale:)`` prints (writers that align numbers pad by it).
  @_spi(ByteWriters) @inlinable public static func length(_ value: Int64, scale: Int) -> Int {
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

  /// How many bytes ``trimmed(_:scale:)`` prints.
  @_spi(ByteWriters) @inlinable public static func trimmedLength(_ value: Int64, scale: Int) -> Int {
    let (value, scale) = withoutTrailingZeros(value, scale: scale)
    return length(value, scale: scale)
  }

  /// `value / 10^scale` as the smallest scale that states it exactly: `(171250, 4)` is `(17125, 3)`.
  @_spi(ByteWriters) @inlinable public static func withoutTrailingZeros(_ value: Int64, scale: Int) -> (Int64, Int) {
    var scale = scale
    var value = value
    while scale > 0 && value % 10 == 0 {
      value /= 10
      scale -= 1
    }
    return (value, scale)
  }

  /// Prints `value / 10^scale` with no trailing fraction zeros: `trimmed(171250, scale: 4)` is `17.125`.
  public static func trimmed(_ value: Int64, scale: Int) -> String {
    var bytes: [UInt8] = []
    appendTrimmed(value, scale: scale, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends what ``trimmed(_:scale:)`` prints to `bytes`, as UTF-8.
  public static func appendTrimmed(_ value: Int64, scale: Int, to bytes: inout [UInt8]) {
    bytes.append(atMost: maximumLength(scale: scale)) { writeTrimmed(value, scale: scale, to: &$0) }
  }

  /// Writes what ``trimmed(_:scale:)`` prints at `cursor` (at most ``maximumLength(scale:)`` bytes).
  @_spi(ByteWriters) @inlinable public static func writeTrimmed(_ value: Int64, scale: Int, to cursor: inout ByteCursor)
  {
    let (value, scale) = withoutTrailingZeros(value, scale: scale)
    write(value, scale: scale, to: &cursor)
  }
}
