import Foundation
import SplitBillCSV
import SplitBillFiles
import SplitBillModel

/// Piped input has no extension to tell its format: its first line does, read as a CSV header by
/// the one tokenizer every CSV file goes through (``CSVTable``).
extension StandardInputCopy {
  /// Whether the input starts like a CSV file of bills or payments: a header line whose cells
  /// (at least two) are all column names of the format.
  package var looksLikeCSV: Bool {
    guard let cells = Self.headerCells(firstLine), cells.count >= 2 else { return false }
    let names = Set(BillField.all.map(\.name) + PaymentField.all.map(\.name))
    return cells.allSatisfy(names.contains)
  }

  /// The first line, when it has the shape of a CSV header (two or more cells, no `key: value`).
  package var csvLikeHeader: String? {
    let line = firstLine
    guard let cells = Self.headerCells(line), cells.count >= 2, !line.contains(0x3A) else { return nil }
    return String(decoding: line, as: UTF8.self)
  }

  /// The cells of `line` as a CSV header, trimmed and in lower case; nil when a quote is left open.
  private static func headerCells(_ line: [UInt8]) -> [String]? {
    guard let row = (try? CSVTable(line))?.rows.first else { return nil }
    return row.cells.map { $0.text.trimmingCharacters(in: .whitespaces).lowercased() }
  }
}
