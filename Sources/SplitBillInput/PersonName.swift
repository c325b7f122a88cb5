import Foundation

/// People's names as the format compares and prints them, in bill files, flags and the screen.
package enum PersonName {
  /// Names compare and print in Unicode NFC, without the white space around them (the same
  /// white space for every name: spaces, tabs, line ends, and Unicode's other spaces).
  package static func normalized(_ name: String) -> String {
    if name.utf8.allSatisfy({ $0 < 0x80 }) {
      // ASCII (most names) is already NFC and needs only trimming, done without Foundation.
      let isSpace = { (byte: UInt8) in byte == 0x20 || (0x09...0x0D).contains(byte) }
      guard let first = name.utf8.first, let last = name.utf8.last, isSpace(first) || isSpace(last) else {
        return name
      }
      let bytes = name.utf8.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
      return String(decoding: Array(bytes), as: UTF8.self)
    }
    return name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
  }
}
