import Foundation
import SplitBillBytes
import Testing

@testable import SplitBillCore
@testable import SplitBillInput

/// One error class: a file and exactly the diagnostics it must give.
struct DiagnosticCase: Sendable, CustomTestStringConvertible {
  var id: String
  var text: String
  var expected: [String]
  var testDescription: String { id }

  static let all: [DiagnosticCase] = [
    DiagnosticCase(
      id: "too many decimals", text: "defaults: {currency: EUR, tip: 10}\nbills:\n  - amount: 12.345\n    diners: 2\n",
      expected: ["3:13: error: amount '12.345' has 3 decimals but EUR has 2"]),
    DiagnosticCase(
      id: "thousands separator", text: "- amount: 1,234.50\n  tip: 10\n  diners: 2\n",
      expected: [
        "1:11: error: amount '1,234.50' has a thousands separator: write 1234.50, with no grouping (for '84,50' style input use --decimal-comma)"
      ]),
    DiagnosticCase(
      id: "exponent", text: "- {amount: 1e3, tip: 10, diners: 2}\n",
      expected: ["1:12: error: amount '1e3' uses exponent notation: write the digits out, with at most 2 decimals"]),
    DiagnosticCase(
      id: "negative", text: "- {amount: -5, tip: 10, diners: 2}\n",
      expected: ["1:12: error: amount '-5' is negative: expected zero or more"]),
    DiagnosticCase(
      id: "missing amount", text: "- tip: 10\n  diners: 2\n",
      expected: ["1:3: error: missing required key 'amount' (the bill before tip)"]),
    DiagnosticCase(
      id: "unknown key with suggestion", text: "- ammount: 5\n  tip: 10\n  diners: 2\n",
      expected: ["1:3: error: unknown key 'ammount' in bill; did you mean 'amount'?"]),
    DiagnosticCase(
      id: "duplicate key", text: "- amount: 5\n  amount: 6\n  tip: 10\n  diners: 2\n",
      expected: ["2:3: error: duplicate key 'amount' in bill (first given at bills.yaml:1:3)"]),
    DiagnosticCase(
      id: "tip and tip_amount", text: "- {amount: 5, tip: 10, tip_amount: 1, diners: 2}\n",
      expected: [
        "1:24: error: tip and tip_amount are both given: a bill has exactly one of a percentage, a fixed tip, or 'ai'"
      ]),
    DiagnosticCase(
      id: "no tip anywhere", text: "- {amount: 5, diners: 2}\n",
      expected: [
        "1:3: error: no tip for this bill: add 'tip: 18%' or 'tip_amount: 5.00', a 'tip' in the file's defaults, or --default-tip"
      ]),
    DiagnosticCase(
      id: "tip out of range", text: "- {amount: 5, tip: 101, diners: 2}\n",
      expected: ["1:20: error: tip '101' is out of range: expected a percentage from 0 to 100 (or 'ai' for advice)"]),
    DiagnosticCase(
      id: "zero diners", text: "- {amount: 5, tip: 1, diners: 0}\n",
      expected: ["1:31: error: diners is 0: a bill needs at least one person to split it"]),
    DiagnosticCase(
      id: "duplicate diner", text: "- {amount: 5, tip: 1, diners: [Ana, Ana]}\n",
      expected: ["1:37: error: diner 'Ana' is listed twice (first at bills.yaml:1:32)"]),
    DiagnosticCase(
      id: "zero weight", text: "- {amount: 5, tip: 1, diners: {Ana: 0}}\n",
      expected: ["1:37: error: weight '0' must be greater than zero (diner 'Ana')"]),
    DiagnosticCase(
      id: "not in roster", text: "people: [Ana, Chloé]\nbills:\n  - {amount: 5, tip: 1, diners: [Ana, Chloe]}\n",
      expected: ["3:39: error: diner 'Chloe' is not in people; did you mean 'Chloé'?"]),
    DiagnosticCase(
      id: "payer policy without payer among diners",
      text: "- {amount: 5, tip: 1, diners: [Ana], paid_by: Ben, leftover: payer}\n",
      expected: ["1:47: error: leftover policy 'payer' needs the payer among the diners, but 'Ben' is not one"]),
    DiagnosticCase(
      id: "impossible date", text: "- {date: 2026-02-29, amount: 5, tip: 1, diners: 1}\n",
      expected: ["1:10: error: date '2026-02-29' is not a real calendar date"]),
    DiagnosticCase(
      id: "unknown currency", text: "- {currency: EURO, amount: 5, tip: 1, diners: 1}\n",
      expected: [
        "1:14: error: unknown currency 'EURO': expected an ISO 4217 code such as EUR, USD or JPY; did you mean 'EUR'?"
      ]),
    DiagnosticCase(
      id: "duplicate id", text: "- {id: a, amount: 5, tip: 1, diners: 1}\n- {id: a, amount: 6, tip: 1, diners: 1}\n",
      expected: ["2:3: error: duplicate bill id 'a': also used at bills.yaml:1:3"]),
    DiagnosticCase(
      id: "probable duplicate receipt",
      text: "- {id: a, date: 2026-11-20, amount: 5, tip: 1, diners: [Ana], paid_by: Ana}\n"
        + "- {id: b, date: 2026-11-20, amount: 5, tip: 2, diners: [Ana], paid_by: Ana}\n",
      expected: [
        "2:3: warning: probable duplicate receipt: 'b' has the same date, amount, currency, payer and people as 'a' (bills.yaml:1:3)"
      ]),
    DiagnosticCase(
      id: "syntax error", text: "bills:\n  - amount: 5\n     tip: 1\n",
      expected: [
        "3:9: error: YAML syntax error: a 'key: value' where none can start: this line is indented deeper than the keys above it, or a value holds ': ' (line the keys of one mapping up, or quote the value: \"Dinner: good\") (libyaml: mapping values are not allowed in this context)"
      ]),
    DiagnosticCase(
      id: "unterminated flow", text: "- {amount: 5, tip: 1, diners: [Ana\n",
      expected: [
        "2:1: error: YAML syntax error: a '[...]' list is not closed (the one started at line 1): end it with ']', with ',' between its items (libyaml: did not find expected ',' or ']' (while parsing a flow sequence at line 1))"
      ]),
    DiagnosticCase(
      id: "defaults after bills", text: "bills: []\ndefaults: {tip: 1}\n",
      expected: [
        "2:1: error: 'defaults' must come before 'bills' and 'payments' in the file, so they can be read as they stream"
      ]),
    DiagnosticCase(
      id: "unknown alias", text: "- {amount: 5, tip: 1, diners: *crew}\n",
      expected: ["1:31: error: unknown alias '*crew': no anchor '&crew' before it in this document"]),
    DiagnosticCase(
      id: "bill not a mapping", text: "- just text\n",
      expected: ["1:3: error: a bill must be a mapping with keys such as amount, tip and diners, found 'just text'"]),
    DiagnosticCase(
      id: "unsupported version", text: "version: 2\nbills: []\n",
      expected: ["1:10: error: unsupported version '2': this splitbill reads version 1"]),
    DiagnosticCase(
      id: "amount as a list", text: "- {amount: [5], tip: 1, diners: 1}\n",
      expected: ["1:12: error: amount must be a single value, not a list"]),
  ]
}

