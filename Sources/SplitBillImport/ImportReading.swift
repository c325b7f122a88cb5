import SplitBillCore
import SplitBillModel

/// How an export is read, beyond its bytes: what some apps' exports leave out or leave open.
package struct ImportReading: Sendable {
  /// The currency of records that name none (Spliit, IHateMoney, Cospend).
  package var currency: Currency?
  /// Spliit: the rounding rule of the app's era; `nil`, the export's.
  package var spliitRule: SpliitRule?
  /// IHateMoney: the project's settlements export, to check the balances against.
  package var settlements: ImportCompanion?
  /// A CSV statement: the rules file that reads it.
  package var rules: ImportCompanion?
  /// Leave out the rows that cannot be imported (each listed) instead of failing.
  package var skipInvalid: Bool

  package init(
    currency: Currency? = nil, spliitRule: SpliitRule? = nil, settlements: ImportCompanion? = nil,
    rules: ImportCompanion? = nil, skipInvalid: Bool = false
  ) {
    self.rules = rules
    self.currency = currency
    self.spliitRule = spliitRule
    self.settlements = settlements
    self.skipInvalid = skipInvalid
  }
}

extension ImportSource {
  /// Reads an export of this app named `file`: the one place that knows each app's reader.
  package func read(_ bytes: [UInt8], file: String, _ reading: ImportReading) throws(Diagnostic) -> ImportResult {
    switch self {
    case .splitwise: return try SplitwiseImport.read(bytes, file: file, skipInvalid: reading.skipInvalid)
    case .spliit:
      return try SpliitImport.read(
        bytes, file: file, currency: reading.currency, rule: reading.spliitRule, skipInvalid: reading.skipInvalid)
    case .ihatemoney:
      return try IHateMoneyImport.read(
        bytes, file: file, currency: reading.currency, settlements: reading.settlements,
        skipInvalid: reading.skipInvalid)
    case .cospend:
      return try CospendImport.read(bytes, file: file, currency: reading.currency, skipInvalid: reading.skipInvalid)
    case .csv:
      return try StatementImport.read(
        bytes, file: file, rules: reading.rules, currency: reading.currency, skipInvalid: reading.skipInvalid)
    }
  }
}
