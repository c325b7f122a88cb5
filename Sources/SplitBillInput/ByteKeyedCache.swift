/// What was made from short texts that repeat from bill to bill (names, currency codes, tips,
/// dates), looked up by their bytes: no `String` is made, validated or hashed to find it.
///
/// Open addressing over a power-of-two table; at most `limit` texts are kept, so memory stays
/// flat however many distinct ones a run has (past the limit, values are made every time).
/// One thread's: not shared.
struct ByteKeyedCache<Value> {
  private var keys: [[UInt8]]
  private var values: [Value?]
  private var used: [Bool]
  private var count = 0
  private let limit: Int

  /// A cache keeping at most `limit` texts.
  init(limit: Int = 4_096) {
    self.limit = limit
    var size = 16
    while size < 2 * limit { size *= 2 }
    keys = Array(repeating: [], count: size)
    values = Array(repeating: nil, count: size)
    used = Array(repeating: false, count: size)
  }

  /// What `make` gives for the text of these UTF-8 bytes, made once per distinct text (`nil`
  /// results too).
  mutating func value(for bytes: some Collection<UInt8>, make: () -> Value?) -> Value? {
    guard bytes.count <= 64 else { return make() }
    // FNV-1a: short keys, one pass.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let mask = keys.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while used[slot] {
      if keys[slot].elementsEqual(bytes) { return values[slot] }
      slot = (slot + 1) & mask
    }
    let value = make()
    if count < limit {
      used[slot] = true
      keys[slot] = Array(bytes)
      values[slot] = value
      count += 1
    }
    return value
  }
}
