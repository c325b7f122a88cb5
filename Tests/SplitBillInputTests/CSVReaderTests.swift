import Foundation
import SplitBillBytes
import SplitBillCSV
import SplitBillCore
import Testing

@testable import SplitBillFiles
@testable import SplitBillInput
@_spi(Readers) @testable import SplitBillModel

@Suite struct CSVReaderTests {
  @Test func readsQuotedCellsWithDelimitersQuotesAndNewlines() throws {
    let text =
      "id,amount,tip,diners,notes\r\n"
      + "a,10.00,10,\"Ana;Ben\",\"Said \"\"wow\"\", then\r\nleft, quickly\"\r\n"
      + "b,20.00,10,3,\r\n"
    let result = try read(text, name: "bills.csv")
    #expect(result.diagnostics.isEmpty)
    #expect(result.bills.map(\.id) == ["a", "b"])
    #expect(result.bills.first?.notes == "Said \"wow\", then\r\nleft, quickly")
    #expect(result.bills.last?.source.line == 4)
    #expect(result.bills.last?.notes == nil)
  }

  /// A CSV file has no defaults: a bill without a tip is told of what a CSV file can give.
  @Test func aMissingTipSuggestsWhatACSVFileHas() throws {
    let result = try read("amount,diners\n5.00,2\n", name: "b.csv")
    #expect(result.diagnostics.map(\.code) == ["tip.missing"])
    let message = try #require(result.diagnostics.first?.message)
    #expect(message.contains("fill its 'tip' (18%) or 'tip_amount' (5.00) cell") && message.contains("--default-tip"))
    #expect(!message.contains("defaults"))
  }

