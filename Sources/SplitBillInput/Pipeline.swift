import Foundation

/// Two halves of a job on two threads: `produce` runs on a thread of its own and emits elements;
/// the caller's thread consumes them, in order, in batches. The producer waits while `capacity`
/// batches are waiting, so memory stays bounded however slow the consumer. Batches of 256 bills
/// (about half a millisecond of work) keep hand-overs rare.
public enum Pipeline {
  /// Runs `produce` on another thread and `consume` here for everything it emits; returns when both
  /// are done.
  public static func run<Element: Sendable>(
    batchSize: Int = 256, capacity: Int = 4, produce: @escaping @Sendable (_ emit: (Element) -> Void) -> Void,
    consume: (Element) -> Void
  ) {
    let handoff = Handoff<Element>(capacity: capacity)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      var batch: [Element] = []
      batch.reserveCapacity(batchSize)
      produce { element in
        batch.append(element)
        if batch.count == batchSize {
          handoff.push(batch)
          batch.removeAll(keepingCapacity: true)
        }
      }
      if !batch.isEmpty { handoff.push(batch) }
      handoff.finish()
      done.signal()
    }
    // Readers recurse into nested YAML: give the thread a main thread's stack.
    thread.stackSize = 8 << 20
    thread.start()
    while let batch = handoff.pop() {
      for element in batch { consume(element) }
    }
    done.wait()
  }

  /// The same, with `value` (a reader, a stream) handed to the producer, which may change it, and
  /// handed back before this returns. `value` need not be `Sendable`: only one thread has it at a
  /// time.
  public static func run<Value, Element: Sendable>(
    handing value: inout Value, batchSize: Int = 256, capacity: Int = 4,
    produce: @escaping @Sendable (_ value: inout Value, _ emit: (Element) -> Void) -> Void,
    consume: (Element) -> Void
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

/// A bounded first-in, first-out queue of batches between one producer and one consumer.
private final class Handoff<Element>: @unchecked Sendable {
  private let condition = NSCondition()
  private var batches: [[Element]] = []
  private var finished = false
  private let capacity: Int

  init(capacity: Int) { self.capacity = capacity }

  func push(_ batch: [Element]) {
    condition.lock()
    defer { condition.unlock() }
    wait { batches.count < capacity }
    batches.append(batch)
    condition.broadcast()
  }

  func finish() {
    condition.lock()
    defer { condition.unlock() }
    finished = true
    condition.broadcast()
  }

  /// The next batch, or nil once the producer has finished and everything was taken.
  func pop() -> [Element]? {
    condition.lock()
    defer { condition.unlock() }
    wait { !batches.isEmpty || finished }
    guard !batches.isEmpty else { return nil }
    let batch = batches.removeFirst()
    condition.broadcast()
    return batch
  }

  /// Waits, the lock held, until `ready`. It first yields the processor a hundred times (about as
  /// long as the other side takes to hand a batch over), and sleeps on the condition only after:
  /// a thread that slept at once left its core idle, and waking an idle processor of a virtual
  /// machine takes long enough that the two cores were a fifth idle over a run.
  private func wait(until ready: () -> Bool) {
    var yields = 0
    while !ready() {
      if yields < 100 {
        yields += 1
        condition.unlock()
        sched_yield()
        condition.lock()
      } else {
        condition.wait()
      }
    }
  }
}
