import Foundation
import SplitBillCore

/// A weighed item's line, as grocers print it under the item's name: `0.825 kg @ $6.59/kg`,
/// `0,750 kg x 2,65 EUR/kg`. Its amount is the weight times the price per unit of weight, rounded
/// half up to the currency's minor unit, as the till does. No I/O.
struct WeighedLine: Equatable {
  /// The weight as printed (`0.825`), exactly.
  var weight: PrintedAmount
  /// The price per unit of weight (`6.59`).
  var unitPrice: PrintedAmount

  /// Units of weight as printed, and as Tesseract misreads them (`kq`, `ka`, `1b`).
  static let units: Set<String> = ["KG", "KQ", "KA", "K9", "LB", "LBS", "1B", "IB"]

  /// The weighed line in `text`, or `nil`. The weight may be missing from it (Tesseract puts it
  /// on a line of its own): `neighbour`, a line holding only a number (and its unit), gives it.
  static func read(_ text: String, neighbour: String? = nil) -> WeighedLine? {
    let tokens = tokens(of: text)
    // `@` (or `x`, as German tills print it), then the price per unit of weight: `$6.59/kg`,
    // `6.59 / kg`, `2,65 EUR/kg`.
    guard let at = tokens.firstIndex(where: { ["@", "x", "X", "×"].contains($0) }), at + 1 < tokens.count else {
      return nil
    }
    let after = tokens[(at + 1)...].joined(separator: " ")
    let parts = after.split(separator: "/", maxSplits: 1)
    guard parts.count == 2, let unit = parts[1].split(separator: " ").first, units.contains(unitWord(unit)),
      let price = PrintedAmount.parse(parts[0].filter { $0 != " " }, exponent: 2), price.fractionDigits == 2,
      price.digits > 0
    else { return nil }
    // The weight: the number before `@` (its unit beside it or not), else the neighbour's.
    let before = tokens[..<at].filter { !units.contains($0.uppercased()) }
    let weightText = before.last ?? neighbour.flatMap { onlyWeight($0) }
    guard let weightText, let weight = PrintedAmount.parse(weightText, exponent: 3),
      (1...3).contains(weight.fractionDigits), weight.digits > 0
    else { return nil }
    return WeighedLine(weight: weight, unitPrice: price)
  }

  /// The weight alone on a line (`0.825`, `0.825 kg`), or `nil`.
  static func onlyWeight(_ text: String) -> String? {
    let tokens = tokens(of: text).filter { !units.contains($0.uppercased()) }
    guard tokens.count == 1, let amount = PrintedAmount.parse(tokens[0], exponent: 3),
      (1...3).contains(amount.fractionDigits)
    else { return nil }
    return tokens[0]
  }

  /// The amount in units of `10^-exponent`, rounded half up (Core's ``RoundingMode``); `nil` if
  /// it does not fit.
  func amount(exponent: Int) -> Int64? {
    // Both have at most three decimals and fifteen digits: the product fits in 128 bits.
    let product = Int128(weight.digits) * Int128(unitPrice.digits)
    let shift = weight.fractionDigits + unitPrice.fractionDigits - exponent
    var power: Int128 = 1
    for _ in 0..<abs(shift) { power *= 10 }
    let value = shift >= 0 ? RoundingMode.halfUp.divide(product, by: power) : product * power
    return Int64(exactly: value)
  }

  /// The text split at spaces, with `@` a token of its own (`@$6.59/kg`, `2@`).
  private static func tokens(of text: String) -> [String] {
    text.replacingOccurrences(of: "@", with: " @ ").split(separator: " ").map(String.init)
  }

  /// A unit word's letters and digits, upper-case (`kg.` → `KG`).
  private static func unitWord(_ text: Substring) -> String {
    String(text.uppercased().filter { $0.isLetter || $0.isNumber })
  }
}
