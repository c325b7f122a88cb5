/// Which problems a run keeps to show: the first ``keptPerKind`` of each kind (severity and code);
/// past that they are only counted. A file in which every eighth bill repeats a receipt, or every
/// amount is broken, would otherwise hold (and print) hundreds of thousands of the same diagnostic,
/// memory growing with each (a compiler likewise stops listing errors past a limit, but counts on).
package struct ProblemTally: Sendable {
  /// How many problems of one kind are kept and shown.
  package static let keptPerKind = 1_000
  /// Problems counted but not kept, by severity, then code.
  package private(set) var omitted: [Diagnostic.Severity: [String: Int]] = [:]
  private var kept: [Diagnostic.Severity: [String: Int]] = [:]

  package init() {}

  /// Whether `diagnostic` is one of the first ``keptPerKind`` of its kind (it is then counted as
  /// kept); otherwise it is counted as omitted.
  package mutating func keeps(_ diagnostic: Diagnostic) -> Bool {
    let (severity, code) = (diagnostic.severity, diagnostic.code)
    guard kept[severity, default: [:]][code, default: 0] < Self.keptPerKind else {
      omitted[severity, default: [:]][code, default: 0] += 1
      return false
    }
    kept[severity, default: [:]][code, default: 0] += 1
    return true
  }

  /// How many more of a kind may be kept.
  package func room(for severity: Diagnostic.Severity, code: String) -> Int {
    max(Self.keptPerKind - kept[severity, default: [:]][code, default: 0], 0)
  }

  /// Counts problems of a kind found in bulk: `kept` of them kept, `omitted` not.
  package mutating func count(_ severity: Diagnostic.Severity, code: String, kept keptCount: Int, omitted: Int) {
    kept[severity, default: [:]][code, default: 0] += keptCount
    if omitted > 0 { self.omitted[severity, default: [:]][code, default: 0] += omitted }
  }

  /// The counts not kept, of one severity, by code.
  package func omitted(_ severity: Diagnostic.Severity) -> [String: Int] { omitted[severity] ?? [:] }
}
