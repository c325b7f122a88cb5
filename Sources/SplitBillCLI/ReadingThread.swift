import Foundation
import SplitBillInput

/// Reads bills on a thread of its own while the caller splits and writes them: two cores, two
/// halves of the work. Bills arrive in reading order, in batches; the reader waits while
/// ``capacity`` batches are waiting, so memory stays bounded however slow the writing.
enum ReadingThread {
  /// Reads `sources` with `stream` on another thread and calls `handle` here, in order, for every
  /// outcome; returns when both are done.
  static func read(
    _ stream: inout BillStream, _ sources: [InputSource], batchSize: Int = 256, capacity: Int = 8,
    _ handle: (BillOutcome) -> Void
  ) {
    let handoff = Handoff(capacity: capacity)
    // The stream belongs to the reading thread until `done` is signalled, and to this one after.
    let owned = Owned(stream)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      var batch: [BillOutcome] = []
      batch.reserveCapacity(batchSize)
      owned.value.read(sources) { outcome in
        batch.append(outcome)
        if batch.count == batchSize {
          handoff.push(batch)
          batch.removeAll(keepingCapacity: true)
        }
      }
      if !batch.isEmpty { handoff.push(batch) }
      handoff.finish()
      done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    while let batch = handoff.pop() {
      for outcome in batch { handle(outcome) }
    }
    done.wait()
    stream = owned.value
  }

  /// A value handed from one thread to another and back, never used by both at once.
  private final class Owned: @unchecked Sendable {
    var value: BillStream
    init(_ value: BillStream) { self.value = value }
  }

  /// A bounded first-in, first-out queue of batches between one reader and one writer.
  private final class Handoff: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[BillOutcome]] = []
    private var finished = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func push(_ batch: [BillOutcome]) {
      condition.lock()
      defer { condition.unlock() }
      while batches.count >= capacity { condition.wait() }
      batches.append(batch)
      condition.broadcast()
    }

    func finish() {
      condition.lock()
      defer { condition.unlock() }
      finished = true
      condition.broadcast()
    }

    /// The next batch, or nil once the reader has finished and everything was taken.
    func pop() -> [BillOutcome]? {
      condition.lock()
      defer { condition.unlock() }
      while batches.isEmpty && !finished { condition.wait() }
      guard !batches.isEmpty else { return nil }
      let batch = batches.removeFirst()
      condition.broadcast()
      return batch
    }
  }
}
