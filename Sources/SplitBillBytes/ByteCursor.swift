/// Writes bytes one after another into room made beforehand: no capacity or uniqueness check per
/// write, as `Array.append` makes every time (a bill of the JSON report is a few dozen writes).
///
/// The room is made by ``Swift/Array/append(atMost:_:)``; writing past it stops the program
/// rather than corrupt memory, and the callers size it for the worst case.
///
/// This and the byte writers built on it (``JSON/writeEscaped(_:to:)``…) are public only as the SPI
/// `ByteWriters` (`@_spi(ByteWriters) import SplitBillBytes`), not part of the library's API: they
/// are `@inlinable` so that the report writers' module inlines them (a JSON bill is some forty
/// calls), which this toolchain does not do for `package` declarations.
///
/// Safe to use (swift-collections' way: the invariants are asserted, not assumed):
/// - every write checks the room's end (a `precondition`, one compare), so no write leaves it;
/// - a cursor is not copyable, and the only way to get one without `unsafe` is the `inout`
///   argument of ``Swift/Array/append(atMost:_:)``'s closure, so it cannot outlive the room it
///   points into; making one from a buffer (``init(_:)``) is the unsafe step, and its caller
///   keeps the buffer alive while the cursor is used.
@safe @_spi(ByteWriters) public struct ByteCursor: ~Copyable {
  @usableFromInline var position: UnsafeMutablePointer<UInt8>
  @usableFromInline let start: UnsafeMutablePointer<UInt8>
  @usableFromInline let end: UnsafeMutablePointer<UInt8>

  /// A cursor at the start of `room`, which must stay allocated while the cursor is used.
  @unsafe @inlinable public init(_ room: UnsafeMutableBufferPointer<UInt8>) {
    guard let start = room.baseAddress else { preconditionFailure("ByteCursor: no room") }
    unsafe self.start = unsafe start
    unsafe position = unsafe start
    unsafe end = unsafe start + room.count
  }

  /// Bytes written so far.
  @inlinable public var count: Int { unsafe position - start }

  /// Writes one byte.
  @inlinable @inline(__always)
  public mutating func write(_ byte: UInt8) {
    unsafe precondition(position < end, "ByteCursor: write past the room made")
    unsafe position.initialize(to: byte)
    unsafe position += 1
  }

  /// Writes `bytes`.
  @inlinable @inline(__always)
  public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    unsafe precondition(end - position >= bytes.count, "ByteCursor: write past the room made")
    unsafe Self.copy(source, to: position, count: bytes.count)
    unsafe position += bytes.count
  }

  /// Copies `count` bytes. Most writes are a few bytes to a few dozen (a key, a name, a number):
  /// those are moved as two or four overlapping words, without calling `memcpy`.
  @inlinable @inline(__always)
  static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
    let from = unsafe UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(target)
    func move<Word>(_: Word.Type, at offset: Int) {
      unsafe to.storeBytes(
        of: from.loadUnaligned(fromByteOffset: offset, as: Word.self), toByteOffset: offset, as: Word.self)
    }
    switch count {
    case 0: break
    case 1...3:
      unsafe target[0] = unsafe source[0]
      unsafe target[count / 2] = unsafe source[count / 2]
      unsafe target[count - 1] = unsafe source[count - 1]
    case 4...7:
      let first = unsafe from.loadUnaligned(as: UInt32.self)
      let last = unsafe from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
      unsafe to.storeBytes(of: first, as: UInt32.self)
      unsafe to.storeBytes(of: last, toByteOffset: count - 4, as: UInt32.self)
    case 8...16:
      let first = unsafe from.loadUnaligned(as: UInt64.self)
      let last = unsafe from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      unsafe to.storeBytes(of: first, as: UInt64.self)
      unsafe to.storeBytes(of: last, toByteOffset: count - 8, as: UInt64.self)
    case 17...32:
      let first = unsafe from.loadUnaligned(as: UInt64.self)
      let second = unsafe from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
      let third = unsafe from.loadUnaligned(fromByteOffset: count - 16, as: UInt64.self)
      let last = unsafe from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      unsafe to.storeBytes(of: first, as: UInt64.self)
      unsafe to.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
      unsafe to.storeBytes(of: third, toByteOffset: count - 16, as: UInt64.self)
      unsafe to.storeBytes(of: last, toByteOffset: count - 8, as: UInt64.self)
    default:
      unsafe target.update(from: source, count: count)
    }
  }

  /// The next `count` bytes, for the caller to fill in (all of them), and moves past them.
  @unsafe @inlinable @inline(__always)
  public mutating func take(_ count: Int) -> UnsafeMutablePointer<UInt8> {
    unsafe precondition(count >= 0 && end - position >= count, "ByteCursor: write past the room made")
    defer { unsafe position += count }
    return unsafe position
  }

  /// Writes a literal's UTF-8.
  @inlinable @inline(__always)
  public mutating func write(_ text: StaticString) {
    unsafe write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }
}

