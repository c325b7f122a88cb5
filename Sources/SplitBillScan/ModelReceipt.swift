import Foundation
import SplitBillCore
import SplitBillJSON

extension ReceiptReader {
  /// A vision model's answer (the receipt JSON `scan --engine gemini|openai` asks for) as a
  /// ``ScannedReceipt``, checked by the same arithmetic as a Tesseract reading: the model's word is
  /// no more trusted than Tesseract's. Amounts are read from their printed text exactly; an answer
  /// that is not the JSON asked for needs review (`scan.bad-answer`).
  public static func read(modelAnswer text: String, currency option: Currency?) -> ScannedReceipt {
    var receipt = ScannedReceipt()
    receipt.lines = text.split(separator: "\n").map(String.init)
    guard let json = JSON.parse(text), case .object = json else {
      receipt.reasons.append(
        ReviewReason(
          code: "scan.bad-answer", message: "the model's answer is not the receipt JSON asked for", line: nil))
      return receipt
    }
    func string(_ key: String) -> String? {
      guard let value = json[key]?.string?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
      return value
    }
    receipt.merchant = string("merchant").map { String($0.prefix(60)) }
    receipt.date = string("date").flatMap { CalendarDate(iso: $0) }
    if let code = string("currency")?.uppercased(), let currency = try? Currency(code: code) {
      receipt.currency = currency
      receipt.currencySource = "printed"
    } else if let option {
      receipt.currency = option
      receipt.currencySource = "option"
    }
    let exponent = receipt.currency?.exponent ?? 2
    var tooPrecise = false
    func units(_ value: JSON?) -> Int64? {
      guard let value, let text = value.string ?? value.numberText else { return nil }
      let cleaned = text.filter { !$0.isWhitespace }
      guard let amount = PrintedAmount.parse(cleaned, exponent: exponent, wholeAmounts: true) else { return nil }
      guard let minor = amount.minorUnits(exponent: exponent) else {
        tooPrecise = true
        return nil
      }
      return minor
    }
    func figure(_ key: String) -> ReadFigure? { units(json[key]).map { ReadFigure(minorUnits: $0, line: nil) } }
    for item in json["items"]?.items ?? [] {
      guard let name = item["name"]?.string?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
        let amount = units(item["price"]), amount != 0
      else { continue }
      var quantity = 1
      if let text = item["quantity"]?.numberText ?? item["quantity"]?.string, let count = Int(text), count > 1,
        amount % Int64(count) == 0
      {
        quantity = count
      }
      receipt.items.append(ScannedItem(name: String(name.prefix(120)), amount: amount, quantity: quantity, line: nil))
    }
    receipt.subtotal = figure("subtotal")
    receipt.discount = figure("discount").map { ReadFigure(minorUnits: abs($0.minorUnits), line: nil) }
    receipt.service = figure("service")
    receipt.tax = figure("tax")
    receipt.taxIncluded = json["tax_included"] == .bool(true) && receipt.tax != nil
    receipt.rounding = figure("rounding")
    receipt.tip = figure("tip")
    receipt.total = figure("total")
    receipt.cash = figure("cash")
    receipt.change = figure("change")
    if tooPrecise {
      receipt.checks.append(
        ReceiptCheck(
          name: "decimals", passed: false,
          detail: "more decimals than \(receipt.currency?.code ?? "the currency") has (\(exponent))"))
    }
    ReceiptChecks.check(&receipt, exponent: exponent)
    return receipt
  }
}
