#if canImport(Glibc)
  import Glibc
#endif

/// What was made from short texts that repeat from bill to bill (names, currency codes, tips,
/// dates), looked up by their bytes: no `String` is made, validated or hashed to find it.
///
/// Open addressing over a power-of-two table of slots that hold a key's hash and where its bytes
/// are in one shared array, so a lookup is a hash of the bytes, a few slot reads and one
/// `memcmp`. At most `limit` texts (of at most 64 bytes) are kept, so memory stays flat however
/// many distinct ones a run has (past the limit, values are made every time). One thread's: not
/// shared.
struct ByteKeyedCache<Value> {
  private struct Slot {
    var hash: UInt64 = 0
    var start: Int32 = 0
    /// The key's length; -1 for an empty slot.
    var length: Int32 = -1
  }
  private var slots: [Slot]
  private var values: [Value?]
  private var keys: [UInt8] = []
  private var count = 0
  private let limit: Int

  /// A cache keeping at most `limit` texts.
  init(limit: Int = 4_096) {
    self.limit = limit
    var size = 16
    while size < 2 * limit { size *= 2 }
    slots = Array(repeating: Slot(), count: size)
    values = Array(repeating: nil, count: size)
  }

  /// What `make` gives for the text of these UTF-8 bytes, made once per distinct text (`nil`
  /// results too).
  mutating func value(for bytes: some Collection<UInt8>, make: () -> Value?) -> Value? {
    if let found = bytes.withContiguousStorageIfAvailable({ value(for: $0, make: make) }) { return found }
    return Array(bytes).withUnsafeBufferPointer { value(for: $0, make: make) }
  }

  /// The same for bytes in memory.
  mutating func value(for bytes: UnsafeBufferPointer<UInt8>, make: () -> Value?) -> Value? {
    guard bytes.count <= 64 else { return make() }
    let hash = ByteHash.hash(bytes)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot].length >= 0 {
      let found = slots[slot]
      if found.hash == hash && Int(found.length) == bytes.count
        && keys.withUnsafeBufferPointer({ keys in
          guard let kept = keys.baseAddress, let given = bytes.baseAddress else { return bytes.isEmpty }
          return memcmp(kept + Int(found.start), given, bytes.count) == 0
        })
      {
        return values[slot]
      }
      slot = (slot + 1) & mask
    }
    let value = make()
    if count < limit {
      slots[slot] = Slot(hash: hash, start: Int32(keys.count), length: Int32(bytes.count))
      keys.append(contentsOf: bytes)
      values[slot] = value
      count += 1
    }
    return value
  }
}

/// A 64-bit hash of bytes for this module's own tables (the cache above, the repeat finder's
/// partitions): eight bytes at a time, each word mixed in by a multiplication, the result
/// finished as SplitMix64 does. Not `Hasher`, whose SipHash costs several times more on short
/// keys; these tables compare keys in full, so a collision costs a comparison, never an answer.
enum ByteHash {
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let count = bytes.count
    var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)
    guard let base = bytes.baseAddress, count > 0 else { return mix(hash) }
    let raw = UnsafeRawPointer(base)
    func word(at offset: Int) -> UInt64 {
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    // The last (or only) up to eight bytes, read as overlapping loads that stay inside the bytes.
    let last: UInt64
    switch count {
    case 1...3: last = UInt64(base[0]) | UInt64(base[count / 2]) << 8 | UInt64(base[count - 1]) << 16
    case 4...7:
      let low = UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))
      let high = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
      last = UInt64(low) | UInt64(high) << 32
    default:
      var offset = 0
      while count - offset > 8 {
        hash = (hash ^ word(at: offset)) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 29
        offset += 8
      }
      last = word(at: count - 8)
    }
    return mix((hash ^ last) &* 0x94D0_49BB_1331_11EB)
  }

  /// SplitMix64's finaliser: every bit of the result depends on every bit of `value`.
  private static func mix(_ value: UInt64) -> UInt64 {
    var value = value
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
