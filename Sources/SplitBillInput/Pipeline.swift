import Foundation
@_spi(ByteWriters) import SplitBillBytes

/// Two halves of a job on two threads: `produce` runs on a thread of its own and emits elements;
/// the caller's thread consumes them, in order, in batches. The producer waits while `capacity`
/// batches are waiting, so memory stays bounded however slow the consumer. Batches of 256 bills
/// (about half a millisecond of work) keep hand-overs rare.
package enum Pipeline {
  /// Runs `produce` on another thread and `consume` here for everything it emits; returns when both
  /// are done.
  package static func run<Element: Sendable>(
    batchSize: Int = 256, capacity: Int = 4,
    produce: @escaping @Sendable (_ emit: (consuming Element) -> Void) -> Void,
    consume: (consuming Element) -> Void
  ) {
    let handoff = Handoff<Element>(capacity: capacity, batchSize: batchSize)
    let thread = Thread {
      var batch = Batch<Element>(capacity: batchSize)
      // Moved into the batch, never copied: a copy of a bill is a retain for each of its strings.
      produce { (element: consuming Element) in
        batch.append(element)
        if batch.isFull { batch = handoff.push(batch) }
      }
      if !batch.isEmpty { _ = handoff.push(batch) }
      // The producer's last act: under the hand-over's lock, so that everything it did (the value
      // it was handed included) is seen by the consumer once it finds the queue finished.
      handoff.finish()
    }
    // Readers recurse into nested YAML: give the thread a main thread's stack.
    thread.stackSize = 8 << 20
    thread.start()
    while let batch = handoff.pop() {
      batch.drain(consume)
      handoff.recycle(batch)
    }
  }

  /// The same, with `value` (a reader, a stream) handed to the producer, which may change it, and
  /// handed back before this returns. `value` need not be `Sendable`: only one thread has it at a
  /// time.
  package static func run<Value, Element: Sendable>(
    handing value: inout Value, batchSize: Int = 256, capacity: Int = 4,
    produce: @escaping @Sendable (_ value: inout Value, _ emit: (consuming Element) -> Void) -> Void,
    consume: (consuming Element) -> Void
  ) {
    let owned = Transfer(value)
    run(batchSize: batchSize, capacity: capacity, produce: { emit in produce(&owned.value, emit) }, consume: consume)
    value = owned.value
  }
}

/// A value handed to the producer's thread and back, never used by both at once.
private final class Transfer<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// Elements on their way from one thread to the other, a batch at a time.
private typealias Batch<Element> = FixedBatch<Element>

/// A bounded first-in, first-out queue of batches between one producer and one consumer, which
/// hands emptied batches back for reuse.
///
/// A side that must wait sleeps on the condition, and is woken only once the other side has
/// made room for a run of batches, not one: the consumer when half the queue is full (or the
/// producer has finished), the producer when the queue is down to half. Waking a sleeping thread
/// costs about as much as a batch's work; waking it for every batch kept the cores a fifth idle.
private final class Handoff<Element>: @unchecked Sendable {
  private let condition = NSCondition()
  private var batches: [Batch<Element>] = []
  private var spare: [Batch<Element>] = []
  private var finished = false
  private var consumerWaits = false
  private var producerWaits = false
  private let capacity: Int
  private let batchSize: Int
  /// Half the queue: where a sleeping side is woken.
  private let half: Int

  init(capacity: Int, batchSize: Int) {
    self.capacity = capacity
    self.batchSize = batchSize
    half = max(capacity / 2, 1)
  }

  /// Queues `batch` and returns an empty one to fill next.
  func push(_ batch: Batch<Element>) -> Batch<Element> {
    condition.lock()
    defer { condition.unlock() }
    while batches.count >= capacity {
      producerWaits = true
      condition.wait()
    }
    producerWaits = false
    batches.append(batch)
    if consumerWaits && batches.count >= half { condition.signal() }
    return spare.popLast() ?? Batch(capacity: batchSize)
  }

  /// Takes back a batch the consumer emptied.
  func recycle(_ batch: Batch<Element>) {
    condition.lock()
    defer { condition.unlock() }
    spare.append(batch)
  }

  func finish() {
    condition.lock()
    defer { condition.unlock() }
    finished = true
    condition.signal()
  }

  /// The next batch, or nil once the producer has finished and everything was taken.
  func pop() -> Batch<Element>? {
    condition.lock()
    defer { condition.unlock() }
    while batches.isEmpty && !finished {
      consumerWaits = true
      condition.wait()
    }
    consumerWaits = false
    guard !batches.isEmpty else { return nil }
    let batch = batches.removeFirst()
    if producerWaits && batches.count <= half { condition.signal() }
    return batch
  }
}
