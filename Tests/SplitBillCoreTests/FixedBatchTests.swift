@_spi(ByteWriters) import SplitBillBytes
import Testing

/// The pipeline's batch: elements come out in the order they went in, each once, and what is
/// left in a batch when it goes is released with it.
@Suite struct FixedBatchTests {
  /// Counts its live instances, so that a leak or a double release shows.
  final class Tracked {
    nonisolated(unsafe) static var live = 0
    let value: Int
    init(_ value: Int) {
      self.value = value
      Self.live += 1
    }
    deinit { Self.live -= 1 }
  }

  @Test func elementsComeOutInOrderOnceAndTheLeftoversAreReleased() {
    let before = Tracked.live
    do {
      let batch = FixedBatch<Tracked>(capacity: 4)
      #expect(batch.isEmpty && !batch.isFull)
      for round in 0..<3 {
        for index in 0..<4 { batch.append(Tracked(10 * round + index)) }
        #expect(batch.isFull && !batch.isEmpty)
        var drained: [Int] = []
        batch.drain { drained.append($0.value) }
        #expect(drained == (0..<4).map { 10 * round + $0 })
        #expect(batch.isEmpty)
        #expect(Tracked.live == before)
      }
      batch.append(Tracked(99))
      batch.append(Tracked(98))
      #expect(Tracked.live == before + 2)
    }
    // The batch went with two elements still in it: both released.
    #expect(Tracked.live == before)
  }
}
