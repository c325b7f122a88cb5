import SplitBillCore

/// A number as a receipt prints it, read exactly: `14.00`, `1.234,56`, `174,600`, `$7.97`,
/// `5.00-`. Its value is `digits / 10^fractionDigits`; never a floating-point number.
public struct PrintedAmount: Sendable, Equatable {
  /// The number's digits as one integer, the sign included.
  public var digits: Int64
  /// How many of them are after the decimal separator.
  public var fractionDigits: Int
  /// Whether it had a separator grouping thousands only (`174,600`): a whole amount.
  public var groupedWhole: Bool
  /// The last separator it printed (`.` in `14.90` and `28.970`, `,` in `1.234,56`), if any: what
  /// tells the receipt's decimal mark.
  public var separator: Character? = nil

  /// The amount in `currency`'s minor units, or `nil` when it has more decimals than the
  /// currency has (`14.005 EUR`) or does not fit.
  public func minorUnits(in currency: Currency) -> Int64? {
    minorUnits(exponent: currency.exponent)
  }

  /// The amount in units of `10^-exponent`, or `nil` when it has more decimals than that.
  public func minorUnits(exponent: Int) -> Int64? {
    guard fractionDigits <= exponent else { return nil }
    var value = digits
    for _ in fractionDigits..<exponent {
      let (product, overflow) = value.multipliedReportingOverflow(by: 10)
      guard !overflow else { return nil }
      value = product
    }
    return value
  }

  /// Whether `text` starts with a minus sign: the hyphen-minus tills print, or the minus sign.
  static func startsWithMinus(_ text: some StringProtocol) -> Bool {
    text.hasPrefix("-") || text.hasPrefix("\u{2212}")
  }

  /// Reads one printed token: an optional currency sign or code before it, a sign before or after
  /// it (`-5.00`, `5.00-`, `(5.00)`), digits with thousands separators and one decimal separator.
  /// `exponent` tells a separator followed by three digits (`82,000`: thousands, unless the
  /// currency has three decimals) from a decimal one.
  ///
  /// A bare integer (`3`, `2017`) is not an amount: receipts print quantities, codes and years so.
  /// It is read only when `wholeAmounts` (currencies printed without decimals) is set.
  public static func parse(_ token: some StringProtocol, exponent: Int = 2, wholeAmounts: Bool = false)
    -> PrintedAmount?
  {
    var text = Substring(token)
    var negative = false
    if text.hasPrefix("("), text.hasSuffix(")") {
      negative = true
      text = text.dropFirst().dropLast()
    }
    if startsWithMinus(text) {
      negative = true
      text = text.dropFirst()
    }
    if text.hasSuffix("-") {
      negative = true
      text = text.dropLast()
    }
    text = stripCurrencyMarks(text)
    if text.hasPrefix("-") {
      negative = true
      text = text.dropFirst()
    }
    guard let first = text.first, first.isASCII, first.isNumber, let last = text.last, last.isASCII, last.isNumber
    else { return nil }
    var groups: [Substring] = []
    var separators: [Character] = []
    var start = text.startIndex
    for index in text.indices where !(text[index].isASCII && text[index].isNumber) {
      let character = text[index]
      guard character == "." || character == "," || character == "'" else { return nil }
      groups.append(text[start..<index])
      separators.append(character)
      start = text.index(after: index)
    }
    groups.append(text[start...])
    guard groups.allSatisfy({ !$0.isEmpty }) else { return nil }
    var whole: [Substring] = groups
    var fraction: Substring = ""
    var grouped = false
    if let lastSeparator = separators.last {
      let tail = groups[groups.count - 1]
      let isThousands =
        tail.count == 3 && exponent != 3 && lastSeparator != "'"
        && (separators.count == 1 || separators.dropLast().allSatisfy { $0 == lastSeparator })
        && !(groups[0].count == 1 && groups[0] == "0")
      if isThousands {
        grouped = true
      } else {
        // The last separator is the decimal one: the ones before it group thousands, another sign.
        guard tail.count <= 3, separators.dropLast().allSatisfy({ $0 != lastSeparator }) else { return nil }
        fraction = tail
        whole = Array(groups.dropLast())
      }
      // Groups after the first have three digits.
      guard whole.dropFirst().allSatisfy({ $0.count == 3 }), whole[0].count <= (whole.count > 1 ? 3 : 15) else {
        return nil
      }
    } else if !wholeAmounts {
      return nil
    }
    let allDigits = whole.joined() + fraction
    guard allDigits.count <= 15, var value = Int64(allDigits) else { return nil }
    if negative { value = -value }
    return PrintedAmount(
      digits: value, fractionDigits: fraction.count, groupedWhole: grouped, separator: separators.last)
  }

  /// The token without a currency sign or code before or after it (`$`, `RM`, `€`, `EUR`, `Rp.`).
  /// A tax flag of one or two capitals that Tesseract joined to a dollar sign (`W$4.47`, printed
  /// `W $4.47`, as Canadian grocers flag taxable lines) goes with the sign.
  static func stripCurrencyMarks(_ token: Substring) -> Substring {
    var text = token
    var stripped = false
    for mark in CurrencyMark.prefixes where text.count > mark.count && text.uppercased().hasPrefix(mark) {
      text = text.dropFirst(mark.count)
      if text.hasPrefix(".") || text.hasPrefix(":") { text = text.dropFirst() }
      stripped = true
      break
    }
    if !stripped, let sign = text.firstIndex(of: "$"), text.index(after: sign) < text.endIndex,
      (1...2).contains(text.distance(from: text.startIndex, to: sign)),
      text[..<sign].allSatisfy({ $0.isASCII && $0.isUppercase })
    {
      text = text[text.index(after: sign)...]
    }
    for mark in CurrencyMark.suffixes where text.count > mark.count && text.uppercased().hasSuffix(mark) {
      text = text.dropLast(mark.count)
      break
    }
    return text
  }
}

/// Currency signs and codes as receipts print them.
public enum CurrencyMark {
  /// Printed marks that name one currency.
  static let unambiguous: [(mark: String, code: String)] = [
    ("€", "EUR"), ("£", "GBP"), ("₹", "INR"), ("RM", "MYR"), ("RP", "IDR"), ("S$", "SGD"), ("US$", "USD"),
    ("C$", "CAD"), ("CA$", "CAD"), ("A$", "AUD"), ("AU$", "AUD"), ("NZ$", "NZD"), ("HK$", "HKD"), ("CHF", "CHF"),
    ("฿", "THB"), ("₱", "PHP"), ("₩", "KRW"), ("₫", "VND"), ("ZŁ", "PLN"), ("KČ", "CZK"), ("DH", "MAD"),
  ]
  /// Marks stripped from a number's front, longest first.
  static let prefixes: [String] = {
    let codes = ["USD", "EUR", "GBP", "MYR", "IDR", "CAD", "AUD", "SGD", "CHF", "JPY", "INR"]
    return (unambiguous.map(\.mark) + codes + ["$", "¥", "S", "RS"]).sorted { $0.count > $1.count }
  }()
  /// Marks stripped from a number's end.
  static let suffixes: [String] = ["€", "EUR", "£", "KČ", "ZŁ", "CHF"]
}
