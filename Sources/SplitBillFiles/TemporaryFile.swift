#if canImport(Glibc)
  import Glibc
#endif

/// Unlinked temporary files, for spilling what a run must not hold in memory.
package enum TemporaryFile {
  /// Where temporary files go: `$TMPDIR` when it is set and not empty, else `/tmp`.
  package static func directory(tmpdir: String? = unsafe getenv("TMPDIR").map { unsafe String(cString: $0) }) -> String
  {
    guard let tmpdir, !tmpdir.isEmpty else { return "/tmp" }
    return tmpdir
  }

  /// A new file in `directory` that nobody else can see: created, then unlinked at once, so it
  /// goes away with the process however the process ends. The descriptor, or -1 (`errno` says why).
  package static func open(in directory: String, prefix: String) -> Int32 {
    var template = Array("\(directory)/\(prefix)-XXXXXX".utf8CString)
    let descriptor = unsafe template.withUnsafeMutableBufferPointer {
      unsafe $0.baseAddress.map { unsafe mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else { return -1 }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    _ = unsafe unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    return descriptor
  }
}
