/// Byte-level walks of untrusted text for the writers that escape it.
///
/// Exact because a Swift string is valid UTF-8: `C2 80`…`C2 9F` is U+0080…U+009F,
/// `E2 80 AA`…`AE` is U+202A…U+202E and `E2 81 A6`…`A9` is U+2066…U+2069, and every other
/// control or bidi character (SplitBillText's `isControlOrBidiOverride`) is one byte (C0, DEL).
@_spi(ByteWriters) public enum TextBytes {
  /// How many bytes the C1 control or bidi mark at `index` takes; 0 when there is none there.
  @inlinable @inline(__always)
  public static func multibyteControl(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
    // Every index read is checked against the count first.
    let byte = unsafe bytes[index]
    if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(unsafe bytes[index + 1]) { return 2 }
    if byte == 0xE2, index + 2 < bytes.count {
      let second = unsafe bytes[index + 1]
      let third = unsafe bytes[index + 2]
      if (second == 0x80 && (0xAA...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third)) {
        return 3
      }
    }
    return 0
  }

  /// Whether `text` holds a character `isControlOrBidiOverride` is true of.
  @inlinable public static func hasControlOrBidi(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      for index in bytes.indices {
        let byte = unsafe bytes[index]
        if byte < 0x20 || byte == 0x7F { return true }
        if byte >= 0xC2, unsafe multibyteControl(in: bytes, at: index) > 0 { return true }
      }
      return false
    }
  }

  /// Calls `body` with each byte of `text`, leaving out the C1 control characters and the
  /// bidirectional embeddings, overrides and isolates (whole sequences), but not the C0 controls
  /// or DEL (single bytes, for the caller to handle).
  @inlinable @inline(__always)
  public static func forEachVisible(_ text: String, _ body: (UInt8) -> Void) {
    var text = text
    text.withUTF8 { bytes in
      var index = 0
      while index < bytes.count {
        let skip = unsafe multibyteControl(in: bytes, at: index)
        if skip > 0 {
          index += skip
        } else {
          body(unsafe bytes[index])
          index += 1
        }
      }
    }
  }
}
