#if canImport(Glibc)
  import Glibc
#endif

/// Why a file could not be written.
package struct WriteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The path that was to be written.
  package var path: String
  /// The system's reason.
  package var reason: String

  package var description: String { "cannot write '\(path)': \(reason)" }
}

/// A file being written atomically: into a temporary file in the same directory, flushed to disk,
/// then renamed over the target by ``commit()``. Readers see the old file or the new one, never a
/// partial one; ``abort()`` (or a failure) removes the temporary file and leaves the old file as it was.
///
/// A target that exists and is not a regular file (`/dev/null`, a FIFO, a terminal) cannot be
/// replaced by renaming; it is written directly.
package final class PendingFile {
  /// The target path.
  package let path: String
  /// Where to write the content.
  package let sink: FileDescriptorSink
  private let temporary: String
  private var descriptor: Int32
  private var done = false
  private let direct: Bool

  /// Creates the temporary file next to `path`.
  ///
  /// - Parameter overwrite: when `false`, an existing `path` is an error and is left alone.
  package init(path: String, overwrite: Bool = true) throws(WriteError) {
    self.path = path
    if unsafe !overwrite && access(path, F_OK) == 0 {
      throw WriteError(path: path, reason: "the file exists (use --force)")
    }
    var status = stat()
    if unsafe stat(path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG {
      guard (status.st_mode & S_IFMT) != S_IFDIR else { throw WriteError(path: path, reason: "it is a directory") }
      let descriptor = unsafe open(path, O_WRONLY)
      guard descriptor >= 0 else { throw WriteError(path: path, reason: PendingFile.lastError()) }
      self.descriptor = descriptor
      self.temporary = path
      self.direct = true
      self.sink = FileDescriptorSink(descriptor: descriptor)
      return
    }
    direct = false
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) } ?? "."
    let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array(((directory.isEmpty ? "" : directory) + "/.\(base).tmp-XXXXXX").utf8CString)
    let descriptor = unsafe template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let start = buffer.baseAddress else { return -1 }
      return unsafe mkstemp(start)
    }
    guard descriptor >= 0 else { throw WriteError(path: path, reason: PendingFile.lastError()) }
    self.descriptor = descriptor
    self.temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    self.sink = FileDescriptorSink(descriptor: descriptor)
  }

  deinit { abort() }

  /// Flushes and syncs the content and closes the file: after this only ``commit()``'s rename is
  /// left, so several files can all be made complete before any of them replaces its target.
  package func prepare() throws(WriteError) {
    guard !done, descriptor >= 0 else { return }
    sink.flush()
    if direct {
      close(descriptor)
      descriptor = -1
      if let failure = sink.failure {
        done = true
        throw unsafe WriteError(path: path, reason: String(cString: strerror(failure)))
      }
      return
    }
    if let failure = sink.failure {
      abort()
      throw unsafe WriteError(path: path, reason: String(cString: strerror(failure)))
    }
    let mask = umask(0)
    umask(mask)
    fchmod(descriptor, 0o644 & ~mask)  // mkstemp makes 0600; a report is an ordinary file
    guard fsync(descriptor) == 0, close(descriptor) == 0 else {
      let reason = PendingFile.lastError()
      descriptor = -1
      abort()
      throw WriteError(path: path, reason: reason)
    }
    descriptor = -1
  }

  /// Flushes, syncs and renames the file into place (``prepare()`` first, if not done yet).
  package func commit() throws(WriteError) {
    guard !done else { return }
    try prepare()
    if direct {
      done = true
      return
    }
    guard unsafe rename(temporary, path) == 0 else {
      let reason = PendingFile.lastError()
      abort()
      throw WriteError(path: path, reason: reason)
    }
    done = true
  }

  /// Drops the temporary file; the target is untouched.
  package func abort() {
    guard !done else { return }
    done = true
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    if !direct { unsafe unlink(temporary) }
  }

  static func lastError() -> String { unsafe String(cString: strerror(errno)) }
}

/// Writes a whole file atomically in one call.
package enum AtomicFile {
  /// Writes what `produce` sends to the sink to `path`, atomically.
  package static func write(to path: String, overwrite: Bool = true, _ produce: (FileDescriptorSink) throws -> Void)
    throws
  {
    let file = try PendingFile(path: path, overwrite: overwrite)
    do {
      try produce(file.sink)
    } catch {
      file.abort()
      throw error
    }
    try file.commit()
  }
}
