import SplitBillCore

/// The spending-by-category tables every human-readable writer shows: one per currency (and one
/// in the settlement currency with `--settle-in`), a row per category, with untrusted text
/// (categories, names) raw for each writer to escape its own way.
package struct CategoryTable: Sendable {
  /// `EUR`, or `EUR, each bill converted at its rate` for the settlement currency's table.
  package var title: String
  /// The currency of the table's amounts.
  package var currency: Currency
  /// The categories, largest first, the bills without one last.
  package var categories: [CategoryTotals]
  /// The people with a part in any of them, by name.
  package var people: [String]

  /// The name a category is shown by: its own, or `(no category)`.
  package static func name(_ category: String?) -> String { category ?? "(no category)" }

  /// The columns: category, bills, total, share of the currency's spending, then each person.
  package var headings: [String] { ["category", "bills", "total", "share"] + people }

  /// One row a category: its name, bills, total, its share of the table's total (`41.3%`) and
  /// each person's consumption in it (empty where they had none).
  package var rows: [[String]] {
    let whole = categories.reduce(Int64(0)) { $0 + $1.total }
    return categories.map { category in
      let parts = Dictionary(category.people.map { ($0.person, $0.consumed) }, uniquingKeysWith: +)
      return [
        Self.name(category.category), String(category.bills), money(category.total),
        Self.percent(category.total, of: whole),
      ] + people.map { person in parts[person].map(money) ?? "" }
    }
  }

  /// `units` in the table's currency, as a decimal.
  package func money(_ units: Int64) -> String { Money(minorUnits: units, currency: currency).groupedString }

  /// `part` as a percentage of `whole` to one decimal, halves up (`41.3%`); `–` when `whole` is
  /// not positive.
  package static func percent(_ part: Int64, of whole: Int64) -> String {
    guard whole > 0 else { return "–" }
    let tenths = RoundingMode.halfUp.divide(Int128(part.magnitude) * 1000, by: Int128(whole))
    return "\(part < 0 ? "-" : "")\(tenths / 10).\(tenths % 10)%"
  }

  /// The tables of a summary: each currency's, then the settlement currency's; none when no bill
  /// had a category.
  package static func tables(_ summary: ReportSummary) -> [CategoryTable] {
    var tables: [CategoryTable] = []
    for currency in summary.totals.map(\.currency) {
      let own = summary.categories.filter { $0.currency == currency }
      guard !own.isEmpty else { continue }
      tables.append(CategoryTable(title: currency.code, currency: currency, categories: own))
    }
    if let converted = summary.convertedCategories, let conversion = summary.conversion, !converted.isEmpty {
      tables.append(
        CategoryTable(
          title: "\(conversion.currency.code), each bill converted at its rate", currency: conversion.currency,
          categories: converted))
    }
    return tables
  }

  init(title: String, currency: Currency, categories: [CategoryTotals]) {
    self.title = title
    self.currency = currency
    self.categories = categories
    people = Array(Set(categories.flatMap { $0.people.map(\.person) })).sorted()
  }
}