  /// No currency anywhere is an error, never a silent USD, and each format is told what it can give.
  @Test func aMissingCurrencyIsAnErrorNamingWhatTheFormatHas() throws {
    let csv = try read("amount,tip,diners\n5.00,10,2\n", name: "b.csv", currencyGiven: false)
    #expect(csv.bills.isEmpty && csv.diagnostics.map(\.code) == ["currency.missing"])
    let csvMessage = try #require(csv.diagnostics.first?.message)
    #expect(
      csvMessage.hasPrefix("no currency for this bill: fill its 'currency' cell (EUR)")
        && !csvMessage.contains("defaults"))
    let payment = try read("from,to,amount\nAna,Ben,5.00\n", name: "p.csv", currencyGiven: false)
    #expect(
      payment.diagnostics.first?.message.hasPrefix("no currency for this payment: fill its 'currency' cell") == true)
    let yaml = try read("- {amount: 5, tip: 10, diners: 2}\n", currencyGiven: false)
    #expect(
      yaml.lines == [
        "1:3: error: no currency for this bill: add 'currency: EUR', a 'currency' in the file's defaults, or --currency CODE (the configuration's currency: for every run)"
      ])
    // Given but unreadable, it is not also missing: one error each.
    let list = try read("- {amount: 5, tip: 10, diners: 2, currency: [EUR]}\n", currencyGiven: false)
    #expect(list.diagnostics.map(\.code) == ["currency.shape"])
    let bytes = Array("amount,currency,tip,diners\n5,".utf8) + [0xFF, 0xFE] + Array(",1,2\n".utf8)
    let unreadable = try read(bytes: bytes, name: "u.csv", currencyGiven: false)
    #expect(unreadable.diagnostics.map(\.code) == ["csv.utf8"])
    // Given anywhere, it is used: the file's defaults, the command line.
    #expect(
      try read("defaults: {currency: EUR}\nbills:\n  - {amount: 5, tip: 10, diners: 2}\n", currencyGiven: false).bills
        .first?.terms.amount.currency == .eur)
    let given = try read(
      "amount,tip,diners\n5.00,10,2\n", name: "b.csv", options: ReadOptions(defaults: InputDefaults(currency: .eur)),
      currencyGiven: false)
    #expect(given.bills.first?.terms.amount.currency == .eur)
  }

  @Test func headerIsCaseInsensitiveInAnyOrderWithABOM() throws {
    let result = try read(bytes: [0xEF, 0xBB, 0xBF] + Array("Diners,TIP,Amount\n2,10,5.00\n".utf8), name: "b.csv")
    #expect(result.diagnostics.isEmpty)
    #expect(result.bills.first?.terms.amount.minorUnits == 500)
  }

  @Test func detectsSemicolonAndTabDelimiters() throws {
    let semicolon = try read(
      "amount;tip;diners\n\"84,50\";10;Ana:2,5\n", name: "s.csv", options: ReadOptions(decimalComma: true))
    #expect(semicolon.diagnostics.isEmpty)
    #expect(semicolon.bills.first?.terms.amount.minorUnits == 8450)
    #expect(semicolon.bills.first?.terms.diners.list.first?.weight.description == "2.5")
    let tab = try read("amount\ttip\tdiners\n5.00\t10\tAna;Ben\n", name: "t.tsv")
    #expect(tab.diagnostics.isEmpty)
    #expect(tab.bills.first?.terms.diners.list.map(\.name) == ["Ana", "Ben"])
    let forced = try read("amount|tip|diners\n5.00|10|2\n", name: "p.csv", options: ReadOptions(delimiter: 0x7C))
    #expect(forced.bills.count == 1)
  }

  @Test func dinersCellForms() throws {
    let result = try read(
      "amount,tip,diners\n9.00,0,3\n9.00,0,Ana;Ben;Chloé\n9.00,0,Ana:2;Ben:1\n9.00,0,Ana:2;Ben\n", name: "d.csv")
    #expect(result.diagnostics.isEmpty)
    #expect(result.bills.map(\.terms.diners.count) == [3, 3, 2, 2])
    #expect(result.bills[2].terms.diners.list.map(\.weight.description) == ["2", "1"])
    #expect(result.bills[3].terms.diners.list.map(\.weight.description) == ["2", "1"])
  }

  @Test func emptyCellIsAbsentAndBlankLinesAreSkipped() throws {
    let result = try read("amount,tip,tip_amount,diners\n\n5.00,,1.00,2\n\n", name: "e.csv")
    #expect(result.diagnostics.isEmpty)
    #expect(result.bills.first?.terms.tip == .fixed(Money(minorUnits: 100, currency: .usd)))
  }

  @Test(arguments: [
    (
      "amount,tip,diners\n5,10,\"Ana\n", ["2:6: error: unterminated quoted cell: the quote opened here is never closed"]
    ),
    (
      "amount,tip,diners\n5,10,\"Ana\"x\n",
      [
        "2:11: error: unexpected text after a closing quote: a quoted cell ends at the quote (write \"\" for a quote inside it)"
      ]
    ),
    (
      "amount,tip,diners\n5,10,An\"a\n",
      ["2:8: error: a quote inside an unquoted cell: quote the whole cell and double the quote (\"a \"\"b\"\" c\")"]
    ),
    ("amount,tip,diners\n5,10\n", ["2:1: error: row has 2 cells but the header has 3 columns"]),
    ("ammount,tip,diners\n5,10,2\n", ["1:1: error: unknown column 'ammount' in the header; did you mean 'amount'?"]),
    // Names match in any case; the message shows the name as written.
    ("ID,Amount,Tipp,diners\na,5,10,2\n", ["1:11: error: unknown column 'Tipp' in the header; did you mean 'tip'?"]),
    ("amount,tip,tip,diners\n5,10,1,2\n", ["1:12: error: duplicate column 'tip' in the header (first at e.csv:1:8)"]),
    ("tip,diners\n10,2\n", ["1:1: error: the header has no 'amount' column"]),
    ("amount,tip,diners\n12.345,10,2\n", ["2:1: error: amount '12.345' has 3 decimals but USD has 2"]),
    // Diners inside a cell are located one by one, columns counted in characters, after the quote.
    (
      "amount,tip,diners\n5,10,Chloé:x;Ben\n",
      ["2:12: error: weight 'x' is not a number: expected a positive number such as 1, 2 or 1.5 (diner 'Chloé')"]
    ),
    ("amount,tip,diners\n5,10,\"Ana;Zoë:0\"\n", ["2:15: error: weight '0' must be greater than zero (diner 'Zoë')"]),
    ("amount,tip,diners\n5,10,Ana;;Ben\n", ["2:10: error: empty diner name"]),
  ])
  func reportsRowAndColumn(text: String, expected: [String]) throws {
    let result = try read(text, name: "e.csv")
    #expect(result.lines == expected)
  }

  @Test func invalidUTF8InACellIsLocated() throws {
    let bytes = Array("amount,tip,diners,notes\n5,10,2,caf".utf8) + [0xE9] + Array("\n".utf8)
    let result = try read(bytes: bytes, name: "u.csv")
    #expect(result.lines == ["2:8: error: invalid UTF-8 in column 'notes': the file must be UTF-8 text"])
  }

  @Test func yamlAndCSVVersionsOfOneTripGiveEqualBills() throws {
    let yaml = readPaths([try fixture("trip.yaml")])
    // A CSV file has no defaults: the YAML's `tip: 10%` comes from the command line instead.
    let csv = readPaths(
      [try fixture("trip.csv")], options: ReadOptions(defaults: InputDefaults(tip: .percent(.preset10))))
    #expect(yaml.diagnostics.isEmpty)
    #expect(csv.diagnostics.isEmpty)
    #expect(yaml.bills.count == 14)
    func comparable(_ bill: Bill) -> Bill {
      var copy = bill
      copy.source = SourceLocation(wholeFile: "")
      if copy.tipSource == .default { copy.tipSource = .percent }  // the CSV spells the default out
      return copy
    }
    #expect(yaml.bills.map(comparable) == csv.bills.map(comparable))
  }
}

