@_spi(ByteWriters) import SplitBillBytes

/// A JSON value that keeps numbers as their exact text (a percentage or an amount never goes
/// through `Double`) and objects as key-ordered pairs, so output is stable and input is exact.
///
/// Parsing is strict: malformed input is `nil`. The report writers print it indented
/// (`SplitBillReports`); ``encoded`` gives compact text for request bodies.
package indirect enum JSON: Equatable, Sendable {
  case string(String)
  case number(String)
  case bool(Bool)
  case null
  case array([JSON])
  case object([(String, JSON)])

  package static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)), (.number(let a), .number(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.null, .null): return true
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
    default: return false
    }
  }

  /// Parses a whole JSON text; `nil` when it is not valid JSON.
  package static func parse(_ text: some StringProtocol) -> JSON? { parse(Array(text.utf8)) }

  /// Parses UTF-8 bytes; `nil` when they are not valid JSON.
  package static func parse(_ bytes: [UInt8]) -> JSON? {
    var parser = Parser(bytes: bytes)
    guard let value = parser.value(depth: 0) else { return nil }
    parser.skipSpace()
    return parser.index == bytes.count ? value : nil
  }

  /// The byte offset where `bytes` stop being valid JSON (about where a parser gives up), or `nil`
  /// when they are valid: for messages that point at the mistake.
  package static func errorOffset(_ bytes: [UInt8]) -> Int? {
    var parser = Parser(bytes: bytes)
    guard parser.value(depth: 0) != nil else { return min(parser.index, bytes.count) }
    parser.skipSpace()
    return parser.index == bytes.count ? nil : parser.index
  }

  /// The member `key` of an object.
  package subscript(key: String) -> JSON? {
    if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
    return nil
  }

  /// The items of an array (empty for anything else).
  package var items: [JSON] {
    if case .array(let items) = self { return items }
    return []
  }

  /// The string value, if this is a string.
  package var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// A number's exact text, or a string's (models sometimes quote numbers).
  package var numberText: String? {
    switch self {
    case .number(let text), .string(let text): return text
    default: return nil
    }
  }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    mutating func skipSpace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) -> JSON? {
      guard depth < 64 else { return nil }
      skipSpace()
      guard index < bytes.count else { return nil }
      switch bytes[index] {
      case 0x7B: return object(depth: depth)
      case 0x5B: return array(depth: depth)
      case 0x22: return string().map(JSON.string)
      case 0x74: return literal("true", .bool(true))
      case 0x66: return literal("false", .bool(false))
      case 0x6E: return literal("null", .null)
      default: return number()
      }
    }

    mutating func literal(_ word: String, _ value: JSON) -> JSON? {
      let expected = Array(word.utf8)
      guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
        return nil
      }
      index += expected.count
      return value
    }

    mutating func number() -> JSON? {
      let start = index
      if index < bytes.count, bytes[index] == 0x2D { index += 1 }
      let digitsStart = index
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
      guard index > digitsStart else { return nil }
      if index < bytes.count, bytes[index] == 0x2E {
        index += 1
        let fraction = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        guard index > fraction else { return nil }
      }
      if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
        index += 1
        if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
        let exponent = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        guard index > exponent else { return nil }
      }
      return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    mutating func string() -> String? {
      index += 1
      var scalars = String.UnicodeScalarView()
      var raw: [UInt8] = []
      func flush() {
        if !raw.isEmpty {
          scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
          raw.removeAll()
        }
      }
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case 0x22:
          flush()
          return String(scalars)
        case 0x5C:
          flush()
          guard index < bytes.count else { return nil }
          let escape = bytes[index]
          index += 1
          switch escape {
          case 0x22: scalars.append("\"")
          case 0x5C: scalars.append("\\")
          case 0x2F: scalars.append("/")
          case 0x62: scalars.append("\u{08}")
          case 0x66: scalars.append("\u{0C}")
          case 0x6E: scalars.append("\n")
          case 0x72: scalars.append("\r")
          case 0x74: scalars.append("\t")
          case 0x75:
            guard var code = hex4() else { return nil }
            if (0xD800...0xDBFF).contains(code), index + 1 < bytes.count, bytes[index] == 0x5C, bytes[index + 1] == 0x75
            {
              index += 2
              guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
          default: return nil
          }
        case 0x00...0x1F:
          return nil
        default:
          raw.append(byte)
        }
      }
      return nil
    }

    mutating func hex4() -> UInt32? {
      guard index + 4 <= bytes.count else { return nil }
      var value: UInt32 = 0
      for byte in bytes[index..<index + 4] {
        let digit: UInt32
        switch byte {
        case 0x30...0x39: digit = UInt32(byte - 0x30)
        case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
        case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
        default: return nil
        }
        value = value * 16 + digit
      }
      index += 4
      return value
    }

    mutating func array(depth: Int) -> JSON? {
      index += 1
      var items: [JSON] = []
      skipSpace()
      if index < bytes.count, bytes[index] == 0x5D {
        index += 1
        return .array(items)
      }
      while true {
        guard let item = value(depth: depth + 1) else { return nil }
        items.append(item)
        skipSpace()
        guard index < bytes.count else { return nil }
        if bytes[index] == 0x2C {
          index += 1
        } else if bytes[index] == 0x5D {
          index += 1
          return .array(items)
        } else {
          return nil
        }
      }
    }

    mutating func object(depth: Int) -> JSON? {
      index += 1
      var members: [(String, JSON)] = []
      skipSpace()
      if index < bytes.count, bytes[index] == 0x7D {
        index += 1
        return .object(members)
      }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == 0x22, let key = string() else { return nil }
        skipSpace()
        guard index < bytes.count, bytes[index] == 0x3A else { return nil }
        index += 1
        guard let item = value(depth: depth + 1) else { return nil }
        members.append((key, item))
        skipSpace()
        guard index < bytes.count else { return nil }
        if bytes[index] == 0x2C {
          index += 1
        } else if bytes[index] == 0x7D {
          index += 1
          return .object(members)
        } else {
          return nil
        }
      }
    }
  }
}

