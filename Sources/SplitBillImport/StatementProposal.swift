import Foundation
import SplitBillCSV
import SplitBillCore
import SplitBillFiles
import SplitBillText

/// A rules file proposed for a statement from its header and first rows, for the user to check:
/// the separator, the header's line, each column's field from its name, the date's shape when only
/// one fits every date read (both day-first and month-first fitting is said, and left to choose),
/// the decimal mark, the sign and the currency. Who paid and who shares are left for the user.
package enum StatementProposal {
  /// Header names (lowercased, accents dropped) that say a column's field, in several languages.
  static let names: [(StatementRules.Field, [String])] = [
    (.date, ["date", "datum", "fecha", "data", "buchungstag", "booking", "posted", "valuta", "wertstellung"]),
    (.debit, ["debit", "withdrawal", "paid out", "money out", "soll", "ausgang", "cargo", "addebit"]),
    (.credit, ["credit", "deposit", "paid in", "money in", "haben", "eingang", "abono", "accredit"]),
    (.amount, ["amount", "betrag", "montant", "importe", "importo", "bedrag", "value", "sum", "umsatz"]),
    (.currency, ["currency", "wahrung", "devise", "moneda", "valuta code", "ccy"]),
    (.category, ["category", "kategorie", "categorie", "categoria"]),
    (
      .description,
      [
        "description", "memo", "verwendungszweck", "libelle", "concepto", "details", "reference", "text",
        "buchungstext", "omschrijving",
      ]
    ),
    (
      .payee,
      ["payee", "merchant", "name", "beneficiary", "empfanger", "auftraggeber", "counterparty", "beguenstigter"]
    ),
  ]

  /// The date shapes tried, in this order.
  static let shapes = [
    "YYYY-MM-DD", "DD.MM.YYYY", "DD/MM/YYYY", "MM/DD/YYYY", "DD-MM-YYYY", "MM-DD-YYYY", "YYYY/MM/DD", "DD.MM.YY",
    "DD/MM/YY", "MM/DD/YY", "YYYYMMDD",
  ]

  /// The proposed rules for the statement's `bytes` named `file`.
  package static func propose(_ bytes: [UInt8], file: String) -> String {
    let data = Array(ByteOrderMark.dropped(from: bytes))
    // The first 60 lines only: a statement of any size costs no more to propose for.
    let lines = data.split(separator: 0x0A, maxSplits: 60, omittingEmptySubsequences: false).prefix(60).map {
      let line = String(decoding: $0, as: UTF8.self)
      return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }
    // The separator: of , ; tab, the one the header-like line has most of.
    let separators: [(UInt8, String)] = [(0x3B, ";"), (0x09, "tab"), (0x2C, ",")]
    var header = 0
    var separator: (UInt8, String) = (0x2C, ",")
    var best = 0
    for (index, line) in lines.enumerated() {
      for candidate in separators {
        let count = line.utf8.count { $0 == candidate.0 }
        let folded = StatementRules.folded(line)
        if count > best, names[0].1.contains(where: folded.contains) {
          best = count
          header = index
          separator = candidate
        }
      }
      if best > 0 { break }
    }
    let table = (try? CSVTable(Array(lines.joined(separator: "\n").utf8), delimiter: separator.0))?.rows ?? []
    let headerRow = table.first { $0.line == header + 1 }
    let sample = table.filter { $0.line > header + 1 && !$0.isBlank }.prefix(50)
    var fields: [StatementRules.Field?] = []
    for cell in headerRow?.cells ?? [] {
      let name = StatementRules.folded(cell.text.trimmingCharacters(in: .whitespaces))
      let field = names.first { entry in
        !fields.contains(entry.0) && entry.1.contains { name == $0 || name.contains($0) }
      }?.0
      fields.append(field)
    }
    var out: [String] = []
    out.append("# Rules proposed by `splitbill import csv` for \(file), from its header and first rows.")
    out.append("# Check every line, then: splitbill import csv \(file) --rules THIS-FILE")
    out.append("skip \(header + 1)")
    out.append("separator \(separator.1)")
    if headerRow != nil {
      let named = zip(headerRow?.cells ?? [], fields).map { "\($0.1?.rawValue ?? "_")" }
      out.append("# the header: " + (headerRow?.cells.map { $0.text }.joined(separator: " | ") ?? ""))
      out.append("fields " + named.joined(separator: ", "))
    } else {
      out.append("# no header with a date column was found: name each column (date, description, amount, …, _)")
      out.append("fields date, description, amount")
    }
    // The date's shape: those that read every date of the sample.
    if let column = fields.firstIndex(of: .date) {
      let dates = sample.compactMap { $0.cells.indices.contains(column) ? $0.cells[column].text : nil }
      let fitting = shapes.compactMap(DateFormat.init).filter { format in
        !dates.isEmpty && dates.allSatisfy { format.date($0) != nil }
      }
      if fitting.count == 1 {
        out.append("date-format \(fitting[0])")
      } else if let first = fitting.first {
        out.append(
          "# date-format \(first)   <- or \(fitting.dropFirst().map(\.description).joined(separator: ", ")): every date "
            + "read fits each; choose one and remove the #")
      } else {
        out.append("# date-format DD.MM.YYYY   <- no usual shape reads every date: write the dates' shape")
      }
    }
    // The decimal mark: the separator before the last one or two digits of the amounts.
    let amountColumns = [StatementRules.Field.amount, .debit, .credit].compactMap { fields.firstIndex(of: $0) }
    let amounts = sample.flatMap { row in
      amountColumns.compactMap { row.cells.indices.contains($0) ? row.cells[$0].text : nil }
    }
    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    var commas = 0
    var points = 0
    for amount in amounts {
      let tail = amount.reversed().prefix { $0.isNumber || $0 == "-" || $0 == " " || $0.isLetter }.count
      let mark = amount.dropLast(tail).last
      let digitsAfter = amount.suffix(tail).filter { $0.isNumber }.count
      if mark == ",", digitsAfter <= 2 { commas += 1 }
      if mark == ".", digitsAfter <= 2 { points += 1 }
    }
    if commas > points {
      out.append("decimal-mark ,")
      if amounts.contains(where: { $0.contains(".") }) { out.append("thousands-separator .") }
    } else {
      out.append("decimal-mark .")
      if amounts.contains(where: { $0.contains(",") }) { out.append("thousands-separator ,") }
    }
    if fields.contains(.amount) {
      let negatives = amounts.count { $0.hasPrefix("-") || $0.hasSuffix("-") || $0.hasPrefix("(") }
      if negatives * 2 < amounts.count {
        out.append("# most amounts are positive: a card statement?")
        out.append("sign spending-positive")
      } else {
        out.append("sign spending-negative")
      }
    }
    if !fields.contains(.currency) {
      let symbols: [(String, String)] = [("€", "EUR"), ("£", "GBP"), ("CHF", "CHF"), ("$", "USD"), ("¥", "JPY")]
      let headerCodes = (headerRow?.cells ?? []).flatMap { cell in
        cell.text.split(whereSeparator: { !$0.isLetter }).map(String.init).filter {
          $0.count == 3 && $0 == $0.uppercased() && (try? Currency(code: $0)) != nil
        }
      }
      if let code = headerCodes.first {
        out.append("# the currency, from the header")
        out.append("currency \(code)")
      } else if let found = symbols.first(where: { symbol in amounts.contains { $0.contains(symbol.0) } }) {
        out.append("# the currency, from the amounts' \(found.0)")
        out.append("currency \(found.1)")
      } else {
        out.append("# currency EUR   <- the statement names none: give its currency")
      }
    }
    out.append("# Who paid and who shares each row: the account holder and the group, say.")
    out.append("# paid-by NAME")
    out.append("# diners NAME, NAME")
    out.append("# Rows to leave out (money in, transfers), or to set apart:")
    out.append("# if %description salary")
    out.append("#   skip")
    return out.joined(separator: "\n") + "\n"
  }
}
