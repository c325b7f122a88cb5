/// Bytes written record after record through a ``ByteCursor`` into memory this buffer owns, for
/// a spill file's pending records: one room check per record and no copy-on-write check, which
/// an array of bytes in a class makes on every append.
///
/// Safe to use (the invariants are asserted, not assumed): the buffer owns its memory (allocated
/// in `init`, moved when it grows, freed in `deinit`); `count` bytes of it are initialised and
/// every write makes room first; the cursor and the span it lends exist only inside the calls
/// that make them.
@safe @_spi(ByteWriters) public final class RecordBuffer {
  // Not checked for exclusive access at run time (a check is two calls into the runtime per
  // record): only this class's methods touch them, and none calls out while changing them but
  // to `body`, which is given a cursor and not the buffer.
  @usableFromInline @exclusivity(unchecked) var storage: UnsafeMutablePointer<UInt8>
  @usableFromInline @exclusivity(unchecked) var capacity: Int
  /// Bytes written.
  @usableFromInline @exclusivity(unchecked) private(set) var written = 0

  /// A buffer with room for `capacity` bytes before it grows.
  public init(capacity: Int) {
    let capacity = Swift.max(capacity, 16)
    unsafe self.capacity = capacity
    unsafe storage = .allocate(capacity: capacity)
  }

  deinit { unsafe storage.deallocate() }

  /// Bytes written.
  @inlinable public var count: Int { unsafe written }

  /// Appends what `body` writes through a cursor, which must be at most `maximum` bytes.
  @inlinable
  public func append(atMost maximum: Int, _ body: (inout ByteCursor) -> Void) {
    if unsafe capacity - written < maximum { grow(toHold: maximum) }
    var cursor = unsafe ByteCursor(UnsafeMutableBufferPointer(start: storage + written, count: capacity - written))
    body(&cursor)
    unsafe written += cursor.count
  }

  @usableFromInline func grow(toHold maximum: Int) {
    let larger = unsafe Swift.max(2 * capacity, written + maximum)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    unsafe moved.moveInitialize(from: storage, count: written)
    unsafe storage.deallocate()
    unsafe storage = moved
    unsafe capacity = larger
  }

  /// Calls `body` with the bytes written.
  public func withBytes<Result>(_ body: (Span<UInt8>) -> Result) -> Result {
    unsafe body(UnsafeBufferPointer(start: storage, count: written).span)
  }

  /// A copy of the bytes written.
  public var bytes: [UInt8] {
    // Not made with room for nothing: that writes the shared empty array's count, which another
    // thread may be reading (ThreadSanitizer reports it).
    guard unsafe written > 0 else { return [] }
    return unsafe [UInt8](unsafeUninitializedCapacity: written) { copy, initialized in
      unsafe copy.baseAddress?.initialize(from: storage, count: written)
      initialized = unsafe written
    }
  }

  /// Forgets the bytes written, keeping the room.
  public func removeAll() { unsafe written = 0 }

  /// Replaces the bytes written with `bytes`.
  public func replace(with bytes: [UInt8]) {
    unsafe written = 0
    append(atMost: bytes.count) { $0.write(bytes: bytes) }
  }
}

/// Calls `write` with a cursor into at most `maximum` bytes of scratch room on the stack, then
/// `read` with what it wrote: a short key made and used at once, with nothing allocated.
@_spi(ByteWriters) @inlinable
public func withScratchBytes<Result>(
  atMost maximum: Int, write: (inout ByteCursor) -> Void, read: (Span<UInt8>) -> Result
) -> Result {
  unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.max(maximum, 1)) { room in
    var cursor = unsafe ByteCursor(room)
    write(&cursor)
    return unsafe read(UnsafeBufferPointer(rebasing: room[..<cursor.count]).span)
  }
}
