/// Writes bytes one after another into room made beforehand: no capacity or uniqueness check per
/// write, as `Array.append` makes every time (a bill of the JSON report is a few dozen writes).
///
/// The room is made by ``Swift/Array/append(atMost:_:)``; writing past it stops the program
/// rather than corrupt memory, and the callers size it for the worst case.
package struct ByteCursor {
  private var position: UnsafeMutablePointer<UInt8>
  private let start: UnsafeMutablePointer<UInt8>
  private let end: UnsafeMutablePointer<UInt8>

  init(_ room: UnsafeMutableBufferPointer<UInt8>) {
    guard let start = room.baseAddress else { preconditionFailure("ByteCursor: no room") }
    self.start = start
    position = start
    end = start + room.count
  }

  /// Bytes written so far.
  package var count: Int { position - start }

  /// Writes one byte.
  @inline(__always)
  package mutating func write(_ byte: UInt8) {
    precondition(position < end, "ByteCursor: write past the room made")
    position.initialize(to: byte)
    position += 1
  }

  /// Writes `bytes`.
  @inline(__always)
  package mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    precondition(end - position >= bytes.count, "ByteCursor: write past the room made")
    position.update(from: source, count: bytes.count)
    position += bytes.count
  }

  /// Writes `count` bytes that `body` puts at the pointer it is given.
  @inline(__always)
  package mutating func write(count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
    precondition(end - position >= count, "ByteCursor: write past the room made")
    body(position)
    position += count
  }

  /// Writes a literal's UTF-8.
  @inline(__always)
  package mutating func write(_ text: StaticString) {
    write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }
}

extension Array where Element == UInt8 {
  /// Appends what `body` writes through a cursor, which must be at most `maximum` bytes. The
  /// room is temporary (on the stack when small): only what was written is copied in.
  package mutating func append(atMost maximum: Int, _ body: (inout ByteCursor) -> Void) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.max(maximum, 1)) { room in
      var cursor = ByteCursor(room)
      body(&cursor)
      append(contentsOf: UnsafeBufferPointer(rebasing: room[..<cursor.count]))
    }
  }
}
