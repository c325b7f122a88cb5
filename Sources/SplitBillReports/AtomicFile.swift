#if canImport(Glibc)
  import Glibc
#endif

/// Why a file could not be written.
public struct WriteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The path that was to be written.
  public var path: String
  /// The system's reason.
  public var reason: String

  public var description: String { "cannot write '\(path)': \(reason)" }
}

/// Writes a file atomically: into a temporary file in the same directory, flushed to disk, then
/// renamed over the target. Readers see the old file or the new one, never a partial one; on any
/// failure the old file stays as it was and the temporary file is removed.
public enum AtomicFile {
  /// Writes what `produce` sends to its sink to `path`.
  ///
  /// - Parameter overwrite: when `false`, an existing `path` is an error and is left alone.
  public static func write(
    to path: String, overwrite: Bool = true, _ produce: (inout FileDescriptorSink) throws -> Void
  ) throws {
    let directory = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : "."
    let base = path.split(separator: "/").last.map(String.init) ?? path
    if !overwrite && access(path, F_OK) == 0 { throw WriteError(path: path, reason: "the file exists (use --force)") }
    let templatePath = (directory.isEmpty ? "" : directory) + "/.\(base).tmp-XXXXXX"
    var template = Array(templatePath.utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard descriptor >= 0 else { throw WriteError(path: path, reason: lastError()) }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var sink = FileDescriptorSink(descriptor: descriptor)
    var committed = false
    defer {
      if !committed { unlink(temporary) }
    }
    do {
      try produce(&sink)
    } catch {
      close(descriptor)
      throw error
    }
    sink.flush()
    if sink.failed {
      let reason = lastError()
      close(descriptor)
      throw WriteError(path: path, reason: reason)
    }
    // mkstemp creates 0600; a report is an ordinary file.
    fchmod(descriptor, 0o644 & ~currentUmask())
    guard fsync(descriptor) == 0 else {
      let reason = lastError()
      close(descriptor)
      throw WriteError(path: path, reason: reason)
    }
    close(descriptor)
    guard rename(temporary, path) == 0 else { throw WriteError(path: path, reason: lastError()) }
    committed = true
  }

  static func lastError() -> String { String(cString: strerror(errno)) }

  static func currentUmask() -> mode_t {
    let mask = umask(0)
    umask(mask)
    return mask
  }
}
