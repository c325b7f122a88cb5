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
    // Nothing to trim (nearly always): decided on the bytes, without walking characters.
    let whole = String(self)
    let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    if let first = whole.utf8.first, let last = whole.utf8.last, !isSpace(first), !isSpace(last) { return whole }
    var text = Substring(whole)
    while text.first == " " || text.first == "\t" { text.removeFirst() }
    while text.last == " " || text.last == "\t" { text.removeLast() }
    return String(text)
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
