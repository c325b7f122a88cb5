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

  /// What `make` gives for the text of the UTF-8 bytes `bytes` views, made once per distinct
  /// text (`nil` results too).
  mutating func value(for bytes: Span<UInt8>, make: () -> Value?) -> Value? {
    if let number = table.number(of: bytes) { return values[number] }
    let value = make()
    if let number = table.insert(bytes), number == values.count { values.append(value) }
    return value
  }
}
