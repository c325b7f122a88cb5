import SplitBillCore

/// The rows every human-readable writer shows for `--settle-in` and cash rounding: untrusted
/// text (names, sources) raw, for each writer to escape its own way.
enum ConversionRows {
  /// `1 EUR = 161.87 JPY`.
  static func pair(_ rate: ExchangeRate) -> String { "1 \(rate.base.code) = \(rate.rate) \(rate.quote.code)" }

  /// The columns of the rates table.
  static let rateHeadings = ["rate", "date", "source", "records"]

  /// One row a rate: the rate, its date (`every day` when undated), where it came from, and how
  /// many bills and payments used it.
  static func rates(_ conversion: Conversion) -> [[String]] {
    conversion.rates.map { used in
      [pair(used.rate), used.rate.date.map { "\($0)" } ?? "every day", used.rate.origin, String(used.records)]
    }
  }

  /// The columns of the converted balances table.
  static func balanceHeadings(_ conversion: Conversion) -> [String] {
    ["person", "balances", "in \(conversion.currency.code)", "absorbed"]
  }

  /// One row a person: their balance in each currency with what it converts to (each part), the converted
  /// balance, and the units the rounding's balancing took from them.
  static func balances(_ conversion: Conversion) -> [[String]] {
    conversion.balances.map { person in
      // Every part with what it converts to, the settlement currency's too: `50.50 EUR → 50.50,
      // -7981.67 HUF → -20.23` (without the first arrow it read as if both became -20.23).
      let parts = person.parts.map { part in
        let note = part.isExchangeDifference ? " (exchange difference)" : ""
        return "\(part.original.groupedString) \(part.original.currency.code) → \(part.converted.groupedString)\(note)"
      }
      return [
        person.person, parts.isEmpty ? "0" : parts.joined(separator: ", "), person.balance.groupedString,
        person.absorbed == 0
          ? "" : Money(minorUnits: Int64(person.absorbed), currency: conversion.currency).description,
      ]
    }
  }

  /// A sentence on how the conversion was done.
  static func method(_ conversion: Conversion) -> String {
    "Every balance in \(conversion.currency.code): each bill and payment converted exactly at its rate, "
      + "each person's sum rounded once (half to even); the units the rounded balances missed zero by "
      + "went by the leftover policy (absorbed). A currency whose balance is zero can still convert to "
      + "something: its records' days had different rates (an exchange difference)."
  }

  /// The columns of a cash settlement's residues.
  static let residueHeadings = ["person", "residue"]

  /// One row a person: their residue (zero when their balance was a multiple).
  static func residues(_ cash: CashSettlement) -> [[String]] {
    cash.residues.map { [$0.person, $0.amount.description] }
  }

  /// A sentence on a cash settlement.
  static func cashMethod(_ cash: CashSettlement) -> String {
    "\(cash.increment.currency.code) transfers in multiples of \(cash.increment.decimalString): what each person "
      + "is left with (their residue; positive: owed and not paid) adds up to zero."
  }
}
