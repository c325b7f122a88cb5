import SplitBillInput

/// Reads bills on a thread of its own while the caller splits and writes them: bills arrive in
/// reading order, in batches, through a bounded queue (``Pipeline``).
enum ReadingThread {
  /// Reads `sources` with `stream` on another thread and calls `handle` here, in order, for every
  /// outcome; returns when both are done, with `stream` holding what the reading learnt.
  static func read(
    _ stream: inout BillStream, _ sources: [InputSource], batchSize: Int = 64, capacity: Int = 4,
    _ handle: (BillOutcome) -> Void
  ) {
    Pipeline.run(
      handing: &stream, batchSize: batchSize, capacity: capacity,
      produce: { stream, emit in stream.read(sources, emit) }, consume: handle)
  }
}
