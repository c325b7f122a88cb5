@_spi(ByteWriters) import SplitBillBytes
import SplitBillText

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
