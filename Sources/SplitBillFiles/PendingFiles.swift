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
///
/// Registering a name and making its file is one step (``whileMaking(_:)``) that a handler waits
/// for: otherwise a handler running on one thread could remove the files while another thread sat
/// between registering a name and making it, and that file would be made after the removal and
/// left behind when the process ends.
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
  /// How many threads are between registering a name and making its file.
  private static let making = Atomic<Int>(0)
  /// Set by the first handler: the process is ending, no file is made any more.
  private static let ending = Atomic<Bool>(false)

  /// Runs `make` (registering a name, then making its file) so that a signal cannot leave the file
  /// behind. The thread blocks the three signals meanwhile, so the handler cannot run on it and
  /// wait for itself; a handler on another thread waits until `make` is done before removing the
  /// files. Once a handler has started, `make` does not run: the thread waits for the end.
  static func whileMaking<Result, Failure: Error>(_ make: () throws(Failure) -> Result) throws(Failure) -> Result {
    installHandlers()
    var blocked = sigset_t()
    var previous = sigset_t()
    unsafe sigemptyset(&blocked)
    for signalNumber in handledSignals { unsafe sigaddset(&blocked, signalNumber) }
    unsafe pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    defer { unsafe pthread_sigmask(SIG_SETMASK, &previous, nil) }
    // Said before looking (as the handler sets `ending` before looking at `making`): one of the
    // two sees the other.
    making.add(1, ordering: .sequentiallyConsistent)
    defer { making.subtract(1, ordering: .sequentiallyConsistent) }
    if ending.load(ordering: .sequentiallyConsistent) {
      making.subtract(1, ordering: .sequentiallyConsistent)
      while true { pause() }
    }
    return try make()
  }

  private static let handledSignals = [SIGINT, SIGTERM, SIGHUP]

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
    _ = making.load(ordering: .relaxed)
    _ = ending.load(ordering: .relaxed)
    for signalNumber in handledSignals {
      signal(signalNumber) { number in
        // No file is made from here on; one being made is waited for (bounded, in case a thread
        // never gets the processor back), then every registered one is removed.
        PendingFiles.ending.store(true, ordering: .sequentiallyConsistent)
        var spins = 0
        while PendingFiles.making.load(ordering: .sequentiallyConsistent) > 0 && spins < 200_000_000 { spins += 1 }
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