@Suite struct RobustnessTests {
  /// Every prefix of the sample trip, in both formats, reads without crashing.
  @Test func truncatedInputsNeverCrash() throws {
    for name in ["trip.yaml", "trip.csv"] {
      let bytes = try Array(String(contentsOfFile: try fixture(name), encoding: .utf8).utf8)
      for length in stride(from: 0, through: bytes.count, by: 7) {
        let result = try read(bytes: Array(bytes.prefix(length)), name: name)
        #expect(result.bills.count <= 14)
        for bill in result.invalid { #expect(!bill.diagnostics.isEmpty) }
      }
    }
  }

  /// Random bytes read without a crash, and what is said about them holds: every invalid bill says
  /// why, every diagnostic stands inside the input, every valid bill splits and reconciles.
  @Test func randomBytesAreDiagnosedInsideTheInput() throws {
    var random = SplitMix64(seed: 99)
    let alphabet = Array("- :{}[],\"'&*!|>#\n\t\\%@`abc019.;".utf8) + [0xFF, 0xC3, 0x00, 0x0D]
    var diagnosed = 0
    for trial in 0..<300 {
      let count = Int(random.next() % 200)
      let bytes = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
      let result = try read(bytes: bytes, name: trial % 2 == 0 ? "r.yaml" : "r.csv")
      for bill in result.invalid { #expect(!bill.diagnostics.isEmpty) }
      // Lines as libyaml and the CSV reader count them: LF, CR LF, or a CR alone.
      let lines = bytes.indices.filter {
        bytes[$0] == 0x0A || (bytes[$0] == 0x0D && bytes.dropFirst($0 + 1).first != 0x0A)
      }
      expectInside(result.diagnostics, lines: lines.count + 1)
      for bill in result.bills {
        var ledger = LeftoverLedger()
        let split = try bill.terms.split(ledger: &ledger)
        #expect(split.shares.reduce(0) { $0 + $1.amount.minorUnits } == split.total.minorUnits)
      }
      diagnosed += result.diagnostics.count
    }
    #expect(diagnosed > 100)
  }
}

/// `BillKey` numbers the keys of the format table: each case must stand at its key's position.
@Suite struct BillKeyTests {
  @Test func eachCaseIsTheKeyAtItsPosition() {
    // `tipAmount` is `tip_amount`: the case names, spelt as keys, are the table's keys in order.
    func spelt(_ key: BillKey) -> String {
      String(describing: key).reduce(into: "") { text, character in
        text += character.isUppercase ? "_" + character.lowercased() : String(character)
      }
    }
    #expect(BillKey.allCases.map(spelt) == BillField.billKeys)
    #expect(BillKey.allCases.allSatisfy { $0.name == spelt($0) })
    // The written-out raw value is the case's place, both ways.
    for (place, key) in BillKey.allCases.enumerated() {
      #expect(key.rawValue == place, "\(key)")
      #expect(BillKey(rawValue: place) == key, "\(key)")
    }
    #expect(BillKey(rawValue: BillKey.allCases.count) == nil)
    #expect(BillKey.allCases.filter(\.takesEntries) == [.diners, .paidBy, .shares, .repeat, .discountItems])
  }
}

/// The diner-list grammar (CSV cells, `--people`, the screen) split in place must give what
/// splitting into pieces gives.
@Suite struct DinerListTests {
  /// The text split the plain way: pieces at `;` (and `,` unless commas are decimal points), then
  /// name and weight at the first `:` or `=`; each part with the column it starts at.
  static func reference(_ bytes: ArraySlice<UInt8>, column start: Int, decimalComma: Bool) -> [String] {
    func scalars(_ part: ArraySlice<UInt8>) -> Int { part.reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) } }
    var column = start
    var items: [String] = []
    let separators: Set<UInt8> = decimalComma ? [0x3B] : [0x3B, 0x2C]
    for item in bytes.split(omittingEmptySubsequences: false, whereSeparator: separators.contains) {
      let itemColumn = column
      column += scalars(item) + 1
      if let mark = item.firstIndex(where: { $0 == 0x3A || $0 == 0x3D }) {
        let name = item[..<mark]
        let weight = String(decoding: item[(mark + 1)...], as: UTF8.self).trimmingSpaces
        items.append(
          "\(String(decoding: name, as: UTF8.self))@\(itemColumn)=\(weight)@\(itemColumn + scalars(name) + 1)")
      } else {
        items.append("\(String(decoding: item, as: UTF8.self))@\(itemColumn)")
      }
    }
    return items
  }

