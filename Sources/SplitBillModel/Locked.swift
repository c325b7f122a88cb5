import Foundation

/// A value shared across threads, behind a lock.
///
/// An `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: on Linux the latter locks
/// with futex calls that ThreadSanitizer does not follow, so every access it guards was reported
/// as a race, and `.ci/run`'s ThreadSanitizer step could not tell a real one from those.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) { self.value = value }

  /// Runs `body` with the value, the lock held.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
