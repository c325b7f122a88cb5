import SplitBillCore

/// The arithmetic a receipt is held to. Each check compares figures read independently; a
/// receipt is verified only when the chain from its items to its total closes and nothing read
/// contradicts it.
enum ReceiptChecks {
  /// Currencies whose totals are rounded to 5 minor units in cash, often with no line saying so.
  static let cashRoundingCurrencies: Set<String> = ["MYR", "CHF"]

  static func check(_ receipt: inout ScannedReceipt, exponent: Int) {
    func text(_ units: Int64) -> String { DecimalText.format(units, scale: exponent) }
    let items = receipt.itemsSum

    if receipt.currency == nil {
      receipt.reasons.append(
        ReviewReason(
          code: "scan.no-currency",
          message: "no currency code or sign is printed that names one: give --currency", line: nil))
    }
    if let decimals = receipt.checks.first(where: { $0.name == "decimals" && !$0.passed }) {
      receipt.reasons.append(
        ReviewReason(code: "scan.decimals", message: "an amount has \(decimals.detail)", line: nil))
    }
    guard let total = receipt.total else {
      receipt.reasons.append(
        ReviewReason(code: "scan.no-total", message: "no total was read: type the printed total in", line: nil))
      if receipt.items.isEmpty {
        receipt.reasons.append(ReviewReason(code: "scan.no-items", message: "no item lines were read", line: nil))
      }
      return
    }
    guard !receipt.items.isEmpty else {
      receipt.reasons.append(
        ReviewReason(
          code: "scan.no-items",
          message: "no item lines were read: the total \(text(total.minorUnits)) is not checked", line: total.line))
      return
    }

    for line in receipt.unreadPrices {
      receipt.reasons.append(
        ReviewReason(
          code: "scan.unread-price", message: "an item's price on this line could not be read: add the item by hand",
          line: line))
    }

    // Items → subtotal.
    if let subtotal = receipt.subtotal {
      let passed = items == subtotal.minorUnits
      receipt.checks.append(
        ReceiptCheck(
          name: "items-subtotal", passed: passed,
          detail: "items \(text(items)) \(passed ? "=" : "≠") subtotal \(text(subtotal.minorUnits))"))
      if !passed {
        receipt.reasons.append(
          ReviewReason(
            code: "scan.items-subtotal",
            message:
              "the items read add up to \(text(items)) but the subtotal reads \(text(subtotal.minorUnits)) "
              + "(\(text(abs(items - subtotal.minorUnits))) \(items < subtotal.minorUnits ? "missing" : "too much")): "
              + "an item is missing or misread", line: subtotal.line))
      }
    }

    // A total worked out from the subtotal cannot be checked against it: it is said, not checked.
    if receipt.totalWorkedOut {
      receipt.reasons.append(
        ReviewReason(
          code: "scan.total-worked-out",
          message:
            "no total could be read: \(text(total.minorUnits)) is \(chain(receipt, text).terms.joined(separator: " ")); "
            + "compare it with the printed total", line: nil))
      checkCashAndChange(&receipt, total: total, text)
      addDecimalsCheck(&receipt, exponent: exponent)
      return
    }

    // Subtotal (or items) → total.
    let chained = chain(receipt, text)
    let computed = chained.computed
    var withTip = chained.withTip
    var terms = chained.terms
    var closes = total.minorUnits == withTip || total.minorUnits == computed
    // Where cash is rounded to 5 units (Malaysia's ringgit, the Swiss franc), a total may be
    // rounded without a rounding line: the difference becomes one.
    if !closes, receipt.rounding == nil, let currency = receipt.currency,
      cashRoundingCurrencies.contains(currency.code), total.minorUnits % 5 == 0,
      abs(total.minorUnits - withTip) <= 2
    {
      let difference = total.minorUnits - withTip
      receipt.rounding = ReadFigure(minorUnits: difference, line: nil)
      terms.append("\(difference < 0 ? "−" : "+") unprinted rounding to 0.05 \(text(abs(difference)))")
      withTip = total.minorUnits
      closes = true
    }
    let name = receipt.subtotal == nil ? "items-total" : "subtotal-total"
    receipt.checks.append(
      ReceiptCheck(
        name: name, passed: closes,
        detail: terms.joined(separator: " ")
          + " = \(text(withTip)) \(closes ? "=" : "≠") total \(text(total.minorUnits))"
          + (receipt.taxIncluded ? " (tax included in the prices)" : "")))
    if !closes {
      let sum =
        terms.count == 1
        ? "the \(receipt.subtotal == nil ? "items add up to" : "subtotal reads") \(text(withTip))"
        : terms.joined(separator: " ") + " = \(text(withTip))"
      receipt.reasons.append(
        ReviewReason(
          code: "scan.total-mismatch",
          message: sum
            + ", but the total reads \(text(total.minorUnits)) (\(text(abs(withTip - total.minorUnits))) apart)",
          line: total.line))
    }

    // An included tax is not in the sum: it is checked against its printed rate, if any.
    if receipt.taxIncluded, let tax = receipt.tax {
      if let rate = receipt.taxRate, rate > 0 {
        // total × rate / (100 % + rate), to the nearest unit.
        let expected = (2 * total.minorUnits * rate + (10_000 + rate)) / (2 * (10_000 + rate))
        let passed = abs(expected - tax.minorUnits) <= 1
        receipt.checks.append(
          ReceiptCheck(
            name: "tax-included", passed: passed,
            detail: "tax \(text(tax.minorUnits)) \(passed ? "=" : "≠") \(DecimalText.format(rate, scale: 2))% of "
              + "\(text(total.minorUnits)) included (\(text(expected)))"))
        if !passed {
          receipt.reasons.append(
            ReviewReason(
              code: "scan.tax-included",
              message:
                "the tax included reads \(text(tax.minorUnits)) but \(DecimalText.format(rate, scale: 2))% of "
                + "\(text(total.minorUnits)) is \(text(expected))", line: tax.line))
        }
      } else {
        receipt.checks.append(
          ReceiptCheck(
            name: "tax-included", passed: true,
            detail: "tax \(text(tax.minorUnits)) included in the prices: no rate printed, so not checked"))
      }
    }

    checkCashAndChange(&receipt, total: total, text)
    addDecimalsCheck(&receipt, exponent: exponent)
  }