  /// The text split by ``DinerList``, columns counted from the byte offsets it gives.
  static func split(_ bytes: [UInt8], column start: Int, decimalComma: Bool) -> [String] {
    bytes.withUnsafeBufferPointer { cell in
      func column(_ offset: Int) -> Int {
        start + cell[..<offset].reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
      }
      func text(_ range: Range<Int>) -> String { String(decoding: cell[range], as: UTF8.self) }
      var items: [String] = []
      var cursor = 0
      while let (name, weight) = DinerList.item(in: bytes.span, after: &cursor, decimalComma: decimalComma) {
        var item = "\(text(name))@\(column(name.lowerBound))"
        if let weight { item += "=\(text(weight.text))@\(column(weight.at))" }
        items.append(item)
      }
      return items
    }
  }

  @Test(arguments: [false, true])
  func splitsLikeTheReference(decimalComma: Bool) {
    var random = SplitMix64(seed: 7)
    let pieces = ["Ana", "Bé", "李", " ", ";", ";", ",", ":", "=", "2", "1.5", "1,5", "x"]
    var compared = 0
    for _ in 0..<3000 {
      let count = 1 + Int(random.next() % 8)
      let text = (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
      let bytes = Array(text.utf8)
      guard bytes.contains(where: { [0x3B, 0x2C, 0x3A, 0x3D].contains($0) }) else { continue }
      #expect(
        Self.split(bytes, column: 9, decimalComma: decimalComma)
          == Self.reference(bytes[...], column: 9, decimalComma: decimalComma), "'\(text)'")
      compared += 1
    }
    #expect(compared > 1000)
  }

