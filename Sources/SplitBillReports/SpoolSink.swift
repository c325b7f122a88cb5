import SplitBillFiles

#if canImport(Glibc)
  import Glibc
#endif

/// A sink that holds its text in an unlinked temporary file in `$TMPDIR` (else `/tmp`), to be
/// copied out later.
///
/// Writers whose summary comes first (Markdown, HTML, journals with declarations) spool their bill
/// sections here while bills stream by, so memory stays flat however many bills there are. A
/// write that fails (a full disk, a file-size limit) is remembered, and ``copy(to:)`` passes the
/// failure on instead of a truncated text: the output it was for is then not committed.
package final class SpoolSink: OutputSink {
  private var descriptor: Int32
  /// The text, when no temporary file could be made.
  private var memory: [UInt8] = []
  /// Bytes waiting to be written to the file.
  private var buffer: [UInt8] = []
  /// The `errno` of the first failure.
  private var failure: Int32?
  /// Where the first failure happened, when it was not this spool (a spool inside a spool).
  private var failurePlace: String?
  /// The directory of the temporary file, named in a failure.
  private let directory: String
  /// Bytes handed to the file so far: where the next flush writes (after a failure they are not
  /// all there, and nothing is read back).
  private var flushed: Int64 = 0

  /// A new, empty spool in `$TMPDIR` (else `/tmp`); in memory if no file can be made there.
  package convenience init() { self.init(directory: TemporaryFile.directory()) }

  /// A new, empty spool in `directory`; in memory if no file can be made there.
  package init(directory: String) {
    self.directory = directory
    descriptor = TemporaryFile.open(in: directory, prefix: "splitbill-spool")
    if descriptor >= 0 { buffer.reserveCapacity(1 << 16) }
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  package func write(bytes: [UInt8]) {
    guard descriptor >= 0 else { return memory.append(contentsOf: bytes) }
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  package func write(_ text: String) {
    guard descriptor >= 0 else { return memory.append(contentsOf: text.utf8) }
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Lets `body` append to the spool's own buffer (the journals write each bill this way).
  package func append(_ body: (inout [UInt8]) -> Void) {
    guard descriptor >= 0 else { return body(&memory) }
    body(&buffer)
    if buffer.count >= 1 << 16 { flush() }
  }

  package func recordFailure(_ errorNumber: Int32, in place: String?) {
    guard failure == nil else { return }
    failure = errorNumber
    failurePlace = place
  }

  /// Writes the buffer to the file; after a failure, nothing more is written.
  private func flush() {
    if failure == nil, !buffer.isEmpty, let code = SystemCalls.write(buffer, to: descriptor) { failure = code }
    flushed += Int64(buffer.count)
    buffer.removeAll(keepingCapacity: true)
  }

  /// How many bytes have been written to the spool so far: where the next write starts.
  package var byteCount: Int64 { descriptor >= 0 ? flushed + Int64(buffer.count) : Int64(memory.count) }

  /// Up to `count` bytes of what was written, from `offset` (fewer at the end, none past it); `nil`
  /// after a failure, which ``copy(to:)`` and ``recordFailure(in:)`` pass on.
  package func bytes(at offset: Int64, count: Int) -> [UInt8]? {
    guard descriptor >= 0 else {
      let start = Int(min(offset, Int64(memory.count)))
      return Array(memory[start..<min(memory.count, start + count)])
    }
    if !buffer.isEmpty { flush() }
    guard failure == nil else { return nil }
    switch SystemCalls.read(upTo: count, at: offset, from: descriptor) {
    case .success(let piece):
      return piece
    case .failure(let error):
      recordFailure(error.code, in: nil)
      return nil
    }
  }

  /// Passes a failure of this spool (or of one it was copied from) on to `sink`; `false` when
  /// there was none.
  package func passFailure(to sink: inout some OutputSink) -> Bool {
    if descriptor >= 0 && !buffer.isEmpty { flush() }
    guard let failure else { return false }
    sink.recordFailure(failure, in: failurePlace ?? place)
    return true
  }

  /// The spool's file, as a failure names it.
  private var place: String { "a temporary file in \(directory)" }

  /// Copies everything written so far into `sink`, or records in `sink` why it cannot.
  package func copy(to sink: inout some OutputSink) {
    guard descriptor >= 0 else { return sink.write(bytes: memory) }
    flush()
    if let failure { return sink.recordFailure(failure, in: failurePlace ?? place) }
    var offset: Int64 = 0
    while true {
      switch SystemCalls.read(upTo: 1 << 16, at: offset, from: descriptor) {
      case .failure(let error):
        return sink.recordFailure(error.code, in: place)
      case .success(let piece):
        if piece.isEmpty { return }
        offset += Int64(piece.count)
        sink.write(bytes: piece)
      }
    }
  }
}