  /// The chain from the subtotal (or the items, when none was read) to the total: the subtotal
  /// less the discount plus service, tax (unless included) and rounding (`computed`), then a
  /// printed tip (`withTip`), and its terms as the checks and reasons say them. The one place a
  /// receipt's figures are added up: the `subtotal-total` check and a worked-out total use it.
  static func chain(_ receipt: ScannedReceipt, _ text: (Int64) -> String = { String($0) })
    -> (computed: Int64, withTip: Int64, terms: [String])
  {
    let base = receipt.subtotal?.minorUnits ?? receipt.itemsSum
    var computed = base
    var terms = [receipt.subtotal == nil ? "items \(text(base))" : "subtotal \(text(base))"]
    if let discount = receipt.discount {
      computed -= discount.minorUnits
      terms.append("− discount \(text(discount.minorUnits))")
    }
    if let service = receipt.service {
      computed += service.minorUnits
      terms.append("+ service \(text(service.minorUnits))")
    }
    if let tax = receipt.tax, !receipt.taxIncluded {
      computed += tax.minorUnits
      terms.append("+ tax \(text(tax.minorUnits))")
    }
    if let rounding = receipt.rounding {
      computed += rounding.minorUnits
      terms.append("\(rounding.minorUnits < 0 ? "−" : "+") rounding \(text(abs(rounding.minorUnits)))")
    }
    var withTip = computed
    if let tip = receipt.tip {
      withTip += tip.minorUnits
      terms.append("+ tip \(text(tip.minorUnits))")
    }
    return (computed, withTip, terms)
  }

  /// Cash − change → total.
  private static func checkCashAndChange(_ receipt: inout ScannedReceipt, total: ReadFigure, _ text: (Int64) -> String)
  {
    if let cash = receipt.cash, let change = receipt.change {
      let paid = cash.minorUnits - change.minorUnits
      let passed = paid == total.minorUnits
      receipt.checks.append(
        ReceiptCheck(
          name: "cash-change", passed: passed,
          detail: "cash \(text(cash.minorUnits)) − change \(text(change.minorUnits)) = \(text(paid)) "
            + "\(passed ? "=" : "≠") total \(text(total.minorUnits))"))
      if !passed {
        receipt.reasons.append(
          ReviewReason(
            code: "scan.cash-change",
            message:
              "cash \(text(cash.minorUnits)) less change \(text(change.minorUnits)) is \(text(paid)), not the total "
              + "\(text(total.minorUnits))", line: change.line))
      }
    }
  }

  /// The `decimals` check, passed, when no amount had too many.
  private static func addDecimalsCheck(_ receipt: inout ScannedReceipt, exponent: Int) {
    if !receipt.checks.contains(where: { $0.name == "decimals" }) {
      receipt.checks.append(
        ReceiptCheck(
          name: "decimals", passed: true,
          detail: "every amount has at most \(exponent) decimals (\(receipt.currency?.code ?? "two, by default"))"))
    }
  }
}