extension ByteCursor {
  /// Writes `text`'s UTF-8.
  @inlinable @inline(__always)
  public mutating func write(utf8 text: String) {
    var text = text
    text.withUTF8 { unsafe write($0) }
  }

  /// Writes `text`'s UTF-8 if every byte of it `isAllowed`, and says whether it did; writes
  /// nothing otherwise. Native strings lend their bytes without a copy of the string; a string
  /// that cannot (bridged, say) is not written.
  @inlinable @inline(__always)
  public mutating func write(utf8 text: String, ifEvery isAllowed: (UInt8) -> Bool) -> Bool {
    let written = unsafe text.utf8.withContiguousStorageIfAvailable { utf8 in
      guard unsafe utf8.allSatisfy(isAllowed) else { return false }
      unsafe write(utf8)
      return true
    }
    return written == true
  }

  /// Writes `bytes`.
  @inlinable @inline(__always)
  public mutating func write(bytes: [UInt8]) {
    unsafe bytes.withUnsafeBufferPointer { unsafe write($0) }
  }

  /// Writes `bytes`.
  @inlinable @inline(__always)
  public mutating func write(_ bytes: Span<UInt8>) {
    unsafe bytes.withUnsafeBufferPointer { unsafe write($0) }
  }

  /// Writes `value` as its bytes, least significant first (a spill file's fixed-width fields).
  @inlinable @inline(__always)
  public mutating func write<Integer: FixedWidthInteger>(littleEndian value: Integer) {
    let room = unsafe take(MemoryLayout<Integer>.size)
    unsafe UnsafeMutableRawPointer(room).storeBytes(of: value.littleEndian, as: Integer.self)
  }

  /// Writes `count` spaces (none for a count below one).
  @inlinable
  public mutating func write(spaces count: Int) {
    guard count > 0 else { return }
    let room = unsafe take(count)
    unsafe room.initialize(repeating: 0x20, count: count)
  }
}

extension Array where Element == UInt8 {
  /// Appends what `body` writes through a cursor, which must be at most `maximum` bytes. The
  /// cursor writes straight into the array's spare capacity (grown as `append` grows it).
  @_spi(ByteWriters) public mutating func append(atMost maximum: Int, _ body: (inout ByteCursor) -> Void) {
    append(addingCapacity: Swift.max(maximum, 1)) { span in
      unsafe span.withUnsafeMutableBufferPointer { room, initialized in
        var cursor = unsafe ByteCursor(UnsafeMutableBufferPointer(rebasing: room[initialized...]))
        body(&cursor)
        initialized += cursor.count
      }
    }
  }
}

extension ByteCursor {
  /// Writes `count` bytes that `body` fills in through a span over the room: the safe way for
  /// code outside this module (Core's date writer) to write at a cursor. `body` must set every
  /// byte of the span (the date writer asserts that it does); the room is not cleared first, as
  /// no write here reads it.
  @inlinable @inline(__always)
  public mutating func write(count: Int, _ body: (inout MutableSpan<UInt8>) -> Void) {
    let room = unsafe take(count)
    var span = unsafe MutableSpan(_unsafeStart: room, count: count)
    body(&span)
  }
}
