@_spi(ByteWriters) import SplitBillBytes
@_spi(ByteWriters) import SplitBillCore
import SplitBillJSON

/// An itemized bill's `items`, `receipt` and `breakdown` written straight into the bill's bytes,
/// at any indentation (a test holds them to a JSON tree built apart): a tree for each receipt
/// cost the JSON report more than the rest of the bill.
struct ReceiptJSONWriter {
  var out: [UInt8]

  private mutating func pad(_ level: Int) { out.append(contentsOf: repeatElement(0x20, count: 2 * level)) }

  /// Opens a member: the separator after the one before, the indentation and the key.
  private mutating func key(_ name: StaticString, level: Int, first: Bool) {
    if !first { out.append(contentsOf: ",\n".utf8) }
    pad(level)
    out.append(0x22)
    out.append(contentsOf: name.description.utf8)
    out.append(contentsOf: "\": ".utf8)
  }

  private mutating func close(_ byte: UInt8, level: Int) {
    out.append(0x0A)
    pad(level)
    out.append(byte)
  }

  private mutating func money(_ value: Money) {
    out.append(0x22)
    out.append(atMost: DecimalText.maximumLength(scale: value.currency.exponent)) {
      DecimalText.write(value.minorUnits, scale: value.currency.exponent, to: &$0)
    }
    out.append(0x22)
  }

  private mutating func number(_ tenThousandths: Int64) {
    out.append(atMost: 32) { DecimalText.writeTrimmed(tenThousandths, scale: 4, to: &$0) }
  }

  private mutating func string(_ text: String) { JSON.appendQuoted(text, to: &out) }

  private mutating func rate(_ adjustment: Adjustment?) {
    if let percent = adjustment?.rate {
      out.append(0x22)
      number(percent.tenThousandths)
      out.append(0x22)
    } else {
      out.append(contentsOf: "null".utf8)
    }
  }

  /// The `items` array at `level`.
  mutating func items(_ receipt: Receipt, level: Int) {
    guard !receipt.items.isEmpty else { return out.append(contentsOf: "[]".utf8) }
    out.append(contentsOf: "[\n".utf8)
    for (index, item) in receipt.items.enumerated() {
      pad(level + 1)
      out.append(contentsOf: "{\n".utf8)
      key("name", level: level + 2, first: true)
      string(item.name)
      key("price", level: level + 2, first: false)
      money(item.price)
      key("quantity", level: level + 2, first: false)
      number(item.quantity.tenThousandths)
      key("total", level: level + 2, first: false)
      money(item.total)
      key("for", level: level + 2, first: false)
      if let sharers = item.sharers, !sharers.isEmpty {
        out.append(contentsOf: "[\n".utf8)
        for (position, sharer) in sharers.enumerated() {
          pad(level + 3)
          out.append(contentsOf: "{\n".utf8)
          key("person", level: level + 4, first: true)
          string(sharer.name)
          key("weight", level: level + 4, first: false)
          number(sharer.weight.tenThousandths)
          close(0x7D, level: level + 3)
          out.append(contentsOf: (position == sharers.count - 1 ? "\n" : ",\n").utf8)
        }
        pad(level + 2)
        out.append(0x5D)
      } else {
        out.append(contentsOf: (item.sharers == nil ? "null" : "[]").utf8)
      }
      close(0x7D, level: level + 1)
      out.append(contentsOf: (index == receipt.items.count - 1 ? "\n" : ",\n").utf8)
    }
    pad(level)
    out.append(0x5D)
  }

  /// The `receipt` object at `level`.
  mutating func figures(_ split: ReceiptSplit, level: Int) {
    let figures = split.figures
    let receipt = split.receipt
    out.append(contentsOf: "{\n".utf8)
    key("subtotal", level: level + 1, first: true)
    money(figures.subtotal)
    key("discount", level: level + 1, first: false)
    money(figures.discount)
    key("discount_rate", level: level + 1, first: false)
    rate(receipt.discount)
    key("discount_items", level: level + 1, first: false)
    if let names = receipt.discountItems, !names.isEmpty {
      out.append(contentsOf: "[\n".utf8)
      for (index, name) in names.enumerated() {
        pad(level + 2)
        string(name)
        out.append(contentsOf: (index == names.count - 1 ? "\n" : ",\n").utf8)
      }
      pad(level + 1)
      out.append(0x5D)
    } else {
      out.append(contentsOf: (receipt.discountItems == nil ? "null" : "[]").utf8)
    }
    key("service", level: level + 1, first: false)
    money(figures.service)
    key("service_rate", level: level + 1, first: false)
    rate(receipt.service)
    key("tax", level: level + 1, first: false)
    money(figures.tax)
    key("tax_rate", level: level + 1, first: false)
    rate(receipt.tax)
    key("tax_included", level: level + 1, first: false)
    out.append(contentsOf: (figures.taxIncluded ? "true" : "false").utf8)
    key("before_tip", level: level + 1, first: false)
    money(figures.beforeTip)
    key("tip_on", level: level + 1, first: false)
    string(receipt.tipOn.rawValue)
    key("tip_base", level: level + 1, first: false)
    money(figures.tipBase)
    key("receipt_total", level: level + 1, first: false)
    if let printed = receipt.receiptTotal { money(printed) } else { out.append(contentsOf: "null".utf8) }
    close(0x7D, level: level)
  }

  /// Share `index`'s `breakdown` object at `level`.
  mutating func breakdown(_ split: ReceiptSplit, _ index: Int, level: Int) {
    let parts = split.breakdowns[index]
    out.append(contentsOf: "{\n".utf8)
    key("items", level: level + 1, first: true)
    money(parts.items)
    key("discount", level: level + 1, first: false)
    money(parts.discount)
    key("service", level: level + 1, first: false)
    money(parts.service)
    key("tax", level: level + 1, first: false)
    money(parts.tax)
    key("tip", level: level + 1, first: false)
    money(parts.tip)
    key("portions", level: level + 1, first: false)
    if parts.portions.isEmpty {
      out.append(contentsOf: "[]".utf8)
    } else {
      out.append(contentsOf: "[\n".utf8)
      for (position, portion) in parts.portions.enumerated() {
        pad(level + 2)
        out.append(contentsOf: "{\n".utf8)
        key("item", level: level + 3, first: true)
        string(split.receipt.items[portion.item].name)
        key("portion", level: level + 3, first: false)
        string(portion.fraction)
        close(0x7D, level: level + 2)
        out.append(contentsOf: (position == parts.portions.count - 1 ? "\n" : ",\n").utf8)
      }
      pad(level + 1)
      out.append(0x5D)
    }
    close(0x7D, level: level)
  }
}
