/// The common categories the documentation lists (docs/format.md): a category spelt like one of
/// them but not the same is warned of.
package enum CommonCategory {
  /// The list, as written in bill files.
  package static let names = [
    "dining", "food and drink", "groceries", "transport", "taxi", "lodging", "entertainment", "rent", "utilities",
    "household", "other",
  ]

  /// The common category `name` is a near miss of (``PersonName/isNearMiss(_:of:)``, the rule
  /// names are compared by), and not one of them itself; `nil` otherwise.
  package static func nearMiss(_ name: String) -> String? {
    let folded = PersonName.folded(name)
    if names.contains(String(folded)) { return nil }
    return names.first { PersonName.isNearMiss(folded, of: Array($0)) }
  }
}
