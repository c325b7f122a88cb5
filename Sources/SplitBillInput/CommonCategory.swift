import Foundation
import SplitBillText

/// The common categories the documentation lists (docs/format.md): a category spelt like one of
/// them but not the same is warned of.
package enum CommonCategory {
  /// The list, as written in bill files.
  package static let names = [
    "dining", "food and drink", "groceries", "transport", "taxi", "lodging", "entertainment", "rent", "utilities",
    "household", "other",
  ]

  /// The common category `name` is a near miss of: one edit away (two when both have more than
  /// five letters), compared without case and accents, and not one of them itself; `nil` otherwise.
  package static func nearMiss(_ name: String) -> String? {
    let folded = Array(name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
    guard folded.count >= 3, folded.count <= Spelling.longestWord else { return nil }
    if names.contains(String(folded)) { return nil }
    for common in names {
      let candidate = Array(common)
      let allowed = min(candidate.count, folded.count) > 5 ? 2 : 1
      guard abs(candidate.count - folded.count) <= allowed else { continue }
      if Spelling.editDistance(candidate, folded, atMost: allowed) != nil { return common }
    }
    return nil
  }
}
