import SplitBillCSV
import SplitBillCore
import SplitBillModel
import SplitBillText
import SplitBillYAML

/// Reads rates: a bill file's `rates:` section, or a file given with `--rates` (YAML, CSV of
/// `date,base,quote,rate`, or the ECB's reference rates as published).
package enum RateReader {
  /// The keys of one rate.
  package static let keys = ["date", "base", "quote", "rate"]

  /// Rates as one source reads them: the same pair and day twice with different rates is a
  /// located error (the second is dropped); the same rate twice is one.
  private struct Collected {
    var rates: [ExchangeRate] = []
    var problems: [Diagnostic] = []
    private var seen: [Day: ExchangeRate] = [:]

    private struct Day: Hashable {
      var base: Currency
      var quote: Currency
      var date: CalendarDate?
    }

    mutating func add(_ rate: ExchangeRate, at location: SourceLocation) {
      let day = Day(base: rate.base, quote: rate.quote, date: rate.date)
      if let first = seen[day] {
        guard first.rate != rate.rate else { return }
        let pair = "\(rate.base.code)/\(rate.quote.code)"
        problems.append(
          .error(
            .rate(.conflict(pair: pair, date: rate.date.map { "\($0)" } ?? "every day", first: first.origin)),
            at: location))
        return
      }
      seen[day] = rate
      rates.append(rate)
      // The opposite direction on the same day: each converts at its own (the direct rate is
      // used), said when they disagree beyond the rounding of either.
      if let inverse = seen[Day(base: rate.quote, quote: rate.base, date: rate.date)] {
        let product = rate.rate.ratio.multiplied(by: inverse.rate.ratio)
        let agree = product.map { ($0.numerator - $0.denominator).magnitude * 200 <= $0.denominator.magnitude } ?? false
        if !agree {
          problems.append(
            .warning(
              .rate(
                .inverseDiffers(
                  pair: "\(rate.base.code)/\(rate.quote.code)", date: rate.date.map { "\($0)" } ?? "every day",
                  inverse: "\(inverse.base.code)/\(inverse.quote.code)", first: inverse.origin)),
              at: location))
        }
      }
    }

    mutating func add(_ result: Result<ExchangeRate, Failure>, at location: SourceLocation) {
      switch result {
      case .success(let rate): add(rate, at: location)
      case .failure(let failure): problems.append(failure.diagnostic)
      }
    }
  }

  /// The rates of a `rates:` node (a list of mappings), with what is wrong with them; `source` is
  /// the file path shown with each rate.
  package static func rates(of node: YAMLNode, in file: SourceFile, source: String) -> ([ExchangeRate], [Diagnostic]) {
    func location(_ node: YAMLNode) -> SourceLocation { SourceLocation(in: file, line: node.line, column: node.column) }
    if node.isNull { return ([], []) }
    guard case .sequence(let entries) = node.kind else {
      return ([], [.error(.rate(.sectionShape(node.shapeDescription)), at: location(node))])
    }
    var collected = Collected()
    for entry in entries {
      guard case .mapping(let pairs) = entry.kind else {
        collected.problems.append(.error(.rate(.entryShape(entry.shapeDescription)), at: location(entry)))
        continue
      }
      var cells: [String: (String, SourceLocation)] = [:]
      var broken = false
      for (key, value) in pairs {
        let name = key.scalar ?? key.shapeDescription
        let problem: Problem?
        if !keys.contains(name) {
          problem = .rate(.unknownKey(name, guess: Spelling.suggestion(for: name, among: keys)))
        } else if let first = cells[name] {
          problem = .repeatedKey(name, place: "a rate", first: first.1)
        } else if let text = value.scalar, !value.isNull {
          cells[name] = (text, location(value))
          problem = nil
        } else {
          collected.problems.append(
            .error(
              .notSingleValue(key: name, shape: value.isNull ? "nothing" : value.shapeDescription), at: location(value))
          )
          broken = true
          continue
        }
        if let problem {
          collected.problems.append(.error(problem, at: location(key)))
          broken = true
        }
      }
      if !broken {
        collected.add(rate(cells, at: location(entry), source: source, line: entry.line), at: location(entry))
      }
    }
    return (collected.rates, collected.problems)
  }

  package struct Failure: Error {
    var diagnostic: Diagnostic
  }

  /// One rate from its cells (by key), or the first thing wrong with them.
  private static func rate(
    _ cells: [String: (String, SourceLocation)], at start: SourceLocation, source: String, line: Int
  ) -> Result<ExchangeRate, Failure> {
    func failure(_ problem: RateProblem, at location: SourceLocation) -> Result<ExchangeRate, Failure> {
      .failure(Failure(diagnostic: .error(.rate(problem), at: location)))
    }
    guard let (baseText, baseLocation) = cells["base"], let (quoteText, quoteLocation) = cells["quote"],
      let (rateText, rateLocation) = cells["rate"]
    else { return failure(.missingKey(["base", "quote", "rate"].first { cells[$0] == nil } ?? "rate"), at: start) }
    guard let base = try? Currency(code: baseText.trimmingSpaces) else {
      return failure(.currency(baseText), at: baseLocation)
    }
    guard let quote = try? Currency(code: quoteText.trimmingSpaces) else {
      return failure(.currency(quoteText), at: quoteLocation)
    }
    if base == quote { return failure(.sameCurrency(base.code), at: quoteLocation) }
    guard let value = DecimalRate(parsing: rateText.trimmingSpaces) else {
      return failure(.value(rateText), at: rateLocation)
    }
    var date: CalendarDate?
    if let (dateText, dateLocation) = cells["date"], !dateText.trimmingSpaces.isEmpty {
      guard let parsed = parseDate(dateText) else { return failure(.date(dateText), at: dateLocation) }
      date = parsed
    }
    return .success(ExchangeRate(base: base, quote: quote, rate: value, date: date, source: source, line: line))
  }

  /// `2026-11-20`, or the ECB daily file's `20 November 2026`.
  package static func parseDate(_ text: String) -> CalendarDate? {
    let trimmed = text.trimmingSpaces
    if let date = CalendarDate(iso: trimmed) { return date }
    let parts = trimmed.split(separator: " ")
    let months = [
      "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
      "december",
    ]
    guard parts.count == 3, let day = Int(parts[0]), let month = months.firstIndex(of: parts[1].lowercased()),
      let year = Int(parts[2])
    else { return nil }
    return CalendarDate(year: year, month: month + 1, day: day)
  }

  /// The rates of a file given with `--rates` (its `bytes`, read from `path`), and what is wrong
  /// with it. YAML (`.yaml`, `.yml`: a list of rates, or a mapping with a `rates:` list) or CSV
  /// (anything else): the ECB's reference rates, recognised by their header `Date,USD,JPY,…`, or
  /// `date,base,quote,rate`.
  package static func read(_ bytes: [UInt8], path: String) -> (rates: [ExchangeRate], problems: [Diagnostic]) {
    let file = SourceFile(path)
    var (rates, problems): ([ExchangeRate], [Diagnostic])
    if isYAML(path) {
      (rates, problems) = yaml(bytes, file: file, path: path)
    } else {
      (rates, problems) = csv(bytes, file: file, path: path)
    }
    if rates.isEmpty, problems.isEmpty {
      problems.append(.error(.rate(.empty), at: SourceLocation(in: file, line: 1, column: 1)))
    }
    return (rates, problems)
  }

  /// A `--rates` file as a table, and what is wrong with it: as ``read(_:path:)``, except that an
  /// ECB file's columns are made only when a conversion first asks for them (see ``ECBRates``).
  package static func table(_ bytes: [UInt8], path: String) -> (table: RateTable, problems: [Diagnostic]) {
    if !isYAML(path), let (ecb, problems) = ECBRates.read(bytes, path: path) {
      guard let ecb else {
        let empty = Diagnostic.error(.rate(.empty), at: SourceLocation(in: SourceFile(path), line: 1, column: 1))
        return (RateTable(), problems.isEmpty ? [empty] : problems)
      }
      return (RateTable(columns: ecb), problems)
    }
    let (rates, problems) = read(bytes, path: path)
    return (RateTable(rates), problems)
  }

  /// Whether a rates file is YAML (`.yaml`, `.yml`); anything else is CSV.
  private static func isYAML(_ path: String) -> Bool {
    let lowered = path.lowercased()
    return lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml")
  }

  private static func yaml(_ bytes: [UInt8], file: SourceFile, path: String) -> ([ExchangeRate], [Diagnostic]) {
    var builder = YAMLNodeBuilder(reader: YAMLEventReader(bytes: bytes), file: path)
    let root: YAMLNode
    do throws(InputFailure) {
      guard let found = try builder.documentRoot() else { return ([], []) }
      root = found
    } catch {
      guard case .syntax(let syntax) = error else { return ([], []) }
      let (line, column) = syntax.position(in: path, standardInput: nil)
      return ([], [.error(syntax.problem, at: SourceLocation(in: file, line: line, column: column))])
    }
    guard case .mapping(let pairs) = root.kind else { return rates(of: root, in: file, source: path) }
    var rates: [ExchangeRate] = []
    var problems: [Diagnostic] = []
    for (key, value) in pairs {
      let name = key.scalar ?? ""
      if name == "rates" {
        let (found, wrong) = Self.rates(of: value, in: file, source: path)
        rates += found
        problems += wrong
      } else if !name.hasPrefix("x-"), name != "version" {
        problems.append(
          .error(
            .unknownTopKey(name, guess: Spelling.suggestion(for: name, among: ["rates"])),
            at: SourceLocation(in: file, line: key.line, column: key.column)))
      }
    }
    return (rates, problems)
  }

  private static func csv(_ bytes: [UInt8], file: SourceFile, path: String) -> ([ExchangeRate], [Diagnostic]) {
    // The ECB's reference rates: Date, then currency codes (no base column).
    if let (ecb, problems) = ECBRates.read(bytes, path: path) { return (ecb?.allRates() ?? [], problems) }
    func at(_ line: Int, _ column: Int = 1) -> SourceLocation { SourceLocation(in: file, line: line, column: column) }
    let table: CSVTable
    do {
      table = try CSVTable(bytes)
    } catch {
      let problem = error.tooManyCells ? Problem.tooManyCells(limit: CSVRowReader.maximumCells) : .unterminatedQuote
      return ([], [.error(problem, at: at(error.line, error.column))])
    }
    guard let headerIndex = table.rows.firstIndex(where: { !$0.isBlank }) else { return ([], []) }
    let headerRow = table.rows[headerIndex]
    let header = headerRow.cells.map { $0.text.trimmingSpaces.lowercased() }
    let rows = table.rows[(headerIndex + 1)...].filter { !$0.isBlank }
    // Where a cell's text starts: past the spaces the ECB's daily file puts after each comma.
    func at(_ cell: CSVTable.Cell) -> SourceLocation {
      at(cell.line, cell.column + cell.text.prefix { $0 == " " || $0 == "\t" }.count)
    }
    var collected = Collected()
    guard let baseColumn = header.firstIndex(of: "base"), let quoteColumn = header.firstIndex(of: "quote"),
      let rateColumn = header.firstIndex(of: "rate")
    else {
      let text = headerRow.cells.map(\.text).joined(separator: ",")
      return ([], [.error(.rate(.header(text)), at: at(headerRow.line))])
    }
    let dateColumn = header.firstIndex(of: "date")
    for row in rows {
      guard row.cells.count == header.count else {
        collected.problems.append(
          .error(.rate(.cellCount(found: row.cells.count, expected: header.count)), at: at(row.line)))
        continue
      }
      var given: [String: (String, SourceLocation)] = [:]
      for (key, column) in [("base", baseColumn), ("quote", quoteColumn), ("rate", rateColumn), ("date", dateColumn)] {
        guard let column else { continue }
        let cell = row.cells[column]
        given[key] = (cell.text.trimmingSpaces, at(cell))
      }
      collected.add(rate(given, at: at(row.line), source: path, line: row.line), at: at(row.line))
    }
    return (collected.rates, collected.problems)
  }
}

extension BillRate {
  /// Parses a bill's `rate`: `0.0058 EUR` or `EUR 0.0058`, what one unit of the bill's currency
  /// cost in the currency named.
  package static func parse(_ text: String, billCurrency: Currency) -> Result<BillRate, RateProblem> {
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard parts.count == 2 else { return .failure(.billRate(text)) }
    let (first, second) = (String(parts[0]), String(parts[1]))
    let pair: (DecimalRate, Currency)?
    if let value = DecimalRate(parsing: first), let code = try? Currency(code: second) {
      pair = (value, code)
    } else if let value = DecimalRate(parsing: second), let code = try? Currency(code: first) {
      pair = (value, code)
    } else {
      pair = nil
    }
    guard let (price, currency) = pair else { return .failure(.billRate(text)) }
    if currency == billCurrency { return .failure(.billRateSameCurrency(currency.code)) }
    return .success(BillRate(price: price, currency: currency))
  }
}
