import Foundation

/// Work that blocks its thread, run on a thread of its own.
///
/// Reading is a pipeline of two threads whose hand-over waits on a condition (``Pipeline``): the
/// calling side blocks while the other works. A thread of Swift's cooperative pool (where a
/// nonisolated `async` function runs) must never block like that, as the pool has one thread per
/// core; so the commands that read run the reading, splitting and writing here, on a dedicated
/// thread, and their task awaits it. The advisor's network requests stay structured concurrency.
enum DedicatedThread {
  /// Runs `body` with `context` on a new thread and waits for it without holding a thread of the
  /// cooperative pool; gives what `body` returned or threw, and `context` as `body` left it.
  static func run<Value>(
    _ context: inout CommandContext, _ body: @escaping (inout CommandContext) throws -> Value
  ) async throws -> Value {
    let work = Work(context: context, body: body)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let thread = Thread {
        work.result = Result { try work.body(&work.context) }
        done.resume()
      }
      // Readers recurse into nested YAML: a main thread's stack.
      thread.stackSize = 8 << 20
      thread.start()
    }
    context = work.context
    guard let result = work.result else { preconditionFailure("the thread resumed without a result") }
    return try result.get()
  }

  /// The context and the body, handed to the thread and back. Only one thread has them at a
  /// time: the awaiting task is suspended until the thread resumes it, after its last use.
  private final class Work<Value>: @unchecked Sendable {
    var context: CommandContext
    let body: (inout CommandContext) throws -> Value
    var result: Result<Value, any Error>?

    init(context: CommandContext, body: @escaping (inout CommandContext) throws -> Value) {
      self.context = context
      self.body = body
    }
  }
}
