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
  /// The longest name an import takes, in characters: a name longer than that is no one's, and a
  /// YAML key (`paid_by: {NAME: …}`) is read only up to 1,024 characters.
  package static let longestImported = 200

  /// Why `name` (normalized) is refused as a member of an export, or `nil`.
  package static func importProblem(_ name: String) -> String? {
    guard name.count > longestImported else { return nil }
    return "a name of \(name.count) characters ('\(EchoedText.quote(name))'): "
      + "expected at most \(longestImported)"
  }

  /// For each name that looks like an earlier one, the two positions: names the same but for case
  /// and accents (`jonas`, `Jonás`), or of at least three letters and one edit apart (two when
  /// both have more than five: `Jonsa` for `Jonas`, a swap of two letters being one edit). A
  /// name is paired with the first it looks like. Names are compared in the order given (first
  /// met first); past ``Spelling/longestWord`` letters a name is compared only by case and accents.
  ///
  /// With `prefixes`, a name of two letters or more that begins another (`Om` and `Omar`, either
  /// first) looks like it too: a name cut short is a new person otherwise.
  package static func lookalikes(_ names: [String], prefixes: Bool = false) -> [(name: Int, like: Int)] {
    // Linear but for near misses, which are looked for only among names of about the same
    // length whose letters about agree (``Spelling/LetterCounts``): a few thousand names of one length
    // cost a few million cheap comparisons, not as many edit distances.
    let folded = names.map(Self.folded)
    var first: [String: Int] = [:]
    var byLength: [Int: [(index: Int, letters: Spelling.LetterCounts)]] = [:]
    // Each beginning (two letters or more, short of the whole) of the names met, with the first
    // name it begins.
    var begun: [String: Int] = [:]
    var found: [(name: Int, like: Int)] = []
    for (index, key) in folded.enumerated() {
      let text = String(key)
      if let earlier = first[text] {
        found.append((index, earlier))
        continue
      }
      first[text] = index
      var like: Int?
      if key.count >= 3, key.count <= Spelling.longestWord {
        let letters = Spelling.LetterCounts(key)
        for length in (key.count - 2)...(key.count + 2) {
          for earlier in byLength[length] ?? [] {
            if let like, earlier.index > like { break }
            if letters.differ(from: earlier.letters, by: 4) { continue }
            if isNearMiss(key, of: folded[earlier.index]) {
              like = earlier.index
              break
            }
          }
        }
        byLength[key.count, default: []].append((index, letters))
      }
      if prefixes, key.count >= 2, key.count <= Spelling.longestWord {
        // An earlier name that begins this one, or one this one begins.
        for cut in 2..<key.count {
          if let earlier = first[String(key[..<cut])], earlier < (like ?? .max) { like = earlier }
        }
        if let earlier = begun[text], earlier < (like ?? .max) { like = earlier }
        for cut in 2..<key.count where begun[String(key[..<cut])] == nil { begun[String(key[..<cut])] = index }
      }
      if let like { found.append((index, like)) }
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
