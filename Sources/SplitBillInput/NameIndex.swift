/// Names met in one list (a bill's `paid_by` or `shares`, an item's `for`), with where each was
/// first: searched in order while the list is short (a bill's handful of names, no hashing), and
/// through a dictionary once it is long, so that a list of 40,000 names costs 40,000 look-ups, not
/// 800 million comparisons.
struct NameIndex {
  private var names: [String] = []
  private var positions: [String: Int]?
  /// Past this many names the look-ups hash.
  static let linearLimit = 16

  init() {}

  /// The names in `list`, in order (a repeated one is kept once, at its first place).
  init(_ list: some Sequence<String>) {
    for name in list where position(of: name) == nil { append(name) }
  }

  /// The position `name` was appended at, or `nil`.
  func position(of name: String) -> Int? {
    if let positions { return positions[name] }
    // Names are in NFC, so names of different byte lengths differ: that test spares `==`.
    return names.firstIndex { $0.utf8.count == name.utf8.count && $0 == name }
  }

  func contains(_ name: String) -> Bool { position(of: name) != nil }

  /// Adds `name` (not yet in the index) at the next position.
  mutating func append(_ name: String) {
    names.append(name)
    if positions != nil {
      positions?[name] = names.count - 1
    } else if names.count > Self.linearLimit {
      positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
  }
}
