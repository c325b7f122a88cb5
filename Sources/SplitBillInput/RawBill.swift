import SplitBillCore

/// Text from an input file and where it stood.
public struct LocatedText: Hashable, Sendable {
  /// The text as read.
  public var text: String
  /// Where it stood.
  public var location: SourceLocation
}

/// A field's value as read, before any meaning is given to it.
public enum RawValue: Sendable {
  /// Null in YAML, an empty cell in CSV: the same as not giving the field.
  case absent
  /// A single value.
  case text(LocatedText)
  /// A list of single values (`[Ana, Ben]`, `Ana;Ben`).
  case list([LocatedText])
  /// Name → value pairs (`{Ana: 2, Ben: 1}`, `Ana:2;Ben:1`).
  case pairs([(LocatedText, LocatedText)])
  /// Something deeper (a list of lists, say), described for the message.
  case nested(String)
}

/// One `key: value` of a bill, the defaults or the file header.
public struct RawField: Sendable {
  /// The key, lower-cased for CSV headers.
  public var key: String
  /// Where the key stood.
  public var keyLocation: SourceLocation
  /// The value.
  public var value: RawValue
  /// Where the value stood (the key's place when the value is absent).
  public var location: SourceLocation
}

/// A bill's (or the defaults') fields by key: one slot per key of the format (``BillField/all``),
/// so reading and validating a bill hashes no strings. Keys outside the format are not kept.
public struct RawFields: Sendable, ExpressibleByDictionaryLiteral {
  private var slots = [RawField?](repeating: nil, count: BillField.all.count)

  /// Fields from literal pairs (`[:]` for none); keys outside the format are left out.
  public init(dictionaryLiteral elements: (String, RawField)...) {
    for (name, field) in elements {
      if let key = BillKey(name: name) { self[key] = field }
    }
  }

  /// The field given for `key`, if any.
  public subscript(key: BillKey) -> RawField? {
    get { slots[key.rawValue] }
    set { slots[key.rawValue] = newValue }
  }
}

/// A bill as read from YAML or CSV: fields by key, plus problems the reader already found.
public struct RawBill: Sendable {
  /// Where the bill starts.
  public var location: SourceLocation
  /// 1-based position of the bill in its file, for the default id `<file>#<n>`.
  public var index: Int
  /// Fields by key.
  public var fields: RawFields
  /// Unknown or duplicate keys, wrong shapes.
  public var problems: [Diagnostic]
  /// Keys that an unknown key looked like a typo of (`ammount` → `amount`): not reported missing again.
  public var misspelt: Set<String> = []
  /// Whether the bill could not be read into fields at all (a CSV row with the wrong number of
  /// cells, a YAML bill that is not a mapping): its problems say why, nothing else is checked.
  public var unreadable = false
}

/// What a YAML document (or a CSV file) says before its bills: version, defaults, roster.
public struct DocumentHeader: Sendable {
  /// The file path as given.
  public var file: String
  /// `version:`.
  public var version: RawField?
  /// `defaults:` fields by key.
  public var defaults: RawFields = [:]
  /// `people:`.
  public var roster: RawField?
  /// Problems in the header itself.
  public var problems: [Diagnostic] = []
}

/// What a reader hands to the session, in file order.
public enum ReaderEvent: Sendable {
  /// A new document starts (a YAML document or a CSV file); its bills follow. (Boxed: headers are
  /// large and rare, and every event is as large as its largest case.)
  indirect case document(DocumentHeader)
  /// One bill.
  case bill(RawBill)
  /// One bill already known valid (``PlainBill``); `explicitID` says whether it gives an id (in
  /// CSV: whether the file has an `id` column), which is then checked for repeats.
  case recognized(Bill, explicitID: Bool)
  /// A problem that stopped the file (syntax error, unreadable bytes).
  case failure(Diagnostic)
}

/// Builds fields from `(key, value)` pairs, reporting unknown and duplicate keys.
struct FieldCollector {
  var fields: RawFields = [:]
  var problems: [Diagnostic] = []
  var misspelt: Set<String> = []

  /// Adds a field unless its key is unknown or repeated; `what` names the place ("bill", "defaults").
  mutating func add(_ field: RawField, allowed: [String], what: String) {
    // The key, found once. `allowed` is every bill key (the same array: compared by identity, at
    // once) or a subset of them.
    let key = BillKey(name: field.key)
    guard let key, allowed == BillField.billKeys || allowed.contains(field.key) else {
      var message = "unknown key '\(field.key)' in \(what)"
      if let guess = Spelling.suggestion(for: field.key, among: allowed) {
        message += "; did you mean '\(guess)'?"
        misspelt.insert(guess)
      } else {
        message += ": expected one of \(allowed.joined(separator: ", "))"
      }
      problems.append(.error(message, at: field.keyLocation))
      return
    }
    if let first = fields[key] {
      problems.append(
        .error("duplicate key '\(field.key)' in \(what) (first given at \(first.keyLocation))", at: field.keyLocation))
      return
    }
    fields[key] = field
  }
}
