import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The temporary files of the ``ReplacementFile``s being written (outputs, cache entries), so that
/// SIGINT, SIGTERM and SIGHUP remove them before the process ends (a report of millions of bills
/// leaves megabytes behind otherwise), and so that a later run removes those a killed run
/// (SIGKILL) could not.
///
/// The signal handler may run on any thread while another registers a file: the table is made of
/// 32 slots allocated once, each with an atomic state, and the handler only reads ready slots and
/// calls `unlink` (async-signal-safe). A run writing more than 32 files at once leaves
/// the extra ones to the stale-file sweep.
enum PendingFiles {
  /// The longest path kept, with its terminating zero.
  static let pathRoom = Int(PATH_MAX)

  /// Empty, being filled, holding a path.
  private static let empty = 0
  private static let filling = 1
  private static let ready = 2

  private static let states = InlineArray<32, Atomic<Int>> { _ in Atomic(0) }
  /// The paths, `pathRoom` bytes a slot, NUL-terminated; never freed.
  private nonisolated(unsafe) static let paths = UnsafeMutablePointer<CChar>.allocate(capacity: 32 * pathRoom)
  private static let handlersInstalled = Atomic<Bool>(false)

  /// Registers `path` for removal on a signal; the slot to give back to ``unregister(_:)``.
  static func register(_ path: String) -> Int? {
    installHandlers()
    let bytes = Array(path.utf8)
    guard bytes.count < pathRoom else { return nil }
    for slot in states.indices {
      guard states[slot].compareExchange(expected: empty, desired: filling, ordering: .acquiring).exchanged else {
        continue
      }
      let start = unsafe paths + slot * pathRoom
      for (index, byte) in bytes.enumerated() { unsafe start[index] = CChar(bitPattern: byte) }
      unsafe start[bytes.count] = 0
      states[slot].store(ready, ordering: .releasing)
      return slot
    }
    return nil
  }

  /// Forgets the file of `slot` (renamed into place, or removed).
  static func unregister(_ slot: Int) {
    states[slot].store(empty, ordering: .releasing)
  }

  /// Removes every registered file: from the signal handler, so only `unlink` and atomics.
  static func removeAll() {
    for slot in states.indices where states[slot].load(ordering: .acquiring) == ready {
      unsafe unlink(paths + slot * pathRoom)
    }
  }

  /// On SIGINT, SIGTERM and SIGHUP: the files removed, then the signal's default action (the
  /// exit status says which signal ended the run). Installed once, when a first file is registered.
  private static func installHandlers() {
    guard !handlersInstalled.exchange(true, ordering: .acquiringAndReleasing) else { return }
    // Made before a handler can run: the handler must not be the first to touch them.
    _ = states[0].load(ordering: .relaxed)
    _ = unsafe paths
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      signal(signalNumber) { number in
        PendingFiles.removeAll()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
  }

  /// The start of the names this process gives the temporary files of `base`: `.BASE.tmp-PID-`.
  static func prefix(of base: String, pid: Int32 = getpid()) -> String { ".\(base).tmp-\(pid)-" }

  /// Removes, in `directory`, temporary files of `base` left by runs that are gone (killed before
  /// they could remove them): `.BASE.tmp-PID-XXXXXX` whose process no longer exists.
  static func removeStale(of base: String, in directory: String) {
    guard let entries = unsafe opendir(directory) else { return }
    defer { unsafe closedir(entries) }
    let start = ".\(base).tmp-"
    // The name is read where it is: an entry is only as long as its name (`d_reclen`), so copying
    // the whole `dirent` out (`entry.pointee`) reads past the end of the directory's buffer when
    // the entry is the last in it, and crashes when that is the end of a page.
    guard let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return }
    while let entry = unsafe readdir(entries) {
      let name = unsafe String(
        cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
      guard name.hasPrefix(start) else { continue }
      let rest = name.dropFirst(start.count)
      guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0, rest[dash...].count == 7
      else { continue }
      // Gone: no such process. (One that exists, or that this user may not signal, is left alone.)
      if kill(pid, 0) != 0 && errno == ESRCH { unsafe unlink(directory + "/" + name) }
    }
  }
}
