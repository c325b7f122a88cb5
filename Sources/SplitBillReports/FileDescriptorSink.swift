import SplitBillFiles

/// Writes to a file descriptor through a 64 KiB buffer; call ``flush()`` before the end.
package final class FileDescriptorSink: OutputSink {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  /// The `errno` of the first write that failed (disk full, closed pipe…), or of a failure
  /// recorded by a sink whose text was to come out here.
  package private(set) var failure: Int32?
  /// Where the first failure happened when it was not this descriptor (a spool's temporary file).
  package private(set) var failurePlace: String?
  /// Whether anything failed: what reached the descriptor is not the whole output.
  package var failed: Bool { failure != nil }

  /// The reason to show for ``failure``: the system's message, and the place when it was elsewhere.
  package var failureReason: String? {
    guard let failure else { return nil }
    let reason = SystemCalls.errorText(failure)
    return failurePlace.map { "\(reason) (writing \($0))" } ?? reason
  }

  /// Writes to `descriptor`, which the caller opens and closes.
  package init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(1 << 16)
  }

  package func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  package func write(bytes: [UInt8]) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  package func append(_ body: (inout [UInt8]) -> Void) {
    body(&buffer)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Writes out everything buffered; after a failure, nothing more is written.
  package func flush() {
    if !failed, !buffer.isEmpty, let code = SystemCalls.write(buffer, to: descriptor) { failure = code }
    buffer.removeAll(keepingCapacity: true)
  }

  package func recordFailure(_ errorNumber: Int32, in place: String?) {
    guard failure == nil else { return }
    failure = errorNumber
    failurePlace = place
  }
}