  @Test(arguments: [
    ("3", true), (" 12 ", true), ("+3", true), ("-1", true), ("007", true), ("½", true), ("٣", true),
    ("Ana", false), ("3.5", false), ("", false), ("  ", false), ("3;4", false), ("3,4", false), ("Ana:2", false),
    ("Ana=2", false), ("x3", false),
  ])
  func headCountsAreSingleNumbers(text: String, isCount: Bool) {
    let bytes = Array(text.utf8)
    let found = DinerList.headCount(in: bytes.span, decimalComma: false)
    #expect((found != nil) == isCount)
    if let found { #expect(String(decoding: bytes[found], as: UTF8.self) == text.trimmingSpaces) }
  }

  /// Flags and the screen read names as files do: NFC, trimmed, weights after `:` or `=`.
  @Test func flagsAndTheScreenReadNamesAsFilesDo() throws {
    let diners = try DinerList.diners(in: "Ana=2, Chloe\u{301} ;Ben:1.5")
    #expect(diners.map(\.name) == ["Ana", "Chlo\u{E9}", "Ben"])
    #expect(diners.map(\.weight.description) == ["2", "1", "1.5"])
    #expect(try DinerList.diners(in: "Ana:1,5;Ben", decimalComma: true).map(\.weight.description) == ["1.5", "1"])
    #expect(throws: DinerList.Problem.emptyName) { try DinerList.diners(in: "Ana,,Ben") }
    #expect(try DinerList.diners(in: "Ana,, Ben,", skippingEmpty: true).map(\.name) == ["Ana", "Ben"])
    #expect(throws: DinerList.Problem.self) { try DinerList.diners(in: "Chlo\u{E9},Chloe\u{301}") }
  }
}

/// Files of generated rows, plain, unusual and broken, read through the rules both ways.
@Suite struct CSVRuleAgreementTests {
  /// Values for each column: common, unusual and wrong ones, some not UTF-8.
  static let values: [String: [[UInt8]]] = {
    let text: [String: [String]] = [
      "id": ["", "b1", " b2 ", "  ", "dup", "é-id", "b3", "b4"],
      "date": ["", "2026-11-20", "2026-02-30", "2026-1-5", "x", "2024-02-29"],
      "description": ["", "Café Lumière", "a, b", "two\nlines", " padded ", "=cmd()"],
      "amount": [
        "", "84.50", "84.5", " 12 ", "1,234.00", "-5", "1e3", "84.505", "0", "9999999999999999999", "+3.10", "7",
      ],
      "currency": ["", "EUR", "eur", "JPY", "KWD", "XYZ", "E", "EUR"],
      "tip": ["", "15", "15%", "12.5", "ai", "AI", "aI", "101", "x", " 18 ", "0", "12,5"],
      "tip_amount": ["", "", "", "5", "5.005", "x"],
      "diners": [
        "3", " 2 ", "0", "+3", "-1", "100001", "0003", "Ana;Ben", "Ana:2;Ben:1.5", "Ana;Ana", "Ana;;Ben", "Ana: ;Ben",
        "Ana:x", "Émile;Chloé", "Émile", "Ana", " Ana ", "½", "Ana:0", ";", "", "  ", "Ana:1,5", "e\u{301}mile;émile",
        "Ana;Ben;Chloé;Dev;Eve;Fay;Gus;Hal;Ivy;Jon;Kai;Lea;Max;Ned;Oz;Pia;Quin", "Ana : 2 ; Ben", "Ben:2;Ana",
      ],
      "paid_by": [
        "", "Ana", "Émile", " ", "Zed", "Ben", "e\u{301}mile", "Ana:50;Ben:34.50", "Ana:1;Ana:2", "Ana:;Ben:1",
        "Ana:x;Ben:1", "Ana:84.50", "Ana:99;Ben:1",
      ],
      "shares": ["", "", "", "Ana:50;Ben:34.50", "Ana:84.50", "Ana:1;Ben", "Ana:x", "Ana:84.5;Ana:0", "Ben:84.500"],
      "notes": ["", "nice", "said \"hi\"", "Great view"],
      "leftover": ["", "", "balanced", "payer", "first", "bogus", "to-tip", "remainder"],
      "rounding": ["", "", "half-up", "down", "bogus", "half-even"],
      // Without an items file, receipt columns are errors when given.
      "items": ["", ""],
      "discount": ["", "", "", "", "", "", "", "", "", "10%", "x"],
      "discount_items": ["", "", "", "", "", "", "", "", "", "Wine;Beer"],
      "service": ["", "", "", "", "", "", "", "", "", "12.5%"],
      "tax": ["", "", "", "", "", "", "", "", "", "8%", "-1"],
      "tax_included": ["", "", "", "", "", "", "", "", "", "true", "maybe"],
      "tip_on": ["", "", "", "", "", "", "", "", "", "pretax", "bogus"],
      "receipt_total": ["", "", "", "", "", "", "", "", "", "84.50"],
      "rate": ["", "", "", "0.0061 EUR", "EUR 0.5", "x EUR", "0.5 USD", "1 2"],
      "category": ["", "", "groceries", "  rent  ", "=x"],
      "repeat": [
        "", "", "", "", "", "month", "every: week; count: 3", "every: year; until: 2020-01-01", "fortnight",
        "every: month; count: 2; skip: 2026-13", "every: month; until: 2027-01-01; count: 2",
      ],
    ]
    var bytes = text.mapValues { $0.map { Array($0.utf8) } }
    bytes["notes"]?.append([0x63, 0x61, 0x66, 0xE9])  // "caf" and a lone Latin-1 byte
    bytes["diners"]?.append([0x41, 0xFF, 0x3B, 0x42])
    bytes["id"]?.append([0xC3])
    return bytes
  }()

  static func cell(_ bytes: [UInt8]) -> [UInt8] {
    let special: Set<UInt8> = [0x2C, 0x22, 0x0A, 0x0D]
    guard bytes.contains(where: special.contains) else { return bytes }
    return [0x22] + bytes.flatMap { $0 == 0x22 ? [0x22, 0x22] : [$0] } + [0x22]
  }

