import SplitBillCore

#if canImport(Glibc)
  import Glibc
#endif

/// A journal's body: transactions in a plain spool while they come in date order (noting where
/// each date starts, a few words a date), and in a ``DatedSpool`` from the first one that does
/// not. Copying out merges the two by date, the plain spool's first on each date (it came first),
/// so inputs in date order cost nothing more than before, and others cost the dated spool's
/// buffering for the transactions from the first one out of order.
package final class JournalBody {
  private let ordered = SpoolSink()
  /// Each date of `ordered` and where its transactions start, in order.
  private var dateStarts: [(date: Int, offset: Int64)] = []
  private var late: DatedSpool?
  /// Whether the last transaction went to `late`.
  private var lastLate = false

  package init() {}

  /// Lets `body` append one transaction dated `date`.
  package func append(on date: CalendarDate, _ body: (inout [UInt8]) -> Void) {
    let key = DatedSpool.key(date)
    if late == nil, key >= (dateStarts.last?.date ?? Int.min) {
      if key != dateStarts.last?.date { dateStarts.append((key, ordered.byteCount)) }
      lastLate = false
      return ordered.append(body)
    }
    if late == nil { late = DatedSpool() }
    lastLate = true
    late?.append(on: date, body)
  }

  /// Lets `body` append more of the transaction appended last.
  package func appendToLast(_ body: (inout [UInt8]) -> Void) {
    if lastLate { late?.appendToLast(body) } else { ordered.append(body) }
  }

  /// Copies every transaction to `sink` in date order, or records in `sink` why it cannot.
  package func copy(to sink: inout some OutputSink) {
    guard let late else { return ordered.copy(to: &sink) }
    if ordered.passFailure(to: &sink) { return }
    let end = ordered.byteCount
    var next = 0
    late.copy(to: &sink) { date, sink in
      // Before each date of the late ones: the ordered ones up to and including that date.
      while next < dateStarts.count, dateStarts[next].date <= date {
        let stop = next + 1 < dateStarts.count ? dateStarts[next + 1].offset : end
        var offset = dateStarts[next].offset
        while offset < stop {
          guard let bytes = ordered.bytes(at: offset, count: Int(min(1 << 16, stop - offset))), !bytes.isEmpty else {
            _ = ordered.passFailure(to: &sink)
            return
          }
          sink.write(bytes: bytes)
          offset += Int64(bytes.count)
        }
        next += 1
      }
    }
  }
}
