import Foundation
import SplitBillFiles
import SplitBillText

/// What `splitbill add` needs of a CSV bill file to append a row: its delimiter, its columns (as
/// the reader matches them), its line end, and whether it holds payments.
package struct CSVAppendPlan: Sendable, Equatable {
  /// The header's delimiter: `--delimiter`, else tab for `.tsv`, else the one the header uses most.
  package var delimiter: UInt8
  /// The header's column names, trimmed and lowercased.
  package var columns: [String]
  /// `\r\n` when the header ends so, else `\n`.
  package var lineEnd: String
  /// Whether the file's last byte is a line end (else one is written before the row).
  package var endsWithLineEnd: Bool

  package init(delimiter: UInt8, columns: [String], lineEnd: String, endsWithLineEnd: Bool) {
    self.delimiter = delimiter
    self.columns = columns
    self.lineEnd = lineEnd
    self.endsWithLineEnd = endsWithLineEnd
  }

  /// Whether the header is a payments file's (as the reader tells it).
  package var holdsPayments: Bool { CSVBillReader.namesPayments(columns) }

  /// The plan for `bytes`, the whole of the CSV file `file`, its header read by the CSV reader
  /// itself; `nil` when the header cannot be read (none, or an unterminated quote).
  package static func plan(for bytes: [UInt8], file: String, delimiter given: UInt8?, tabSeparated: Bool)
    -> CSVAppendPlan?
  {
    guard
      let (delimiter, columns) = CSVBillReader.headerColumns(
        of: bytes, file: file, delimiter: given ?? (tabSeparated ? 0x09 : nil))
    else { return nil }
    return CSVAppendPlan(
      delimiter: delimiter, columns: columns, lineEnd: SourceLines.lineEnd(of: bytes),
      endsWithLineEnd: bytes.last == 0x0A)
  }

  /// `text` as a cell: quoted (quotes doubled) when it holds the delimiter, a quote, a line break,
  /// or spaces at either end.
  package func cell(_ text: String) -> String {
    let needsQuotes =
      text.utf8.contains { $0 == delimiter || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
      || text.first == " " || text.last == " "
    guard needsQuotes else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
