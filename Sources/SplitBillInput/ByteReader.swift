#if canImport(Glibc)
  import Glibc
#endif

/// Reads a file (or a byte array) in 64 KiB chunks, a byte at a time, without holding it all.
final class ByteReader {
  private var buffer: [UInt8]
  private var index = 0
  private let descriptor: Int32
  /// `errno` of a failed read, if any.
  private(set) var readError: Int32?

  /// Opens `path`; `nil` when it cannot be opened (`errno` says why).
  init?(path: String) {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    self.descriptor = descriptor
    buffer = []
    refill()
  }

  /// Reads from memory.
  init(bytes: [UInt8]) {
    descriptor = -1
    buffer = bytes
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// The bytes buffered now, from the current position (for sniffing a header).
  var buffered: ArraySlice<UInt8> { buffer[index...] }

  /// The next byte, or `nil` at the end.
  @inline(__always)
  func next() -> UInt8? {
    if index == buffer.count {
      guard refill() else { return nil }
    }
    defer { index += 1 }
    return buffer[index]
  }

  /// The next byte without consuming it.
  @inline(__always)
  func peek() -> UInt8? {
    if index == buffer.count {
      guard refill() else { return nil }
    }
    return buffer[index]
  }

  @discardableResult
  private func refill() -> Bool {
    guard descriptor >= 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
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
