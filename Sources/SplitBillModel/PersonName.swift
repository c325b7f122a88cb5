import Foundation
import SplitBillText

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

extension PersonName {
  /// For each name that looks like an earlier one, the two positions: names the same but for case
  /// and accents (`jonas`, `Jonás`), or of at least three letters and one edit apart (two when
  /// both have more than five: `Jonsa` for `Jonas`, a swap of two letters being one edit). A
  /// name is paired with the first it looks like. Names are compared in the order given (first
  /// met first); past ``Spelling/longestWord`` letters a name is compared only by case and accents.
  ///
  /// With `prefixes`, a name of two letters or more that begins another (`Om` and `Omar`, either
  /// first) looks like it too: a name cut short is a new person otherwise.
  package static func lookalikes(_ names: [String], prefixes: Bool = false) -> [(name: Int, like: Int)] {
    let folded = names.map(Self.folded)
    var first: [String: Int] = [:]
    var found: [(name: Int, like: Int)] = []
    for (index, key) in folded.enumerated() {
      if let earlier = first[String(key)] {
        found.append((index, earlier))
        continue
      }
      first[String(key)] = index
      for earlier in 0..<index
      where first[String(folded[earlier])] == earlier
        && (isNearMiss(key, of: folded[earlier]) || (prefixes && isCutShort(key, folded[earlier])))
      {
        found.append((index, earlier))
        break
      }
    }
    return found
  }

  /// Whether one of two ``folded(_:)`` names, of two letters or more, begins the other.
  static func isCutShort(_ one: [Character], _ other: [Character]) -> Bool {
    let (short, long) = one.count < other.count ? (one, other) : (other, one)
    return short.count >= 2 && short.count < long.count && long.starts(with: short)
  }

  /// `text` as look-alikes are compared: without case and accents.
  package static func folded(_ text: String) -> [Character] {
    Array(text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
  }

  /// Whether `key` is a near miss of `other` (both ``folded(_:)``): each of three letters to
  /// ``Spelling/longestWord``, one edit apart (two when both have more than five letters).
  package static func isNearMiss(_ key: [Character], of other: [Character]) -> Bool {
    let allowed = min(other.count, key.count) > 5 ? 2 : 1
    guard key.count >= 3, key.count <= Spelling.longestWord, other.count >= 3, other.count <= Spelling.longestWord,
      abs(other.count - key.count) <= allowed
    else { return false }
    return Spelling.editDistance(other, key, atMost: allowed) != nil
  }
}
