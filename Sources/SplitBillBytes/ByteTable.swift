#if canImport(Glibc)
  import Glibc
#endif

/// Short byte strings (names, codes, dates as written) numbered 0, 1, 2… in the order kept, found
/// by their bytes: no `String` is made, validated or hashed to find one.
///
/// Open addressing over a power-of-two table of slots that hold a key's hash and where its bytes
/// are in one shared array, so a lookup is a hash of the bytes, a few slot reads and one
/// `memcmp`. At most `limit` keys of at most 64 bytes are kept, so memory stays flat however many
/// distinct ones a run has. Not generic: what a key stands for is kept by the caller, in an array
/// indexed by the key's number.
package struct ByteTable: Sendable {
  private struct Slot {
    var hash: UInt64 = 0
    /// A key of at most 16 bytes as ``ByteHash/words(_:)`` reads it: compared without `memcmp`.
    var words: (UInt64, UInt64) = (0, 0)
    var start: Int32 = 0
    var length: Int32 = 0
    /// The key's number; -1 for an empty slot.
    var number: Int32 = -1
  }
  private var slots: [Slot]
  private var keys: [UInt8] = []
  /// How many keys are kept.
  package private(set) var count = 0
  private let limit: Int

  /// The longest key kept.
  package static let maximumKeyLength = 64

  /// A table keeping at most `limit` keys. It starts small and doubles when half full, so its
  /// memory follows the keys kept (a run has a few dozen names, not 4,096).
  package init(limit: Int = 4_096) {
    self.limit = limit
    slots = Array(repeating: Slot(), count: 16)
  }

  /// The number of these bytes, if they are kept.
  @inline(__always)
  package func number(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard bytes.count <= Self.maximumKeyLength else { return nil }
    let (hash, words) = unsafe ByteHash.hashAndWords(bytes)
    let slot = unsafe find(bytes, hash: hash, words: words)
    return slots[slot].number >= 0 ? Int(slots[slot].number) : nil
  }

  /// Keeps these bytes under the next number and gives it (the number they have, if they are
  /// kept already); `nil` when the table is full or the key too long.
  package mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard bytes.count <= Self.maximumKeyLength, count < limit else { return nil }
    if 2 * (count + 1) > slots.count { grow() }
    let (hash, words) = unsafe ByteHash.hashAndWords(bytes)
    let slot = unsafe find(bytes, hash: hash, words: words)
    guard slots[slot].number < 0 else { return Int(slots[slot].number) }
    slots[slot] = Slot(
      hash: hash, words: words, start: Int32(keys.count), length: Int32(bytes.count), number: Int32(count))
    unsafe keys.append(contentsOf: bytes)
    count += 1
    return count - 1
  }

  /// The number of the bytes `bytes` views, if they are kept.
  @inline(__always)
  package func number(of bytes: Span<UInt8>) -> Int? {
    unsafe bytes.withUnsafeBufferPointer { unsafe number(of: $0) }
  }

  /// ``insert(_:)`` of the bytes `bytes` views.
  package mutating func insert(_ bytes: Span<UInt8>) -> Int? {
    unsafe bytes.withUnsafeBufferPointer { unsafe insert($0) }
  }

  /// Doubles the table, each kept key going to its slot in the larger one.
  private mutating func grow() {
    let old = slots
    slots = Array(repeating: Slot(), count: 2 * old.count)
    let mask = slots.count - 1
    for kept in old where kept.number >= 0 {
      var slot = Int(truncatingIfNeeded: kept.hash) & mask
      while slots[slot].number >= 0 { slot = (slot + 1) & mask }
      slots[slot] = kept
    }
  }

  /// The slot that holds these bytes, or the empty one where they would go.
  private func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, words: (UInt64, UInt64)) -> Int {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot].number >= 0 {
      let kept = slots[slot]
      guard kept.hash == hash && Int(kept.length) == bytes.count else {
        slot = (slot + 1) & mask
        continue
      }
      if bytes.count <= 16 {
        if kept.words == words { return slot }
      } else if unsafe keys.withUnsafeBufferPointer({ keys in
        guard let keys = keys.baseAddress, let given = bytes.baseAddress else { return bytes.isEmpty }
        return unsafe memcmp(keys + Int(kept.start), given, bytes.count) == 0
      }) {
        return slot
      }
      slot = (slot + 1) & mask
    }
    return slot
  }
}

/// A 64-bit hash of bytes for the package's own tables (``ByteTable``, the repeat finder's
/// partitions): eight bytes at a time, each word mixed in by a multiplication, the result
/// finished as SplitMix64 does. Not `Hasher`, whose SipHash costs several times more on short
/// keys; these tables compare keys in full, so a collision costs a comparison, never an answer.
package enum ByteHash {
  /// Up to 16 bytes as two words, read as overlapping loads that stay inside the bytes: with the
  /// length, they tell any two such keys apart (two longer keys give a meaningless pair).
  package static func words(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
    let count = bytes.count
    guard let base = bytes.baseAddress, count > 0 else { return (0, 0) }
    let raw = unsafe UnsafeRawPointer(base)
    switch count {
    case 1...3: return unsafe (UInt64(base[0]) | UInt64(base[count / 2]) << 8 | UInt64(base[count - 1]) << 16, 0)
    case 4...7:
      let low = unsafe UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))
      let high = unsafe UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
      return (UInt64(low) | UInt64(high) << 32, 0)
    case 8...16:
      return unsafe (
        UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)),
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
      )
    default: return (0, 0)
    }
  }

  /// ``hash(_:)`` and ``words(_:)`` at once: a key of up to 16 bytes is read once, as its words.
  @inline(__always)
  package static func hashAndWords(_ bytes: UnsafeBufferPointer<UInt8>) -> (hash: UInt64, words: (UInt64, UInt64)) {
    guard bytes.count <= 16 else { return unsafe (longHash(bytes), (0, 0)) }
    let words = unsafe words(bytes)
    let seed = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
    return (mix(((seed ^ words.0) &* 0xBF58_476D_1CE4_E5B9 ^ words.1) &* 0x94D0_49BB_1331_11EB), words)
  }

  package static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 { unsafe hashAndWords(bytes).hash }

  /// ``hash(_:)`` of the bytes `bytes` views.
  package static func hash(_ bytes: Span<UInt8>) -> UInt64 { unsafe bytes.withUnsafeBufferPointer { unsafe hash($0) } }

  /// The hash of more than 16 bytes: eight at a time, the last eight read overlapping the rest.
  private static func longHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    guard let base = bytes.baseAddress else { return 0 }
    let raw = unsafe UnsafeRawPointer(base)
    func word(at offset: Int) -> UInt64 {
      unsafe UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    var mixed = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
    var offset = 0
    while bytes.count - offset > 8 {
      mixed = (mixed ^ word(at: offset)) &* 0xBF58_476D_1CE4_E5B9
      mixed ^= mixed >> 29
      offset += 8
    }
    return mix((mixed ^ word(at: bytes.count - 8)) &* 0x94D0_49BB_1331_11EB)
  }

  /// SplitMix64's finaliser: every bit of the result depends on every bit of `value`.
  private static func mix(_ value: UInt64) -> UInt64 {
    var value = value
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
