import SplitBillCSV
import SplitBillCore
import SplitBillFiles
import SplitBillModel

/// The ECB's reference rates as published: the history `eurofxref-hist.csv` and the daily
/// `eurofxref.csv`. A header `Date,USD,JPY,…` (the daily file puts a space after each comma and
/// writes `13 April 2026`; both end each line with an empty column), one row a business day,
/// newest first, base EUR, `N/A` where no rate was published (the withdrawn currencies' columns
/// after the euro replaced them).
///
/// The history is 1.9 MB, a quarter of a million rates in 41 columns, of which a run needs one or
/// two. So the file is checked whole when it is read (every date, every cell a rate or `N/A`,
/// days given twice), which allocates nothing per cell, and a column's rates are made the first
/// time a conversion asks for them.
package final class ECBRates: RateColumns {
  package let base = Currency.eur
  package let quotes: Set<Currency>
  /// Each known quote's cell number in a row (the date is cell 0).
  private let cellOfQuote: [Currency: Int]
  private let bytes: [UInt8]
  /// The days, oldest first, each once.
  private let days: [Day]
  /// `ECB path`, every rate's source.
  private let source: String
  /// The columns made so far.
  private let made = Locked<[Currency: [ExchangeRate]]>([:])

  private struct Day: Sendable {
    var date: CalendarDate
    var line: Int
    /// The row's bytes, its line break left out.
    var start: Int
    var end: Int
  }

  private init(
    bytes: [UInt8], days: [Day], cellOfQuote: [Currency: Int], source: String
  ) {
    self.bytes = bytes
    self.days = days
    self.cellOfQuote = cellOfQuote
    self.quotes = Set(cellOfQuote.keys)
    self.source = source
  }

  /// The rates of the file's `bytes` (read from `path`), and what is wrong with it, each located:
  /// a date that is not one, a cell that is neither a rate nor `N/A`, a currency code nobody has,
  /// a row past the header's width, a day given twice with other rates; `ECBRates` is `nil` when
  /// the file holds no rate at all. `nil` when the file is not the ECB's: its first line is not
  /// `Date` and currency codes (no `base` column).
  package static func read(_ bytes: [UInt8], path: String) -> (ECBRates?, [Diagnostic])? {
    var lines = Lines(bytes)
    guard let header = lines.next(skippingBlank: true) else { return nil }
    // A header past the cell limit is refused before its cells are made (a row of ten million
    // commas would take gigabytes as ranges and names).
    let width = Self.cellCount(bytes, header.start, header.end)
    let headerCells = Self.cells(bytes, header.start, header.end, limit: CSVRowReader.maximumCells + 1)
    let names = headerCells.map { String(decoding: bytes[$0], as: UTF8.self) }
    guard names.count > 1, names[0].lowercased() == "date", !names.contains(where: { $0.lowercased() == "base" })
    else { return nil }
    let file = SourceFile(path)
    var problems: [Diagnostic] = []
    func at(_ line: Int, _ column: Int) -> SourceLocation { SourceLocation(in: file, line: line, column: column) }
    guard width <= CSVRowReader.maximumCells else {
      let past = headerCells[CSVRowReader.maximumCells]
      return (
        nil,
        [
          .error(
            .tooManyCells(limit: CSVRowReader.maximumCells), at: at(header.number, past.lowerBound - header.start + 1))
        ]
      )
    }
    // Each cell's quote (the date's, an empty column's, EUR's and an unknown code's: none).
    var quoteOfCell: [Currency?] = [nil]
    // Unknown codes are said once for the header, with the first few and where the first is: a
    // header of 10,000 made-up columns is one error, not 10,000.
    var unknown: [(name: String, column: Int)] = []
    var unknownCount = 0
    var columnOfQuote: [Currency: Int] = [:]
    for (number, (cell, name)) in zip(headerCells, names).enumerated().dropFirst() {
      guard !name.isEmpty else {
        quoteOfCell.append(nil)
        continue
      }
      let column = cell.lowerBound - header.start + 1
      guard let currency = try? Currency(code: name) else {
        unknownCount += 1
        if unknown.count < 3 { unknown.append((name, column)) }
        quoteOfCell.append(nil)
        continue
      }
      if currency != .eur, let first = columnOfQuote[currency] {
        problems.append(
          .error(.rate(.columnTwice(code: currency.code, firstColumn: first)), at: at(header.number, column)))
        quoteOfCell.append(nil)
        continue
      }
      columnOfQuote[currency] = number + 1
      quoteOfCell.append(currency == .eur ? nil : currency)
    }
    if let first = unknown.first {
      problems.append(
        .error(
          .rate(.unknownColumns(count: unknownCount, first: unknown.map(\.name))), at: at(header.number, first.column)))
    }
    var days: [Day] = []
    var dayOfDate: [CalendarDate: Int] = [:]
    var rateCount = 0
    while let line = lines.next(skippingBlank: true) {
      // One walk along the row: its date, then each known column's cell a rate or N/A.
      var date: CalendarDate?
      var broken = false
      var cellNumber = 0
      var cellStart = line.start
      for index in line.start...line.end where index == line.end || bytes[index] == 0x2C {
        let cell = Self.trimmed(bytes, cellStart..<index)
        defer {
          cellNumber += 1
          cellStart = index + 1
        }
        if cellNumber == 0 {
          date = Self.isoDate(bytes, cell) ?? RateReader.parseDate(String(decoding: bytes[cell], as: UTF8.self))
          if date == nil { break }
          continue
        }
        guard cellNumber < quoteOfCell.count else {
          if !cell.isEmpty {
            problems.append(
              .error(
                .rate(.cellCount(found: Self.cellCount(bytes, line.start, line.end), expected: quoteOfCell.count)),
                at: at(line.number, 1)))
            break
          }
          continue
        }
        guard quoteOfCell[cellNumber] != nil, !cell.isEmpty, !Self.isNotAvailable(bytes, cell) else { continue }
        if Self.rate(bytes, cell) != nil || DecimalRate(parsing: String(decoding: bytes[cell], as: UTF8.self)) != nil {
          rateCount += 1
          continue
        }
        let text = String(decoding: bytes[cell], as: UTF8.self)
        problems.append(.error(.rate(.value(text)), at: at(line.number, cell.lowerBound - line.start + 1)))
        broken = true
      }
      guard let date else {
        let first = Self.cell(0, of: bytes, line.start, line.end) ?? line.start..<line.start
        problems.append(.error(.rate(.date(String(decoding: bytes[first], as: UTF8.self))), at: at(line.number, 1)))
        continue
      }
      let day = Day(date: date, line: line.number, start: line.start, end: line.end)
      if let first = dayOfDate[date] {
        // The same day twice: the same rates are one; others are a located error, the first kept.
        let cells = Self.cells(bytes, line.start, line.end, limit: quoteOfCell.count)
        let firstCells = Self.cells(bytes, days[first].start, days[first].end, limit: quoteOfCell.count)
        let text = { (cells: [Range<Int>], number: Int) in bytes[number < cells.count ? cells[number] : 0..<0] }
        if let differing = quoteOfCell.indices.first(where: { number in
          quoteOfCell[number] != nil && text(firstCells, number) != text(cells, number)
        }), let quote = quoteOfCell[differing] {
          problems.append(
            .error(
              .rate(.conflict(pair: "EUR/\(quote.code)", date: "\(date)", first: "ECB \(path):\(days[first].line)")),
              at: at(line.number, 1)))
        }
        continue
      }
      if broken { continue }
      dayOfDate[date] = days.count
      days.append(day)
    }
    guard rateCount > 0 else { return (nil, problems) }
    days.sort { $0.date < $1.date }
    var cellOfQuote: [Currency: Int] = [:]
    for (number, quote) in quoteOfCell.enumerated() { if let quote { cellOfQuote[quote] = number } }
    return (ECBRates(bytes: bytes, days: days, cellOfQuote: cellOfQuote, source: "ECB \(path)"), problems)
  }

  package func rates(to quote: Currency) -> [ExchangeRate] {
    made.withLock { made in
      if let column = made[quote] { return column }
      let column = self.column(quote)
      made[quote] = column
      return column
    }
  }

  /// Every rate of the file, column by column (for tests and small files).
  package func allRates() -> [ExchangeRate] {
    cellOfQuote.sorted { $0.value < $1.value }.flatMap { rates(to: $0.key) }
  }

  /// The rates of `quote`'s column, oldest first.
  private func column(_ quote: Currency) -> [ExchangeRate] {
    guard let number = cellOfQuote[quote] else { return [] }
    var column: [ExchangeRate] = []
    column.reserveCapacity(days.count)
    for day in days {
      guard let cell = Self.cell(number, of: bytes, day.start, day.end), !cell.isEmpty,
        !Self.isNotAvailable(bytes, cell),
        let rate = Self.rate(bytes, cell) ?? DecimalRate(parsing: String(decoding: bytes[cell], as: UTF8.self))
      else { continue }
      column.append(
        ExchangeRate(base: .eur, quote: quote, rate: rate, date: day.date, source: source, line: day.line))
    }
    return column
  }

  // MARK: Bytes

  /// The lines of a file, numbered from 1, without their line breaks (`\n`, `\r\n`).
  private struct Lines {
    let bytes: [UInt8]
    var position = 0
    var number = 0

    /// The lines of `bytes`, a byte order mark before the first left out.
    init(_ bytes: [UInt8]) {
      self.bytes = bytes
      position = ByteOrderMark.starts(bytes) ? ByteOrderMark.bytes.count : 0
    }

    mutating func next(skippingBlank: Bool) -> (number: Int, start: Int, end: Int)? {
      while position < bytes.count {
        let start = position
        var end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        position = end + 1
        number += 1
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        if skippingBlank, bytes[start..<end].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x2C }) { continue }
        return (number, start, end)
      }
      return nil
    }
  }

  /// The cells of a row, each without the spaces around it.
  private static func cells(_ bytes: [UInt8], _ start: Int, _ end: Int, limit: Int = .max) -> [Range<Int>] {
    var cells: [Range<Int>] = []
    var cellStart = start
    for index in start...end where index == end || bytes[index] == 0x2C {
      cells.append(trimmed(bytes, cellStart..<index))
      cellStart = index + 1
      if cells.count == limit { break }
    }
    return cells
  }

  /// How many cells a row has (its commas and one), counted without making them.
  private static func cellCount(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Int {
    bytes[start..<end].reduce(1) { $0 + ($1 == 0x2C ? 1 : 0) }
  }

  /// Cell `number` of a row (0: the date), trimmed; `nil` past the row's end.
  private static func cell(_ number: Int, of bytes: [UInt8], _ start: Int, _ end: Int) -> Range<Int>? {
    var cellStart = start
    var seen = 0
    var index = start
    while index <= end {
      if index == end || bytes[index] == 0x2C {
        if seen == number { return trimmed(bytes, cellStart..<index) }
        seen += 1
        cellStart = index + 1
      }
      index += 1
    }
    return nil
  }

  private static func trimmed(_ bytes: [UInt8], _ range: Range<Int>) -> Range<Int> {
    var (low, high) = (range.lowerBound, range.upperBound)
    while low < high, bytes[low] == 0x20 || bytes[low] == 0x09 { low += 1 }
    while high > low, bytes[high - 1] == 0x20 || bytes[high - 1] == 0x09 { high -= 1 }
    return low..<high
  }

  private static func isNotAvailable(_ bytes: [UInt8], _ cell: Range<Int>) -> Bool {
    bytes[cell].elementsEqual("N/A".utf8)
  }

  /// The rate of a cell of digits with at most one point between two of them (what the ECB
  /// writes), made from the bytes; `nil` for anything else, which ``DecimalRate/init(parsing:)``
  /// then judges.
  private static func rate(_ bytes: [UInt8], _ cell: Range<Int>) -> DecimalRate? {
    guard let first = bytes[cell].first, let last = bytes[cell].last, first != 0x2E, last != 0x2E,
      cell.count <= DecimalRate.maximumDigits + 1
    else { return nil }
    var mantissa: Int64 = 0
    var decimals = 0
    var point = false
    for byte in bytes[cell] {
      switch byte {
      case 0x30...0x39:
        mantissa = mantissa * 10 + Int64(byte - 0x30)
        if point { decimals += 1 }
      case 0x2E where !point: point = true
      default: return nil
      }
    }
    return DecimalRate(mantissa: mantissa, decimals: decimals)
  }

  /// A `YYYY-MM-DD` cell's date, read from the bytes; `nil` for anything else.
  private static func isoDate(_ bytes: [UInt8], _ cell: Range<Int>) -> CalendarDate? {
    guard cell.count == 10, bytes[cell.lowerBound + 4] == 0x2D, bytes[cell.lowerBound + 7] == 0x2D else { return nil }
    var fields = [0, 0, 0]
    for (field, range) in [(0, 0..<4), (1, 5..<7), (2, 8..<10)] {
      for offset in range {
        let byte = bytes[cell.lowerBound + offset]
        guard (0x30...0x39).contains(byte) else { return nil }
        fields[field] = fields[field] * 10 + Int(byte - 0x30)
      }
    }
    return CalendarDate(year: fields[0], month: fields[1], day: fields[2])
  }
}
