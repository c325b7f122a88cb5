extension Unicode.Scalar {
  /// Whether showing this scalar could change how the text around it is displayed: C0 and C1
  /// control characters, DEL, and the bidirectional embeddings, overrides and isolates.
  ///
  /// Every writer of untrusted text (terminal, HTML, Markdown, journals, advice reasons) drops or
  /// escapes these.
  public var isControlOrBidiOverride: Bool {
    switch value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs (ASCII only: no Foundation needed).
  public var trimmingSpaces: String {
    var text = Substring(self)
    while text.first == " " || text.first == "\t" { text.removeFirst() }
    while text.last == " " || text.last == "\t" { text.removeLast() }
    return String(text)
  }
}

/// JSON string literals, shared by the report writers and the advisor's request bodies.
public enum JSONString {
  /// `text` as a JSON string literal: quotes, backslashes and control characters escaped, and
  /// U+2028/U+2029 too, so the output is also safe inside JavaScript.
  public static func quote(_ text: String) -> String {
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
  public static func append(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(0x22)
    appendBody(text, to: &bytes)
    bytes.append(0x22)
  }

  /// Appends what stands between the quotes of ``quote(_:)`` of `text`.
  public static func appendBody(_ text: String, to bytes: inout [UInt8]) {
    var text = text
    text.withUTF8 { utf8 in
      if utf8.allSatisfy(isPlain) {
        bytes.append(contentsOf: utf8)
      } else {
        bytes.append(contentsOf: quote(String(decoding: utf8, as: UTF8.self)).utf8.dropFirst().dropLast())
      }
    }
  }

  /// A byte that stands for itself inside a JSON string (0xE2 starts U+2028 and U+2029, which are
  /// escaped too; text holding it takes the careful path).
  @inline(__always)
  private static func isPlain(_ byte: UInt8) -> Bool {
    byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F && byte != 0xE2
  }
}

/// SplitMix64: a small, fast, seeded generator (backoff jitter; reproducible random tests).
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator that always produces the same sequence for `seed`.
  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
