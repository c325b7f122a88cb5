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

  /// Appends what ``format(_:scale:)`` prints to `bytes`, as UTF-8, with no string in between.
  public static func append(_ value: Int64, scale: Int, to bytes: inout [UInt8]) {
    let count = length(value, scale: scale)
    bytes.append(addingCapacity: count) { output in
      for _ in 0..<count { output.append(0x30) }
      var digits = output.mutableSpan
      write(value, scale: scale, length: count) { digits[$1] = $0 }
    }
  }

  /// ``format(_:scale:)`` with the whole part's digits in groups of three, for people to read:
  /// `grouped(123456789, scale: 2)` is `1,234,567.89`. (Files and programs get ``format(_:scale:)``.)
  public static func grouped(_ value: Int64, scale: Int) -> String {
    let count = groupedLength(value, scale: scale)
    var bytes = [UInt8](repeating: 0x30, count: count)
    writeGrouped(value, scale: scale) { bytes[$1] = $0 }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// How many bytes ``grouped(_:scale:)`` prints.
  @inlinable @inline(__always)
  public static func groupedLength(_ value: Int64, scale: Int) -> Int {
    let plain = length(value, scale: scale)
    return plain + separators(value, scale: scale, length: plain)
  }

  /// How many commas the whole part of `value` takes, printed in `length` bytes.
  @inlinable @inline(__always)
  static func separators(_ value: Int64, scale: Int, length: Int) -> Int {
    let whole = length - (scale > 0 ? scale + 1 : 0) - (value < 0 ? 1 : 0)
    return (whole - 1) / 3
  }

  /// Hands each byte of ``grouped(_:scale:)`` to `put` with its offset (`0..<groupedLength`, each
  /// once): ``write(_:scale:length:_:)``'s bytes moved right past the commas before them.
  @inlinable @inline(__always)
  public static func writeGrouped(_ value: Int64, scale: Int, _ put: (_ byte: UInt8, _ offset: Int) -> Void) {
    let plain = length(value, scale: scale)
    let commas = separators(value, scale: scale, length: plain)
    let sign = value < 0 ? 1 : 0
    let whole = plain - (scale > 0 ? max(scale, 0) + 1 : 0) - sign
    write(value, scale: scale, length: plain) { byte, offset in
      guard commas > 0 else { return put(byte, offset) }
      let index = offset - sign
      if index < 0 {
        put(byte, offset)
      } else if index < whole {
        // The digit's place from the right of the whole part; a comma follows every third.
        let place = whole - 1 - index
        let before = commas - place / 3
        put(byte, offset + before)
        if place > 0 && place % 3 == 0 { put(0x2C, offset + before + 1) }
      } else {
        put(byte, offset + commas)
      }
    }
  }

  /// The most bytes ``format(_:scale:)`` prints: 19 digits, a point, `scale` zeros and a sign.
  @inlinable public static func maximumLength(scale: Int) -> Int { 22 + max(scale, 0) }

  /// Hands each byte of what ``format(_:scale:)`` prints to `put` with its offset, from the last
  /// to the first: the fraction's `scale` digits two at a time, the point, the integer part's
  /// digits (at least one), the sign. `length` must be ``length(_:scale:)``; then the offsets are
  /// `0..<length`, each exactly once. Byte writers (the reports' cursor) call this with room they
  /// made; it is the one rule for printing a decimal.
  @inlinable @inline(__always)
  public static func write(_ value: Int64, scale: Int, length: Int, _ put: (_ byte: UInt8, _ offset: Int) -> Void) {
    let scale = max(scale, 0)
    var magnitude = value.magnitude
    var position = length
    func putPair(_ pair: UInt64) {
      position &-= 2
      put(UInt8(truncatingIfNeeded: pair / 10) &+ 0x30, position)
      put(UInt8(truncatingIfNeeded: pair % 10) &+ 0x30, position &+ 1)
    }
    if scale > 0 {
      var fraction = scale
      while fraction >= 2 {
        putPair(magnitude % 100)
        magnitude /= 100
        fraction -= 2
      }
      if fraction == 1 {
        position &-= 1
        put(UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30, position)
        magnitude /= 10
      }
      position &-= 1
      put(0x2E, position)
    }
    while magnitude >= 100 {
      putPair(magnitude % 100)
      magnitude /= 100
    }
    if magnitude >= 10 {
      position &-= 1
      put(UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30, position)
      magnitude /= 10
    }
    position &-= 1
    put(UInt8(truncatingIfNeeded: magnitude) &+ 0x30, position)
    if value < 0 {
      position &-= 1
      put(0x2D, position)
    }
  }

  /// How many bytes ``format(_:scale:)`` prints (writers that align numbers pad by it).
  @inlinable @inline(__always)
  public static func length(_ value: Int64, scale: Int) -> Int {
    let scale = max(scale, 0)
    return max(digitCount(value.magnitude), scale + 1) + (scale > 0 ? 1 : 0) + (value < 0 ? 1 : 0)
  }

  /// How many decimal digits `magnitude` has (1 for 0): from its bit length, 1233/4096 being just
  /// under log10(2), the guess is the digit count or one more, which one comparison settles.
  @inlinable @inline(__always)
  static func digitCount(_ magnitude: UInt64) -> Int {
    let bits = UInt64.bitWidth - (magnitude | 1).leadingZeroBitCount
    let guess = (bits &* 1233) >> 12
    return guess + ((magnitude | 1) >= powerOfTen(guess) ? 1 : 0)
  }

  /// 10^`exponent` for 0 ... 19, every power of ten a `UInt64` holds (a switch the compiler makes
  /// a table of constants, with no global to set up on first use).
  @inlinable @inline(__always)
  static func powerOfTen(_ exponent: Int) -> UInt64 {
    switch exponent {
    case 0: 1
    case 1: 10
    case 2: 100
    case 3: 1_000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    case 8: 100_000_000
    case 9: 1_000_000_000
    case 10: 10_000_000_000
    case 11: 100_000_000_000
    case 12: 1_000_000_000_000
    case 13: 10_000_000_000_000
    case 14: 100_000_000_000_000
    case 15: 1_000_000_000_000_000
    case 16: 10_000_000_000_000_000
    case 17: 100_000_000_000_000_000
    case 18: 1_000_000_000_000_000_000
    default: 10_000_000_000_000_000_000
    }
  }

  /// How many bytes ``trimmed(_:scale:)`` prints.
  @inlinable public static func trimmedLength(_ value: Int64, scale: Int) -> Int {
    let (value, scale) = withoutTrailingZeros(value, scale: scale)
    return length(value, scale: scale)
  }

  /// `value / 10^scale` as the smallest scale that states it exactly: `(171250, 4)` is `(17125, 3)`.
  @inlinable public static func withoutTrailingZeros(_ value: Int64, scale: Int) -> (Int64, Int) {
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
    let (value, scale) = withoutTrailingZeros(value, scale: scale)
    append(value, scale: scale, to: &bytes)
  }
}