  // One thread's parsing: under ThreadSanitizer four seeds of the twelve.
  @Test(arguments: ProcessInfo.processInfo.environment["SPLITBILL_SANITIZER"] == "thread" ? 0..<4 : 0..<12)
  func recognisingAndDiagnosingAgree(seed: UInt64) throws {
    var random = SplitMix64(seed: 1000 + seed)
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    // Columns in a random order; some files leave optional ones out.
    let required: Set = ["amount", "diners", "tip"]
    // `items` is no CSV column (items live in an items file): tested on its own.
    var columns = BillField.billKeys.filter { $0 != "items" && (required.contains($0) || random.next() % 5 != 0) }
    for index in columns.indices.reversed() { columns.swapAt(index, Int(random.next() % UInt64(index + 1))) }
    var file = Array(columns.joined(separator: ",").utf8) + [0x0A]
    for number in 0..<400 {
      // Mostly plain rows, as in real files, with a broken or unusual cell now and then.
      let row = columns.map { column -> [UInt8] in
        let values = Self.values[column] ?? [[]]
        if random.next() % 3 == 0 { return Self.cell(pick(values)) }
        return column == "id" ? Array("r\(number)".utf8) : Self.cell(values[1])
      }
      file += Array(row.joined(separator: [0x2C])) + (random.next() % 7 == 0 ? [0x0D, 0x0A] : [0x0A])
    }
    if random.next() % 4 == 0 { file += Array("a,b\n".utf8) }  // a row with the wrong number of cells
    let options = ReadOptions(
      defaults: InputDefaults(
        currency: random.next() % 2 == 0 ? try Currency(code: "GBP") : nil,
        tip: random.next() % 2 == 0 ? .percent(.preset15) : nil),
      decimalComma: seed % 4 == 3)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("bills.csv").path
    try Data(file).write(to: URL(fileURLWithPath: path))
    // Debug builds read every row both ways, recognising and diagnosing, and stop if the two
    // disagree (BillRules.checkAgreement): reading the file is the test of that.
    let result = readPaths([path], options: options)
    #expect(!result.bills.isEmpty)
    #expect(!result.invalid.isEmpty)
    expectInside(result.diagnostics, lines: file.filter { $0 == 0x0A }.count + 1)
  }
}

@Suite struct RowSplittingTests {
  /// Cells of every kind the scanner meets: plain, quoted with separators, doubled quotes and
  /// newlines inside, and broken ones (a quote inside an unquoted cell, text after a closing
  /// quote, a bare carriage return), in ASCII, other UTF-8 and bytes that are not UTF-8.
  static let cells: [[UInt8]] =
    [
      "", "b0001", "2026-11-20", "Café Lumière #12", "84.50", "Ana:2;Ben:1.5;Émile", "\"a, b\"", "\"said \"\"hi\"\"\"",
      "\"two\nlines\"", "\"\"", "\"\"\"\"", "ab\"c", "\"closed\"after", "x\ry", "日本語のメモ", "  spaced  ", "\"unclosed",
      "\"quoted, \r\n with CRLF\"", "tab\there", "ok;semi",
    ].map { Array($0.utf8) } + [[0xFF, 0x41], [0x63, 0xE9], [0xE2, 0x80, 0xA8]]

