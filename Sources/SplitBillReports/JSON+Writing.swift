import SplitBillCore
import SplitBillJSON

/// Report-writing helpers for ``JSON``: constructors for money and optionals, and indented output
/// streamed into a sink.
extension JSON {
  /// An integer.
  package static func int(_ value: some BinaryInteger) -> JSON { .number(String(value)) }

  /// A string, or `null` when `value` is `nil`.
  package static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }

  /// Money as a decimal string in the currency's digits: `"33.34"`.
  package static func money(_ money: Money) -> JSON { .string(money.decimalString) }

  /// A transfer's receiver's payment details as JSON fields, those given only: `iban` (electronic
  /// form), `bic`, `link`. What `report`'s messages and `balance` add to a transfer.
  package static func paymentFields(_ details: PaymentDetails?) -> [(String, JSON)] {
    guard let details else { return [] }
    var fields: [(String, JSON)] = []
    if let iban = details.iban { fields.append(("iban", .string(iban.electronic))) }
    if let bic = details.bic { fields.append(("bic", .string(bic.code))) }
    if let link = details.link { fields.append(("link", .string(link))) }
    return fields
  }

  /// Writes the value with two-space indentation, starting at `indent` levels.
  package func write(to sink: inout some OutputSink, indent: Int = 0) {
    switch self {
    case .string(let text): sink.write(JSON.quote(text))
    case .number(let text): sink.write(text)
    case .bool(let value): sink.write(value ? "true" : "false")
    case .null: sink.write("null")
    case .array(let items): JSON.writeArray(items, to: &sink, indent: indent) { $0 }
    case .object(let members):
      guard !members.isEmpty else { return sink.write("{}") }
      sink.write("{\n")
      for (index, (key, value)) in members.enumerated() {
        sink.write(JSON.padding(indent + 1) + JSON.quote(key) + ": ")
        value.write(to: &sink, indent: indent + 1)
        sink.write(index == members.count - 1 ? "\n" : ",\n")
      }
      sink.write(JSON.padding(indent) + "}")
    }
  }

  /// Writes `items` as an array, as ``write(to:indent:)`` writes one, each element made by
  /// `element` only as it is written: a long list (a report's payments) is never held as a tree.
  package static func writeArray<Items: Collection>(
    _ items: Items, to sink: inout some OutputSink, indent: Int, _ element: (Items.Element) -> JSON
  ) {
    guard !items.isEmpty else { return sink.write("[]") }
    sink.write("[\n")
    var left = items.count
    for item in items {
      sink.write(JSON.padding(indent + 1))
      element(item).write(to: &sink, indent: indent + 1)
      left -= 1
      sink.write(left == 0 ? "\n" : ",\n")
    }
    sink.write(JSON.padding(indent) + "]")
  }

  /// The value as indented JSON text.
  package var text: String {
    var sink = StringSink()
    write(to: &sink)
    return sink.text
  }

  static func padding(_ level: Int) -> String { String(repeating: "  ", count: level) }

}
