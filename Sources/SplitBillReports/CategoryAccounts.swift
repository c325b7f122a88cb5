import Foundation

/// Where a bill's expense goes in the journals, by its category: a built-in account for the
/// common categories and Splitwise's and Spliit's, the user's own mapping (the configuration's
/// `category-accounts:`, `--category-account`) before it, and `Expenses:<Category>` for the
/// rest; `Expenses:Dining` for a bill without a category. Categories are matched without case.
package struct CategoryAccounts: Sendable, Equatable {
  /// The account of a bill without a category.
  package static let uncategorized = "Expenses:Dining"

  /// The built-in accounts, by lower-cased category.
  package static let builtIn: [String: String] = [
    "dining": "Expenses:Food:Dining", "dining out": "Expenses:Food:Dining", "restaurant": "Expenses:Food:Dining",
    "food and drink": "Expenses:Food", "food": "Expenses:Food", "groceries": "Expenses:Food:Groceries",
    "liquor": "Expenses:Food:Liquor", "snacks": "Expenses:Food:Snacks",
    "transport": "Expenses:Transport", "transportation": "Expenses:Transport", "taxi": "Expenses:Transport:Taxi",
    "bus/train": "Expenses:Transport:Public", "train": "Expenses:Transport:Public",
    "plane": "Expenses:Transport:Flights",
    "flights": "Expenses:Transport:Flights", "gas/fuel": "Expenses:Transport:Fuel", "fuel": "Expenses:Transport:Fuel",
    "parking": "Expenses:Transport:Parking", "car": "Expenses:Transport:Car", "bicycle": "Expenses:Transport:Bicycle",
    "lodging": "Expenses:Lodging", "hotel": "Expenses:Lodging",
    "entertainment": "Expenses:Entertainment", "games": "Expenses:Entertainment:Games",
    "movies": "Expenses:Entertainment:Movies", "music": "Expenses:Entertainment:Music",
    "sports": "Expenses:Entertainment:Sports",
    "rent": "Expenses:Housing:Rent", "mortgage": "Expenses:Housing:Mortgage",
    "household": "Expenses:Housing:Household", "household supplies": "Expenses:Housing:Household",
    "furniture": "Expenses:Housing:Furniture", "maintenance": "Expenses:Housing:Maintenance",
    "utilities": "Expenses:Utilities", "electricity": "Expenses:Utilities:Electricity",
    "heat/gas": "Expenses:Utilities:Heating", "water": "Expenses:Utilities:Water",
    "tv/phone/internet": "Expenses:Utilities:Internet", "trash": "Expenses:Utilities:Trash",
    "cleaning": "Expenses:Utilities:Cleaning",
    "other": "Expenses:Other", "general": "Expenses:General",
  ]

  /// The user's accounts, by lower-cased category; they win over the built-in ones.
  package private(set) var mapping: [String: String] = [:]

  /// No mapping of the user's.
  package init() {}

  /// Maps `category` (any case) to `account`; `nil` and a reason when the account is not one the
  /// three tools take (``problem(of:)``).
  package mutating func map(_ category: String, to account: String) -> String? {
    if let problem = Self.problem(of: account) { return problem }
    mapping[category.lowercased()] = account
    return nil
  }

  /// The account `category`'s expenses go to, before the journal makes its names safe for its
  /// tool: the user's, the built-in one, or `Expenses:<Category>` (first letter up; a `:` in it
  /// makes sub-accounts, empty parts left out).
  package func account(for category: String?) -> String {
    guard let category else { return Self.uncategorized }
    let key = category.lowercased()
    if let account = mapping[key] ?? Self.builtIn[key] { return account }
    let parts = category.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    guard let first = parts.first else { return "Expenses:Other" }
    return (["Expenses", first.prefix(1).uppercased() + first.dropFirst()] + parts.dropFirst()).joined(separator: ":")
  }

  /// Why `account` cannot be an expense account the three tools take, or `nil`: it must be
  /// components separated by `:`, none empty or starting or ending with a space, no tab, no two
  /// spaces running, no `;` or control character, under `Expenses`, `Assets`, `Liabilities`,
  /// `Equity` or `Income` (Beancount's five roots).
  package static func problem(of account: String) -> String? {
    let components = account.split(separator: ":", omittingEmptySubsequences: false)
    guard let root = components.first, ["Expenses", "Assets", "Liabilities", "Equity", "Income"].contains(root) else {
      return "an account starts with Expenses, Assets, Liabilities, Equity or Income (Beancount's roots)"
    }
    guard components.count >= 2 else { return "an account names something under its root: Expenses:Food" }
    for component in components {
      if component.isEmpty { return "an account's parts between ':' are not empty" }
      if component.first == " " || component.last == " " || component.contains("  ") {
        return "an account's parts neither start nor end with a space, nor hold two in a row"
      }
      if component.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == ";" || $0.value == 0x7F }) {
        return "an account holds no tab, ';' or control character"
      }
    }
    return nil
  }
}

/// How the group journal's accounts are laid out.
public enum JournalLayout: String, Sendable, CaseIterable {
  /// Each share to its category's expense account, per person (`Expenses:Food:Dining:Ana`), each
  /// payer's part from `Equity:Paid:<Name>`.
  case expenses
  /// Everything of a person under `Equity:People:<Name>`: `Consumed:<category>` (their shares),
  /// `Paid` (the bills they paid, and what was carried or converted), `Settled` (payments); the
  /// person's subtree then sums to minus their balance, on one line at depth 3.
  case people
}
