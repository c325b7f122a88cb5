import SplitBillCore

/// The arithmetic a receipt is held to. Each check compares figures read independently; a
/// receipt is verified only when the chain from its items to its total closes and nothing read
/// contradicts it.
enum ReceiptChecks {
  /// Currencies whose totals are rounded to 5 minor units in cash, often with no line saying so.
  static let cashRoundingCurrencies: Set<String> = ["MYR", "CHF"]
  /// The most, in percent of the price before it, a tax included in the prices can be: no VAT,
  /// GST or sales tax is higher (Hungary's 27 % is the highest VAT).
  static let highestTaxPercent: Int64 = 30

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
    guard var total = receipt.total else {
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

    // A total made of the printed total and a rounding under it: believed when a payment
    // confirms it (cash less change, or a card's amount).
    if total.inferred, let printed = receipt.printedTotal, let rounding = receipt.rounding {
      let paid = receipt.cash.map { $0.minorUnits - (receipt.change?.minorUnits ?? 0) }
      if paid != total.minorUnits {
        receipt.reasons.append(
          ReviewReason(
            code: "scan.total-rounded",
            message:
              "the total \(text(printed.minorUnits))\(onLine(printed.line)) and the rounding "
              + "\(text(rounding.minorUnits))\(onLine(rounding.line)) make \(text(total.minorUnits)) to pay, which no "
              + "line prints and no payment read confirms: compare it with the paper", line: rounding.line))
      }
    }

    for line in receipt.unreadFigures {
      let label = receipt.lines.indices.contains(line - 1) ? receipt.lines[line - 1] : ""
      receipt.reasons.append(
        ReviewReason(
          code: "scan.unread-figure",
          message:
            "line \(line) reads \"\(label)\" under the total \(text(total.minorUnits)), but its figure could not be "
            + "read: the total paid may differ, read it off the paper", line: line))
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
            message: itemsApart(receipt, from: subtotal, named: "subtotal", text), line: subtotal.line))
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
      // The rounding is inferred, not read: a misread figure a unit or two off looks the same. It
      // is trusted only when the tax agrees with its printed rate, to the unit; otherwise the
      // receipt is for a person to check.
      let difference = total.minorUnits - withTip
      receipt.rounding = ReadFigure(minorUnits: difference, line: nil, inferred: true)
      terms.append("\(difference < 0 ? "−" : "+") unprinted rounding to 0.05 \(text(abs(difference))) (inferred)")
      withTip = total.minorUnits
      closes = true
      if let corroboration = taxAgreesWithRate(receipt, text) {
        receipt.checks.append(ReceiptCheck(name: "tax-rate", passed: true, detail: corroboration))
      } else {
        let suspects = [("tax", receipt.tax), ("service", receipt.service), ("subtotal", receipt.subtotal)]
          .compactMap { name, figure in figure.map { "the \(name) \(text($0.minorUnits))\(onLine($0.line))" } }
        receipt.reasons.append(
          ReviewReason(
            code: "scan.rounding-inferred",
            message:
              "the figures read add up to \(text(total.minorUnits - difference)) and the total reads "
              + "\(text(total.minorUnits)): the \(text(abs(difference))) between them is taken as a rounding to "
              + "0.05 that is not printed, but a misread figure looks the same: check "
              + (suspects.isEmpty ? "the items" : suspects.joined(separator: ", ") + " and the items")
              + " against the paper", line: total.line))
      }
    }
    let name = receipt.subtotal == nil ? "items-total" : "subtotal-total"
    receipt.checks.append(
      ReceiptCheck(
        name: name, passed: closes,
        detail: terms.joined(separator: " ")
          + " = \(text(withTip)) \(closes ? "=" : "≠") total \(text(total.minorUnits))"
          + (receipt.taxIncluded ? " (tax included in the prices)" : "")))
    // A total one digit from what the figures add up to, where two read figures agree on them
    // (the items and the subtotal, or the tax and its printed rate): it is the total that is
    // misread. What the figures add up to is written instead, for a person to compare.
    if !closes, !receipt.items.isEmpty, receipt.rounding?.inferred != true,
      oneDigitApart(total.minorUnits, withTip) != nil,
      receipt.subtotal.map({ $0.minorUnits == items }) == true || taxAgreesWithRate(receipt, text) != nil
    {
      receipt.reasons.append(
        ReviewReason(
          code: "scan.total-misread",
          message:
            "the total\(onLine(total.line)) reads \(text(total.minorUnits)), one digit from \(text(withTip)), what "
            + terms.joined(separator: " ") + " add up to: \(text(withTip)) is written; compare it with the paper",
          line: total.line))
      receipt.printedTotal = total
      total = ReadFigure(minorUnits: withTip, line: total.line, inferred: true)
      receipt.total = total
    } else if !closes {
      let message: String
      if receipt.subtotal == nil, terms.count == 1 {
        message = itemsApart(receipt, from: total, named: "total", text)
      } else {
        let sum =
          terms.count == 1
          ? "the subtotal reads \(text(withTip))" : terms.joined(separator: " ") + " = \(text(withTip))"
        let needed = total.minorUnits - withTip
        let figures = [
          ("subtotal", receipt.subtotal, Int64(1)), ("discount", receipt.discount, -1), ("service", receipt.service, 1),
          ("tax", receipt.taxIncluded ? nil : receipt.tax, 1), ("tip", receipt.tip, 1),
          ("rounding", receipt.rounding, 1),
        ].compactMap { name, figure, sign in figure.map { (name, $0, sign) } }
        let misreads = figures.compactMap { name, figure, sign in
          oneDigitApart(figure.minorUnits, figure.minorUnits + sign * needed, exponent: exponent).map { _ in
            "the \(name)\(onLine(figure.line)) reads \(text(figure.minorUnits)); "
              + "\(text(figure.minorUnits + sign * needed)) would make it add up"
          }
        }
        message =
          sum
          + ", but the total reads \(text(total.minorUnits)) (\(text(abs(needed))) \(needed > 0 ? "more" : "less")): "
          + (misreads.count == 1
            ? misreads[0] + ", or the total is misread"
            : "a figure between the items and the total is misread or missing, or the total is misread")
      }
      receipt.reasons.append(ReviewReason(code: "scan.total-mismatch", message: message, line: total.line))
    }

    // A total before tax printed beside items that hold the tax: it and the tax make the total.
    if let net = receipt.net {
      if let tax = receipt.tax {
        let sum = net.minorUnits + tax.minorUnits
        record(
          &receipt, "net-tax-total", sum == total.minorUnits,
          detail: "before tax \(text(net.minorUnits)) + tax \(text(tax.minorUnits)) = \(text(sum)) "
            + "\(sum == total.minorUnits ? "=" : "≠") total \(text(total.minorUnits))",
          else: ReviewReason(
            code: "scan.net-total",
            message:
              "the total before tax\(onLine(net.line)) reads \(text(net.minorUnits)) and the tax\(onLine(tax.line)) "
              + "\(text(tax.minorUnits)), together \(text(sum)), but the total reads \(text(total.minorUnits)) "
              + "(\(text(abs(sum - total.minorUnits))) apart): one of the three is misread", line: net.line))
      }
      // No tax read: nothing to check the total before tax with (a tax line unread is no reason
      // to doubt a total its items tie to).
    }

    // An included tax is not in the sum: it is checked against its printed rate, if any.
    if receipt.taxIncluded, let tax = receipt.tax {
      if let rate = receipt.taxRate, rate > 0 {
        // total × rate / (100 % + rate), to the nearest unit (no answer past Int64: not held).
        let expected = share(of: total.minorUnits, rate: rate, included: true)
        let passed = expected.map { abs($0 - tax.minorUnits) <= 1 } ?? false
        receipt.checks.append(
          ReceiptCheck(
            name: "tax-included", passed: passed,
            detail: "tax \(text(tax.minorUnits)) \(passed ? "=" : "≠") \(DecimalText.format(rate, scale: 2))% of "
              + "\(text(total.minorUnits)) included (\(expected.map(text) ?? "not worked out"))"))
        if !passed {
          receipt.reasons.append(
            ReviewReason(
              code: "scan.tax-included",
              message:
                "the tax included reads \(text(tax.minorUnits)) but \(DecimalText.format(rate, scale: 2))% of "
                + "\(text(total.minorUnits)) is \(expected.map(text) ?? "not worked out")", line: tax.line))
        }
      } else {
        // No rate to check it by, but no tax is more than 30 % of the price before it (the
        // highest VAT is 27 %): a larger one is another figure read as tax (a taxable amount).
        let plausible =
          tax.minorUnits >= 0
          && Int128(tax.minorUnits) * Int128(100 + Self.highestTaxPercent) <= Int128(total.minorUnits)
            * Int128(Self.highestTaxPercent)
        receipt.checks.append(
          ReceiptCheck(
            name: "tax-included", passed: plausible,
            detail: plausible
              ? "tax \(text(tax.minorUnits)) included in the prices: no rate printed, so not checked"
              : "tax \(text(tax.minorUnits)) included in the total \(text(total.minorUnits)) is more than any tax"))
        if !plausible {
          receipt.reasons.append(
            ReviewReason(
              code: "scan.tax-included",
              message:
                "the tax included reads \(text(tax.minorUnits)), more of the total \(text(total.minorUnits)) than any "
                + "tax is (\(Self.highestTaxPercent) % of the price before it): another figure read as tax?",
              line: tax.line))
        }
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

  /// What shows a non-included tax agrees with the rate printed beside it: the rate of the
  /// subtotal (less the discount, with or without the service) to the nearest unit, or `nil`.
  static func taxAgreesWithRate(_ receipt: ScannedReceipt, _ text: (Int64) -> String) -> String? {
    guard let tax = receipt.tax, !receipt.taxIncluded, let rate = receipt.taxRate, rate > 0 else { return nil }
    let base = (receipt.subtotal?.minorUnits ?? receipt.itemsSum) - (receipt.discount?.minorUnits ?? 0)
    for taxed in [base + (receipt.service?.minorUnits ?? 0), base] where taxed > 0 {
      if share(of: taxed, rate: rate, included: false) == tax.minorUnits {
        return "tax \(text(tax.minorUnits)) = \(DecimalText.format(rate, scale: 2))% of \(text(taxed))"
      }
    }
    return nil
  }

  /// Why the items do not add up to `target` (the subtotal, or the total when no subtotal was
  /// read), said so a person can act on it: where the items are, how far apart the figures are,
  /// and what would close the gap: an item missing between the last item and the figure, an
  /// item read twice (one that costs the difference), or one price with one digit misread.
  static func itemsApart(
    _ receipt: ScannedReceipt, from target: ReadFigure, named name: String, _ text: (Int64) -> String
  )
    -> String
  {
    let sum = receipt.itemsSum
    let needed = target.minorUnits - sum
    let lines = receipt.items.compactMap(\.line)
    let span =
      lines.first.map { first in first == lines.last ? "on line \(first) " : "on lines \(first)–\(lines.last ?? first) "
      } ?? ""
    var said =
      "the items \(span)add up to \(text(sum)); the \(name) \(text(target.minorUnits))\(onLine(target.line)) is "
      + "\(text(abs(needed))) \(needed > 0 ? "more" : "less"): "
    let misreads = receipt.items.filter { oneDigitApart($0.amount, $0.amount + needed) != nil }
    let twice = receipt.items.filter { $0.amount == -needed }
    let unread = receipt.unreadPrices
    if misreads.count == 1, let item = misreads.first {
      said +=
        "\(item.name)\(onLine(item.line)) reads \(text(item.amount)); \(text(item.amount + needed)) would make it add up"
        + (needed > 0 ? ", or an item is missing" : "")
    } else if needed < 0, let item = twice.last, twice.allSatisfy({ $0.name == item.name }) {
      said += "is \(item.name)\(onLine(item.line)) (\(text(item.amount))) an item, or read twice?"
    } else if needed > 0, !unread.isEmpty {
      said +=
        "the price on line\(unread.count == 1 ? "" : "s") \(unread.map(String.init).joined(separator: ", ")) was not read"
    } else if needed > 0 {
      let from = lines.last.map(String.init) ?? "the top"
      let to = target.line.map(String.init) ?? "the \(name)"
      said += "an item missing between line \(from) and line \(to), or a price misread?"
    } else {
      said += "an item read twice, a line that is no item, or a price misread?"
    }
    return said
  }

  /// The position of the one digit `a` and `b` differ in, when they are positive, print with as
  /// many digits, and differ in one digit only (`12.38` and `13.38`): one misread digit. Amounts
  /// under one are compared as printed with `exponent` decimals (`0.92` and `0.02`).
  static func oneDigitApart(_ a: Int64, _ b: Int64, exponent: Int = 0) -> Int? {
    guard a > 0, b > 0, a != b else { return nil }
    func digits(_ value: Int64) -> [Character] {
      let plain = Array(String(value))
      return Array(repeating: "0", count: max(0, exponent + 1 - plain.count)) + plain
    }
    let first = digits(a)
    let second = digits(b)
    guard first.count == second.count else { return nil }
    let differing = first.indices.filter { first[$0] != second[$0] }
    return differing.count == 1 ? differing[0] : nil
  }

  /// `rate` (hundredths of a percent) of `amount`, to the nearest unit, halves up (Core's
  /// ``RoundingMode/divide(_:by:)``, in 128 bits): of the amount (`amount × rate / 100 %`) or held
  /// in it (`amount × rate / (100 % + rate)`). `nil` for a negative amount or rate.
  static func share(of amount: Int64, rate: Int64, included: Bool) -> Int64? {
    guard amount >= 0, rate >= 0 else { return nil }
    let divisor = Int128(included ? 10_000 + rate : 10_000)
    return Int64(RoundingMode.halfUp.divide(Int128(amount) * Int128(rate), by: divisor))
  }

  /// ` on line N`, or nothing for a figure not read off a line.
  static func onLine(_ line: Int?) -> String { line.map { " on line \($0)" } ?? "" }

  /// Records the check `name` with its `detail`, and `reason` when it did not hold.
  private static func record(
    _ receipt: inout ScannedReceipt, _ name: String, _ passed: Bool, detail: String, else reason: ReviewReason
  ) {
    receipt.checks.append(ReceiptCheck(name: name, passed: passed, detail: detail))
    if !passed { receipt.reasons.append(reason) }
  }

  /// Cash − change → total.
  private static func checkCashAndChange(_ receipt: inout ScannedReceipt, total: ReadFigure, _ text: (Int64) -> String)
  {
    if let cash = receipt.cash, let change = receipt.change {
      let paid = cash.minorUnits - change.minorUnits
      record(
        &receipt, "cash-change", paid == total.minorUnits,
        detail: "cash \(text(cash.minorUnits)) − change \(text(change.minorUnits)) = \(text(paid)) "
          + "\(paid == total.minorUnits ? "=" : "≠") total \(text(total.minorUnits))",
        else: ReviewReason(
          code: "scan.cash-change",
          message:
            "cash \(text(cash.minorUnits)) less change \(text(change.minorUnits)) is \(text(paid)), not the total "
            + "\(text(total.minorUnits))", line: change.line))
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
