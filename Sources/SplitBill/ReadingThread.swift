import SplitBillInput

/// Reads bills on a thread of its own while the caller splits and writes them: bills arrive in
/// reading order, in batches, through a bounded queue (``Pipeline``).
package enum ReadingThread {
  /// Reads `sources` with `stream` on another thread and calls `handle` here, in order, for each
  /// bill; returns when both are done, with `stream` holding what it learnt.
  ///
  /// The reading thread parses, validates and checks each bill (YAML with libyaml on a thread of
  /// its own besides); the caller's thread splits it (the leftover ledger goes from bill to bill),
  /// books and writes it. For CSV that keeps two threads about equally busy, one per core; a
  /// third thread (parsing apart from the rules) would only share the same cores (the measured
  /// round is in docs/performance.md).
  package static func read(
    _ stream: inout BillStream, _ sources: [InputSource], batchSize: Int = 256, capacity: Int = 4,
    _ handle: (consuming BillOutcome) -> Void
  ) {
    stream.parsesCSVOnOwnThread = false
    Pipeline.run(
      handing: &stream, batchSize: batchSize, capacity: capacity,
      produce: { stream, emit in stream.read(sources, emit) }, consume: handle)
  }
}
