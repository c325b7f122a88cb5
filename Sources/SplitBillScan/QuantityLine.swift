import SplitBillCore

/// A count and a unit price on a line of their own, as tills print them beside an item bought
/// more than once: `2 x 0,89`, `2 Stk x 0,99`, `3 ks x 12,50`, `2 @ 0.19`, `2X 1,49 EUR`. The line is a
/// detail of the item above or below it, whose amount is the count times the unit price; it is
/// never an item or an item's name. No I/O.
struct QuantityLine: Equatable {
  /// How many were bought (1–999).
  var count: Int
  /// The price of one, in minor units.
  var unitPrice: Int64
  /// `count` × `unitPrice`: the amount of the item the line belongs to.
  var amount: Int64 { Int64(count) * unitPrice }

  /// Words for "pieces" printed between the count and the mark (`Stk`, `St.`, `ks`, `pcs`).
  static let pieceWords: Set<String> = ["STK", "ST", "STCK", "STUCK", "KS", "PC", "PCS", "EA", "SZT", "PZ", "PCE"]
  /// Words after the unit price that belong to it (`EUR`, `ea`, `/Stk`, `EUR/Stk`).
  static let unitPriceWords: Set<String> = ["EA", "EACH", "STK", "ST", "KS", "PC", "PCS", "SZT"]

  /// The quantity line `text` is, with prices of `exponent` decimals, or `nil`.
  static func read(_ text: String, exponent: Int) -> QuantityLine? {
    var tokens = text.replacingOccurrences(of: "@", with: " @ ").replacingOccurrences(of: "×", with: " × ")
      .split(separator: " ").map(String.init)
    guard tokens.count >= 2, tokens.count <= 7 else { return nil }
    // The count, with its mark against it or not (`2`, `2x`, `2X`).
    var count: Int?
    var marked = false
    let first = tokens.removeFirst()
    let lowered = first.lowercased()
    if lowered.hasSuffix("x"), let value = Int(lowered.dropLast()) {
      count = value
      marked = true
    } else {
      count = Int(first)
    }
    guard let count, (1...999).contains(count) else { return nil }
    if !marked, let word = tokens.first, pieceWords.contains(letters(word)) { tokens.removeFirst() }
    if !marked {
      guard let mark = tokens.first, ["x", "X", "×", "*", "@"].contains(mark) else { return nil }
      tokens.removeFirst()
    }
    // The unit price, then only words that belong to it.
    guard let priceText = tokens.first,
      let price = PrintedAmount.parse(
        String(priceText.split(separator: "/").first ?? ""), exponent: exponent, wholeAmounts: exponent == 0),
      price.fractionDigits == exponent, let unitPrice = price.minorUnits(exponent: exponent),
      unitPrice > 0
    else { return nil }
    tokens.removeFirst()
    let rest = tokens.allSatisfy { word in
      let plain = letters(word)
      return word.hasPrefix("/") || unitPriceWords.contains(plain) || ReceiptReader.isCurrencyWord(word)
        || (ReceiptReader.isCurrencyWord(String(word.split(separator: "/").first ?? ""))
          && unitPriceWords.contains(letters(String(word.split(separator: "/").last ?? ""))))
    }
    guard rest else { return nil }
    return QuantityLine(count: count, unitPrice: unitPrice)
  }

  /// The word's letters, upper case, accents off (`Stk.` → `STK`, `Stück` → `STUCK`).
  private static func letters(_ word: String) -> String {
    LineRole.unaccented(word).uppercased().filter(\.isLetter)
  }
}