  /// Reads `path` with lines split in place or not, and gives every row.
  static func rows(_ path: String, separator: UInt8, inPlace: Bool) throws -> [CSVRowReader.Row] {
    var reader = CSVRowReader(input: try #require(ByteReader(path: path)), delimiter: separator)
    var rows: [CSVRowReader.Row] = []
    var row = CSVRowReader.Row(line: 1)
    while inPlace ? reader.nextRow(into: &row) : reader.scanRow(into: &row) {
      row.settleColumns()
      rows.append(row)
    }
    return rows
  }

  @Test(arguments: 0..<8)
  func splittingInPlaceReadsEveryRowAsTheScannerDoes(seed: UInt64) throws {
    var random = SplitMix64(seed: 2000 + seed)
    let separator: UInt8 = seed % 3 == 2 ? 0x3B : 0x2C
    var file: [UInt8] = []
    // Past 64 KiB, so that some rows straddle the reader's buffer; a long row now and then.
    while file.count < 150_000 {
      let count = random.next() % 40 == 0 ? 400 : 1 + Int(random.next() % 12)
      for index in 0..<count {
        if index > 0 { file.append(separator) }
        file += Self.cells[Int(random.next() % UInt64(Self.cells.count))]
      }
      switch random.next() % 10 {
      case 0: file += [0x0D, 0x0A]
      case 1: file += [0x0D]
      default: file += [0x0A]
      }
    }
    if seed % 2 == 1 { file += Array("last,row,without,newline".utf8) }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("rows.csv").path
    try Data(file).write(to: URL(fileURLWithPath: path))
    let inPlace = try Self.rows(path, separator: separator, inPlace: true)
    let scanned = try Self.rows(path, separator: separator, inPlace: false)
    #expect(inPlace.count == scanned.count)
    for (index, (fast, slow)) in zip(inPlace, scanned).enumerated() where fast != slow {
      Issue.record("row \(index) (line \(slow.line)) differs: \(fast) vs \(slow)")
      break
    }
    // Both ways of reading really ran: the file has rows of each kind.
    #expect(scanned.contains { $0.problem != nil })
    #expect(scanned.contains { $0.problem == nil && $0.cells.contains(where: \.quoted) })
  }
}

@Suite struct ByteKeyedCacheTests {
  @Test func givesWhatMakeGivesAndMakesEachKeptTextOnce() {
    var cache = ByteKeyedCache<Int>(limit: 100)
    var made: [String: Int] = [:]
    var random = SplitMix64(seed: 3)
    // What `make` gives: a function of the bytes, `nil` for one-byte texts.
    func expected(_ text: String) -> Int? { text.utf8.count > 1 ? text.utf8.reduce(0) { $0 &* 31 &+ Int($1) } : nil }
    for _ in 0..<5_000 {
      // About 300 distinct texts of 1 to 70 bytes (past 64 bytes nothing is kept).
      let number = Int(random.next() % 300)
      let text =
        number % 13 == 0 ? "z" : number % 7 == 0 ? String(repeating: "x", count: 60 + number % 11) : "n\(number)"
      let bytes = Array(text.utf8)
      let value = cache.value(for: bytes.span) { () -> Int? in
        made[text, default: 0] += 1
        return expected(text)
      }
      #expect(value == expected(text), "\(text)")
    }
    // The first 100 distinct short texts are kept and made once; the others are made every time.
    #expect(made.values.filter { $0 == 1 }.count >= 100)
    #expect(made.values.contains { $0 > 1 })
    #expect(made[String(repeating: "x", count: 70), default: 2] > 1)
  }
}

/// Exports and rates files are read whole through the bills' tokenizer, leniently.
@Suite struct CSVTableTests {
  @Test func readsAnExportsCellsWithWhereEachStarts() throws {
    let text =
      "\u{FEFF}Date;Description;Cost\r\n2026-01-02;\"Café; \"\"Lumière\"\"\";12,50\r\n"
      + "\"two\nlines\";ab\"c;\"closed\"after\n"
    let table = try CSVTable(Array(text.utf8))
    #expect(table.rows.map(\.line) == [1, 2, 3])
    #expect(table.rows[0].cells.map(\.text) == ["Date", "Description", "Cost"])
    #expect(table.rows[1].cells.map(\.text) == ["2026-01-02", "Café; \"Lumière\"", "12,50"])
    #expect(table.rows[1].cells.map(\.column) == [1, 12, 32])
    // A line break inside quotes; a stray quote and text after a closing quote are kept.
    #expect(table.rows[2].cells.map(\.text) == ["two\nlines", "ab\"c", "closedafter"])
    #expect(table.rows[2].cells.map(\.line) == [3, 4, 4])
    #expect(table.rows[2].cells.map(\.column) == [1, 8, 13])
  }

  @Test func endsRowsAtAnyLineEndAndKeepsATrailingEmptyCell() throws {
    let table = try CSVTable(Array("a,b\rc,d\r\ne,f,".utf8))
    #expect(table.rows.map { $0.cells.map(\.text) } == [["a", "b"], ["c", "d"], ["e", "f", ""]])
    #expect(table.rows.map(\.line) == [1, 2, 3])
  }

  @Test func aQuoteNeverClosedIsAnErrorWhereItOpened() {
    #expect {
      try CSVTable(Array("a,b\nx,\"open\nmore".utf8))
    } throws: { error in
      (error as? CSVTable.UnclosedQuote).map { ($0.line, $0.column) == (2, 3) } ?? false
    }
  }
}
