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

/// An app's export reader: adding an app is one file with a ``BookReader``, and a case of
/// ``ImportSource`` and its line in ``ImportSource/reader``.
package protocol BookReader {
  /// How the app names the export, for messages and the file's header (`Cospend export`).
  static var exportName: String { get }
  /// Reads an export named `file`: every record, or the first problem that stops the reading.
  static func read(_ bytes: [UInt8], file: String, _ reading: ImportReading) throws(Diagnostic) -> ImportResult
}

extension ImportSource {
  /// The app's reader: the one place that knows them all.
  var reader: any BookReader.Type {
    switch self {
    case .splitwise: SplitwiseImport.self
    case .spliit: SpliitImport.self
    case .ihatemoney: IHateMoneyImport.self
    case .cospend: CospendImport.self
    case .csv: StatementImport.self
    }
  }

  /// Reads an export of this app named `file`.
  package func read(_ bytes: [UInt8], file: String, _ reading: ImportReading) throws(Diagnostic) -> ImportResult {
    try reader.read(bytes, file: file, reading)
  }
}
