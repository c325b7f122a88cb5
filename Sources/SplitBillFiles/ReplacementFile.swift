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

  package init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }
}

/// A file replaced atomically: written into a temporary file in the same directory (registered
/// for removal on a signal, ``PendingFiles``), flushed to disk by ``prepare()``, then renamed over
/// the target by ``commit()``. Readers see the old file or the new one, never a partial one;
/// ``abort()`` (or a failure) removes the temporary file and leaves the old file as it was.
///
/// A target that exists and is not a regular file (`/dev/null`, a FIFO, a terminal) cannot be
/// replaced by renaming; it is written directly.
package final class ReplacementFile {
  /// The target path.
  package let path: String
  private let temporary: String
  /// The file replaced: `path`, or what its chain of symbolic links ends at.
  private var target: String
  /// The permission bits of the file replaced, kept; `nil` for a new file.
  private let mode: mode_t?
  /// Where to write the content, until ``prepare()``; -1 after.
  package private(set) var descriptor: Int32
  private var done = false
  /// Where the temporary file is registered for removal on a signal.
  private var slot: Int?
  private let direct: Bool

  /// The permission bits of a new file (before the umask); a replaced file keeps its own.
  private let newFileMode: mode_t

  /// Creates the temporary file next to `path`.
  ///
  /// - Parameters:
  ///   - overwrite: when `false`, an existing `path` is an error and is left alone.
  ///   - newFileMode: the permission bits a new file gets, less the umask (`0o600` for a private one).
  package init(path: String, overwrite: Bool = true, newFileMode: UInt32 = 0o644) throws(WriteError) {
    self.path = path
    self.newFileMode = mode_t(newFileMode)
    if unsafe !overwrite && access(path, F_OK) == 0 {
      throw WriteError(path: path, reason: "the file exists (use --force)")
    }
    // A symbolic link is written through: its target is replaced, the link stays.
    let target = ReplacementFile.resolvingLinks(path)
    let existing: SystemCalls.FileStatus? =
      switch SystemCalls.status(of: target) {
      case .success(let status): status
      case .failure: nil
      }
    if let existing, existing.isRegularFile {
      // Replacing a file the user may not write would get round its permissions (as `cp` refuses).
      guard unsafe access(target, W_OK) == 0 else { throw WriteError(path: path, reason: ReplacementFile.lastError()) }
      mode = mode_t(existing.permissions)
    } else {
      mode = nil
    }
    if let existing, !existing.isRegularFile {
      guard !existing.isDirectory else { throw WriteError(path: path, reason: "it is a directory") }
      let descriptor = unsafe open(path, O_WRONLY)
      guard descriptor >= 0 else { throw WriteError(path: path, reason: ReplacementFile.lastError()) }
      self.descriptor = descriptor
      self.temporary = path
      self.target = target
      self.direct = true
      return
    }
    direct = false
    self.target = target
    let slash = target.lastIndex(of: "/")
    let directory = slash.map { String(target[..<$0]) } ?? "."
    let base = slash.map { String(target[target.index(after: $0)...]) } ?? target
    PendingFiles.removeStale(of: base, in: directory.isEmpty ? "/" : directory)
    // The name is chosen here and registered for removal on a signal before the file is made
    // (as mkstemp would make it: O_CREAT | O_EXCL, mode 600): a signal between making and
    // registering would leave it behind.
    let start = (directory.isEmpty ? "" : directory) + "/" + PendingFiles.prefix(of: base)
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    let (descriptor, name, slot) = try PendingFiles.whileMaking { () throws(WriteError) -> (Int32, String, Int?) in
      for _ in 0..<100 {
        let name = start + String((0..<6).map { _ in letters.randomElement() ?? "x" })
        let slot = PendingFiles.register(name)
        let descriptor = unsafe open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 { return (descriptor, name, slot) }
        let failure = errno
        if let slot { PendingFiles.unregister(slot) }
        if failure != EEXIST { throw WriteError(path: path, reason: SystemCalls.errorText(failure)) }
      }
      throw WriteError(path: path, reason: "no unused temporary name next to it after 100 tries")
    }
    self.descriptor = descriptor
    self.temporary = name
    self.slot = slot
  }

  deinit { abort() }

  /// Whether the file is still open for writing: neither prepared, committed nor aborted.
  package var isOpen: Bool { !done && descriptor >= 0 }

  /// Syncs the content and closes the file: after this only ``commit()``'s rename is left, so
  /// several files can all be made complete before any of them replaces its target.
  package func prepare() throws(WriteError) {
    guard isOpen else { return }
    if direct {
      close(descriptor)
      descriptor = -1
      return
    }
    // mkstemp makes 0600: a new file gets `newFileMode` less the umask, a replaced one keeps its bits.
    let mask = umask(0)
    umask(mask)
    fchmod(descriptor, mode ?? (newFileMode & ~mask))
    guard fsync(descriptor) == 0, close(descriptor) == 0 else {
      let reason = ReplacementFile.lastError()
      descriptor = -1
      abort()
      throw WriteError(path: path, reason: reason)
    }
    descriptor = -1
  }

  /// The complete temporary file after ``prepare()``, to be read before ``commit()`` (`add`
  /// checks the file it would make there); `nil` when the target is written directly (not a
  /// regular file) or the file is gone.
  package var preparedPath: String? { direct || done || descriptor >= 0 ? nil : temporary }

  /// Syncs and renames the file into place (``prepare()`` first, if not done yet).
  package func commit() throws(WriteError) {
    guard !done else { return }
    try prepare()
    if direct {
      done = true
      return
    }
    guard unsafe rename(temporary, target) == 0 else {
      let reason = ReplacementFile.lastError()
      abort()
      throw WriteError(path: path, reason: reason)
    }
    done = true
    if let slot { PendingFiles.unregister(slot) }
  }

  /// Drops the temporary file; the target is untouched.
  package func abort() {
    guard !done else { return }
    done = true
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    if !direct { unsafe unlink(temporary) }
    if let slot { PendingFiles.unregister(slot) }
  }

  private static func lastError() -> String { SystemCalls.errorText(errno) }

  /// `path` with every symbolic link along the chain followed (at most 40, as the kernel does);
  /// a dangling link gives the path it points to, which is then created.
  static func resolvingLinks(_ path: String) -> String {
    var current = path
    for _ in 0..<40 {
      var status = stat()
      guard unsafe lstat(current, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = unsafe buffer.withUnsafeMutableBufferPointer { room -> Int in
        guard let start = room.baseAddress else { return -1 }
        return unsafe readlink(current, start, room.count - 1)
      }
      guard count > 0 else { return current }
      let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if link.hasPrefix("/") {
        current = link
      } else {
        let slash = current.lastIndex(of: "/")
        current = (slash.map { String(current[...$0]) } ?? "") + link
      }
    }
    return current
  }
}
