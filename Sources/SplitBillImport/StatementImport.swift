import Foundation
import SplitBillCSV
import SplitBillCore
import SplitBillFiles
import SplitBillModel
import SplitBillText

/// Reads a bank's, a card's or an app's CSV statement by a rules file (``StatementRules``) into an
/// ``ImportedBook``: each spending row a bill of the row's amount, paid by the rules' `paid-by`,
/// split evenly among their `diners` (the leftover cents to the first diners named), dated, with
/// the row's description and the rules' category. A row the rules skip is a note; a row that
/// cannot be placed (no payer or diners, money in, a date or an amount that does not read) is an
/// error at its cell, never dropped. A statement has no balances of its own to check against.
package enum StatementImport {
  /// Reads the statement's bytes by the rules in `rules`; `fallback` is the currency of rows the
  /// rules and the statement give none for.
  package static func read(
    _ export: [UInt8], file: String, rules companion: ImportCompanion?, currency fallback: Currency? = nil,
    skipInvalid: Bool = false
  ) throws(Diagnostic) -> ImportResult {
    guard let companion else {
      throw Diagnostic(
        in: file, .error, .statementRules,
        "a statement is read by a rules file: give --rules FILE (without it, `import csv` proposes one)", line: 1,
        column: 1)
    }
    let rules = try StatementRules.parse(companion.bytes, file: companion.path)
    let bytes = Array(ByteOrderMark.dropped(from: export))
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw Diagnostic(
        in: file, .error, .exportNotUTF8, "the file is not UTF-8 text: save the statement as UTF-8", line: 1, column: 1)
    }
    let table = try CSVTable.export(bytes, file: file, delimiter: rules.separator)
    var reader = Reader(file: file, rules: rules, fallback: fallback, skipInvalid: skipInvalid)
    for (index, row) in table.rows.enumerated() where index >= rules.skip && !row.isBlank {
      reader.read(row)
    }
    guard reader.book.rowsRead > 0 else {
      throw Diagnostic(
        in: file, .error, .statementEmpty,
        "no row after the \(plural(rules.skip, "line")) the rules skip: expected the statement's rows", line: 1,
        column: 1)
    }
    reader.book.headerNotes.append("Read by the rules in \(companion.path).")
    reader.book.uncheckedWhy = "a statement shows no one's balance; the rules said who paid and who shares"
    return ImportResult(book: reader.book, errors: reader.errors)
  }

  struct Reader {
    let file: String
    let rules: StatementRules
    let fallback: Currency?
    let skipInvalid: Bool
    var book = ImportedBook(source: .csv)
    var errors: [Diagnostic] = []
    var idsByDate: [CalendarDate: Int] = [:]

    init(file: String, rules: StatementRules, fallback: Currency?, skipInvalid: Bool) {
      self.file = file
      self.rules = rules
      self.fallback = fallback
      self.skipInvalid = skipInvalid
    }

    mutating func read(_ row: CSVTable.Row) {
      book.rowsRead += 1
      let cells = row.cells.map(\.text)
      func cell(_ field: StatementRules.Field) -> CSVTable.Cell? {
        guard let column = rules.column(of: field) else { return nil }
        return column < row.cells.count ? row.cells[column] : nil
      }
      func error(_ code: ImportCode, _ message: String, at place: CSVTable.Cell? = nil) {
        let diagnostic = Diagnostic(
          in: file, .error, code, message, line: place?.line ?? row.line, column: place?.column ?? 1)
        errors.append(diagnostic)
        if skipInvalid { book.skipped.append(diagnostic) }
      }
      let needed = rules.fields.indices.last.map { $0 + 1 } ?? 0
      guard row.cells.count >= needed else {
        return error(
          .statementFields,
          "a row of \(plural(row.cells.count, "cell")), the rules' fields name \(needed): expected \(needed) cells")
      }
      let (settings, matched) = rules.settings(for: cells)
      if settings.skip {
        book.omitted.append(
          Diagnostic(
            in: file, .note, .statementSkipped, "left out by the rule at line \(matched ?? 0) of the rules",
            line: row.line, column: 1))
        return
      }
      guard let dateCell = cell(.date), let format = rules.dateFormat else { return }
      guard let date = format.date(dateCell.text) else {
        return error(
          .statementDate, "'\(EchoedText.quote(dateCell.text))' is not a date in the rules' shape \(format)",
          at: dateCell)
      }
      // The currency: the row's, else the rules', else --currency.
      var currency = rules.currency ?? fallback
      if let currencyCell = cell(.currency), !currencyCell.text.trimmingCharacters(in: .whitespaces).isEmpty {
        guard let code = try? Currency(code: currencyCell.text.trimmingCharacters(in: .whitespaces).uppercased()) else {
          return error(
            .statementCurrency, "'\(EchoedText.quote(currencyCell.text))' is not a currency code such as EUR",
            at: currencyCell)
        }
        currency = code
      }
      guard let currency else {
        return error(
          .statementCurrency,
          "no currency: the statement has no currency column, and neither the rules ('currency EUR') nor --currency give one"
        )
      }
      // The amount, signed as the statement writes it: spending is what the rules' sign says.
      var spending: Int64 = 0
      var amountCell: CSVTable.Cell?
      for field in [StatementRules.Field.amount, .debit, .credit] {
        guard let found = cell(field), !found.text.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
        guard let units = StatementImport.amount(found.text, rules: rules, currency: currency) else {
          return error(
            .statementAmount,
            "'\(EchoedText.quote(found.text))' is not an amount in \(currency.code) with the rules' decimal mark "
              + "'\(Character(Unicode.Scalar(rules.decimalMark)))'", at: found)
        }
        amountCell = amountCell ?? found
        // Money out: negative in an amount column (unless spending is positive there), a debit
        // column's figure whatever its sign.
        switch field {
        case .amount: spending += rules.sign == .spendingNegative ? -units : units
        case .debit: spending += abs(units)
        default: spending -= abs(units)
        }
      }
      guard spending != 0 else {
        book.omitted.append(
          Diagnostic(
            in: file, .note, .statementNoEffect, "an amount of zero: nothing to split", line: row.line, column: 1))
        return
      }
      guard spending > 0 else {
        return error(
          .statementCredit,
          "money in (\(Money(minorUnits: -spending, currency: currency).decimalString) \(currency.code)), not a "
            + "spending: a rule can skip it ('if …' then '  skip')", at: amountCell)
      }
      guard let payer = settings.paidBy else {
        return error(
          .statementUnplaced,
          "no one paid this row: no rule that matches it gives 'paid-by', and the rules have no 'paid-by' line")
      }
      guard let diners = settings.diners else {
        return error(
          .statementUnplaced,
          "no one shares this row: no rule that matches it gives 'diners', and the rules have no 'diners' line")
      }
      var number = idsByDate[date, default: 0]
      number += 1
      idsByDate[date] = number
      // The rules' description, else the payee and the statement's text, as many as there are.
      let texts = [cell(.payee), cell(.description)].compactMap { $0?.text.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
      let description = settings.description ?? (texts.isEmpty ? nil : texts.joined(separator: ": "))
      let category = settings.category ?? cell(.category)?.text.trimmingCharacters(in: .whitespaces)
      let notes = settings.notes ?? cell(.notes)?.text.trimmingCharacters(in: .whitespaces)
      for person in [payer] + diners where !book.people.contains(person) { book.people.append(person) }
      book.bills.append(
        ImportedBill(
          id: "csv-\(date)-\(number)", date: date, description: description,
          amount: Money(minorUnits: spending, currency: currency),
          payers: [ImportedPart(person: payer, minorUnits: spending)],
          shares: StatementImport.even(spending, among: diners),
          notes: notes.flatMap { $0.isEmpty ? nil : $0 }, comment: matched.map { "rule at line \($0)" },
          category: category.flatMap { $0.isEmpty ? nil : $0 }))
    }
  }

  /// `units` split evenly among `people`, the leftover units to the first ones.
  static func even(_ units: Int64, among people: [String]) -> [ImportedPart] {
    let count = Int64(people.count)
    let base = units / count
    let leftover = units % count
    return people.enumerated().map {
      ImportedPart(person: $0.element, minorUnits: base + (Int64($0.offset) < leftover ? 1 : 0))
    }.filter { $0.minorUnits > 0 }
  }

  /// An amount cell as the rules write numbers, signed: `-1.234,50`, `1 234.50-`, `(12.50)`,
  /// `€ 12,50`, `12.50 EUR` (a currency sign or code beside the number is passed over).
  static func amount(_ text: String, rules: StatementRules, currency: Currency) -> Int64? {
    var body = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{00A0}", with: " ")
      .replacingOccurrences(of: "\u{202F}", with: " ")
    var negative = false
    if body.hasPrefix("(") && body.hasSuffix(")") {
      negative = true
      body = String(body.dropFirst().dropLast())
    }
    // Currency signs and codes around the number.
    body = body.trimmingCharacters(in: CharacterSet(charactersIn: "€$£¥₹₩₽₺₪ ").union(.letters))
    for minus in ["-", "\u{2212}"] {
      if body.hasPrefix(minus) {
        negative.toggle()
        body = String(body.dropFirst())
      } else if body.hasSuffix(minus) {
        negative.toggle()
        body = String(body.dropLast())
      }
    }
    if body.hasPrefix("+") { body = String(body.dropFirst()) }
    body = body.trimmingCharacters(in: CharacterSet(charactersIn: "€$£¥₹₩₽₺₪ ").union(.letters))
    var digits = ""
    for character in body {
      if let separator = rules.thousandsSeparator, character == Character(Unicode.Scalar(separator)) { continue }
      if character == " " && rules.thousandsSeparator == 0x20 { continue }
      if character == Character(Unicode.Scalar(rules.decimalMark)) {
        digits.append(".")
      } else if character.isASCII && character.isNumber {
        digits.append(character)
      } else {
        return nil
      }
    }
    guard !digits.isEmpty, let units = try? DecimalText.parse(digits, scale: currency.exponent) else { return nil }
    return negative ? -units : units
  }
}

extension StatementImport: BookReader {
  package static let exportName = "CSV statement"
  package static func read(_ bytes: [UInt8], file: String, _ reading: ImportReading) throws(Diagnostic)
    -> ImportResult
  {
    try read(
      bytes, file: file, rules: reading.rules, currency: reading.currency, skipInvalid: reading.skipInvalid)
  }
}
