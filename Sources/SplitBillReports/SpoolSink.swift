#if canImport(Glibc)
  import Glibc
#endif

/// A sink that holds its text in an anonymous temporary file, to be copied out later.
///
/// Writers whose summary comes first (Markdown, HTML, journals with declarations) spool their bill
/// sections here while bills stream by, so memory stays flat however many bills there are.
public final class SpoolSink: OutputSink {
  private let file: UnsafeMutablePointer<FILE>?
  private var memory: [UInt8] = []

  /// A new, empty spool (in memory if no temporary file can be made).
  public init() { file = tmpfile() }

  deinit {
    if let file { fclose(file) }
  }

  public func write(bytes: [UInt8]) {
    guard let file else { return memory.append(contentsOf: bytes) }
    bytes.withUnsafeBufferPointer { buffer in _ = fwrite(buffer.baseAddress, 1, buffer.count, file) }
  }

  public func write(_ text: String) {
    guard let file else { return memory.append(contentsOf: text.utf8) }
    var copy = text
    copy.withUTF8 { bytes in _ = fwrite(bytes.baseAddress, 1, bytes.count, file) }
  }

  /// Copies everything written so far into `sink`.
  public func copy(to sink: inout some OutputSink) {
    guard let file else { return sink.write(String(decoding: memory, as: UTF8.self)) }
    fflush(file)
    rewind(file)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var pending: [UInt8] = []
    while true {
      let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
      if count == 0 { break }
      pending += buffer[0..<count]
      // Cut at the last newline so no UTF-8 sequence is split.
      if let cut = pending.lastIndex(of: 0x0A) {
        sink.write(String(decoding: pending[...cut], as: UTF8.self))
        pending.removeSubrange(...cut)
      }
    }
    if !pending.isEmpty { sink.write(String(decoding: pending, as: UTF8.self)) }
    fseek(file, 0, SEEK_END)
  }
}
