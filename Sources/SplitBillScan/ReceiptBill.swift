import SplitBillCore
import SplitBillText

/// A scanned receipt as a bill of splitbill's YAML format, ready for review: the figures read
/// become the itemized bill's keys, and each review reason a comment on the line it is about.
public struct ReceiptBill: Sendable {
  /// The bill's id (from the photo's file name).
  public var id: String
  /// The photo's path as given: the bill's notes say it.
  public var photo: String
  public var receipt: ScannedReceipt
  /// Who ate (`Ana, Ben` or YAML's `{Ana: 2, Ben: 1}`) and who paid, from `--diners` and
  /// `--paid-by`; `nil` leaves the key out with a comment saying it is missing.
  public var diners: [String]?
  public var paidBy: String?

  public init(id: String, photo: String, receipt: ScannedReceipt, diners: [String]?, paidBy: String?) {
    self.id = id
    self.photo = photo
    self.receipt = receipt
    self.diners = diners
    self.paidBy = paidBy
  }

  /// The bill's lines, the first starting with `- ` at column `dash`, its keys at `dash + 2`.
  public func yamlLines(dash: Int) -> [String] {
    let pad = String(repeating: " ", count: dash)
    let keyPad = pad + "  "
    var lines: [String] = []
    let exponent = receipt.currency?.exponent ?? 2
    func amount(_ units: Int64) -> String { DecimalText.format(units, scale: exponent) }
    func reason(_ code: String) -> String? {
      receipt.reasons.first { $0.code == code }.map { reason in
        "  # REVIEW: " + YAMLText.comment(reason.message) + (reason.line.map { " (photo line \($0))" } ?? "")
      }
    }
    let verdict =
      receipt.status == .verified
      ? "verified: " + receipt.checks.filter(\.passed).map(\.detail).joined(separator: "; ")
      : "needs review: " + receipt.reasons.map(\.message).joined(separator: "; ")
    lines.append(pad + "# " + YAMLText.comment("\(photo): \(verdict)"))
    var keys: [String] = []
    keys.append("id: " + YAMLText.scalar(id))
    if let date = receipt.date { keys.append("date: \(date)") } else { keys.append("# date: not read") }
    if let merchant = receipt.merchant { keys.append("description: " + YAMLText.scalar(merchant)) }
    if let currency = receipt.currency {
      keys.append(
        "currency: \(currency.code)"
          + (receipt.currencySource?.hasPrefix("dollar") == true
            ? "  # a bare $ read as US dollars: give --currency for another"
            : receipt.currencySource?.hasPrefix("country") == true
              ? "  # " + YAMLText.comment("none printed; the \(receipt.currencySource ?? "")") : ""))
    } else {
      keys.append("# currency: not printed" + (reason("scan.no-currency") ?? ""))
    }
    if let diners, !diners.isEmpty {
      keys.append("diners: [" + diners.map(YAMLText.scalar).joined(separator: ", ") + "]")
    } else {
      keys.append("# diners: missing: who shared this bill? (scan --diners, or write them here)")
    }
    if let paidBy { keys.append("paid_by: " + YAMLText.scalar(paidBy)) } else { keys.append("# paid_by: missing") }
    if let tip = receipt.tip {
      keys.append("tip_amount: \(amount(tip.minorUnits))  # printed")
    } else {
      keys.append("tip: 0  # none printed")
    }
    keys.append("notes: " + YAMLText.quoted("scanned from \(photo)"))

    let items = receipt.items.filter { $0.amount > 0 }
    // Discount lines among the items, and a rounding down, are the bill's discount.
    var discount = receipt.discount?.minorUnits ?? 0
    discount += receipt.items.filter { $0.amount < 0 }.reduce(0) { $0 - $1.amount }
    if let rounding = receipt.rounding, rounding.minorUnits < 0 { discount -= rounding.minorUnits }
    if items.isEmpty {
      if let total = receipt.total {
        keys.append("amount: \(amount(total.minorUnits))" + (reason("scan.no-items") ?? ""))
      } else {
        keys.append("# amount: not read" + (reason("scan.no-total") ?? ""))
      }
      return lines + keyLines(keys, pad: pad, keyPad: keyPad)
    }
    if discount > 0 { keys.append("discount: \(amount(discount))") }
    if let service = receipt.service { keys.append("service: \(amount(service.minorUnits))") }
    if let tax = receipt.tax {
      keys.append("tax: \(amount(tax.minorUnits))")
      if receipt.taxIncluded { keys.append("tax_included: true") }
    }
    if let total = receipt.total {
      keys.append(
        "receipt_total: \(amount(total.minorUnits))"
          + (reason("scan.total-worked-out") ?? reason("scan.total-mismatch") ?? reason("scan.cash-change")
            ?? "  # as printed"))
    } else {
      keys.append("# receipt_total: not read" + (reason("scan.no-total") ?? ""))
    }
    keys.append("items:" + (reason("scan.items-subtotal") ?? ""))
    for item in items {
      var entry = "  - {name: " + YAMLText.scalar(item.name) + ", price: \(amount(item.unitPrice))"
      if item.quantity > 1 { entry += ", quantity: \(item.quantity)" }
      // An amount taken from another reading says so on its own line.
      let taken = receipt.reasons.first { $0.code == "scan.another-reading" && $0.line != nil && $0.line == item.line }
      keys.append(entry + "}" + (taken.map { "  # REVIEW: " + YAMLText.comment($0.message) } ?? ""))
    }
    if let rounding = receipt.rounding, rounding.minorUnits > 0 {
      keys.append("  - {name: Rounding, price: \(amount(rounding.minorUnits))}  # the receipt's rounding line")
    }
    return lines + keyLines(keys, pad: pad, keyPad: keyPad)
  }

  private func keyLines(_ keys: [String], pad: String, keyPad: String) -> [String] {
    keys.enumerated().map { index, key in (index == 0 ? pad + "- " : keyPad) + key }
  }

  /// An id made of a photo's file name: its stem, letters, digits, `-`, `_` and `.` kept.
  public static func id(forPhoto path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
    let kept = String(stem.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "-" })
    return kept.isEmpty ? "receipt" : kept
  }
}
