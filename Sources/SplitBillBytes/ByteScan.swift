/// Scans of UTF-8 bytes eight at a time, for the CSV reader's hot loops: public only as the SPI
/// `ByteWriters` and `@inlinable`, so that the readers inline them.
@_spi(ByteWriters) public enum ByteScan {
  @usableFromInline static let lowBits: UInt64 = 0x0101_0101_0101_0101
  @usableFromInline static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The high bit of each of the eight bytes of `word` (little-endian) that is `byte`, and perhaps
  /// of bytes after the first such one: the lowest bit set always marks the first.
  @inlinable @inline(__always)
  public static func matches(_ byte: UInt8, in word: UInt64) -> UInt64 {
    let differences = UInt64(littleEndian: word) ^ (lowBits &* UInt64(byte))
    return (differences &- lowBits) & ~differences & highBits
  }

  /// How many of `bytes` continue a UTF-8 sequence (`10xxxxxx`).
  @inlinable public static func continuationBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var found = 0
    var position = 0
    while bytes.count - position >= 8 {
      let word = unsafe UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
      found += (word & ~(word << 1) & highBits).nonzeroBitCount
      position += 8
    }
    while position < bytes.count {
      if unsafe base[position] & 0xC0 == 0x80 { found += 1 }
      position += 1
    }
    return found
  }

  /// Whether every byte is below 0x80.
  @inlinable public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var high: UInt64 = 0
    var position = 0
    while bytes.count - position >= 8 {
      unsafe high |= UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
      position += 8
    }
    while position < bytes.count {
      unsafe high |= UInt64(base[position])
      position += 1
    }
    return high & highBits == 0
  }

  /// ``continuationBytes(_:)-(UnsafeBufferPointer<UInt8>)`` of the bytes `bytes` views.
  @inlinable public static func continuationBytes(_ bytes: Span<UInt8>) -> Int {
    unsafe bytes.withUnsafeBufferPointer { unsafe continuationBytes($0) }
  }

  /// ``isValidUTF8(_:)-(UnsafeBufferPointer<UInt8>)`` of the bytes `bytes` views.
  @inlinable public static func isValidUTF8(_ bytes: Span<UInt8>) -> Bool {
    unsafe bytes.withUnsafeBufferPointer { unsafe isValidUTF8($0) }
  }

  /// ``isASCII(_:)`` of the bytes `bytes` views.
  @inlinable public static func isASCII(_ bytes: Span<UInt8>) -> Bool {
    unsafe bytes.withUnsafeBufferPointer { unsafe isASCII($0) }
  }

  /// The bytes `bytes` views as text, ill-formed UTF-8 repaired (U+FFFD), as `String(decoding:as:)` does.
  @inlinable public static func string(_ bytes: Span<UInt8>) -> String {
    unsafe bytes.withUnsafeBufferPointer { unsafe String(decoding: $0, as: UTF8.self) }
  }

  /// Whether `bytes` are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
  /// past U+10FFFF), as `String(validating:as:)` decides, without its generic machinery.
  @inlinable public static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var index = 0
    let count = bytes.count
    while index < count {
      // ASCII, eight bytes at a time.
      if count - index >= 8, unsafe UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & highBits == 0 {
        index += 8
        continue
      }
      let lead = unsafe bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      // The sequence's length, and the range its second byte must be in.
      let length: Int
      var second: ClosedRange<UInt8> = 0x80...0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, second) = (3, 0xA0...0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, second) = (3, 0x80...0x9F)
      case 0xF0: (length, second) = (4, 0x90...0xBF)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, second) = (4, 0x80...0x8F)
      default: return false
      }
      guard count - index >= length, unsafe second.contains(bytes[index + 1]) else { return false }
      for offset in 2..<length where unsafe bytes[index + offset] & 0xC0 != 0x80 { return false }
      index += length
    }
    return true
  }
}

extension ByteScan {
  /// Whether every byte of `text` is printable ASCII (space to `~`): nothing to escape and a
  /// column per byte. The writers ask it of nearly every name, id and description.
  @inlinable public static func isPrintableASCII(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      for index in bytes.indices {
        // 0x20...0x7E, in one comparison.
        if unsafe bytes[index] &- 0x20 >= 0x5F { return false }
      }
      return true
    }
  }

  /// Whether `text` holds the byte `byte` (an ASCII character, never inside a longer sequence).
  @inlinable public static func contains(_ byte: UInt8, in text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      for index in bytes.indices where unsafe bytes[index] == byte { return true }
      return false
    }
  }
}
