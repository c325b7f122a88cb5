/// Numbers people by name in the order first met, for the ledgers' per-person tables.
///
/// Names are equal as strings are (canonically equivalent spellings are one person). A name is
/// found first by its exact UTF-8 bytes among the short spellings already seen: hashing a `String`
/// (SipHash over its normalised scalars, for a name that is not ASCII) cost more than the rest of
/// booking a share. A spelling of at most 16 bytes is held as two words, so a lookup reads the
/// name's bytes once, mixes two words and compares two; longer spellings, and any past
/// ``spellingLimit``, go through the dictionary. The numbers are those a `[String: Int]` gives.
package struct PersonNumbers: Sendable {
  /// The names, by number: the first spelling met of each person.
  package private(set) var names: [String] = []
  private var numbers: [String: Int] = [:]
  /// Open addressing over a power-of-two table, at most half full.
  private var slots: [Slot] = Array(repeating: Slot(), count: 16)
  private var spellingCount = 0

  /// The most short spellings kept, so that memory stays flat however many names a run has.
  package static let spellingLimit = 4_096

  /// A spelling of at most 16 bytes: its bytes as two little-endian words and its length, which
  /// together tell any two such spellings apart.
  private struct Slot {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var length = 0
    var hash = 0
    /// The person's number; -1 for an empty slot.
    var person = -1
  }

  package init() {}

  /// The person's number, given on first sight.
  package mutating func number(of name: String) -> Int {
    guard let key = Self.key(name.utf8.span) else { return dictionaryNumber(of: name) }
    let slot = find(key)
    if slots[slot].person >= 0 { return slots[slot].person }
    let number = dictionaryNumber(of: name)
    guard spellingCount < Self.spellingLimit else { return number }
    slots[slot] = Slot(low: key.low, high: key.high, length: key.length, hash: key.hash, person: number)
    spellingCount += 1
    if 2 * spellingCount > slots.count { grow() }
    return number
  }

  /// The person's number, if they were met.
  package func existingNumber(of name: String) -> Int? {
    if let key = Self.key(name.utf8.span) {
      let slot = find(key)
      if slots[slot].person >= 0 { return slots[slot].person }
    }
    return numbers[name]
  }

  private mutating func dictionaryNumber(of name: String) -> Int {
    if let known = numbers[name] { return known }
    let number = names.count
    names.append(name)
    numbers[name] = number
    return number
  }

  /// A spelling's words, length and hash; `nil` when it is longer than 16 bytes.
  private static func key(_ bytes: Span<UInt8>) -> (low: UInt64, high: UInt64, length: Int, hash: Int)? {
    let count = bytes.count
    guard count <= 16 else { return nil }
    var low: UInt64 = 0
    var high: UInt64 = 0
    for index in 0..<min(count, 8) { low |= UInt64(bytes[index]) << (8 * UInt64(index)) }
    if count > 8 {
      for index in 8..<count { high |= UInt64(bytes[index]) << (8 * UInt64(index - 8)) }
    }
    // SplitMix64's finaliser over the words and length: every bit of the hash depends on each.
    var mixed = ((0x9E37_79B9_7F4A_7C15 ^ UInt64(count) ^ low) &* 0xBF58_476D_1CE4_E5B9) ^ high
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return (low, high, count, Int(truncatingIfNeeded: mixed ^ (mixed >> 31)))
  }

  /// The slot that holds the spelling, or the empty one where it would go.
  private func find(_ key: (low: UInt64, high: UInt64, length: Int, hash: Int)) -> Int {
    let mask = slots.count - 1
    var slot = key.hash & mask
    while slots[slot].person >= 0 {
      let kept = slots[slot]
      if kept.low == key.low && kept.high == key.high && kept.length == key.length { return slot }
      slot = (slot + 1) & mask
    }
    return slot
  }

  /// Doubles the table, each kept spelling going to its slot in the larger one.
  private mutating func grow() {
    let old = slots
    slots = Array(repeating: Slot(), count: 2 * old.count)
    let mask = slots.count - 1
    for kept in old where kept.person >= 0 {
      var slot = kept.hash & mask
      while slots[slot].person >= 0 { slot = (slot + 1) & mask }
      slots[slot] = kept
    }
  }
}
