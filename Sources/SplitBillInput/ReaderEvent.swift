import SplitBillCore
@_spi(Readers) import SplitBillModel

/// A value of a file's header (`version`, a default, `people`), located.
/// `defaults: cash_rounding:` as written: its entries, currency and increment each located, or the
/// shape found instead of a mapping.
enum CashRoundingValue: Sendable {
  case entries([(code: String, location: SourceLocation, increment: HeaderValue)])
  case unexpected(String, SourceLocation)
}

struct HeaderValue: Sendable {
  enum Shape: Sendable, CustomStringConvertible {
    /// Null in YAML.
    case null
    /// One value.
    case text(String)
    /// A list of single values, each located.
    case list([(String, SourceLocation)])
    /// Any other shape, described for the message ("a mapping", "a list containing a list").
    case unexpected(String)

    /// As messages quote it.
    var description: String {
      switch self {
      case .null: return "nothing"
      case .text(let text): return "'\(text)'"
      case .list: return "a list"
      case .unexpected(let shape): return shape
      }
    }
  }

  var shape: Shape
  /// Where the value stood; the key's place when it is null.
  var location: SourceLocation
}

/// What a YAML document (or a CSV file) says before its bills: version, defaults, roster.
struct DocumentHeader: Sendable {
  /// The file path as given.
  var file: String
  /// `version:`.
  var version: HeaderValue?
  /// `defaults:` values by key (``BillKey/rawValue``); keys outside ``BillField/defaultKeys`` are
  /// reported by the reader and not kept.
  var defaults = Defaults()
  /// `people:`.
  var roster: HeaderValue?
  /// The entries of `people:` that give payment details.
  var payees: [PeopleEntry] = []
  /// `title:`, what reports are headed with.
  var title: String?
  /// Problems in the header itself, found by the reader.
  var problems: [Diagnostic] = []
  /// `rates:`, read (its problems are in ``problems``).
  var rates: [ExchangeRate] = []
  /// `defaults: cash_rounding:` as written (the rules read it: ``BillRules/context(for:)``).
  var cashRounding: CashRoundingValue?
  /// `defaults: whole_units:` as written: the currencies this document keeps in whole units.
  var wholeUnits: HeaderValue?

  init(file: String) { self.file = file }

  struct Defaults: Sendable {
    private var values = [HeaderValue?](repeating: nil, count: BillKey.allCases.count)
    private var keyLocations = [SourceLocation?](repeating: nil, count: BillKey.allCases.count)

    subscript(key: BillKey) -> HeaderValue? { values[key.rawValue] }

    /// Where `key` was given first, if it was.
    func keyLocation(_ key: BillKey) -> SourceLocation? { keyLocations[key.rawValue] }

    mutating func set(_ key: BillKey, _ value: HeaderValue, keyLocation: SourceLocation) {
      values[key.rawValue] = value
      keyLocations[key.rawValue] = keyLocation
    }
  }
}

/// What a reader hands on, in file order.
enum ReaderEvent: Sendable {
  /// A new document starts (a YAML document or a CSV file); its bills follow. (Boxed: headers are
  /// large and rare, and every event is as large as its largest case.)
  indirect case document(DocumentHeader)
  /// One bill, read through ``BillRules``; `givesID` says whether it gives an id (in CSV: whether
  /// the file has an `id` column), which is then checked for repeats.
  case bill(Result<Bill, InvalidBill>, givesID: Bool)
  /// One payment, as read; the rules (``PaymentRules``) come on the consumer's side.
  case payment(RawRecord)
  /// A problem that stopped the file (syntax error, unreadable bytes).
  case failure(Diagnostic)
}
