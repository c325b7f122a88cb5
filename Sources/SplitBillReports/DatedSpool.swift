import SplitBillCore
import SplitBillFiles

#if canImport(Glibc)
  import Glibc
#endif

/// A journal's body, spooled by date so that it comes out in date order (stable: one date's
/// transactions keep their input order), as `hledger check ordereddates` wants, without holding
/// it in memory or reading it twice.
///
/// Each transaction is appended to its date's buffer; a buffer that fills is written to an
/// unlinked temporary file as one piece (and all of them once they hold ``bufferLimit`` bytes
/// together, 1 MiB: memory stays flat), its place noted under its date. Copying out reads each date's pieces in date
/// order, then what is still buffered. Inputs already in date order cost what a plain spool
/// costs; inputs in any order cost one more read position per piece (a few thousand for a journal
/// of 100 MB) and a few words per date. Without a temporary file everything stays in memory.
package final class DatedSpool {
  /// When a date's buffer is written out.
  static let pieceSize = 1 << 16
  /// How much all the buffers may hold before every one is written out.
  static let bufferLimit = 1 << 20

  private let descriptor: Int32
  private let directory: String
  private var fileEnd: Int64 = 0
  /// Each date's slot (`YYYYMMDD` → index), and by slot: the date, its buffer, its pieces on file
  /// in the order written.
  private var slots: [Int: Int] = [:]
  private var dates: [Int] = []
  private var buffers: [[UInt8]] = []
  private var pieces: [[(offset: Int64, count: Int)]] = []
  /// Where each write of all the buffers together starts on file (its pieces in date order), for
  /// reading them back sequentially.
  private var segments: [Int64] = []

  private var buffered = 0
  /// The slot appended to last.
  private var current = -1
  private var currentDate = Int.min
  private var failure: Int32?

  /// A date as one sortable number, `YYYYMMDD`.
  static func key(_ date: CalendarDate) -> Int { date.year * 10_000 + date.month * 100 + date.day }

  /// A new, empty spool in `$TMPDIR` (else `/tmp`).
  package init(directory: String = TemporaryFile.directory()) {
    self.directory = directory
    descriptor = TemporaryFile.open(in: directory, prefix: "splitbill-journal")
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Lets `body` append one transaction dated `date` to its date's buffer.
  package func append(on date: CalendarDate, _ body: (inout [UInt8]) -> Void) {
    let key = Self.key(date)
    if key != currentDate {
      if let slot = slots[key] {
        current = slot
      } else {
        current = dates.count
        slots[key] = current
        dates.append(key)
        buffers.append([])
        pieces.append([])
      }
      currentDate = key
    }
    appendToLast(body)
    guard descriptor >= 0 else { return }
    if buffers[current].count >= Self.pieceSize {
      buffered -= buffers[current].count
      pieces[current].append((fileEnd, buffers[current].count))
      write(buffers[current])
      // Let its room go: a date's buffer holds room only while it fills.
      buffers[current] = []
    }
    if buffered > Self.bufferLimit {
      // All of them, one after the other in date order (a segment): read back, a segment is read
      // from its start to its end as the dates go by. Written a piece's size at a time: gathered
      // whole it held another megabyte at the peak; a write per date was a system call per date.
      segments.append(fileEnd)
      var staged: [UInt8] = []
      staged.reserveCapacity(2 * Self.pieceSize)
      for slot in buffers.indices.sorted(by: { dates[$0] < dates[$1] }) where !buffers[slot].isEmpty {
        pieces[slot].append((fileEnd + Int64(staged.count), buffers[slot].count))
        staged.append(contentsOf: buffers[slot])
        // Room for about what it held: the date will most likely fill as much again before the
        // next segment (growing it from nothing was a copy at each doubling; keeping the room it
        // grew to held more).
        let held = buffers[slot].count
        buffers[slot] = []
        buffers[slot].reserveCapacity(held + 1_024)
        if staged.count >= Self.pieceSize {
          write(staged)
          staged.removeAll(keepingCapacity: true)
        }
      }
      if !staged.isEmpty { write(staged) }
      buffered = 0
    }
  }

  /// Lets `body` append more of the transaction appended last (its postings).
  package func appendToLast(_ body: (inout [UInt8]) -> Void) {
    guard current >= 0 else { return }
    // Room ahead, growing by doubling (a writer reserves what one transaction may take; an exact
    // reservation each time would copy the buffer at every transaction).
    let capacity = buffers[current].capacity
    if capacity - buffers[current].count < 1_024 { buffers[current].reserveCapacity(max(2 * capacity, 2_048)) }
    let before = buffers[current].count
    body(&buffers[current])
    buffered += buffers[current].count - before
  }

  /// Writes `bytes` at the file's end.
  private func write(_ bytes: [UInt8]) {
    if failure == nil, let code = SystemCalls.write(bytes, to: descriptor, at: fileEnd) { failure = code }
    fileEnd += Int64(bytes.count)
  }

  /// `count` bytes of the file from `offset`, or the error number (`EIO` when the file ends first).
  private func read(_ count: Int, at offset: Int64) -> Result<[UInt8], SystemCalls.ErrorNumber> {
    SystemCalls.read(upTo: count, at: offset, from: descriptor).flatMap { piece in
      piece.count == count ? .success(piece) : .failure(SystemCalls.ErrorNumber(code: EIO))
    }
  }

  /// Copies every transaction to `sink` in date order, or records in `sink` why it cannot.
  ///
  /// `before` is called with each date and the sink before that date's transactions, and once
  /// more with `Int.max` at the end (``JournalBody`` puts its own there).
  package func copy<Sink: OutputSink>(to sink: inout Sink, before: (Int, inout Sink) -> Void = { _, _ in }) {
    let place = "a temporary file in \(directory)"
    if let failure { return sink.recordFailure(failure, in: place) }
    defer { before(Int.max, &sink) }
    // What was read ahead of each segment, and how much to read ahead: about 1 MiB in all.
    var ahead: [Int: (start: Int64, bytes: [UInt8])] = [:]
    let readAhead = max(4_096, min(1 << 16, (1 << 20) / max(segments.count, 1)))
    for slot in dates.indices.sorted(by: { dates[$0] < dates[$1] }) {
      before(dates[slot], &sink)
      for (offset, count) in pieces[slot] {
        // The segment the piece is in (none: a date's own full buffer, read alone).
        var low = 0
        var high = segments.count
        while low < high {
          let middle = (low + high) / 2
          if segments[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        let index = low - 1
        if index >= 0, let cached = ahead[index], cached.start <= offset,
          offset + Int64(count) <= cached.start + Int64(cached.bytes.count)
        {
          let from = Int(offset - cached.start)
          sink.write(bytes: Array(cached.bytes[from..<from + count]))
          continue
        }
        let end = index >= 0 ? (index + 1 < segments.count ? segments[index + 1] : fileEnd) : offset + Int64(count)
        let length = Int(min(end - offset, Int64(max(count, index >= 0 ? readAhead : count))))
        let bytes: [UInt8]
        switch read(length, at: offset) {
        case .success(let piece): bytes = piece
        case .failure(let error): return sink.recordFailure(error.code, in: place)
        }
        sink.write(bytes: Array(bytes[0..<count]))
        if index >= 0 { ahead[index] = (offset, bytes) }
      }
      if !buffers[slot].isEmpty { sink.write(bytes: buffers[slot]) }
    }
  }
}
