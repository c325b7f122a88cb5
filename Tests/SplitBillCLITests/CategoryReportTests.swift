import Foundation
import SplitBillBytes
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Spending by category in the reports: the JSON `categories` are the bills added up, with
/// `--settle-in` each bill converted at its own rate; the HTML report's charts draw the report's
/// numbers, parse as XML, and a real browser draws them.
struct CategoryReportTests {
  static func json(_ arguments: [String]) throws -> [String: Any] {
    let outcome = try runBinary(arguments + ["--format", "json"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
  }

  /// Minor units of a decimal string (`"12.30"` → 1230 with `exponent` 2).
  static func units(_ text: Any?, exponent: Int) -> Int64 {
    let string = text as? String ?? ""
    let negative = string.hasPrefix("-")
    let parts = string.drop { $0 == "-" }.split(separator: ".", omittingEmptySubsequences: false)
    let whole = Int64(parts.first ?? "0") ?? 0
    var fraction = parts.count > 1 ? String(parts[1]) : ""
    fraction += String(repeating: "0", count: max(0, exponent - fraction.count))
    var value = whole
    for _ in 0..<exponent { value *= 10 }
    value += Int64(fraction.isEmpty ? "0" : fraction) ?? 0
    return negative ? -value : value
  }

  static let exponents = ["EUR": 2, "JPY": 0, "KWD": 3]

  /// The categories the bills of a JSON report add up to: category|currency → bills, total, people.
  static func expected(_ report: [String: Any]) -> [String: (bills: Int, total: Int64, people: [String: Int64])] {
    var expected: [String: (bills: Int, total: Int64, people: [String: Int64])] = [:]
    for bill in report["bills"] as? [[String: Any]] ?? [] {
      let currency = bill["currency"] as? String ?? ""
      let exponent = exponents[currency] ?? 2
      let key = "\(bill["category"] as? String ?? "-")|\(currency)"
      var entry = expected[key] ?? (0, 0, [:])
      entry.bills += 1
      entry.total += units(bill["total"], exponent: exponent)
      let shares = bill["shares"] as? [[String: Any]] ?? []
      // A head-count bill's shares are `Diner 1`, …: in the total, nobody's part.
      if !(shares.first?["person"] as? String ?? "").hasPrefix("Diner ") {
        for share in shares {
          entry.people[share["person"] as? String ?? "", default: 0] += units(share["amount"], exponent: exponent)
        }
      }
      expected[key] = entry
    }
    return expected
  }

  static func actual(_ categories: [[String: Any]]) -> [String: (bills: Int, total: Int64, people: [String: Int64])] {
    var actual: [String: (bills: Int, total: Int64, people: [String: Int64])] = [:]
    for category in categories {
      let currency = category["currency"] as? String ?? ""
      let exponent = exponents[currency] ?? 2
      let key = "\(category["category"] as? String ?? "-")|\(currency)"
      var people: [String: Int64] = [:]
      for person in category["people"] as? [[String: Any]] ?? [] {
        people[person["person"] as? String ?? ""] = units(person["consumed"], exponent: exponent)
      }
      actual[key] = (category["bills"] as? Int ?? -1, units(category["total"], exponent: exponent), people)
    }
    return actual
  }

  /// Random books: bills in three currencies, some with a category (one of a few, or a default),
  /// some with head-count diners, a few payments.
  static func randomBooks(seed: UInt64) -> String {
    var random = SplitMix64(seed: seed)
    let names = ["Ana", "Ben", "Chloé", "Dmitri"]
    let categories = ["groceries", "transport", "lodging", "entertainment"]
    var lines = ["version: 1", "people: [Ana, Ben, Chloé, Dmitri]", "defaults: {currency: EUR, tip: 0}", "bills:"]
    for number in 0..<Int.random(in: 5...80, using: &random) {
      let currency = ["EUR", "EUR", "JPY", "KWD"].randomElement(using: &random) ?? "EUR"
      let exponent = exponents[currency] ?? 2
      let units = Int.random(in: 1...2_000_000, using: &random)
      var amount = String(units)
      if exponent > 0 {
        let padded = String(repeating: "0", count: max(0, exponent + 1 - amount.count)) + amount
        amount = "\(padded.dropLast(exponent)).\(padded.suffix(exponent))"
      }
      let diners =
        Int.random(in: 0..<6, using: &random) == 0
        ? "\(Int.random(in: 1...5, using: &random))"
        : "[" + names.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)).joined(separator: ", ")
          + "]"
      lines += [
        "  - id: b\(number)", "    date: 2026-\(String(format: "%02d", Int.random(in: 1...12, using: &random)))-15",
        "    amount: \(amount)", "    currency: \(currency)", "    tip: \(Int.random(in: 0...20, using: &random))%",
        "    diners: \(diners)", "    paid_by: \(names.randomElement(using: &random) ?? "Ana")",
      ]
      if Int.random(in: 0..<3, using: &random) > 0, let category = categories.randomElement(using: &random) {
        lines.append("    category: \(category)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test(arguments: [UInt64(1), 2, 3, 4])
  func theCategoriesAreTheBillsAddedUp(seed: UInt64) throws {
    let path = try scratchDirectory().appendingPathComponent("books.yaml")
    try Self.randomBooks(seed: seed).write(to: path, atomically: true, encoding: .utf8)
    let report = try Self.json(["report", path.path])
    let categories = report["categories"] as? [[String: Any]] ?? []
    let expected = Self.expected(report)
    let anyCategory = (report["bills"] as? [[String: Any]] ?? []).contains { $0["category"] is String }
    guard anyCategory else {
      #expect(categories.isEmpty, "no bill has a category: no categories")
      return
    }
    let actual = Self.actual(categories)
    #expect(Set(actual.keys) == Set(expected.keys))
    for (key, entry) in expected {
      let found = try #require(actual[key], "\(key)")
      #expect(found.bills == entry.bills, "\(key)")
      #expect(found.total == entry.total, "\(key)")
      #expect(found.people == entry.people.filter { $0.value != 0 }, "\(key)")
    }
  }

  /// With `--settle-in`, each bill converted at its own rate (the bills here carry theirs):
  /// the converted categories are the bills' converted totals, halves to even, added up.
  @Test func settledInOneCurrencyEachBillAtItsRate() throws {
    var random = SplitMix64(seed: 31)
    var lines = ["version: 1", "people: [Ana, Ben, Chloé]", "defaults: {currency: JPY, tip: 0}", "bills:"]
    var expected: [String: Int64] = [:]
    for number in 0..<40 {
      let yen = Int64.random(in: 1...500_000, using: &random)
      // A rate of six decimals: 0.006192 EUR a yen.
      let millionths = Int64.random(in: 5_000...7_000, using: &random)
      let category = ["food", "rail", "hotel"].randomElement(using: &random) ?? "food"
      lines += [
        "  - id: j\(number)", "    date: 2026-11-\(10 + number % 15)", "    amount: \(yen)",
        "    rate: 0.\(String(format: "%06d", millionths)) EUR", "    diners: [Ana, Ben, Chloé]", "    paid_by: Ana",
        "    category: \(category)",
      ]
      // cents = yen × millionths / 10,000, halves to even.
      let product = yen * millionths
      var cents = product / 10_000
      let remainder = product % 10_000
      if remainder > 5_000 || (remainder == 5_000 && cents % 2 == 1) { cents += 1 }
      expected[category, default: 0] += cents
    }
    let path = try scratchDirectory().appendingPathComponent("japan.yaml")
    try (lines.joined(separator: "\n") + "\n").write(to: path, atomically: true, encoding: .utf8)
    let report = try Self.json(["report", path.path, "--settle-in", "EUR"])
    let conversion = try #require(report["conversion"] as? [String: Any])
    let converted = try #require(conversion["categories"] as? [[String: Any]])
    var actual: [String: Int64] = [:]
    for category in converted {
      #expect(category["currency"] as? String == "EUR")
      let total = Self.units(category["total"], exponent: 2)
      actual[category["category"] as? String ?? "-"] = total
      // Every diner is named: their converted parts are the converted total.
      let parts = (category["people"] as? [[String: Any]] ?? []).reduce(Int64(0)) {
        $0 + Self.units($1["consumed"], exponent: 2)
      }
      #expect(parts == total)
    }
    #expect(actual == expected)
  }

  @Test func everyHumanFormatShowsTheCategories() throws {
    for format in ["text", "markdown", "html"] {
      let outcome = try runBinary(["report", "samples/trip.yaml", "--format", format])
      #expect(outcome.code == 0)
      #expect(outcome.stdout.contains("By category"), "\(format)")
      for text in ["entertainment", "109.67", "15.1%", "groceries", "150,111", "98.0%"] {
        #expect(outcome.stdout.contains(text), "\(format): \(text)")
      }
    }
    // Without a category anywhere, no section.
    let outcome = try runBinary(["report", "samples/flat/week47.yaml"])
    #expect(outcome.code == 0)
    #expect(!outcome.stdout.contains("By category"))
  }

  /// A category spelt like another of the run, or like a common one, is warned of at the bill
  /// that first used it; exact repeats and categories far apart are not.
  @Test func aCategorySpeltLikeAnotherIsWarnedOf() throws {
    let directory = try scratchDirectory()
    let yaml = directory.appendingPathComponent("a.yaml")
    try """
    defaults: {currency: EUR, tip: 0}
    bills:
      - {id: a, amount: 10, diners: [Ana, Ben], paid_by: Ana, category: groceries}
      - {id: b, amount: 10, diners: [Ana, Ben], paid_by: Ana, category: Grocries}
      - {id: c, amount: 10, diners: [Ana, Ben], paid_by: Ana, category: groceries}
      - {id: d, amount: 10, diners: [Ana, Ben], paid_by: Ana, category: trasnport}
      - {id: e, amount: 10, diners: [Ana, Ben], paid_by: Ana, category: Dining out}
      - {id: f, amount: 10, diners: [Ana, Ben], paid_by: Ana, category: Rent}

    """.write(to: yaml, atomically: true, encoding: .utf8)
    // Across files: a CSV file's category against the YAML file's.
    let csv = directory.appendingPathComponent("b.csv")
    try "id,amount,currency,tip,diners,paid_by,category\nz,5,EUR,0,Ana,Ben,GROCERIES\n".write(
      to: csv, atomically: true, encoding: .utf8)
    let outcome = try runBinary(["check", yaml.path, csv.path, "--format", "json"])
    #expect(outcome.code == 0, "warnings only: \(outcome.stdout)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    let warnings = (object["diagnostics"] as? [[String: Any]] ?? []).filter {
      $0["code"] as? String == "category.similar"
    }
    let lines = warnings.map {
      "\(URL(fileURLWithPath: $0["file"] as? String ?? "").lastPathComponent):\($0["line"] as? Int ?? 0)"
    }
    #expect(lines.sorted() == ["a.yaml:4", "a.yaml:6", "b.csv:2"], "\(warnings)")
    let messages = warnings.map { $0["message"] as? String ?? "" }
    #expect(messages.filter { $0.contains("did you mean 'groceries'?") }.count == 2, "\(messages)")
    #expect(messages.contains { $0.contains("'trasnport' looks like 'transport', a common category") }, "\(messages)")
  }

  // MARK: The HTML report's charts

  static func htmlReport(_ extra: [String] = []) throws -> String {
    let outcome = try runBinary(["report", "samples/trip.yaml", "--format", "html"] + extra)
    #expect(outcome.code == 0, "\(outcome.stderr)")
    return outcome.stdout
  }

  /// Each `<svg …>…</svg>` of the page.
  static func svgs(_ html: String) -> [String] {
    var found: [String] = []
    var rest = html[...]
    while let start = rest.range(of: "<svg "), let end = rest[start.upperBound...].range(of: "</svg>") {
      found.append(String(rest[start.lowerBound..<end.upperBound]))
      rest = rest[end.upperBound...]
    }
    return found
  }

  /// The cells of the table right after the chart whose SVG has `id`'s title.
  /// An amount as people read it (`-1,234.50`) as programs do (`-1234.50`).
  static func plain(_ text: String) -> String { text.replacingOccurrences(of: ",", with: "") }

  static func table(after id: String, in html: String) throws -> [[String]] {
    let start = try #require(html.range(of: "<title id=\"\(id)-title\">"))
    let tableStart = try #require(html[start.upperBound...].range(of: "<tbody>"))
    let tableEnd = try #require(html[tableStart.upperBound...].range(of: "</tbody>"))
    let body = html[tableStart.upperBound..<tableEnd.lowerBound]
    return body.components(separatedBy: "<tr>").dropFirst().map { row in
      row.components(separatedBy: "</td>").dropLast().map { cell in
        String(cell[(cell.range(of: ">", options: .backwards)?.upperBound ?? cell.startIndex)...])
      }
    }
  }

  @Test func everyChartIsWellFormedXMLWithATitleAndADescription() throws {
    let html = try Self.htmlReport(["--settle-in", "EUR"])
    let svgs = Self.svgs(html)
    // Balances (2 currencies), spending (2 + the converted one), balances by week (2), consumed
    // and paid (2).
    #expect(svgs.count == 9)
    for svg in svgs {
      final class Collector: NSObject, XMLParserDelegate {
        var elements: [String] = []
        func parser(
          _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
          attributes: [String: String] = [:]
        ) { elements.append(name) }
      }
      let parser = XMLParser(data: Data(svg.utf8))
      let collector = Collector()
      parser.delegate = collector
      #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? ""): \(svg.prefix(200))")
      #expect(collector.elements.first == "svg")
      #expect(collector.elements.contains("title") && collector.elements.contains("desc"), "\(svg.prefix(200))")
    }
    // Hostile names stay text: no element is injected through them.
    let hostile = try scratchDirectory().appendingPathComponent("hostile.yaml")
    try """
    defaults: {currency: EUR, tip: 0}
    bills:
      - {id: a, date: 2026-11-02, amount: 10, diners: ["<b>&amp;", "x\\u0007y"], paid_by: "<b>&amp;", category: "</svg><script>"}
      - {id: b, date: 2026-11-10, amount: 4, diners: ["x\\u0007y"], paid_by: "<b>&amp;"}

    """.write(to: hostile, atomically: true, encoding: .utf8)
    let outcome = try runBinary(["report", hostile.path, "--format", "html"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(!outcome.stdout.contains("<script>"))
    for svg in Self.svgs(outcome.stdout) {
      #expect(XMLParser(data: Data(svg.utf8)).parse(), "\(svg.prefix(300))")
    }
  }

  @Test func theChartsDrawTheReportsNumbers() throws {
    let html = try Self.htmlReport()
    let report = try Self.json(["report", "samples/trip.yaml"])
    // Spending by category: the JSON's categories, row by row.
    for currency in ["EUR", "JPY"] {
      let rows = try Self.table(after: "spending-\(currency)", in: html)
      let categories = (report["categories"] as? [[String: Any]] ?? []).filter { $0["currency"] as? String == currency }
      #expect(rows.map { $0[0] } == categories.map { $0["category"] as? String ?? "(no category)" })
      // People read the amounts grouped (`150,111`); the JSON has them plain.
      #expect(rows.map { Self.plain($0[2]) } == categories.map { $0["total"] as? String ?? "" })
    }
    // Consumed and paid, and the last week's balance: the JSON's people.
    for currency in ["EUR", "JPY"] {
      let people = (report["people"] as? [[String: Any]] ?? []).filter { $0["currency"] as? String == currency }
      let consumption = try Self.table(after: "consumption-\(currency)", in: html)
      #expect(consumption.map { $0[0] } == people.map { $0["person"] as? String ?? "" })
      #expect(consumption.map { Self.plain($0[1]) } == people.map { $0["consumed"] as? String ?? "" })
      #expect(consumption.map { Self.plain($0[2]) } == people.map { $0["paid"] as? String ?? "" })
      #expect(consumption.map { Self.plain($0.last ?? "") } == people.map { $0["closing"] as? String ?? "" })
      let weeks = try Self.table(after: "timeline-\(currency)", in: html)
      let last = try #require(weeks.last)
      #expect(last.dropFirst().map(Self.plain) == people.map { $0["closing"] as? String ?? "" })
      // Days (the trip is 12 days long): YYYY-MM-DD.
      #expect(weeks.allSatisfy { $0[0].count == 10 })
    }
  }

  /// The page rendered by Chromium (Debian's, headless) to a PNG: the category bars, the
  /// consumed and paid bars are drawn in their colours, in light and in dark mode.
  @Test(
    .enabled(if: needing(toolExists("chromium")), "needs chromium (apt-get install chromium)"),
    .disabled(if: underAddressSanitizer, "the page's drawing; the plain run checks it"))
  func aRealBrowserDrawsTheCharts() throws {
    let directory = try scratchDirectory()
    let page = directory.appendingPathComponent("trip.html")
    try Self.htmlReport().write(to: page, atomically: true, encoding: .utf8)
    func render(dark: Bool) throws -> [String: Int] {
      let image = directory.appendingPathComponent(dark ? "dark.png" : "light.png")
      let outcome = try runProcess(
        "chromium",
        [
          "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1000,4200",
          "--blink-settings=preferredColorScheme=\(dark ? 0 : 1)", "--screenshot=\(image.path)", page.absoluteString,
        ], environment: ["HOME": directory.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"],
        timeout: 90)
      #expect(outcome.code == 0, "\(outcome.stderr.suffix(500))")
      let counted = try runProcess("python3", ["-c", Self.pngColours, image.path])
      #expect(counted.code == 0, "\(counted.stderr)")
      var counts: [String: Int] = [:]
      for line in counted.stdout.split(separator: "\n") {
        let parts = line.split(separator: " ")
        if parts.count == 2 { counts[String(parts[0])] = Int(parts[1]) }
      }
      return counts
    }
    let light = try render(dark: false)
    // Spent, consumed and paid bars in the light palette; a white page.
    for colour in ["5b6fd6", "e08a2e", "2e8b57"] { #expect(light[colour, default: 0] > 500, "\(colour): \(light)") }
    #expect(light["161616", default: 0] == 0)
    let dark = try render(dark: true)
    for colour in ["8da0ff", "ffb163", "6fd39a"] { #expect(dark[colour, default: 0] > 500, "\(colour): \(dark)") }
    #expect(dark["161616", default: 0] > 100_000, "a dark page")
  }

  /// Counts a PNG's pixels by colour (8-bit RGB or RGBA, any filter), printing `rrggbb count` for
  /// the most common 200: with Pillow when it is installed (CI has it), else with Python's zlib
  /// alone, a hundred times slower on a 4-megapixel page.
  static let pngColours = """
    import sys, zlib, struct
    try:
        from PIL import Image
        image = Image.open(sys.argv[1]).convert('RGB')
        counts = {bytes(rgb): count for count, rgb in image.getcolors(maxcolors=image.width * image.height)}
    except ImportError:
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR': width, height, depth, colour = struct.unpack('>IIBB', body[:10])
            if kind == b'IDAT': idat += body
            pos += 12 + length
        assert depth == 8 and colour in (2, 6)
        step = 3 if colour == 2 else 4
        raw, stride = zlib.decompress(idat), width * step
        prev, i, counts = bytearray(stride), 0, {}
        for _ in range(height):
            f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
            for x in range(stride):
                a = line[x - step] if x >= step else 0; b = prev[x]; c = prev[x - step] if x >= step else 0
                if f == 1: line[x] = (line[x] + a) & 255
                elif f == 2: line[x] = (line[x] + b) & 255
                elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            for x in range(0, stride, step):
                key = bytes(line[x:x + 3]); counts[key] = counts.get(key, 0) + 1
            prev = line
    for key, count in sorted(counts.items(), key=lambda item: -item[1])[:200]: print(key.hex(), count)
    """
}
