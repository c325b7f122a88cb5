import Foundation

/// Work that blocks its thread, run on a thread of its own: what the `async` entry points
/// (``Checker``, ``Balances``, ``ReportRun``, ``Exporter``, ``Scanner``) are made of.
///
/// Reading is a pipeline of two threads whose hand-over waits on a condition (``Pipeline``): the
/// calling side blocks while the other works. A thread of Swift's cooperative pool (where a
/// nonisolated `async` function runs) must never block like that, as the pool has one thread per
/// core; so the `async` entry points run the reading, splitting and writing here, and their task
/// awaits it without holding a thread of the pool.
enum DedicatedThread {
  /// Runs `body` on a new thread (with a main thread's stack: readers recurse into nested YAML)
  /// and gives what it returned or threw.
  static func run<Value, Failure: Error>(_ body: @escaping () throws(Failure) -> Value) async throws(Failure) -> Value {
    let work = Work(body: body)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let thread = Thread {
        work.result = Result { () throws(Failure) -> Value in try work.body() }
        done.resume()
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    guard let result = work.result else { preconditionFailure("the thread resumed without a result") }
    return try result.get()
  }

  /// The body and its result, handed to the thread and back. Only one thread has them at a time:
  /// the awaiting task is suspended until the thread resumes it, after its last use.
  private final class Work<Value, Failure: Error>: @unchecked Sendable {
    let body: () throws(Failure) -> Value
    var result: Result<Value, Failure>?

    init(body: @escaping () throws(Failure) -> Value) { self.body = body }
  }
}
