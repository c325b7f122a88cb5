import SplitBillCore

/// A JSON value whose object keys keep the order they were given in, so output is stable.
public indirect enum JSONValue: Equatable, Sendable {
  case string(String)
  /// A number, as its exact decimal text (`2`, `1.5`).
  case number(String)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// An integer.
  public static func int(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

  /// A string, or `null` when `value` is `nil`.
  public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

  /// Money as a decimal string in the currency's digits: `"33.34"`.
  public static func money(_ money: Money) -> JSONValue { .string(money.decimalString) }

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)), (.number(let a), .number(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.null, .null): return true
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
    default: return false
    }
  }

  /// Writes the value with two-space indentation, starting at `indent` levels.
  public func write(to sink: inout some OutputSink, indent: Int = 0) {
    switch self {
    case .string(let text): sink.write(JSONValue.quote(text))
    case .number(let text): sink.write(text)
    case .bool(let value): sink.write(value ? "true" : "false")
    case .null: sink.write("null")
    case .array(let items):
      guard !items.isEmpty else { return sink.write("[]") }
      sink.write("[\n")
      for (index, item) in items.enumerated() {
        sink.write(JSONValue.padding(indent + 1))
        item.write(to: &sink, indent: indent + 1)
        sink.write(index == items.count - 1 ? "\n" : ",\n")
      }
      sink.write(JSONValue.padding(indent) + "]")
    case .object(let members):
      guard !members.isEmpty else { return sink.write("{}") }
      sink.write("{\n")
      for (index, (key, value)) in members.enumerated() {
        sink.write(JSONValue.padding(indent + 1) + JSONValue.quote(key) + ": ")
        value.write(to: &sink, indent: indent + 1)
        sink.write(index == members.count - 1 ? "\n" : ",\n")
      }
      sink.write(JSONValue.padding(indent) + "}")
    }
  }

  /// The value as indented JSON text.
  public var text: String {
    var sink = StringSink()
    write(to: &sink)
    return sink.text
  }

  static func padding(_ level: Int) -> String { String(repeating: "  ", count: level) }

  /// `text` as a JSON string literal; control characters, quotes and backslashes are escaped.
  public static func quote(_ text: String) -> String { JSONString.quote(text) }
}
