extension Span where Element == UInt8 {
  /// The fixed-width integer whose bytes, least significant first, start at `offset`: a field
  /// of a record this package's writers made with ``ByteCursor/write(littleEndian:)``.
  ///
  /// Safe to use: the field must lie inside the bytes (a `precondition`), so no read leaves them.
  @inlinable @inline(__always)
  package func littleEndian<Integer: FixedWidthInteger & BitwiseCopyable>(
    at offset: Int, as _: Integer.Type = Integer.self
  )
    -> Integer
  {
    precondition(
      offset >= 0 && count - offset >= MemoryLayout<Integer>.size, "littleEndian: a field past the bytes")
    return unsafe Integer(littleEndian: bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: Integer.self))
  }
}
