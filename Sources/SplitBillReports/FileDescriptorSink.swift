#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes to a file descriptor through a 64 KiB buffer; call ``flush()`` before the end.
public final class FileDescriptorSink: OutputSink {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  /// The `errno` of the first write that failed (disk full, closed pipe…), or of a failure
  /// recorded by a sink whose text was to come out here.
  public private(set) var failure: Int32?
  /// Whether anything failed: what reached the descriptor is not the whole output.
  public var failed: Bool { failure != nil }

  /// Writes to `descriptor`, which the caller opens and closes.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(1 << 16)
  }

  public func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  public func write(bytes: [UInt8]) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  public func append(_ body: (inout [UInt8]) -> Void) {
    body(&buffer)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Writes out everything buffered.
  public func flush() {
    var offset = 0
    while offset < buffer.count && !failed {
      let written = buffer[offset...].withUnsafeBytes { bytes in
        #if canImport(Glibc)
          Glibc.write(descriptor, bytes.baseAddress, bytes.count)
        #else
          Darwin.write(descriptor, bytes.baseAddress, bytes.count)
        #endif
      }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { failure = written < 0 ? errno : EIO } else { offset += written }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  public func recordFailure(_ errorNumber: Int32) {
    if failure == nil { failure = errorNumber }
  }
}
