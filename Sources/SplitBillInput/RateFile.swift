import SplitBillCore
import SplitBillText

#if canImport(Glibc)
  import Glibc
#endif

/// What is wrong with a rate: in a `rates:` section, a rates file or a bill's `rate`.
package enum RateProblem: Error, Hashable, Sendable {
  /// `rates:` that is not a list, described.
  case sectionShape(String)
  /// An entry that is not a mapping, described.
  case entryShape(String)
  /// An entry without `base`, `quote` or `rate`.
  case missingKey(String)
  /// A key rates do not have.
  case unknownKey(String, guess: String?)
  /// A rate that is not an exact positive decimal.
  case value(String)
  /// A currency code that is not one.
  case currency(String)
  /// A date that is not `YYYY-MM-DD` (or the ECB's `28 November 2026`).
  case date(String)
  /// A rate from a currency to itself.
  case sameCurrency(String)
  /// The same pair and day given again with another rate, first at `first`.
  case conflict(pair: String, date: String, first: String)
  /// A CSV header that is neither the ECB's (`Date,USD,JPY,…`) nor `date,base,quote,rate`.
  case header(String)
  /// A CSV row with another number of cells than its header.
  case cellCount(found: Int, expected: Int)
  /// A rates file without one rate.
  case empty
  /// A bill's `rate` that is not `PRICE CODE`, such as `0.0058 EUR`.
  case billRate(String)
  /// A bill's `rate` priced in the bill's own currency.
  case billRateSameCurrency(String)

  /// The stable code.
  package var code: String {
    switch self {
    case .sectionShape: return "rates.shape"
    case .entryShape: return "rates.entry-shape"
    case .missingKey: return "rates.missing-key"
    case .unknownKey: return "rates.unknown-key"
    case .value: return "rates.value"
    case .currency: return "rates.currency"
    case .date: return "rates.date"
    case .sameCurrency: return "rates.same-currency"
    case .conflict: return "rates.conflict"
    case .header: return "rates.header"
    case .cellCount: return "rates.cells"
    case .empty: return "rates.empty"
    case .billRate: return "rate.syntax"
    case .billRateSameCurrency: return "rate.same-currency"
    }
  }

  /// The message.
  package var message: String {
    switch self {
    case .sectionShape(let shape):
      return "rates must be a list of entries with date, base, quote and rate, found \(shape)"
    case .entryShape(let shape):
      return "a rate must be a mapping with date, base, quote and rate, found \(shape)"
    case .missingKey(let key):
      let example = ["base": "EUR", "quote": "JPY", "rate": "161.23"][key] ?? ""
      return "rate has no '\(key)': expected such as \(key): \(example)"
    case .unknownKey(let key, let guess):
      return "unknown key '\(EchoedText.quote(key))' in a rate\(guess.map { " (did you mean '\($0)'?)" } ?? ""): "
        + "expected date, base, quote, rate"
    case .value(let text):
      return "rate '\(EchoedText.quote(text))' is not an exact positive decimal: expected digits such as 161.23 or "
        + "0.0058 (at most \(DecimalRate.maximumDigits) significant digits, no exponent)"
    case .currency(let text):
      return "unknown currency '\(EchoedText.quote(text))' in a rate: expected an ISO 4217 code such as EUR or JPY"
    case .date(let text):
      return "rate date '\(EchoedText.quote(text))' is not a date: expected YYYY-MM-DD, a date that exists"
    case .sameCurrency(let code):
      return "a rate from \(code) to \(code): base and quote must differ"
    case .conflict(let pair, let date, let first):
      return "a second \(pair) rate for \(date) that differs from the one at \(first)"
    case .header(let text):
      return "rates CSV header '\(EchoedText.quote(text))' is not one of: the ECB's (Date,USD,JPY,…), "
        + "or date,base,quote,rate"
    case .cellCount(let found, let expected):
      return "row has \(found) cells but the header has \(expected)"
    case .empty:
      return "the rates file holds no rate"
    case .billRate(let text):
      return "rate '\(EchoedText.quote(text))' is not a price and a currency: expected what one unit of the bill's "
        + "currency cost, such as 0.0058 EUR"
    case .billRateSameCurrency(let code):
      return "rate is priced in \(code), the bill's own currency: expected the currency it was converted into"
    }
  }
}

