import Foundation
import SplitBillText

/// What `splitbill add` needs of a CSV bill file to append a row: its delimiter, its columns (as
/// the header names them, lowercased), its line end, and whether it holds payments.
package struct CSVAppendPlan: Sendable, Equatable {
  /// The header's delimiter: `--delimiter`, else tab for `.tsv`, else the one the header uses most.
  package var delimiter: UInt8
  /// The header's column names, trimmed and lowercased.
  package var columns: [String]
  /// `\r\n` when the header ends so, else `\n`.
  package var lineEnd: String
  /// Whether the file's last byte is a line end (else one is written before the row).
  package var endsWithLineEnd: Bool
  /// A header naming `from` and `to` and no `diners`: a payments file.
  package init(delimiter: UInt8, columns: [String], lineEnd: String, endsWithLineEnd: Bool) {
    self.delimiter = delimiter
    self.columns = columns
    self.lineEnd = lineEnd
    self.endsWithLineEnd = endsWithLineEnd
  }

  package var holdsPayments: Bool { columns.contains("from") && columns.contains("to") && !columns.contains("diners") }

  /// The plan for `bytes` (a whole CSV file, its header first); `nil` when it has no header line.
  package static func plan(for bytes: [UInt8], delimiter given: UInt8?, tabSeparated: Bool) -> CSVAppendPlan? {
    var body = bytes[...]
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
    guard !body.isEmpty else { return nil }
    let delimiter = given ?? (tabSeparated ? 0x09 : CSVBillReader.sniffDelimiter(body))
    var columns: [String] = []
    var cell: [UInt8] = []
    var quoted = false
    var index = body.startIndex
    var lineEnd = "\n"
    while index < body.endIndex {
      let byte = body[index]
      if byte == 0x22 {
        quoted.toggle()
      } else if !quoted && byte == delimiter {
        columns.append(String(decoding: cell, as: UTF8.self))
        cell = []
      } else if !quoted && (byte == 0x0A || byte == 0x0D) {
        if byte == 0x0D { lineEnd = "\r\n" }
        break
      } else {
        cell.append(byte)
      }
      index += 1
    }
    columns.append(String(decoding: cell, as: UTF8.self))
    return CSVAppendPlan(
      delimiter: delimiter, columns: columns.map { $0.trimmingSpaces.lowercased() }, lineEnd: lineEnd,
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