@Suite struct YAMLReaderTests {
  @Test(arguments: DiagnosticCase.all)
  func reportsEachErrorClassExactly(_ c: DiagnosticCase) throws {
    let result = try read(c.text)
    #expect(result.lines == c.expected)
  }

  @Test func readsScalarsAsExactText() throws {
    let result = try read("defaults: {currency: EUR}\nbills:\n  - {amount: 84.50, tip: 17.125, diners: 3}\n")
    let bill = try #require(result.bills.first)
    #expect(bill.terms.amount.minorUnits == 8450)
    #expect(bill.terms.tip == .percent(try Percent(parsing: "17.125")))
    #expect(bill.terms.diners == .anonymous(count: 3))
    #expect(bill.id.hasSuffix("bills.yaml#1"))
  }

  @Test func anchorsAliasesAndMergeKeys() throws {
    let result = try read(
      """
      x-crew: &crew [Ana, Ben]
      x-base: &base {currency: JPY, tip: 0}
      bills:
        - {<<: *base, amount: 1000, diners: *crew}
        - <<: *base
          currency: EUR
          amount: 10.00
          diners: *crew
      """)
    #expect(result.diagnostics.isEmpty)
    #expect(result.bills.map(\.terms.amount.description) == ["1000 JPY", "10.00 EUR"])
    #expect(result.bills.map(\.terms.diners.count) == [2, 2])
  }