/// Reads rates: a bill file's `rates:` section, or a file given with `--rates` (YAML, CSV of
/// `date,base,quote,rate`, or the ECB's reference rates as published).
package enum RateReader {
  /// The keys of one rate.
  static let keys = ["date", "base", "quote", "rate"]

  /// The rates of a `rates:` node (a list of mappings), with what is wrong with them; `source` is
  /// the file path shown with each rate.
  static func rates(of node: YAMLNode, in file: SourceFile, source: String) -> ([ExchangeRate], [Diagnostic]) {
    func location(_ node: YAMLNode) -> SourceLocation { SourceLocation(in: file, line: node.line, column: node.column) }
    if node.isNull { return ([], []) }
    guard case .sequence(let entries) = node.kind else {
      return ([], [.error(.rate(.sectionShape(node.shapeDescription)), at: location(node))])
    }
    var rates: [ExchangeRate] = []
    var problems: [Diagnostic] = []
    var table = RateTable()
    for entry in entries {
      guard case .mapping(let pairs) = entry.kind else {
        problems.append(.error(.rate(.entryShape(entry.shapeDescription)), at: location(entry)))
        continue
      }
      var cells: [String: (String, SourceLocation)] = [:]
      var broken = false
      for (key, value) in pairs {
        let name = key.scalar ?? key.shapeDescription
        guard keys.contains(name) else {
          problems.append(
            .error(.rate(.unknownKey(name, guess: Spelling.suggestion(for: name, among: keys))), at: location(key)))
          broken = true
          continue
        }
        if let first = cells[name] {
          problems.append(.error(.repeatedKey(name, place: "a rate", first: first.1), at: location(key)))
          broken = true
          continue
        }
        guard let text = value.scalar, !value.isNull else {
          problems.append(
            .error(
              .notSingleValue(key: name, shape: value.isNull ? "nothing" : value.shapeDescription), at: location(value))
          )
          broken = true
          continue
        }
        cells[name] = (text, location(value))
      }
      if broken { continue }
      switch rate(cells, at: location(entry), source: source, line: entry.line) {
      case .success(let rate):
        if let first = table.existing(rate), first.rate != rate.rate {
          problems.append(.error(.rate(conflict(rate, first)), at: location(entry)))
        } else {
          table.add(rate)
          rates.append(rate)
        }
      case .failure(let failure): problems.append(failure.diagnostic)
      }
    }
    return (rates, problems)
  }

  private static func conflict(_ rate: ExchangeRate, _ first: ExchangeRate) -> RateProblem {
    .conflict(
      pair: "\(rate.base.code)/\(rate.quote.code)", date: rate.date.map { "\($0)" } ?? "every day",
      first: first.origin)
  }

  private struct Failure: Error {
    var diagnostic: Diagnostic
  }

  /// One rate from its cells (by key), or the first thing wrong with them.
  private static func rate(
    _ cells: [String: (String, SourceLocation)], at start: SourceLocation, source: String, line: Int
  ) -> Result<ExchangeRate, Failure> {
    guard let (baseText, baseLocation) = cells["base"], let (quoteText, quoteLocation) = cells["quote"],
      let (rateText, rateLocation) = cells["rate"]
    else {
      let key = ["base", "quote", "rate"].first { cells[$0] == nil } ?? "rate"
      return .failure(Failure(diagnostic: .error(.rate(.missingKey(key)), at: start)))
    }
    guard let base = try? Currency(code: baseText.trimmingSpaces) else {
      return .failure(Failure(diagnostic: .error(.rate(.currency(baseText)), at: baseLocation)))
    }
    guard let quote = try? Currency(code: quoteText.trimmingSpaces) else {
      return .failure(Failure(diagnostic: .error(.rate(.currency(quoteText)), at: quoteLocation)))
    }
    if base == quote {
      return .failure(Failure(diagnostic: .error(.rate(.sameCurrency(base.code)), at: quoteLocation)))
    }
    guard let value = DecimalRate(parsing: rateText.trimmingSpaces) else {
      return .failure(Failure(diagnostic: .error(.rate(.value(rateText)), at: rateLocation)))
    }
    var date: CalendarDate?
    if let (dateText, dateLocation) = cells["date"], !dateText.trimmingSpaces.isEmpty {
      guard let parsed = parseDate(dateText) else {
        return .failure(Failure(diagnostic: .error(.rate(.date(dateText)), at: dateLocation)))
      }
      date = parsed
    }
    return .success(ExchangeRate(base: base, quote: quote, rate: value, date: date, source: source, line: line))
  }

  /// `2026-11-20`, or the ECB daily file's `20 November 2026`.
  static func parseDate(_ text: String) -> CalendarDate? {
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

  /// The rates of a file given with `--rates`, and what is wrong with it. YAML (`.yaml`, `.yml`:
  /// a list of rates, or a mapping with a `rates:` list) or CSV (anything else): the ECB's
  /// reference rates, recognised by their header `Date,USD,JPY,…`, or `date,base,quote,rate`.
  package static func read(path: String) -> (rates: [ExchangeRate], problems: [Diagnostic]) {
    let lowered = path.lowercased()
    let file = SourceFile(path)
    guard let bytes = readAll(path) else {
      return ([], [.error(.cannotRead(path: path, reason: unsafe String(cString: strerror(errno))), at: nil)])
    }
    var (rates, problems): ([ExchangeRate], [Diagnostic])
    if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") {
      (rates, problems) = yaml(bytes, file: file, path: path)
    } else {
      (rates, problems) = csv(bytes, file: file, path: path)
    }
    if rates.isEmpty, problems.isEmpty {
      problems.append(.error(.rate(.empty), at: SourceLocation(in: file, line: 1, column: 1)))
    }
    return (rates, problems)
  }

  private static func readAll(_ path: String) -> [UInt8]? {
    guard let reader = ByteReader(path: path) else { return nil }
    var bytes: [UInt8] = []
    var (line, column) = (1, 1)
    reader.consume(upTo: (0, 0, 0, 0), into: &bytes, line: &line, column: &column)
    // A NUL byte stops the copy: the rest is read past it.
    while reader.next() != nil {
      bytes.append(0)
      reader.consume(upTo: (0, 0, 0, 0), into: &bytes, line: &line, column: &column)
    }
    return reader.readError == nil ? bytes : nil
  }

  private static func yaml(_ bytes: [UInt8], file: SourceFile, path: String) -> ([ExchangeRate], [Diagnostic]) {
    let reader = YAMLEventReader(bytes: bytes)
    var builder = YAMLNodeBuilder(reader: reader, file: path)
    func next() throws(InputFailure) -> (YAMLEvent, line: Int, column: Int)? {
      do { return try reader.next() } catch { throw .syntax(error) }
    }
    do throws(InputFailure) {
      var root: YAMLNode?
      while let (event, line, column) = try next() {
        if event == .documentStart || event == .streamStart || event == .documentEnd || event == .streamEnd {
          continue
        }
        root = try builder.build(event, line: line, column: column)
        break
      }
      guard let root else { return ([], []) }
      if case .mapping(let pairs) = root.kind {
        var rates: [ExchangeRate] = []
        var problems: [Diagnostic] = []
        for (key, value) in pairs {
          let name = key.scalar ?? ""
          if name == "rates" {
            let (found, wrong) = Self.rates(of: value, in: file, source: path)
            rates += found
            problems += wrong
          } else if !name.hasPrefix("x-"), !["version"].contains(name) {
            problems.append(
              .error(
                .unknownTopKey(name, guess: Spelling.suggestion(for: name, among: ["rates"])),
                at: SourceLocation(in: file, line: key.line, column: key.column)))
          }
        }
        return (rates, problems)
      }
      return Self.rates(of: root, in: file, source: path)
    } catch {
      guard case .syntax(let syntax) = error else { return ([], []) }
      let (line, column) = syntax.position(in: path, standardInput: nil)
      return ([], [.error(syntax.problem, at: SourceLocation(in: file, line: line, column: column))])
    }
  }

  /// Splits one CSV line into trimmed cells (quotes allowed; rates files have none to speak of).
  private static func cells(_ line: Substring) -> [String] {
    var cells: [String] = []
    var current = ""
    var quoted = false
    var iterator = line.makeIterator()
    while let character = iterator.next() {
      if character == "\"" {
        quoted.toggle()
      } else if character == ",", !quoted {
        cells.append(current.trimmingSpaces)
        current = ""
      } else {
        current.append(character)
      }
    }
    cells.append(current.trimmingSpaces)
    return cells
  }

  private static func csv(_ bytes: [UInt8], file: SourceFile, path: String) -> ([ExchangeRate], [Diagnostic]) {
    var text = String(decoding: bytes, as: UTF8.self)
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.hasSuffix("\r") ? $0.dropLast() : $0
    }
    guard let headerLine = lines.first(where: { !$0.isBlank }),
      let headerIndex = lines.firstIndex(of: headerLine)
    else { return ([], []) }
    let header = cells(headerLine)
    var rates: [ExchangeRate] = []
    var problems: [Diagnostic] = []
    var table = RateTable()
    func at(_ line: Int, _ column: Int = 1) -> SourceLocation { SourceLocation(in: file, line: line, column: column) }
    // The column where cell `index` starts on `line` (for locating a bad cell).
    func column(of index: Int, in line: Substring) -> Int {
      var column = 1
      var commas = 0
      for character in line {
        if commas == index { break }
        if character == "," { commas += 1 }
        column += 1
      }
      return column
    }
    let lowered = header.map { $0.lowercased() }
    // The ECB's header: Date, then currency codes (no base column).
    if lowered.first == "date", header.count > 1, !lowered.contains("base") {
      // The ECB's: base EUR, one column per currency, a trailing empty column, N/A for no rate.
      let ecb = "ECB \(path)"
      var quotes: [Currency?] = []
      for code in header.dropFirst() {
        if code.isEmpty {
          quotes.append(nil)
          continue
        }
        guard let currency = try? Currency(code: code) else {
          problems.append(
            .error(.rate(.currency(code)), at: at(headerIndex + 1, column(of: quotes.count + 1, in: headerLine))))
          quotes.append(nil)
          continue
        }
        quotes.append(currency)
      }
      for (offset, line) in lines.enumerated() where offset > headerIndex && !line.isBlank {
        let row = cells(line)
        let number = offset + 1
        guard let date = parseDate(row[0]) else {
          problems.append(.error(.rate(.date(row[0])), at: at(number)))
          continue
        }
        for (index, cell) in row.dropFirst().enumerated() where !cell.isEmpty && cell != "N/A" {
          guard index < quotes.count, let quote = quotes[index] else {
            if index >= quotes.count {
              problems.append(.error(.rate(.cellCount(found: row.count, expected: header.count)), at: at(number)))
              break
            }
            continue
          }
          guard let value = DecimalRate(parsing: cell) else {
            problems.append(.error(.rate(.value(cell)), at: at(number, column(of: index + 1, in: line))))
            continue
          }
          if quote == .eur { continue }
          let rate = ExchangeRate(base: .eur, quote: quote, rate: value, date: date, source: ecb, line: number)
          if let first = table.existing(rate), first.rate != rate.rate {
            problems.append(.error(.rate(conflict(rate, first)), at: at(number)))
          } else {
            table.add(rate)
            rates.append(rate)
          }
        }
      }
      return (rates, problems)
    }
    guard let baseColumn = lowered.firstIndex(of: "base"), let quoteColumn = lowered.firstIndex(of: "quote"),
      let rateColumn = lowered.firstIndex(of: "rate")
    else {
      return ([], [.error(.rate(.header(String(headerLine))), at: at(headerIndex + 1))])
    }
    let dateColumn = lowered.firstIndex(of: "date")
    for (offset, line) in lines.enumerated() where offset > headerIndex && !line.isBlank {
      let row = cells(line)
      let number = offset + 1
      guard row.count == header.count else {
        problems.append(.error(.rate(.cellCount(found: row.count, expected: header.count)), at: at(number)))
        continue
      }
      var given: [String: (String, SourceLocation)] = [
        "base": (row[baseColumn], at(number, column(of: baseColumn, in: line))),
        "quote": (row[quoteColumn], at(number, column(of: quoteColumn, in: line))),
        "rate": (row[rateColumn], at(number, column(of: rateColumn, in: line))),
      ]
      if let dateColumn { given["date"] = (row[dateColumn], at(number, column(of: dateColumn, in: line))) }
      switch rate(given, at: at(number), source: path, line: number) {
      case .success(let rate):
        if let first = table.existing(rate), first.rate != rate.rate {
          problems.append(.error(.rate(conflict(rate, first)), at: at(number)))
        } else {
          table.add(rate)
          rates.append(rate)
        }
      case .failure(let failure): problems.append(failure.diagnostic)
      }
    }
    return (rates, problems)
  }
}

extension Substring {
  /// Whether the line has nothing but spaces and tabs.
  fileprivate var isBlank: Bool { allSatisfy { $0 == " " || $0 == "\t" } }
}

extension BillRate {
  /// Parses a bill's `rate`: `0.0058 EUR` or `EUR 0.0058`, what one unit of the bill's currency
  /// cost in the currency named.
  static func parse(_ text: String, billCurrency: Currency) -> Result<BillRate, RateProblem> {
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
