extension Unicode.Scalar {
  /// Whether showing this scalar could change how the text around it is displayed: C0 and C1
  /// control characters, DEL, and the bidirectional embeddings, overrides and isolates.
  ///
  /// Every writer of untrusted text (terminal, HTML, Markdown, journals, advice reasons) drops or
  /// escapes these. The byte writers tell them on UTF-8 (SplitBillBytes' `TextBytes`, inlined into
  /// every cell's walk); a test holds the two to each other on every kind of character.
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
