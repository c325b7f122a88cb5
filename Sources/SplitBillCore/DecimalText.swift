/// Exact parsing and printing of plain decimal text (`84.50`, `+12.5`, `17.125`) as scaled integers.
///
/// Money, percentages and weights are all fixed-point integers: `84.50` at scale 2 is `8450`.
/// Nothing here goes through floating point.
public enum DecimalText {
  /// Why a text is not a plain decimal number.
  public enum SyntaxError: Error, Equatable, Sendable {
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
    var bytes = Array(text.utf8)
    while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
    var start = 0
    while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    bytes = Array(bytes[start...])
    guard !bytes.isEmpty else { throw .empty }

    let point: UInt8 = decimalComma ? 0x2C : 0x2E
    let groupSeparators: Set<UInt8> = decimalComma ? [0x2E, 0x20, 0x5F, 0x27] : [0x2C, 0x20, 0x5F, 0x27]
    var index = 0
    var negative = false
    if bytes[0] == 0x2B {
      index = 1
    } else if bytes[0] == 0x2D {
      negative = true
      index = 1
    }
    var integerDigits: [UInt8] = []
    var fractionDigits: [UInt8] = []
    var sawPoint = false
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x30...0x39:
        if sawPoint { fractionDigits.append(byte - 0x30) } else { integerDigits.append(byte - 0x30) }
      case point where !sawPoint:
        sawPoint = true
      case 0x65, 0x45:  // e, E
        let isDigitBefore = !integerDigits.isEmpty || !fractionDigits.isEmpty
        throw isDigitBefore ? .exponentNotation : .notANumber
      case _ where groupSeparators.contains(byte) && !sawPoint && !integerDigits.isEmpty:
        throw .thousandsSeparator
      default:
        throw .notANumber
      }
      index += 1
    }
    guard !integerDigits.isEmpty, !sawPoint || !fractionDigits.isEmpty else { throw .notANumber }
    if negative && !allowNegative { throw .negative }
    // Trailing zeros beyond the scale carry no value: `84.500` is fine at scale 2.
    while fractionDigits.count > scale, fractionDigits.last == 0 { fractionDigits.removeLast() }
    if fractionDigits.count > scale { throw .tooManyDecimals(fractionDigits.count) }
    let significant = integerDigits.drop { $0 == 0 }
    if significant.count > maxIntegerDigits { throw .tooLarge }
    var value: Int64 = 0
    for digit in significant { value = value * 10 + Int64(digit) }
    for position in 0..<scale {
      value = value * 10 + Int64(position < fractionDigits.count ? fractionDigits[position] : 0)
    }
    return negative ? -value : value
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
    // At most 19 digits, a point, scale zeros and a sign: written backwards into stack space.
    let capacity = 22 + max(scale, 0)
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
      var magnitude = value.magnitude
      var position = capacity
      var written = 0
      repeat {
        if scale > 0 && written == scale {
          position -= 1
          buffer[position] = 0x2E
        }
        position -= 1
        buffer[position] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
        magnitude /= 10
        written += 1
      } while magnitude > 0 || written <= scale
      if value < 0 {
        position -= 1
        buffer[position] = 0x2D
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position..<capacity]))
    }
  }

  /// Prints `value / 10^scale` with no trailing fraction zeros: `trimmed(171250, scale: 4)` is `17.125`.
  public static func trimmed(_ value: Int64, scale: Int) -> String {
    var bytes: [UInt8] = []
    appendTrimmed(value, scale: scale, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends what ``trimmed(_:scale:)`` prints to `bytes`, as UTF-8.
  public static func appendTrimmed(_ value: Int64, scale: Int, to bytes: inout [UInt8]) {
    var scale = scale
    var value = value
    while scale > 0 && value % 10 == 0 {
      value /= 10
      scale -= 1
    }
    append(value, scale: scale, to: &bytes)
  }
}
