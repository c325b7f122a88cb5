import Foundation
import SplitBillBytes
import SplitBillCore

/// The shapes Splitwise's "Export as spreadsheet" has had (../shared/reference/import-formats.md).
enum SplitwiseEra: String, CaseIterable, Sendable {
  /// 2012–2013: lower-case `date`/`cost`, one decimal where it suffices (`85.0`, `0`), a blank
  /// line after every row, a dated `Current balance` row.
  case early2012
  /// 2012–2013 with the blank lines taken out by hand.
  case early2012Compact
  /// A group export of today: a blank line, then one dated `Total balance` row per currency
  /// with single spaces for Category and Cost; refunds; a placeholder last row.
  case group
  /// A group export with comma-only separator rows around blocks and its total rows.
  case separated
  /// A friend page's export: a note line and a blank line before the header, several currencies.
  case friendPage
  /// A German export: localised header, `Zahlung`, `Gesamtsaldo`.
  case german
}

/// A generated export and what its total rows say.
struct SplitwiseExport {
  var text: String
  /// Each member's balance by currency, as the export's total rows give them (names trimmed).
  var totals: [Currency: [String: Int64]]
  var refunds = 0
  var placeholders = 0
  var selfPaid = 0

  /// `rows` random rows among `members` (names as the header spells them, stray spaces kept):
  /// expenses with one to three payers, payments, refunds, self-paid rows, in two currencies.
  static func random(
    members: [String], rows: Int, era: SplitwiseEra, using random: inout SplitMix64
  ) throws -> SplitwiseExport {
    let currencies = era == .early2012 || era == .early2012Compact ? ["USD"] : ["EUR", "BRL"]
    var export = SplitwiseExport(text: "", totals: [:])
    var sums: [String: [Int64]] = [:]
    let german = era == .german
    let columns =
      german
      ? "Datum,Beschreibung,Kategorie,Kosten,Währung"
      : era == .early2012 || era == .early2012Compact
        ? "date,Description,Category,cost,Currency"
        : "Date,Description,Category,Cost,Currency"
    var lines: [String] = []
    if era == .friendPage { lines += ["Note: does not include group expenses", ""] }
    lines.append(columns + "," + members.joined(separator: ","))
    if era == .separated { lines.append(String(repeating: ",", count: 4 + members.count)) }
    let amount = { (units: Int64) -> String in
      let sign = units < 0 ? "-" : ""
      let whole = units.magnitude / 100
      let cents = units.magnitude % 100
      if era == .early2012 || era == .early2012Compact {
        if cents == 0 { return whole % 2 == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).0" }
        if cents % 10 == 0 { return "\(sign)\(whole).\(cents / 10)" }
      }
      return "\(sign)\(whole).\(cents < 10 ? "0" : "")\(cents)"
    }
    for number in 0..<rows {
      let currency = currencies[Int.random(in: 0..<currencies.count, using: &random)]
      let date = "2025-\(10 + number / 30)-\(String(format: "%02d", number % 28 + 1))"
      var cells = [Int64](repeating: 0, count: members.count)
      var category = german ? "Lebensmittel" : "Groceries"
      var cost: Int64
      let kind = Int.random(in: 0..<10, using: &random)
      if kind == 0 {
        // A payment from one member to another.
        let from = Int.random(in: 0..<members.count, using: &random)
        let to = (from + Int.random(in: 1..<members.count, using: &random)) % members.count
        cost = Int64.random(in: 100...20_000, using: &random)
        cells[from] = cost
        cells[to] = -cost
        category = german ? "Zahlung" : "Payment"
      } else if kind == 1 {
        // Paid for themselves: every cell zero.
        cost = Int64.random(in: 100...5_000, using: &random)
        export.selfPaid += 1
      } else {
        // An expense: owed shares, one to three payers; a refund is one with every sign reversed.
        cost = 0
        var owed = [Int64](repeating: 0, count: members.count)
        for index in members.indices where Bool.random(using: &random) || index == 0 {
          owed[index] = Int64.random(in: 1...9_000, using: &random)
          cost += owed[index]
        }
        let payers = Array(members.indices.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
        var left = cost
        for (rank, payer) in payers.enumerated() {
          let paid = rank == payers.count - 1 ? left : Int64.random(in: 0...left, using: &random)
          cells[payer] += paid
          left -= paid
        }
        for index in members.indices { cells[index] -= owed[index] }
        if cells.allSatisfy({ $0 == 0 }) { export.selfPaid += 1 }
        if kind == 2 && !german && !cells.allSatisfy({ $0 == 0 }) {
          cost = -cost
          cells = cells.map { -$0 }
          export.refunds += 1
        }
      }
      var sum = sums[currency] ?? [Int64](repeating: 0, count: members.count)
      for index in cells.indices { sum[index] += cells[index] }
      sums[currency] = sum
      let description = ["Lunch, \"big\"", "Taxi", "Пельмени", "🍕 night", "Groceries"][number % 5]
      let quoted = "\"" + description.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      lines.append(
        [date, quoted, category, amount(cost), currency].joined(separator: ",") + ","
          + cells.map(amount).joined(separator: ","))
      if era == .early2012 { lines.append("") }
    }
    if era == .group {
      let currency = currencies[0]
      lines.append(
        "2025-12-20,Expense placeholder,\" \",\" \",\(currency)," + members.map { _ in "0.00" }.joined(separator: ","))
      export.placeholders += 1
    }
    lines.append(era == .separated ? String(repeating: ",", count: 4 + members.count) : "")
    let totalWord =
      german ? "Gesamtsaldo" : era == .early2012 || era == .early2012Compact ? "Current balance" : "Total balance"
    for currency in currencies.sorted() {
      let sum = sums[currency] ?? [Int64](repeating: 0, count: members.count)
      lines.append("2026-01-19,\(totalWord), , ,\(currency)," + sum.map(amount).joined(separator: ","))
      var byName: [String: Int64] = [:]
      for (index, member) in members.enumerated() { byName[member.trimmingCharacters(in: .whitespaces)] = sum[index] }
      export.totals[try Currency(code: currency)] = byName
    }
    if era == .separated { lines.append(String(repeating: ",", count: 4 + members.count)) }
    export.text = lines.joined(separator: "\n") + "\n"
    return export
  }
}
