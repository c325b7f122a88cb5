#if canImport(Glibc)
  import Glibc
#endif

/// Reads a file (or a byte array) in 64 KiB chunks, a byte at a time, without holding it all.
package final class ByteReader {
  // Private: visible outside the module, every access to them would take the runtime's
  // exclusivity checks (two calls a byte, measured in docs/performance.md).
  private var buffer: [UInt8]
  private var index = 0
  private let descriptor: Int32
  /// `errno` of a failed read, if any.
  package private(set) var readError: Int32?

  /// Opens `path`; `nil` when it cannot be opened (`errno` says why).
  package init?(path: String) {
    let descriptor = unsafe open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    self.descriptor = descriptor
    buffer = []
    refill()
  }

  /// Reads from memory.
  package init(bytes: [UInt8]) {
    descriptor = -1
    buffer = bytes
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// The bytes buffered now, from the current position (for sniffing a header).
  package var buffered: ArraySlice<UInt8> { buffer[index...] }

  /// The next byte, or `nil` at the end.
  @inline(__always)
  package func next() -> UInt8? {
    if index == buffer.count {
      guard refill() else { return nil }
    }
    defer { index += 1 }
    return buffer[index]
  }

  /// The next byte without consuming it.
  @inline(__always)
  package func peek() -> UInt8? {
    if index == buffer.count {
      guard refill() else { return nil }
    }
    return buffer[index]
  }

  /// Consumes bytes up to the first that is one of `stops` (left unconsumed) or the end, appending
  /// them to `out`, and moves `line` and `column` (1-based, columns counting Unicode scalars) past them.
  package func consume(
    upTo stops: (UInt8, UInt8, UInt8, UInt8), into out: inout [UInt8], line: inout Int, column: inout Int
  ) {
    while true {
      if index == buffer.count {
        guard refill() else { return }
      }
      let start = index
      let end = unsafe buffer.withUnsafeBufferPointer { bytes in
        var position = start
        while position < bytes.count {
          let byte = unsafe bytes[position]
          if byte == stops.0 || byte == stops.1 || byte == stops.2 || byte == stops.3 { break }
          Self.move(line: &line, column: &column, past: byte)
          position += 1
        }
        return position
      }
      out.append(contentsOf: buffer[start..<end])
      index = end
      if end < buffer.count { return }
    }
  }

  /// Offers `body` the bytes before the next `\n` when the buffer holds all of them; when `body`
  /// takes them (returns `true`), they and the `\n` are consumed. `false` when the line is not
  /// all buffered (or the input ends first) or `body` declined it: nothing is consumed then.
  package func takeBufferedLine(_ body: (Span<UInt8>) -> Bool) -> Bool {
    if index == buffer.count {
      guard refill() else { return false }
    }
    let start = index
    let end = unsafe buffer.withUnsafeBufferPointer { bytes -> Int? in
      guard let base = bytes.baseAddress, let found = unsafe memchr(base + start, 0x0A, bytes.count - start),
        unsafe body(
          UnsafeBufferPointer(start: base + start, count: UnsafeRawPointer(found) - UnsafeRawPointer(base + start)).span
        )
      else { return nil }
      return unsafe UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
    guard let end else { return false }
    index = end + 1
    return true
  }

  /// Skips past the next line end (`\n`), found with `memchr`; `false` if the input ends first.
  package func skipLine() -> Bool {
    while true {
      if index == buffer.count {
        guard refill() else { return false }
      }
      let start = index
      let end = unsafe buffer.withUnsafeBufferPointer { bytes -> Int? in
        guard let base = bytes.baseAddress, let found = unsafe memchr(base + start, 0x0A, bytes.count - start) else {
          return nil
        }
        return unsafe UnsafeRawPointer(found) - UnsafeRawPointer(base)
      }
      guard let end else {
        index = buffer.count
        continue
      }
      index = end + 1
      return true
    }
  }

  /// Moves a 1-based line and column past `byte`: a newline starts the next line, and columns count
  /// Unicode scalars (a UTF-8 continuation byte adds none), which is how every diagnostic counts.
  @inline(__always)
  package static func move(line: inout Int, column: inout Int, past byte: UInt8) {
    if byte == 0x0A {
      line += 1
      column = 1
    } else if byte & 0xC0 != 0x80 {
      column += 1
    }
  }

  @discardableResult
  private func refill() -> Bool {
    guard descriptor >= 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = unsafe chunk.withUnsafeMutableBytes { unsafe read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 { readError = errno }
      guard count > 0 else { return false }
      chunk.removeLast(chunk.count - count)
      buffer = chunk
      index = 0
      return true
    }
  }
}
