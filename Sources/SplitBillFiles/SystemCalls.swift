#if canImport(Glibc)
  import Glibc
#endif

/// The C library's calls the modules above make, as safe functions: the C strings and pointers
/// they take stay in this module (the system's shim), and the callers need no `unsafe`.
package enum SystemCalls {
  /// The C library's words for error number `code` (`No such file or directory`).
  package static func errorText(_ code: Int32) -> String { unsafe String(cString: strerror(code)) }

  /// What a path names.
  package enum PathKind: Sendable, Equatable {
    case directory
    /// A file, a pipe, a device: anything but a directory.
    case other
  }

  /// What `path` names, symbolic links followed; `nil` when nothing is there (or it cannot be
  /// looked at), as `FileManager.fileExists(atPath:isDirectory:)` says.
  package static func kind(of path: String) -> PathKind? {
    var status = stat()
    guard unsafe stat(path, &status) == 0 else { return nil }
    return status.st_mode & S_IFMT == S_IFDIR ? .directory : .other
  }

  /// Writes all of `bytes` to `descriptor`, again after an interrupted or short write: `nil` when
  /// they were, else the error number (`0` when the system wrote nothing and named no error).
  package static func write(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let written = unsafe bytes[offset...].withUnsafeBytes { unsafe Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return written < 0 ? errno : 0 }
      offset += written
    }
    return nil
  }

  /// Writes `bytes` to a new file beside `target` (mode 0600) and renames it over `target`, so
  /// that `target` is the old bytes or the new, never a part; on any failure the new file is
  /// removed. The system's reason (`'path': reason`), or `nil` on success.
  package static func writeAtomically(_ bytes: [UInt8], to target: String) -> String? {
    func failure(_ path: String, _ code: Int32) -> String { "'\(path)': \(errorText(code))" }
    let temporary = "\(target).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = unsafe open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return failure(temporary, errno) }
    if let code = write(bytes, to: descriptor) {
      close(descriptor)
      _ = unsafe unlink(temporary)
      return code == 0 ? "'\(target)': nothing written" : failure(target, code)
    }
    guard close(descriptor) == 0 else {
      let code = errno
      _ = unsafe unlink(temporary)
      return failure(target, code)
    }
    guard unsafe rename(temporary, target) == 0 else {
      let code = errno
      _ = unsafe unlink(temporary)
      return failure(target, code)
    }
    return nil
  }

  /// Today's date in the local time zone (`TZ`): year, month (1–12) and day.
  package static func localDate() -> (year: Int, month: Int, day: Int) {
    var now = time(nil)
    var parts = unsafe tm()
    unsafe localtime_r(&now, &parts)
    return unsafe (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
  }
}
