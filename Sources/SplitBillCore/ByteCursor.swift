/// Writes bytes one after another into room made beforehand: no capacity or uniqueness check per
/// write, as `Array.append` makes every time (a bill of the JSON report is a few dozen writes).
///
/// The room is made by ``Swift/Array/append(atMost:_:)``; writing past it stops the program
/// rather than corrupt memory, and the callers size it for the worst case.
public struct ByteCursor {
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
  public var count: Int { position - start }

  /// Writes one byte.
  @inline(__always)
  public mutating func write(_ byte: UInt8) {
    precondition(position < end, "ByteCursor: write past the room made")
    position.initialize(to: byte)
    position += 1
  }

  /// Writes `bytes`.
  @inline(__always)
  public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    precondition(end - position >= bytes.count, "ByteCursor: write past the room made")
    position.update(from: source, count: bytes.count)
    position += bytes.count
  }

  /// Writes a literal's UTF-8.
  @inline(__always)
  public mutating func write(_ text: StaticString) {
    write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }
}

extension Array where Element == UInt8 {
  /// Appends what `body` writes through a cursor, which must be at most `maximum` bytes.
  public mutating func append(atMost maximum: Int, _ body: (inout ByteCursor) -> Void) {
    let start = count
    let maximum = Swift.max(maximum, 1)
    append(contentsOf: repeatElement(0, count: maximum))
    let written = withUnsafeMutableBufferPointer { buffer in
      var cursor = ByteCursor(UnsafeMutableBufferPointer(rebasing: buffer[start...]))
      body(&cursor)
      return cursor.count
    }
    removeLast(maximum - written)
  }
}