  @Test func billionLaughsIsAClearErrorNotMemoryExhaustion() throws {
    var text = "x-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    let letters = Array("abcdefghij")
    for index in 1..<letters.count {
      let previous = letters[index - 1]
      text +=
        "x-\(letters[index]): &\(letters[index]) ["
        + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
    }
    text += "bills:\n  - {amount: 1, tip: 1, diners: *j}\n"
    let result = try read(text)
    #expect(result.lines.count == 1)
    // The bound: 100,000 nodes, plus one per byte of input.
    #expect(result.lines.first?.contains("aliases expand to more than \(100_000 + text.utf8.count) nodes") == true)
  }

  /// A syntax error at the end of a last line without a line break is placed on that line:
  /// libyaml's mark is the start of a line after it, which the file does not have (scripts/fuzz.sh).
  @Test func aSyntaxErrorAtTheEndIsInsideTheFile() throws {
    let text = "bills:\n  - {amount: 1, tip: 1, diners: 2}\n    diners:#  "
    let result = try read(text)
    #expect(result.diagnostics.count == 1)
    expectInside(result.diagnostics, lines: 3)
    #expect(result.diagnostics.first?.location?.line == 3)
  }

  /// Anchors are per document, the bound is not: 300 documents each well under it cannot
  /// multiply it (5 MB of them expanded to 3.4 GB of JSON).
  @Test func theAliasBoundIsForTheWholeRunNotEachDocument() throws {
    var document = "x-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for (index, letter) in ["b", "c", "d"].enumerated() {
      let previous = ["a", "b", "c"][index]
      document +=
        "x-\(letter): &\(letter) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
    }
    // About 68,000 nodes a document: under the bound once, far over it 300 times.
    document +=
      "bills:\n  - {amount: 1, tip: 1, diners: 2, notes: x, x-many: [*d, *d, *d, *d, *d]}\n"
    let one = try read(document)
    #expect(!one.lines.contains { $0.contains("aliases expand") }, "\(one.lines)")
    let many = try read(Array(repeating: document, count: 300).joined(separator: "---\n"))
    #expect(many.lines.contains { $0.contains("aliases expand to more than") }, "\(many.lines.prefix(3))")
    #expect(many.bills.count < 300)
  }

  @Test func anErrorThatStopsTheFileLeavesTheRestUnread() throws {
    // The unknown alias stops the file at its first bill: the parsing thread ends there, the
    // 20,000 bills after it are neither read nor reported, and the reading returns.
    var text = "bills:\n  - {amount: 5, tip: 1, diners: *crew}\n"
    for index in 0..<20_000 { text += "  - {id: b\(index), amount: 5, tip: 1, diners: [Ana, Ben]}\n" }
    let result = try read(text)
    #expect(result.lines == ["2:33: error: unknown alias '*crew': no anchor '&crew' before it in this document"])
    #expect(result.bills.isEmpty)
  }

  @Test func severalDocumentsAreSeveralFilesWorth() throws {
    let result = try read(
      """
      defaults: {currency: JPY, tip: 0}
      bills: [{amount: 1000, diners: 2}]
      ---
      defaults: {currency: KWD, tip: 10}
      bills: [{amount: 1.005, diners: 2}]
      """)
    #expect(result.diagnostics.isEmpty)
    #expect(result.bills.map(\.terms.amount.description) == ["1000 JPY", "1.005 KWD"])
    let documents: [String] = result.bills.map { bill in bill.id.split(separator: "#").last.map { String($0) } ?? "" }
    #expect(documents == ["1", "2"])
  }

  @Test func precedenceBillThenFileThenCommandLineThenBuiltIn() throws {
    let options = ReadOptions(
      defaults: InputDefaults(
        currency: try Currency(code: "GBP"), tip: .percent(.preset20), leftover: .first, rounding: .down))
    let withFileDefaults = try read(
      "defaults: {currency: EUR, tip: 10, leftover: remainder}\nbills:\n  - {amount: 1, diners: 1}\n  - {amount: 1, tip: 5, currency: JPY, diners: 1}\n",
      options: options)
    #expect(withFileDefaults.bills.map(\.terms.amount.currency.code) == ["EUR", "JPY"])
    #expect(
      withFileDefaults.bills.map(\.terms.tip) == [.percent(.preset10), .percent(Percent(tenThousandths: 50_000))])
    #expect(withFileDefaults.bills.map(\.tipSource) == [.default, .percent])
    #expect(withFileDefaults.bills.map(\.terms.leftover) == [.remainder, .remainder])
    #expect(withFileDefaults.bills.map(\.terms.rounding) == [.down, .down])
    let commandLineOnly = try read("- {amount: 1, diners: 1}\n", options: options)
    #expect(commandLineOnly.bills.first?.terms.amount.currency.code == "GBP")
    #expect(commandLineOnly.bills.first?.terms.tip == .percent(.preset20))
    let builtIn = try read("- {amount: 1, tip: ai, diners: 1}\n")
    #expect(builtIn.bills.first?.terms.amount.currency == .usd)
    #expect(builtIn.bills.first?.terms.tip == .advisor)
    #expect(builtIn.bills.first?.terms.leftover == .balanced)
    #expect(builtIn.bills.first?.terms.rounding == .halfUp)
  }

  @Test func rosterIsTheDefaultDinersAndNamesAreNFC() throws {
    let result = try read(
      "people: [Ana, \"Chloe\u{301}\"]\nbills:\n  - {amount: 1, tip: 1}\n  - {amount: 1, tip: 1, diners: [\"Chlo\u{E9}\"]}\n"
    )
    #expect(result.diagnostics.isEmpty)
    #expect(result.bills.first?.terms.diners.list.map(\.name) == ["Ana", "Chlo\u{E9}"])
    #expect(result.bills.first?.terms.diners.list.last?.name.unicodeScalars.count == 5)
  }

  /// Every name is trimmed of the same white space, ASCII or not: `"Ana\n"` is Ana as `"Émile\n"`
  /// is Émile (ASCII names were trimmed of spaces and tabs only, so `["Ana\n", Ana]` was two
  /// diners while `["Émile\n", Émile]` was a name listed twice).
  @Test(arguments: ["Ana", "Émile"])
  func namesAreTrimmedOfTheSameWhiteSpace(name: String) throws {
    // The column where `part` starts in `line`.
    func column(of part: String, in line: String) -> Int {
      line.distance(from: line.startIndex, to: line.range(of: part)?.lowerBound ?? line.endIndex) + 1
    }
    for space in ["\\n", "\\r", "\\t", " ", "\\u00A0"] {
      let line = "- {amount: 1, tip: 1, diners: [\"\(name)\(space)\", \(name)], paid_by: \"\(space)\(name)\"}"
      let result = try read(line + "\n")
      let first = column(of: "[", in: line) + 1
      let second = column(of: ", \(name)]", in: line) + 2
      #expect(
        result.lines == ["1:\(second): error: diner '\(name)' is listed twice (first at bills.yaml:1:\(first))"],
        "space \(space)")
    }
    let single = try read("- {amount: 1, tip: 1, diners: [\"\(name)\\n\"], paid_by: \"\(name) \"}\n")
    #expect(single.bills.first?.terms.diners.list.map(\.name) == [name])
    #expect(single.bills.first?.terms.payer == name)
  }

  @Test func invalidUTF8IsLocated() throws {
    let bytes = Array("- {amount: 1, tip: 1, diners: [An".utf8) + [0xFF] + Array("a]}\n".utf8)
    let result = try read(bytes: bytes, name: "bad.yaml")
    #expect(result.lines.count == 1)
    #expect(result.lines.first?.hasPrefix("1:34: error: invalid UTF-8") == true)
  }

  @Test func oneBadBillNeverHidesTheOthers() throws {
    let result = try read(
      "- {amount: x, tip: 1, diners: 1}\n- {amount: 2, tip: 1, diners: 1}\n- {amount: 3, tip: y, diners: 0}\n")
    #expect(result.bills.count == 1)
    #expect(result.invalid.count == 2)
    #expect(result.diagnostics.count == 3)
  }

  @Test func emptyFilesHaveNoBills() throws {
    for text in ["", "# nothing\n", "bills:\n", "---\n...\n", "[]\n"] {
      let result = try read(text)
      #expect(result.bills.isEmpty && result.diagnostics.isEmpty, "\(text.debugDescription)")
    }
  }
}

