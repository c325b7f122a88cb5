@_spi(ByteWriters) import SplitBillBytes
import SplitBillCore
@_spi(Readers) import SplitBillModel

/// A bill's fields as its reader holds them: a CSV row's cells (``CSVRowFields``) or a YAML
/// bill's events (``YAMLBillFields``). The format says where each field's text is and where it
/// stood; ``BillRules`` says what it means, for every format alike.
///
/// Texts are handles into the reader's bytes, and their locations are worked out only when a
/// diagnostic needs one: reading a plainly valid bill makes no string for a field it does not
/// keep and no location at all. Fields are views of the reader's storage, noncopyable (the rules
/// borrow them, and no call copies them) and nonescapable (they hold `Span`s of the reader's
/// bytes, and the compiler checks that neither they nor a text's bytes outlive those).
protocol BillFields: ~Copyable, ~Escapable {
  /// A text in the bill: a scalar, a cell, an item of a diners cell.
  associatedtype Text

  /// Where the bill starts.
  var start: SourceLocation { get }
  /// The bill's 1-based position in its file, for the default id `<file>#<n>`.
  var index: Int { get }
  /// Whether the bill gives an id at all (in CSV: whether the file has an `id` column); such ids
  /// are checked for repeats across the run.
  var givesID: Bool { get }
  /// Keys that an unknown key looked like a typo of: a missing `amount` or `diners` is then not
  /// reported again.
  func isMisspelt(_ key: BillKey) -> Bool

  /// Reports what the reader found wrong before any rule (unknown or repeated keys, bytes that
  /// are not UTF-8), in file order.
  func reportReaderProblems<Policy: ProblemPolicy>(to policy: inout Policy) throws(Policy.Stop)

  /// The value given for `key`. For the keys that take names (``BillKey/takesEntries``: diners,
  /// paid_by, shares) a list or mapping of names is ``FieldValue/entries``, read with
  /// ``nextEntry(_:_:)``.
  func value(_ key: BillKey) -> FieldValue<Text>
  /// What the value of `key` is, when it is ``FieldValue/unexpected``: "a list", "a mapping",
  /// "a list containing a mapping".
  func shape(of key: BillKey) -> String
  /// The entry of `key` after `cursor` (start from 0): a name and its value's text (a weight, an
  /// amount; `nil`: none given), moving the cursor past it; `nil` after the last.
  func nextEntry(_ key: BillKey, _ cursor: inout Int) -> (name: Text, value: Text?)?
  /// How many entries ``nextEntry(_:_:)`` gives for `key`, or about as many (room is made for them).
  func entryCount(_ key: BillKey) -> Int
  /// The items of an entry's value that is a list (a YAML `skip: [2026-08, 2026-12]`); `nil`
  /// when the value is one text.
  func listItems(_ value: Text) -> [Text]?

  /// The bill's items: a YAML bill's `items`, a CSV row's rows in its items file (by bill `id`).
  func items(ofBill id: String) -> ItemList
  /// Whether ``items(ofBill:)`` may give items (a quick test: nearly no bill has any).
  var mayHaveItems: Bool { get }
  /// Whether any of an itemized bill's own keys (``BillKey/receiptKeys``) may be given.
  var givesReceiptKeys: Bool { get }

  /// The text's UTF-8 bytes, in the reader's storage.
  @_lifetime(copy self)
  func bytes(_ text: Text) -> Span<UInt8>
  /// Whether the fields are a CSV row (no file defaults, no nested values).
  var isCSVRow: Bool { get }
  /// Whether `key` was given but could not be read as text (a CSV cell of invalid UTF-8, said by
  /// ``reportReaderProblems(to:)``): it is not missing.
  func isUnreadable(_ key: BillKey) -> Bool
  /// Where the text stood.
  func location(of text: Text) -> SourceLocation
  /// Where a name stood, also while a bill is only recognized (``location(of:)`` may then rely on
  /// positions a CSV row counts only for diagnostics).
  func nameLocation(of text: Text) -> SourceLocation
  /// Where the key stood (for CSV, the cell).
  func keyLocation(_ key: BillKey) -> SourceLocation
  /// Where the key's value stood; the key's place when the value is null.
  func valueLocation(_ key: BillKey) -> SourceLocation
}

