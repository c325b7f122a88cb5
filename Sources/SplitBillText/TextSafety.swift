extension Unicode.Scalar {
  /// Whether showing this scalar could change how the text around it is displayed: C0 and C1
  /// control characters, DEL, and the bidirectional embeddings, overrides and isolates.
  ///
  /// Every writer of untrusted text (terminal, HTML, Markdown, journals, advice reasons) drops or
  /// escapes these.
  package var isControlOrBidiOverride: Bool {
    switch value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs (ASCII only: no Foundation needed).
  package var trimmingSpaces: String {
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

/// Walks of untrusted text for the writers that escape it on its bytes, derived from
/// ``Unicode/Scalar/isControlOrBidiOverride`` (the one rule): text that is all ASCII is walked
/// byte by byte, other text scalar by scalar.
package enum TextBytes {
  /// Whether `text` holds a character `isControlOrBidiOverride` is true of.
  package static func hasControlOrBidi(_ text: String) -> Bool {
    var ascii = true
    for byte in text.utf8 {
      if byte >= 0x80 {
        ascii = false
        break
      }
      if byte < 0x20 || byte == 0x7F { return true }
    }
    return !ascii && text.unicodeScalars.contains(where: \.isControlOrBidiOverride)
  }

  /// Calls `body` with each UTF-8 byte of `text`, leaving out the characters
  /// `isControlOrBidiOverride` is true of that take more than one byte (C1 controls, the
  /// bidirectional embeddings, overrides and isolates), but not the C0 controls or DEL (single
  /// bytes, for the caller to handle).
  @inline(__always)
  package static func forEachVisible(_ text: String, _ body: (UInt8) -> Void) {
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      for byte in text.utf8 { body(byte) }
      return
    }
    for scalar in text.unicodeScalars where scalar.isASCII || !scalar.isControlOrBidiOverride {
      for byte in scalar.utf8 { body(byte) }
    }
  }
}
