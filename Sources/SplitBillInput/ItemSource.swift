import SplitBillModel

/// A text of an item as written, and where it stood.
struct LocatedText: Sendable, Hashable {
  var text: String
  var location: SourceLocation
}

/// One line of a receipt as its reader found it, before any rule: a YAML item mapping, or a row
/// of a CSV items file. ``BillRules`` says what it means, for both formats alike.
///
/// Items are few beside bills, so they are read into strings (not handles into the reader's
/// bytes, as a bill's own fields are).
struct ItemSource: Sendable, Hashable {
  /// One of the people an item is for, with a weight if one was given.
  struct Sharer: Sendable, Hashable {
    var name: LocatedText
    var weight: LocatedText?
  }

  /// Where the item starts.
  var start: SourceLocation
  var name: LocatedText?
  var price: LocatedText?
  var quantity: LocatedText?
  /// Who shares it; `nil`: not given, every diner.
  var sharers: [Sharer]?
  /// Where `for` stood, when given.
  var sharersLocation: SourceLocation?
  /// What the reader found wrong (unknown or repeated keys, shapes), in file order.
  var problems: [Diagnostic] = []

  /// The keys an item takes.
  static let keys = ["name", "price", "quantity", "for"]
}

/// A bill's items as its reader found them.
enum ItemList: Sendable {
  /// The bill has none.
  case absent
  /// `items` is given in a shape it does not take (described), where it stood.
  case unexpected(String, SourceLocation)
  /// The items, in receipt order (none: an empty list).
  case items([ItemSource], SourceLocation)
}