@Suite struct DefaultTipTests {
  @Test func billsRememberTheDefaultTipTheAdvisorStartsFrom() throws {
    let fromFile = try read("defaults: {tip: 10%}\nbills:\n  - {amount: 1, tip: ai, diners: 1}\n")
    #expect(fromFile.bills.first?.defaultTip == .preset10)
    let fromCommandLine = try read(
      "- {amount: 1, tip: ai, diners: 1}\n", options: ReadOptions(defaults: InputDefaults(tip: .percent(.preset20))))
    #expect(fromCommandLine.bills.first?.defaultTip == .preset20)
    #expect(try read("- {amount: 1, tip: ai, diners: 1}\n").bills.first?.defaultTip == nil)
  }
}

/// Plain YAML bills become bills without the located fields (``PlainYAMLBill``); everything else
/// goes through the validator. Files of generated bills, plain, unusual and broken, with and
/// without a roster and defaults, are read both ways: every bill, invalid bill and diagnostic
/// must be the same.
@Suite struct YAMLRuleAgreementTests {
  /// YAML values for each key, the first the plain one; the others unusual or wrong.
  static let values: [String: [String]] = [
    "date": ["2026-11-20", "2026-02-30", "\"2026-11-20\"", "~", "x", "[2026-11-20]"],
    "description": ["\"Café Lumière\"", "~", "\"\"", "[a]", "plain words", "'single'"],
    "amount": ["84.50", "\"84.5\"", "~", "", "[1, 2]", "-5", "1e3", "12.345", "0", "\" 12 \"", "1,234"],
    "currency": ["EUR", "eur", "JPY", "KWD", "XYZ", "~", "[EUR]", "\"\""],
    "tip": ["15", "\"15%\"", "ai", "AI", "101", "~", "x", "12.5", "\"12,5\"", "{a: 1}"],
    "tip_amount": ["5", "5.005", "x", "~"],
    "diners": [
      "[Ana, Ben]", "3", "\" 2 \"", "0", "+3", "{Ana: 2, Ben: 1.5}", "[Ana, Ana]", "[Ana, [Ben]]", "{Ana: ~, Ben: 2}",
      "{Ana: 0}", "[]", "{}", "Ana", "[Émile, Chloé]", "[\"e\u{301}mile\", émile]", "~", "[\"\", Ben]", "{Ana: [1]}",
      "{Ana: \"1,5\", Ben: 1}", "[~, Ben]", "[Ana, Ben, Zed]", "100001", "\"007\"",
    ],
    "paid_by": [
      "Ana", "Émile", "\" \"", "Zed", "~", "[Ana]", "Ben", "{Ana: 50, Ben: 34.50}", "{Ana: 1, Ana: 2}", "{Ana: ~}",
      "{Ana: x, Ben: 1}", "{}", "{Ana: [1]}",
    ],
    "shares": ["{Ana: 50, Ben: 34.50}", "{Ana: 84.50}", "{Ana: 1, Ben}", "[Ana]", "x", "{Ana: 1.005}", "{}"],
    "notes": ["\"nice\"", "~", "\"said \\\"hi\\\"\\nthen left\""],
    "leftover": ["balanced", "payer", "bogus", "~", "first", "to-tip"],
    "rounding": ["half-up", "down", "bogus", "~"],
    "repeat": [
      "{every: month, count: 2}", "month", "[month]", "{every: week, until: 2027-01-01, skip: [2026-11-27]}",
      "{every: year, count: 0}", "{every: mnth}", "{every: month, skip: {a: 1}}",
      "{every: month, count: 2, skip: 2099-01}",
    ],
    "items": [
      "[{name: Wine, price: 84.50}]", "[{name: A, price: 40, for: Ana}, {name: B, price: 44.50, for: [Ana, Ben]}]",
      "[]", "x", "[{name: A}]", "[{price: 1, name: A, for: [Zed]}]", "[{name: A, price: 169, quantity: 0.5}]",
      "[{name: A, price: 1.99, quantity: 0.5}]", "[x]", "[{nme: A, price: 84.50}]",
      "[{name: A, price: 84.50, for: {Ana: 2, Ben: x}}]",
      "[{name: A, price: 84.50, for: []}]", "[{name: A, price: 84.50, for: [Ana, Ana]}]", "[{name: A, price: -1}]",
    ],
    "discount": ["10%", "5.00", "x", "101%", "~", "[1]"],
    "discount_items": ["Wine", "[Wine, A]", "Beer", "~"],
    "service": ["12.5%", "3", "x"],
    "tax": ["8.875%", "1.00", "-1"],
    "tax_included": ["true", "false", "maybe"],
    "tip_on": ["pretax", "subtotal", "total", "bogus"],
    "receipt_total": ["84.50", "97.18", "x", "1.00"],
  ]

