@_spi(ByteWriters) import SplitBillBytes

/// Makes untrusted text safe to print on a terminal.
package enum TerminalText {
  /// `text` with every control character (C0, DEL, C1, and bidirectional overrides) shown as a
  /// visible `\u{…}` escape, so a name or a note cannot move the cursor, recolour the screen or
  /// reorder what follows it.
  ///
  ///     TerminalText.sanitize("Ana\u{1B}[2J")   // "Ana\\u{1B}[2J"
  package static func sanitize(_ text: String) -> String {
    if isPrintableASCII(text) { return text }
    guard TextBytes.hasControlOrBidi(text) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar.isControlOrBidiOverride {
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// How many terminal columns `text` takes: wide (East Asian) characters count two.
  package static func width(_ text: String) -> Int {
    // Printable ASCII, most cells: a character, and a column, per byte.
    if isPrintableASCII(text) { return text.utf8.count }
    var columns = 0
    for character in text {
      guard let scalar = character.unicodeScalars.first else { continue }
      columns += isWide(scalar) ? 2 : 1
    }
    return columns
  }

  /// Whether every byte of `text` is printable ASCII (space to `~`): nothing to escape, no
  /// character of more than one byte or column. Checked on the bytes, which is much cheaper than
  /// walking characters; the report asks it of every cell.
  static func isPrintableASCII(_ text: String) -> Bool {
    ByteScan.isPrintableASCII(text)
  }

  static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      return true
    default: return false
    }
  }

  /// `text` padded with spaces to `columns` on the right (`.left`) or left (`.right`).
  package static func pad(_ text: String, to columns: Int, alignment: Alignment) -> String {
    let fill = spaces(columns - width(text))
    return alignment == .left ? text + fill : fill + text
  }

  /// `count` spaces (none for a count below one): made once for the widths tables use.
  package static func spaces(_ count: Int) -> String {
    guard count > 0 else { return "" }
    return count < spaceRuns.count ? spaceRuns[count] : String(repeating: " ", count: count)
  }

  private static let spaceRuns = (0..<128).map { String(repeating: " ", count: $0) }

  /// Which side of a column text sits on.
  package enum Alignment: Sendable { case left, right }
}

/// Byte-level walks of untrusted text for the writers that escape it.
///
/// Exact because a Swift string is valid UTF-8: `C2 80`…`C2 9F` is U+0080…U+009F,
/// `E2 80 AA`…`AE` is U+202A…U+202E and `E2 81 A6`…`A9` is U+2066…U+2069, and every other
/// character that `isControlOrBidiOverride` is true of is one byte (C0, DEL).
enum TextBytes {
  /// How many bytes the C1 control or bidi mark at `index` takes; 0 when there is none there.
  @inline(__always)
  static func multibyteControl(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
    let byte = bytes[index]
    if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return 2 }
    if byte == 0xE2, index + 2 < bytes.count {
      let second = bytes[index + 1]
      let third = bytes[index + 2]
      if (second == 0x80 && (0xAA...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third)) {
        return 3
      }
    }
    return 0
  }

  /// Whether `text` holds a character `isControlOrBidiOverride` is true of.
  static func hasControlOrBidi(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      for index in bytes.indices {
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x7F || (byte >= 0xC2 && multibyteControl(in: bytes, at: index) > 0) { return true }
      }
      return false
    }
  }

  /// Calls `body` with each byte of `text`, leaving out the C1 control characters and the
  /// bidirectional embeddings, overrides and isolates (whole sequences), but not the C0 controls
  /// or DEL (single bytes, for the caller to handle).
  @inline(__always)
  static func forEachVisible(_ text: String, _ body: (UInt8) -> Void) {
    var text = text
    text.withUTF8 { bytes in
      var index = 0
      while index < bytes.count {
        let skip = multibyteControl(in: bytes, at: index)
        if skip > 0 {
          index += skip
        } else {
          body(bytes[index])
          index += 1
        }
      }
    }
  }
}