extension BillFields where Self: ~Copyable, Self: ~Escapable {
  func nameLocation(of text: Text) -> SourceLocation { location(of: text) }
  func isUnreadable(_ key: BillKey) -> Bool { false }
  func listItems(_ value: Text) -> [Text]? { nil }

  /// The text as a string (readers hand on only valid UTF-8).
  func string(_ text: Text) -> String { ByteScan.string(bytes(text)) }

  /// The diner after `cursor`: its name and weight text.
  @inline(__always)
  func nextDiner(_ cursor: inout Int) -> (name: Text, weight: Text?)? {
    nextEntry(.diners, &cursor).map { ($0.name, $0.value) }
  }

  /// How many diners there are, or about as many.
  var dinerCount: Int { entryCount(.diners) }
}

/// What a bill gives for one key (plain data, cheap to hand around).
enum FieldValue<Text> {
  /// The key is not there.
  case absent
  /// The key is there with no value: a YAML null, an empty CSV cell.
  case null
  /// One value.
  case text(Text)
  /// Names, or names with values (weights, amounts): diners, paid_by, shares.
  case entries
  /// A shape the key does not take (``BillFields/shape(of:)`` says which).
  case unexpected
}

/// What the rules do with a problem: stop at once (``Recognizing``), or note it and go on to find
/// every other one (``Diagnosing``). The rules are generic over it, so that reading a plainly
/// valid bill and diagnosing a broken one are the same source compiled twice: the first never
/// builds a message, the second says everything.
protocol ProblemPolicy {
  /// How reporting stops the rules: ``Never`` when it does not.
  associatedtype Stop: Error
  /// Takes a problem; `problem` is evaluated only if the policy keeps it.
  mutating func report(_ problem: @autoclosure () -> Diagnostic) throws(Stop)
  /// Whether an error was reported.
  var foundErrors: Bool { get }
  /// Whether the first problem stops the rules: then the order in which problems would be found
  /// does not matter, and the rules may check in one pass what they check in two for the order.
  static var stopsAtFirstProblem: Bool { get }
}

/// Stops at the first problem, building nothing: the bill is then read again, ``Diagnosing``.
struct Recognizing: ProblemPolicy {
  struct NotPlain: Error {}
  func report(_ problem: @autoclosure () -> Diagnostic) throws(NotPlain) { throw NotPlain() }
  var foundErrors: Bool { false }
  static var stopsAtFirstProblem: Bool { true }
}

/// Keeps every problem, in the order the rules find them.
///
/// Problems of one kind on one line are kept up to ``Diagnostic/keptPerLine``, the last of them
/// with a count of the rest (``Diagnostic/repeats``): a list of 4,000 copies of one name is three
/// "listed twice" errors, not 3,999 that each echo the line.
struct Diagnosing: ProblemPolicy {
  var problems: [Diagnostic] = []
  /// How many of each kind on each line are kept, and where the last kept is in `problems`.
  private var kept: [KindOnLine: (count: Int, last: Int)] = [:]

  private struct KindOnLine: Hashable {
    var code: String
    var file: SourceFile
    var line: Int
  }

  mutating func report(_ problem: @autoclosure () -> Diagnostic) {
    let diagnostic = problem()
    if let location = diagnostic.location, !location.isWholeFile {
      let kind = KindOnLine(code: diagnostic.code, file: location.sourceFile, line: location.line)
      let sofar = kept[kind]
      if let sofar, sofar.count == Diagnostic.keptPerLine {
        problems[sofar.last].repeats += 1
        return
      }
      kept[kind] = ((sofar?.count ?? 0) + 1, problems.count)
    }
    problems.append(diagnostic)
  }
  var foundErrors: Bool { problems.contains { $0.severity == .error } }
  static var stopsAtFirstProblem: Bool { false }
}