  // One thread's parsing: under ThreadSanitizer four seeds of the twelve.
  @Test(arguments: ProcessInfo.processInfo.environment["SPLITBILL_SANITIZER"] == "thread" ? 0..<4 : 0..<12)
  func recognisingAndDiagnosingAgree(seed: UInt64) throws {
    var random = SplitMix64(seed: 2000 + seed)
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    var text = "version: 1\n"
    switch seed % 4 {
    case 1: text += "people: [Ana, Ben, Émile, Chloé]\n"
    case 2: text += "defaults: {currency: GBP, tip: 15, leftover: first}\n"
    case 3: text += "defaults: {tip: x}\n"
    default: break
    }
    text += "x-base: &base {currency: JPY, tip: 10}\nbills:\n"
    var anchored: Int?
    for number in 0..<300 {
      var keys =
        ["id", "amount", "tip", "diners"]
        + ["date", "description", "currency", "paid_by", "notes"].filter { _ in
          random.next() % 2 == 0
        }
      if random.next() % 8 == 0 { keys.append(pick(["tip_amount", "leftover", "rounding", "shares", "repeat"])) }
      if random.next() % 4 == 0 {
        keys.append("items")
        for key in ["discount", "discount_items", "service", "tax", "tax_included", "tip_on", "receipt_total"]
        where random.next() % 3 == 0 {
          keys.append(key)
        }
      } else if random.next() % 30 == 0 {
        keys.append(pick(["discount", "tax", "tip_on"]))
      }
      for index in keys.indices.reversed() { keys.swapAt(index, Int(random.next() % UInt64(index + 1))) }
      var lines: [String] = []
      for key in keys {
        let value: String
        if key == "id" {
          value = random.next() % 10 == 0 ? pick(["\"\"", "~", "dup", "[x]", "\" r\(number) \""]) : "r\(number)"
        } else {
          let values = Self.values[key] ?? [""]
          value = random.next() % 4 == 0 ? pick(values) : values[0]
        }
        lines.append("\(key): \(value)")
      }
      if random.next() % 40 == 0 {
        lines.append(pick(["ammount: 5", "unknown: 1", "amount: 6", "<<: {notes: merged}"]))
      }
      // Anchors, aliases, merge keys and deep nesting: bills the parsing thread builds into nodes.
      let amount = lines.firstIndex { $0.hasPrefix("amount:") } ?? 0
      switch random.next() % 24 {
      case 0: lines.append("x-deep: [[[[[[1]]]]]]")
      case 1:
        lines[amount] = "amount: &n\(number) 84.50"
        anchored = number
      case 2: if let anchored { lines[amount] = "amount: *n\(anchored)" }
      case 3: lines.append("<<: *base")
      default: break
      }
      text += "  - " + lines.joined(separator: "\n    ") + "\n"
    }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("bills.yaml").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let options = ReadOptions(decimalComma: seed % 5 == 4)
    // Debug builds read every bill both ways, recognising and diagnosing, and stop if the two
    // disagree (BillRules.checkAgreement): reading the file is the test of that.
    let result = readPaths([path], options: options)
    if seed % 4 != 3 { #expect(!result.bills.isEmpty) }
    #expect(!result.invalid.isEmpty)
    // A recurring bill's instances share its place: one record each.
    #expect(Set(result.bills.map(\.source)).count + result.invalid.count == 300)
    expectInside(result.diagnostics, lines: text.split(separator: "\n", omittingEmptySubsequences: false).count)
  }
}