extension JSON {
  /// Compact JSON text for this value (request bodies).
  package var encoded: String {
    switch self {
    case .string(let text): return JSON.quote(text)
    case .number(let text): return text
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    case .array(let items): return "[" + items.map(\.encoded).joined(separator: ",") + "]"
    case .object(let members):
      return "{" + members.map { JSON.quote($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}"
    }
  }
}

/// JSON string literals, shared by the report writers and the advisor's request bodies.
extension JSON {
  /// `text` as a JSON string literal: quotes, backslashes and control characters escaped, and
  /// U+2028/U+2029 too, so the output is also safe inside JavaScript.
  package static func quote(_ text: String) -> String {
    // Most text needs no escape at all: check the bytes once and return it as it is.
    if text.utf8.allSatisfy(isPlain) { return "\"" + text + "\"" }
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// Appends ``quote(_:)`` of `text` to `bytes` as UTF-8; text with nothing to escape is copied
  /// straight in.
  package static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(0x22)
    appendEscaped(text, to: &bytes)
    bytes.append(0x22)
  }

  /// Appends what stands between the quotes of ``quote(_:)`` of `text`.
  package static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(atMost: maximumEscapedLength(text)) { writeEscaped(text, to: &$0) }
  }

  /// The most bytes ``writeEscaped(_:to:)`` writes for `text`: six for each of its bytes (`\u0001`).
  @_spi(ByteWriters) @inlinable public static func maximumEscapedLength(_ text: String) -> Int { 6 * text.utf8.count }

  /// Writes what stands between the quotes of ``quote(_:)`` of `text` at `cursor`; text with
  /// nothing to escape is copied straight in.
  @_spi(ByteWriters) @inlinable public static func writeEscaped(_ text: String, to cursor: inout ByteCursor) {
    guard !cursor.write(utf8: text, ifEvery: isPlain) else { return }
    let quoted = quote(text).utf8
    cursor.write(quoted.span.extracting(1..<quoted.count - 1))
  }

  /// A byte that stands for itself inside a JSON string (0xE2 starts U+2028 and U+2029, which are
  /// escaped too; text holding it takes the careful path).
  @usableFromInline @inline(__always)
  static func isPlain(_ byte: UInt8) -> Bool {
    byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F && byte != 0xE2
  }
}
