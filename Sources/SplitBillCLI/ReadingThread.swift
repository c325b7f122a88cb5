import SplitBillInput

/// What a command does to each bill on the reading thread, in reading order, before handing it on.
protocol BillPreparing: Sendable {
  /// What the caller's thread receives for one bill.
  associatedtype Prepared: Sendable
  /// Prepares one bill; called once per bill, in order.
  mutating func prepare(_ outcome: BillOutcome) -> Prepared
}

/// Reads bills on a thread of its own while the caller writes them: bills arrive in reading order,
/// in batches, through a bounded queue (``Pipeline``).
enum ReadingThread {
  /// Reads `sources` with `stream` on another thread, where `preparer` also prepares every bill,
  /// and calls `handle` here, in order, for each; returns when both are done, with `stream` and
  /// `preparer` holding what they learnt.
  ///
  /// Work that must follow reading order but not the writers (splitting, which carries the
  /// leftover ledger from bill to bill) goes in `preparer`, so the two cores share the run evenly.
  static func read<Preparer: BillPreparing>(
    _ stream: inout BillStream, _ sources: [InputSource], preparing preparer: inout Preparer,
    batchSize: Int = 256, capacity: Int = 4, _ handle: (Preparer.Prepared) -> Void
  ) {
    var state = (stream: stream, preparer: preparer)
    Pipeline.run(
      handing: &state, batchSize: batchSize, capacity: capacity,
      produce: { state, emit in
        var preparer = state.preparer
        state.stream.read(sources) { outcome in emit(preparer.prepare(outcome)) }
        state.preparer = preparer
      }, consume: handle)
    (stream, preparer) = state
  }
}
