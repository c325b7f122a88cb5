import Foundation
import SplitBillCore
import SplitBillFiles
import SplitBillModel
import SplitBillText

/// A rules file: how a bank's, a card's or an app's CSV statement becomes bills, the way hledger's
/// CSV rules files work (docs/import.md, "Bank and card statements"). Line by line:
///
/// ```
/// skip 1                          # lines before the first row (the header)
/// separator ;                     # , ; tab |   (else told from the first line)
/// fields date, _, description, amount, currency
/// date-format DD.MM.YYYY          # never guessed: day-first or month-first is said here
/// decimal-mark ,                  # and thousands-separator . (or none, space, ')
/// sign spending-negative          # or spending-positive (a card statement)
/// currency EUR
/// paid-by Maya
/// diners Maya, Jonas
/// if %description rent            # text found in the field (or the whole row), any case
///   description Rent
///   category housing
/// if salary
///   skip
/// ```
///
/// Later `if` blocks win over earlier ones for the same setting; several `if` lines in a row
/// before their settings match any of them.
package struct StatementRules: Sendable {
  /// The fields a statement's columns can be.
  package enum Field: String, CaseIterable, Sendable {
    case date, description, payee, amount, debit, credit, currency, category, notes
  }

  /// What an `if` block sets.
  package struct Settings: Sendable {
    var description: String?
    var category: String?
    var paidBy: String?
    var diners: [String]?
    var notes: String?
    var skip = false
  }

  /// An `if` block: its patterns (a field, or the whole row when `nil`, and the text), where it
  /// starts, and what it sets.
  package struct Block: Sendable {
    var patterns: [(field: Int?, text: String)]
    var line: Int
    var settings = Settings()
  }

  /// Which sign a spending has in the amount column.
  package enum Sign: String, Sendable {
    case spendingNegative = "spending-negative"
    case spendingPositive = "spending-positive"
  }

  package var skip = 1
  package var separator: UInt8?
  /// The field of each column (`nil`: a column not read, `_`).
  package var fields: [Field?] = []
  package var dateFormat: DateFormat?
  package var decimalMark: UInt8 = 0x2E
  package var thousandsSeparator: UInt8?
  package var sign = Sign.spendingNegative
  package var currency: Currency?
  package var defaults = Settings()
  package var blocks: [Block] = []

  /// The column of `field`, if the rules name it.
  package func column(of field: Field) -> Int? { fields.firstIndex(of: field) }

  /// Reads a rules file; the first problem is thrown, located at its line and column in `file`.
  package static func parse(_ bytes: [UInt8], file: String) throws(Diagnostic) -> StatementRules {
    guard let text = String(validating: ByteOrderMark.dropped(from: bytes), as: UTF8.self) else {
      throw Diagnostic(in: file, .error, .statementRules, "the rules file is not UTF-8 text", line: 1, column: 1)
    }
    var rules = StatementRules()
    var block: Block?
    var sawFields = false
    func fail(_ message: String, _ line: Int, _ column: Int = 1) -> Diagnostic {
      Diagnostic(in: file, .error, .statementRules, message, line: line, column: column)
    }
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = index + 1
      let content = raw.hasSuffix("\r") ? raw.dropLast() : raw
      let trimmed = content.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
      let indented = content.first == " " || content.first == "\t"
      let indent = content.prefix { $0 == " " || $0 == "\t" }.count
      let (name, value) = split(trimmed)
      if indented {
        guard var open = block else {
          throw fail("an indented setting with no 'if' line above it: expected 'if PATTERN' first", line, indent + 1)
        }
        try assign(name, value, to: &open.settings, rules: rules, line: line, column: indent + 1, file: file)
        block = open
        continue
      }
      if name == "if" {
        guard !value.isEmpty else {
          throw fail("'if' without a pattern: expected 'if TEXT' or 'if %field TEXT'", line, 3)
        }
        let pattern = try self.pattern(value, rules: rules, line: line, file: file)
        if var open = block, open.settings.isEmpty {
          open.patterns.append(pattern)
          block = open
        } else {
          if let done = block { rules.blocks.append(done) }
          block = Block(patterns: [pattern], line: line)
        }
        continue
      }
      if let done = block {
        rules.blocks.append(done)
        block = nil
      }
      let valueColumn = name.count + 2
      switch name {
      case "skip":
        guard let count = Int(value), count >= 0, count < 1_000 else {
          throw fail(
            "'skip \(EchoedText.quote(value))': expected the number of lines before the first row", line, valueColumn)
        }
        rules.skip = count
      case "separator":
        let separators: [String: UInt8] = [
          ",": 0x2C, ";": 0x3B, "tab": 0x09, "\\t": 0x09, "|": 0x7C, "comma": 0x2C, "semicolon": 0x3B,
        ]
        guard let byte = separators[value.lowercased()] else {
          throw fail("'separator \(EchoedText.quote(value))': expected , ; | or tab", line, valueColumn)
        }
        rules.separator = byte
      case "fields":
        sawFields = true
        rules.fields = []
        for cell in value.split(separator: ",", omittingEmptySubsequences: false) {
          let field = cell.trimmingCharacters(in: .whitespaces).lowercased()
          if field == "_" || field.isEmpty {
            rules.fields.append(nil)
          } else if let known = Field(rawValue: field) {
            guard !rules.fields.contains(known) else { throw fail("'\(field)' is named twice in fields", line) }
            rules.fields.append(known)
          } else {
            var message =
              "unknown field '\(EchoedText.quote(field))': expected "
              + Field.allCases.map(\.rawValue).joined(separator: ", ") + ", or _ for a column not read"
            if let guess = Spelling.suggestion(for: field, among: Field.allCases.map(\.rawValue)) {
              message += "; did you mean '\(guess)'?"
            }
            throw fail(message, line, valueColumn)
          }
        }
        guard rules.column(of: .date) != nil else { throw fail("fields has no date column", line, valueColumn) }
        guard rules.column(of: .amount) != nil || rules.column(of: .debit) != nil || rules.column(of: .credit) != nil
        else { throw fail("fields has no amount column (amount, or debit and credit)", line, valueColumn) }
      case "date-format":
        guard let format = DateFormat(value) else {
          throw fail(
            "'date-format \(EchoedText.quote(value))': expected the date's shape in YYYY (or YY), MM and DD, such as "
              + "DD.MM.YYYY or MM/DD/YYYY", line, valueColumn)
        }
        rules.dateFormat = format
      case "decimal-mark":
        guard value == "." || value == "," else {
          throw fail("'decimal-mark \(EchoedText.quote(value))': expected . or ,", line, valueColumn)
        }
        rules.decimalMark = value == "," ? 0x2C : 0x2E
      case "thousands-separator":
        let separators: [String: UInt8?] = [".": 0x2E, ",": 0x2C, "'": 0x27, "space": 0x20, "none": nil]
        guard let byte = separators[value.lowercased()] else {
          throw fail(
            "'thousands-separator \(EchoedText.quote(value))': expected . , ' space or none", line, valueColumn)
        }
        rules.thousandsSeparator = byte
      case "sign":
        guard let sign = Sign(rawValue: value.lowercased()) else {
          throw fail(
            "'sign \(EchoedText.quote(value))': expected spending-negative or spending-positive", line, valueColumn)
        }
        rules.sign = sign
      case "currency":
        guard let currency = try? Currency(code: value.uppercased()) else {
          throw fail("'currency \(EchoedText.quote(value))': expected an ISO 4217 code such as EUR", line, valueColumn)
        }
        rules.currency = currency
      default:
        try assign(name, value, to: &rules.defaults, rules: rules, line: line, column: 1, file: file)
      }
    }
    if let done = block { rules.blocks.append(done) }
    guard sawFields else {
      throw fail("the rules have no 'fields' line: expected fields date, description, amount, …", 1)
    }
    guard rules.dateFormat != nil else {
      throw fail(
        "the rules have no 'date-format' line: say the dates' shape (DD.MM.YYYY, MM/DD/YYYY, …), never guessed", 1)
    }
    if rules.decimalMark == rules.thousandsSeparator {
      throw fail(
        "the decimal mark and the thousands separator are both '\(Character(Unicode.Scalar(rules.decimalMark)))'", 1)
    }
    return rules
  }

  /// `name value` of a line.
  static func split(_ line: String) -> (name: String, value: String) {
    guard let space = line.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (line.lowercased(), "") }
    return (line[..<space].lowercased(), line[space...].trimmingCharacters(in: .whitespaces))
  }

  /// `if`'s pattern: `%field text` or `text`.
  static func pattern(_ value: String, rules: StatementRules, line: Int, file: String) throws(Diagnostic) -> (
    field: Int?, text: String
  ) {
    guard value.hasPrefix("%") else { return (nil, folded(value)) }
    let (name, text) = split(String(value.dropFirst()))
    guard let field = Field(rawValue: name), let column = rules.column(of: field) else {
      throw Diagnostic(
        in: file, .error, .statementRules,
        "'%\(EchoedText.quote(name))' is not one of the fields the 'fields' line above names", line: line, column: 4)
    }
    guard !text.isEmpty else {
      throw Diagnostic(in: file, .error, .statementRules, "'if %\(name)' without a text to find", line: line, column: 4)
    }
    return (column, folded(text))
  }

  /// A setting of a block or of the defaults.
  static func assign(
    _ name: String, _ value: String, to settings: inout Settings, rules: StatementRules, line: Int, column: Int,
    file: String
  ) throws(Diagnostic) {
    func need() throws(Diagnostic) {
      guard !value.isEmpty else {
        throw Diagnostic(in: file, .error, .statementRules, "'\(name)' without a value", line: line, column: column)
      }
    }
    switch name {
    case "description":
      try need()
      settings.description = value
    case "category":
      try need()
      settings.category = value
    case "notes":
      try need()
      settings.notes = value
    case "paid-by":
      try need()
      settings.paidBy = PersonName.normalized(value)
    case "diners":
      try need()
      let names = value.split(separator: ",").map { PersonName.normalized(String($0)) }.filter { !$0.isEmpty }
      guard !names.isEmpty, Set(names).count == names.count else {
        throw Diagnostic(
          in: file, .error, .statementRules,
          "'diners \(EchoedText.quote(value))': expected names, each once, split by commas",
          line: line, column: column)
      }
      settings.diners = names
    case "skip": settings.skip = true
    default:
      let known = [
        "skip", "separator", "fields", "date-format", "decimal-mark", "thousands-separator", "sign", "currency",
        "description", "category", "notes", "paid-by", "diners", "if",
      ]
      var message = "unknown rule '\(EchoedText.quote(name))': expected one of \(known.joined(separator: ", "))"
      if let guess = Spelling.suggestion(for: name, among: known) { message += "; did you mean '\(guess)'?" }
      throw Diagnostic(in: file, .error, .statementRules, message, line: line, column: column)
    }
  }

  /// `text` lowercased, accents dropped: how patterns and cells are compared.
  static func folded(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }

  /// What the blocks that match `cells` set, over the defaults (later blocks win), and the line of
  /// the last block that matched.
  func settings(for cells: [String]) -> (Settings, Int?) {
    var result = defaults
    var matched: Int?
    lazy var row = Self.folded(cells.joined(separator: ","))
    for block in blocks {
      let hit = block.patterns.contains { pattern in
        if let field = pattern.field {
          return field < cells.count && Self.folded(cells[field]).contains(pattern.text)
        }
        return row.contains(pattern.text)
      }
      guard hit else { continue }
      matched = block.line
      let set = block.settings
      if let value = set.description { result.description = value }
      if let value = set.category { result.category = value }
      if let value = set.notes { result.notes = value }
      if let value = set.paidBy { result.paidBy = value }
      if let value = set.diners { result.diners = value }
      if set.skip { result.skip = true }
    }
    return (result, matched)
  }
}

