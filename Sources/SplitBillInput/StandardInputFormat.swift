import SplitBillFiles
import SplitBillModel

/// Piped input has no extension to tell its format: its first line does, read as a CSV header the
/// way the CSV bill reader reads one (``CSVBillReader/headerColumns(of:file:delimiter:)``).
extension StandardInputCopy {
  /// Whether the input starts like a CSV file of bills or payments: a header line whose columns
  /// (at least two) are all keys of the format.
  package var looksLikeCSV: Bool {
    guard let names = Self.columnNames(firstLine), names.count >= 2 else { return false }
    let keys = Set(BillField.all.map(\.name) + PaymentField.all.map(\.name))
    return names.allSatisfy(keys.contains)
  }

  /// The first line, when it has the shape of a CSV header (two or more columns, no `key: value`).
  package var csvLikeHeader: String? {
    let line = firstLine
    guard let names = Self.columnNames(line), names.count >= 2, !line.contains(0x3A) else { return nil }
    return String(decoding: line, as: UTF8.self)
  }

  /// The column names of `line` as a header, as the reader matches them; nil when it does not parse.
  private static func columnNames(_ line: [UInt8]) -> [String]? {
    CSVBillReader.headerColumns(of: line, file: "-", delimiter: nil)?.names
  }
}
