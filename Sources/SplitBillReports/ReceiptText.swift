import SplitBillCore

/// An itemized bill's receipt and each share's breakdown as one line of plain text each, for
/// the text, Markdown and HTML reports (each escapes it for its format).
///
///     receipt: 11 items 318.95 + tax 10.25% 32.69 = 351.64 (receipt total as printed); tip on pretax 318.95
///     items 89.78 + tax 9.20 + tip 17.95 + 0.01 absorbed: Shrimp cocktail 1/4, Ribeye 16 oz
package enum ReceiptText {
  /// The receipt's figures: items, discount, service, tax, the total before tip, the tip's base.
  package static func summary(_ receipt: ReceiptSplit) -> String {
    let figures = receipt.figures
    let count = receipt.receipt.items.count
    var text = "receipt: \(count) item\(count == 1 ? "" : "s") \(figures.subtotal.decimalString)"
    func rate(_ adjustment: Adjustment?) -> String { adjustment?.rate.map { " \($0)" } ?? "" }
    if figures.discount.minorUnits != 0 || receipt.receipt.discount != nil {
      text += " − discount\(rate(receipt.receipt.discount)) \(figures.discount.decimalString)"
      if let names = receipt.receipt.discountItems { text += " (on \(names.joined(separator: ", ")))" }
    }
    if receipt.receipt.service != nil {
      text += " + service\(rate(receipt.receipt.service)) \(figures.service.decimalString)"
    }
    if receipt.receipt.tax != nil && !figures.taxIncluded {
      text += " + tax\(rate(receipt.receipt.tax)) \(figures.tax.decimalString)"
    }
    text += " = \(figures.beforeTip.decimalString)"
    if figures.taxIncluded {
      text += " (incl. tax\(rate(receipt.receipt.tax)) \(figures.tax.decimalString))"
    }
    if let printed = receipt.receipt.receiptTotal {
      text +=
        printed == figures.beforeTip
        ? " (receipt total as printed)" : " (receipt total \(printed.decimalString) with tip)"
    }
    return text + "; tip on \(receipt.receipt.tipOn.rawValue) \(figures.tipBase.decimalString)"
  }

  /// The share's parts, the absorbed units, and the lines it shares with its portion of each.
  package static func breakdown(_ receipt: ReceiptSplit, share: Share, index: Int) -> String {
    let parts = receipt.breakdowns[index]
    var text = "items \(parts.items.decimalString)"
    if parts.discount.minorUnits != 0 {
      text +=
        " − discount \(Money(minorUnits: -parts.discount.minorUnits, currency: parts.discount.currency).decimalString)"
    }
    if receipt.receipt.service != nil { text += " + service \(parts.service.decimalString)" }
    if receipt.receipt.tax != nil && !receipt.figures.taxIncluded { text += " + tax \(parts.tax.decimalString)" }
    if parts.tip.minorUnits != 0 { text += " + tip \(parts.tip.decimalString)" }
    if share.absorbed > 0 {
      text += " + \(Money(minorUnits: Int64(share.absorbed), currency: parts.items.currency).decimalString) absorbed"
    }
    if receipt.figures.taxIncluded && receipt.receipt.tax != nil { text += " (incl. tax \(parts.tax.decimalString))" }
    let lines = parts.portions.map { portion in
      receipt.receipt.items[portion.item].name
        + (portion.denominator == 1 && portion.numerator == 1 ? "" : " \(portion.fraction)")
    }
    return text + (lines.isEmpty ? "" : ": " + lines.joined(separator: ", "))
  }
}