extension StatementRules.Settings {
  var isEmpty: Bool {
    description == nil && category == nil && paidBy == nil && diners == nil && notes == nil && !skip
  }
}

/// A date's shape in a rules file: `YYYY`, `YY`, `MM`, `DD` (one or two digits read) and the
/// characters between them, such as `DD.MM.YYYY`.
package struct DateFormat: Sendable, Hashable, CustomStringConvertible {
  enum Part: Hashable, Sendable {
    case year, shortYear, month, day
    case literal(Character)
  }

  let parts: [Part]
  package let description: String

  package init?(_ text: String) {
    var parts: [Part] = []
    var rest = Substring(text.uppercased())
    while let first = rest.first {
      if rest.hasPrefix("YYYY") {
        parts.append(.year)
        rest = rest.dropFirst(4)
      } else if rest.hasPrefix("YY") {
        parts.append(.shortYear)
        rest = rest.dropFirst(2)
      } else if rest.hasPrefix("MM") {
        parts.append(.month)
        rest = rest.dropFirst(2)
      } else if rest.hasPrefix("DD") {
        parts.append(.day)
        rest = rest.dropFirst(2)
      } else if first.isLetter || first.isNumber {
        return nil
      } else {
        parts.append(.literal(first))
        rest = rest.dropFirst()
      }
    }
    let fields = parts.filter { if case .literal = $0 { false } else { true } }
    guard fields.count == 3, fields.contains(.month), fields.contains(.day),
      fields.contains(.year) || fields.contains(.shortYear)
    else { return nil }
    self.parts = parts
    self.description = text.uppercased()
  }

  /// Whether the day comes before the month.
  package var dayFirst: Bool {
    (parts.firstIndex(of: .day) ?? 0) < (parts.firstIndex(of: .month) ?? 0)
  }

  /// The date `text` is in this shape, if it is one that exists (time after it ignored).
  package func date(_ text: String) -> CalendarDate? {
    var rest = Substring(text.trimmingCharacters(in: .whitespaces))
    var year = 0
    var month = 0
    var day = 0
    for (index, part) in parts.enumerated() {
      func digits(_ most: Int, exactly: Bool) -> Int? {
        let taken = rest.prefix(most).prefix { $0.isASCII && $0.isNumber }
        guard !taken.isEmpty, !exactly || taken.count == most else { return nil }
        rest = rest.dropFirst(taken.count)
        return Int(taken)
      }
      switch part {
      case .year:
        guard let value = digits(4, exactly: true) else { return nil }
        year = value
      case .shortYear:
        guard let value = digits(2, exactly: true) else { return nil }
        year = 2000 + value
      case .month:
        guard let value = digits(2, exactly: false) else { return nil }
        month = value
      case .day:
        guard let value = digits(2, exactly: false) else { return nil }
        day = value
      case .literal(let character):
        guard rest.first == character else { return nil }
        rest = rest.dropFirst()
      }
      _ = index
    }
    // A time may follow the date (`12.03.2026 14:05`), never more digits.
    if let next = rest.first, next.isNumber { return nil }
    return CalendarDate(year: year, month: month, day: day)
  }
}
