import Foundation
import SplitBillModel

#if canImport(Glibc)
  import Glibc
#endif

/// Standard input, read once and kept where every later reading of `-` finds it: an unlinked
/// temporary file in `$TMPDIR` (so 2 GB piped in costs disk, not memory), opened again through
/// `/proc/self/fd`; in memory only when no temporary file can be made.
///
/// It is read again for a second pass (repeated ids), for excerpts under diagnostics and for
/// positions libyaml gives as byte offsets.
package final class StandardInputCopy: Sendable {
  private enum Storage {
    case file(descriptor: Int32, path: String)
    case memory([UInt8])
  }

  private let storage: Storage
  /// How many bytes standard input had.
  package let count: Int
  /// Why reading stopped part-way, if it did (`errno`'s words).
  package let failure: String?

  /// Reads all of standard input.
  package init() {
    let descriptor = TemporaryFile.open(in: TemporaryFile.directory(), prefix: "splitbill-stdin")
    var memory: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var total = 0
    var failure: String?
    reading: while true {
      let read = unsafe chunk.withUnsafeMutableBytes { unsafe Glibc.read(0, $0.baseAddress, $0.count) }
      if read < 0 && errno == EINTR { continue }
      if read < 0 { failure = SystemCalls.errorText(errno) }
      guard read > 0 else { break }
      total += read
      guard descriptor >= 0 else {
        memory.append(contentsOf: chunk[..<read])
        continue
      }
      var offset = 0
      while offset < read {
        let written = unsafe chunk[offset..<read].withUnsafeBytes { unsafe write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else {
          failure = "cannot keep standard input: " + SystemCalls.errorText(errno)
          break reading
        }
        offset += written
      }
    }
    count = total
    self.failure = failure
    storage = descriptor >= 0 ? .file(descriptor: descriptor, path: "/proc/self/fd/\(descriptor)") : .memory(memory)
  }

  /// `bytes` kept in memory and read as standard input is (a text a program made and reads back
  /// through the bill readers, such as the file `import` checks before handing it over).
  package init(bytes: [UInt8]) {
    storage = .memory(bytes)
    count = bytes.count
    failure = nil
  }

  deinit {
    if case .file(let descriptor, _) = storage { close(descriptor) }
  }

  /// A byte reader from the start.
  package func byteReader() -> ByteReader? {
    switch storage {
    case .file(_, let path): ByteReader(path: path)
    case .memory(let bytes): ByteReader(bytes: bytes)
    }
  }

  /// The first line (at most 4 KiB of it), without a BOM or line end.
  package var firstLine: [UInt8] {
    guard let reader = byteReader() else { return [] }
    var line: [UInt8] = []
    while line.count < 4_096, let byte = reader.next(), byte != 0x0A { line.append(byte) }
    if ByteOrderMark.starts(line) { line.removeFirst(ByteOrderMark.bytes.count) }
    if line.last == 0x0D { line.removeLast() }
    return line
  }

  /// Where the copy is read again: a path (`/proc/self/fd/N`), or its bytes when it is in memory.
  package enum Source {
    case path(String)
    case bytes([UInt8])
  }

  /// Where the copy is read again.
  package var source: Source {
    switch storage {
    case .file(_, let path): .path(path)
    case .memory(let bytes): .bytes(bytes)
    }
  }
}
