import Foundation
import SplitBillCSV
import SplitBillFiles
import SplitBillModel
import SplitBillText

/// The items of a CSV bills file's itemized bills, read from its items file: `trip.items.csv`
/// beside `trip.csv` (`.tsv` likewise), one row per line of a receipt, in long format:
///
///     bill,name,price,quantity,for
///     dinner-1,Burrata,14.00,,Ana;Ben
///     dinner-1,House wine,9.50,3,Ana;Ben;Cy
///
/// `bill` is the `id` of the bill in the bills file; `for` is a diner list (`Ana;Ben`,
/// `Ana:2;Ben:1`), empty for every diner; `quantity` is 1 when empty. Rows keep their order
/// within a bill. The bills file gives the bill's other keys (diners, tip, discount, tax, ...),
/// its `amount` cell may be left empty.
///
/// Read whole before the bills file (items files are small); shared with the reading thread,
/// which claims each bill's rows as it reads the bill, behind a lock.
package final class ItemTable: Sendable {
  /// The items file's path, as messages name it.
  let path: String
  private let rows: [String: [ItemSource]]
  /// Where each bill's first row stood, in file order: for "no such bill".
  private let firsts: [(bill: String, location: SourceLocation)]
  /// Each claimed bill id, and the line of the bills file's row that claimed it.
  private let claimed = Locked([String: Int]())

  init(path: String, rows: [String: [ItemSource]], firsts: [(bill: String, location: SourceLocation)]) {
    self.path = path
    self.rows = rows
    self.firsts = firsts
  }

  /// The rows of bill `id`, for the bills file's row at `line`, if it has any. They go to the
  /// first row with that id (read again when diagnosing, it claims them again): a later row that
  /// repeats the id, an error of its own, gets none, so K repeats of an id with M items cost K + M,
  /// not K × M.
  func claim(_ id: String, line: Int) -> [ItemSource]? {
    guard let items = rows[id] else { return nil }
    let owner = claimed.withLock { claimed in
      if let owner = claimed[id] { return owner }
      claimed[id] = line
      return line
    }
    return owner == line ? items : nil
  }

  /// Problems with rows for bills the bills file did not have, once it has been read.
  func orphans() -> [Diagnostic] {
    let claimed = self.claimed.withLock { $0 }
    return firsts.filter { claimed[$0.bill] == nil }.map { .error(.orphanItem(bill: $0.bill), at: $0.location) }
  }

  /// The items file of the bills file at `path`: `<stem>.items.csv` (or `.tsv`), when there is one.
  package static func path(besides path: String) -> String? {
    guard path != "-" else { return nil }
    let lowered = path.lowercased()
    for suffix in [".csv", ".tsv"] where lowered.hasSuffix(suffix) && !isItemsFile(path) {
      let candidate = String(path.dropLast(suffix.count)) + ".items" + String(path.suffix(suffix.count))
      return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
    }
    return nil
  }

  /// Whether `path` names an items file (read with its bills file, not on its own).
  static func isItemsFile(_ path: String) -> Bool {
    let lowered = path.lowercased()
    return lowered.hasSuffix(".items.csv") || lowered.hasSuffix(".items.tsv")
  }

  /// The columns an items file takes.
  static let columns = ["bill"] + ItemSource.keys
}

extension CSVBillReader {
  /// Reads this reader's file as an items file: its rows by bill, or the problems that stop it.
  mutating func readItems() -> (ItemTable?, [Diagnostic]) {
    rowReader.start()
    var header = Row(line: 1)
    guard rowReader.nextRow(into: &header), !header.cells.isEmpty else {
      return (
        nil,
        [
          .error(
            .itemsFile("items file \(file) is empty: expected a header such as bill,name,price,quantity,for"),
            at: SourceLocation(in: sourceFile, line: 1, column: 1))
        ]
      )
    }
    if let problem = header.problem { return (nil, [diagnostic(problem)]) }
    header.settleColumns()
    var problems: [Diagnostic] = []
    var columnOf: [String: Int] = [:]
    for (index, cell) in header.cells.enumerated() {
      let location = SourceLocation(in: sourceFile, line: cell.line, column: cell.column)
      let written = String(decoding: header.text(of: cell), as: UTF8.self).trimmingSpaces
      let name = written.lowercased()
      if columnOf[name] != nil {
        problems.append(.error(.repeatedColumn(name, first: location), at: location))
      } else if ItemTable.columns.contains(name) {
        columnOf[name] = index
      } else {
        problems.append(
          .error(
            .unknownItemKey(written, guess: Spelling.suggestion(for: name, among: ItemTable.columns)), at: location))
      }
    }
    for required in ["bill", "name", "price"] where columnOf[required] == nil {
      problems.append(
        .error(
          .itemsFile(
            "items file \(file) has no '\(required)' column: expected bill,name,price and optionally quantity,for"),
          at: SourceLocation(in: sourceFile, line: header.line, column: 1)))
    }
    // A header of many unknown columns says so three times and counts the rest, as a bills file's.
    guard problems.isEmpty else { return (nil, Diagnostic.coalesced(problems)) }

    var rows: [String: [ItemSource]] = [:]
    var firsts: [(bill: String, location: SourceLocation)] = []
    var row = Row(line: line)
    while rowReader.nextRow(into: &row) {
      if row.isEmptyLine { continue }
      row.settleColumns()
      let start = SourceLocation(in: sourceFile, line: row.line, column: 1)
      if let problem = row.problem {
        problems.append(diagnostic(problem))
        if row.unterminated { break }
        continue
      }
      guard row.cells.count == header.cells.count else {
        problems.append(.error(.cellCount(cells: row.cells.count, columns: header.cells.count), at: start))
        continue
      }
      func text(_ column: String) -> LocatedText? {
        guard let index = columnOf[column] else { return nil }
        let cell = row.cells[index]
        let value = String(decoding: row.text(of: cell), as: UTF8.self)
        guard !value.trimmingSpaces.isEmpty else { return nil }
        return LocatedText(text: value, location: SourceLocation(in: sourceFile, line: cell.line, column: cell.column))
      }
      guard let bill = text("bill") else {
        problems.append(.error(.itemsFile("item row has no bill: expected the id of its bill"), at: start))
        continue
      }
      var source = ItemSource(start: start, name: text("name"), price: text("price"), quantity: text("quantity"))
      if let sharers = text("for") {
        source.sharersLocation = sharers.location
        source.sharers = Self.sharers(in: sharers, decimalComma: rules.options.decimalComma)
      }
      let id = bill.text.trimmingSpaces
      if rows[id] == nil { firsts.append((id, bill.location)) }
      rows[id, default: []].append(source)
    }
    if let error = input.readError {
      problems.append(
        .error(
          .readingStopped(reason: SystemCalls.errorText(error)),
          at: SourceLocation(in: sourceFile, line: line, column: 1)))
    }
    return (ItemTable(path: file, rows: rows, firsts: firsts), problems)
  }

  /// The names and weights of a `for` cell (`Ana;Ben`, `Ana:2;Ben:1`), each located at the cell.
  private static func sharers(in cell: LocatedText, decimalComma: Bool) -> [ItemSource.Sharer] {
    DinerList.entries(in: cell.text, decimalComma: decimalComma).map { name, weight in
      ItemSource.Sharer(
        name: LocatedText(text: name, location: cell.location),
        weight: weight.map { LocatedText(text: $0, location: cell.location) })
    }
  }
}
