import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive lock on a books file, held while a command reads it and writes its new version
/// (`add`, `report --record-settlements`, `scan --append`, `import -o` over a file), so that two
/// such commands at once never lose a record: the second waits, then reads what the first wrote.
///
/// The lock is the platform's advisory lock (`flock`, exclusive) on a lock file beside the books
/// file, `.NAME.lock` in the same directory (hidden, so the directory walk skips it), made on first
/// use and kept: the books file itself is replaced by a rename, so a lock on it would stay with the
/// old file. `flock` locks belong to the open file, so two threads of one program exclude each
/// other too, and the system drops the lock when the process ends, however it ends. The holder
/// writes its process id and command into the lock file, so a command that waits longer than
/// ``defaultTimeout`` fails saying who holds it. Readers (`check`, `report`) take no lock: the
/// books file is replaced atomically, so they see the old version or the new one, never a part.
package final class BooksLock {
  /// The lock file's path.
  package let lockPath: String
  private var descriptor: Int32

  /// How long a command waits for a lock another holds: a few seconds (`add` holds it for a few
  /// milliseconds). `SPLITBILL_LOCK_TIMEOUT` (seconds, decimals allowed) changes it.
  package static var defaultTimeout: Duration {
    if let text = ProcessInfo.processInfo.environment["SPLITBILL_LOCK_TIMEOUT"],
      let milliseconds = Self.milliseconds(text)
    {
      return .milliseconds(milliseconds)
    }
    return .seconds(5)
  }

  /// `text` as whole milliseconds (`2.5` is 2500); `nil` when it is not a plain decimal.
  static func milliseconds(_ text: String) -> Int? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = Int(parts[0]), whole >= 0, whole < 86_400 else { return nil }
    var fraction = 0
    if parts.count == 2 {
      let digits = parts[1].prefix(3)
      guard !digits.isEmpty, let value = Int(digits) else { return nil }
      fraction = value * [100, 10, 1][digits.count - 1]
    }
    return whole * 1000 + fraction
  }

  /// The lock file of the books file at `path`: `dir/.NAME.lock`.
  package static func lockPath(for path: String) -> String {
    let url = URL(fileURLWithPath: ReplacementFile.resolvingLinks(path))
    let directory = url.deletingLastPathComponent().path
    return (directory == "/" ? "" : directory) + "/." + url.lastPathComponent + ".lock"
  }

  /// Takes the lock of the books file at `path`, waiting up to `timeout` for another holder.
  ///
  /// - Parameter command: what the holder is doing, for the message of one that waits in vain
  ///   (`splitbill add`).
  /// - Throws: ``WriteError`` when the lock file cannot be made, or the lock is still held after
  ///   `timeout` (naming the holder's process and command).
  package init(books path: String, command: String, timeout: Duration = BooksLock.defaultTimeout) throws(WriteError) {
    lockPath = Self.lockPath(for: path)
    descriptor = unsafe open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw WriteError(path: path, reason: "cannot make its lock file '\(lockPath)': \(SystemCalls.errorText(errno))")
    }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR else {
        close(descriptor)
        throw WriteError(path: path, reason: "cannot lock it: \(SystemCalls.errorText(code))")
      }
      guard clock.now < deadline else {
        let holder = Self.holder(descriptor)
        close(descriptor)
        throw WriteError(
          path: path,
          reason:
            "another command has held its lock for over \(Self.describe(timeout)) (\(holder)); "
            + "nothing was written: try again when it is done")
      }
      usleep(10_000)
    }
    // Who holds it, for a command that waits: replaced in place (the file is never renamed).
    let note = Array("pid \(getpid()): \(command)\n".utf8)
    _ = ftruncate(descriptor, 0)
    _ = SystemCalls.write(note, to: descriptor, at: 0)
  }

  /// Releases the lock (the lock file stays, for the next command).
  package func release() {
    guard descriptor >= 0 else { return }
    _ = ftruncate(descriptor, 0)
    _ = flock(descriptor, LOCK_UN)
    close(descriptor)
    descriptor = -1
  }

  deinit { release() }

  /// Runs `body` holding the lock of the books file at `path`.
  package static func holding<T, Failure: Error>(
    books path: String, command: String, _ body: () throws(Failure) -> T
  ) throws -> T {
    let lock = try BooksLock(books: path, command: command)
    defer { lock.release() }
    return try body()
  }

  /// What the holder wrote in the lock file: `pid 1234: splitbill add`, or that it said nothing.
  private static func holder(_ descriptor: Int32) -> String {
    let bytes = (try? SystemCalls.read(upTo: 256, at: 0, from: descriptor).get()) ?? []
    let text = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    return text.isEmpty ? "it did not say which" : "held by " + text
  }

  private static func describe(_ duration: Duration) -> String {
    let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    var fraction = String(String(milliseconds % 1000 + 1000).dropFirst())
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds / 1000).\(fraction) s"
  }
}
