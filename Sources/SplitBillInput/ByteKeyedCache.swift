import SplitBillBytes
import SplitBillCore

/// What was made from short texts that repeat from bill to bill (names, currency codes, tips,
/// dates), looked up by their bytes (``ByteTable``): no `String` is made, validated or hashed to
/// find it. At most `limit` texts of at most 64 bytes are kept, so memory stays flat however many
/// distinct ones a run has (past the limit, values are made every time). One thread's: not shared.
struct ByteKeyedCache<Value> {
  private var table: ByteTable
  /// By the text's number in `table`.
  private var values: [Value?] = []

  /// A cache keeping at most `limit` texts.
  init(limit: Int = 4_096) { table = ByteTable(limit: limit) }

  /// What `make` gives for the text of these UTF-8 bytes, made once per distinct text (`nil`
  /// results too).
  mutating func value(for bytes: some Collection<UInt8>, make: () -> Value?) -> Value? {
    if let found = bytes.withContiguousStorageIfAvailable({ unsafe value(for: $0, make: make) }) { return found }
    return unsafe Array(bytes).withUnsafeBufferPointer { unsafe value(for: $0, make: make) }
  }

  /// The same for bytes in memory.
  mutating func value(for bytes: UnsafeBufferPointer<UInt8>, make: () -> Value?) -> Value? {
    if let number = unsafe table.number(of: bytes) { return values[number] }
    let value = make()
    if let number = unsafe table.insert(bytes), number == values.count { values.append(value) }
    return value
  }

  /// The same for the bytes `bytes` views.
  mutating func value(for bytes: Span<UInt8>, make: () -> Value?) -> Value? {
    if let number = table.number(of: bytes) { return values[number] }
    let value = make()
    if let number = table.insert(bytes), number == values.count { values.append(value) }
    return value
  }
}
