import Foundation
import SplitBillCore

/// Makes a ``ScannedReceipt`` of a page's lines: finds the price column, tells items from the
/// figures under them, picks the total the arithmetic supports, and checks it. No I/O.
public enum ReceiptReader {
  /// A line that ends in an amount.
  struct PricedLine {
    var index: Int
    var label: [RecognizedWord]
    var amount: PrintedAmount
    var role: LineRole?
    /// The right edge of the amount's box: where the price column is.
    var amountRight = 0
    /// Whether the amount is a weighed item's weight times its price per unit of weight (its
    /// printed price unreadable); its name is on the line above.
    var weighed = false
    var labelText: String { label.map(\.text).joined(separator: " ") }
    /// Whether the words before the amount hold a name: two letters or more, counts such as
    /// `1x` (or `jx`, its `1` misread) not counted.
    var hasLetters: Bool {
      label.filter { !ReceiptReader.isCount($0.text) }.map(\.text).joined().filter(\.isLetter).count >= 2
    }
    /// Whether the words before the amount hold a name's word (``ReceiptReader/isNameWord(_:)``),
    /// not only codes (`FG-A00019 1 1.50`) and counts.
    var hasName: Bool { label.contains { !ReceiptReader.isCount($0.text) && ReceiptReader.isNameWord($0.text) } }
    /// Whether the amount is alone on its line, but for a currency's mark or a speck read as a
    /// digit: no name, no other price and no code (`70349 1 160.00 160.00` is an item's line).
    var isValueAlone: Bool {
      role == nil && !hasLetters
        && !label.contains { word in
          let digits = word.text.filter(\.isNumber).count
          return digits >= 4 || (digits >= 2 && word.text.contains { $0 == "." || $0 == "," })
        }
    }
  }

  /// Reads `lines`. `currency` is `--currency`: used when the receipt prints no code or sign that
  /// names one (a bare `$` is read as it, else as US dollars).
  ///
  /// Where the figures under the items read one line too high (a value alone over the first
  /// label, the last label bare: `$38.68`, `SUBTOTAL $38.68`, `TOTAL $40.00`, `CASH $1.32`,
  /// `CHANGE`), the page is read again with each value moved down to the label under it, and that
  /// reading is kept when more of its checks hold and no more fail.
  public static func read(_ lines: [ReceiptLine], currency option: Currency?, dayFirst: Bool? = nil)
    -> ScannedReceipt
  {
    let receipt = readAsPrinted(lines, currency: option, dayFirst: dayFirst)
    guard receipt.status != .verified,
      let shifted = withValuesMovedDown(lines, exponent: receipt.currency?.exponent ?? 2)
    else { return receipt }
    var moved = readAsPrinted(shifted, currency: option, dayFirst: dayFirst)
    let held = (receipt.checks.filter(\.passed).count, moved.checks.filter(\.passed).count)
    let failed = (receipt.checks.count - held.0, moved.checks.count - held.1)
    guard held.1 > held.0, failed.1 <= failed.0, moved.total != nil else { return receipt }
    moved.lines = receipt.lines
    return moved
  }

  /// The lines with the summary's values moved one label down, when they read one line too high
  /// (see ``read(_:currency:dayFirst:)``), else `nil`. The value alone on its line leaves it
  /// empty, so the lines keep their numbers.
  static func withValuesMovedDown(_ lines: [ReceiptLine], exponent: Int) -> [ReceiptLine]? {
    let summaryRoles: Set<LineRole> = [.subtotal, .net, .total, .tax, .rounding, .cash, .tender, .change, .tip]
    func amount(_ word: RecognizedWord?) -> Bool {
      guard let word else { return false }
      return PrintedAmount.parse(cleanNumber(word.text), exponent: exponent, wholeAmounts: false) != nil
    }
    func role(_ words: ArraySlice<RecognizedWord>) -> LineRole? {
      LineRole.of(label: words.map(\.text).joined(separator: " "))
    }
    for start in lines.indices where lines[start].words.count == 1 && amount(lines[start].words.first) {
      var end = start
      while end + 1 < lines.count, lines[end + 1].words.count >= 2, amount(lines[end + 1].words.last),
        let found = role(lines[end + 1].words.dropLast()), summaryRoles.contains(found)
      {
        end += 1
      }
      let bare = end + 1
      guard end > start, bare < lines.count, !lines[bare].text.contains(where: \.isNumber),
        let found = role(lines[bare].words[...]), summaryRoles.contains(found)
      else { continue }
      var moved = lines
      moved[start].words = []
      for index in (start + 1)...bare {
        guard let value = lines[index - 1].words.last else { return nil }
        if index == bare {
          moved[index].words.append(value)
        } else {
          moved[index].words[moved[index].words.count - 1] = value
        }
      }
      return moved
    }
    return nil
  }

  /// Reads `lines` as they are: see ``read(_:currency:dayFirst:)``.
  static func readAsPrinted(_ lines: [ReceiptLine], currency option: Currency?, dayFirst: Bool?) -> ScannedReceipt {
    var receipt = ScannedReceipt()
    receipt.lines = lines.map(\.text)
    let (currency, source, country) = findCurrency(lines, option: option)
    receipt.currency = currency
    receipt.currencySource = source
    receipt.country = country
    receipt.merchant = findMerchant(lines)
    receipt.date = findDate(lines, dayFirst: dayFirst ?? (currency?.code != "USD"))
    let exponent = currency?.exponent ?? 2

    // Whole amounts (`174,600`) are prices when the receipt prints its prices so.
    var priced = lines.indices.compactMap { pricedLine(lines[$0], index: $0, exponent: exponent, whole: false) }
    let grouped = priced.filter(\.amount.groupedWhole).count
    let decimal = priced.filter { $0.amount.fractionDigits > 0 }.count
    if exponent == 0 || (grouped >= 2 && grouped > decimal) {
      priced = lines.indices.compactMap { pricedLine(lines[$0], index: $0, exponent: exponent, whole: true) }
    } else if decimal >= 2 {
      // Prices printed with decimals: a price after a currency sign that lost its point (`$600`)
      // is read with it (`6.00`); the arithmetic checks it like any other.
      let pricedIndices = Set(priced.map(\.index))
      for index in lines.indices where !pricedIndices.contains(index) {
        if let mended = pricedLine(lines[index], index: index, exponent: exponent, whole: false, mendPoints: true) {
          priced.append(mended)
        }
      }
      priced.sort { $0.index < $1.index }
      // One receipt, one decimal mark: where the prices print `14.90`, a `28.970` is no 28,970
      // grouped by a point but a misread (`28.90`), and no figure at all.
      if let mark = decimalMark(of: priced) {
        priced.removeAll { $0.amount.groupedWhole && $0.amount.separator == mark }
      }
    }
    attachValuesToBareLabels(lines, &priced, exponent: exponent)
    // The price column, found by position: a number on a line with no figure's name, well left
    // of where the prices end (`Table 12.5`, a unit price alone), is no price.
    let rights = priced.filter { $0.role == nil }.map(\.amountRight).sorted()
    if rights.count >= 3 {
      let column = rights[rights.count / 2]
      let pageWidth = lines.flatMap(\.words).map(\.right).max() ?? 0
      priced.removeAll { $0.role == nil && $0.amountRight < column - max(pageWidth / 6, 40) }
    }

    addWeighedLines(lines, &priced, exponent: exponent)

    // Decimals the currency does not have.
    let tooPrecise = priced.filter { $0.amount.minorUnits(exponent: exponent) == nil }
    if let first = tooPrecise.first {
      receipt.checks.append(
        ReceiptCheck(
          name: "decimals", passed: false,
          detail:
            "\(first.amount.fractionDigits) decimals on line \(first.index + 1); \(currency?.code ?? "the currency") has \(exponent)"
        ))
    }
    priced.removeAll { $0.amount.minorUnits(exponent: exponent) == nil }
    func value(_ line: PricedLine) -> Int64 { line.amount.minorUnits(exponent: exponent) ?? 0 }
    func figure(_ line: PricedLine) -> ReadFigure { ReadFigure(minorUnits: value(line), line: line.index + 1) }

    let summaryRoles: Set<LineRole> = [
      .subtotal, .net, .total, .tax, .service, .rounding, .cash, .tender, .change, .tip,
    ]
    let summaryStart = priced.first { $0.role.map(summaryRoles.contains) ?? false }?.index ?? lines.count
    // A discount among the items (`Rabatt -0,30`, `COUPON 1.00-`) takes off what the item above it
    // cost: the items count it, negative however it is printed.
    let itemLines = priced.filter { $0.index < summaryStart }.map { line -> PricedLine in
      guard line.role == .discount else { return line }
      var discount = line
      discount.role = nil
      discount.amount.digits = -abs(line.amount.digits)
      return discount
    }
    // Count lines (`2 x 0,89`) among the items: details of an item, read once for the items and
    // for the lines whose price went unread.
    let quantities = Dictionary(
      uniqueKeysWithValues: lines.indices.prefix(summaryStart).compactMap { index in
        QuantityLine.read(lines[index].text, exponent: exponent).map { (index, $0) }
      })
    let (scannedItems, nameLines) = items(lines, itemLines, quantities: quantities, exponent: exponent)
    receipt.items = scannedItems

    receipt.unreadPrices = unreadPriceLines(
      lines, priced: priced, items: receipt.items, names: nameLines, details: quantities, before: summaryStart)
    let summary = priced.filter { $0.index >= summaryStart }
    let totals = summary.filter { $0.role == .total && value($0) > 0 }
    receipt.subtotal = summary.first { $0.role == .subtotal }.map(figure)
    // A total before tax is the subtotal where the items are priced before tax (they add up to
    // it, or none was read); otherwise it is a figure of its own, checked with the tax.
    if let net = summary.first(where: { $0.role == .net }) {
      if receipt.subtotal == nil, receipt.items.isEmpty || receipt.itemsSum == value(net) {
        receipt.subtotal = figure(net)
      } else {
        receipt.net = figure(net)
      }
    }
    let payments = summary.filter { [.cash, .tender].contains($0.role) }
    receipt.change = summary.first { $0.role == .change }.map(figure)
    receipt.cash = summary.first { $0.role == .cash }.map(figure)

    // The figures between the items and a candidate total.
    func adjustments(before totalIndex: Int) -> (discount: Int64, service: Int64, tax: Int64, rounding: Int64) {
      let between = summary.filter { $0.index < totalIndex }
      func sum(_ role: LineRole) -> Int64 { between.filter { $0.role == role }.reduce(0) { $0 + value($1) } }
      return (abs(sum(.discount)), sum(.service), sum(.tax), sum(.rounding))
    }
    // A subtotal the items come to only with the tax added is the total before tax, printed
    // beside prices that hold the tax (`SUB-TOTAL 27.27`, `GST 1.64`, items 28.91).
    if let subtotal = receipt.subtotal, !receipt.items.isEmpty, receipt.itemsSum != subtotal.minorUnits,
      receipt.net == nil
    {
      let firstTotal = totals.first?.index ?? lines.count
      let tax = summary.filter { $0.role == .tax && $0.index < firstTotal }.reduce(0) { $0 + value($1) }
      if tax > 0, receipt.itemsSum == subtotal.minorUnits + tax {
        receipt.net = subtotal
        receipt.subtotal = nil
      }
    }
    let base = receipt.subtotal?.minorUnits ?? receipt.itemsSum

    // The total is the candidate the arithmetic closes on; failing that, the one a payment
    // confirms; failing that, the largest.
    var chosen: PricedLine?
    var included = false
    // The last that closes: a total after a rounding or a tip line comes after the one before it.
    for candidate in totals {
      let parts = adjustments(before: candidate.index)
      let beforeTax = base - parts.discount + parts.service + parts.rounding
      let tip = summary.first { $0.role == .tip && $0.index < candidate.index }.map(value) ?? 0
      if value(candidate) == beforeTax + parts.tax + tip || value(candidate) == beforeTax + parts.tax {
        chosen = candidate
        included = false
      } else if parts.tax > 0, value(candidate) == beforeTax + tip || value(candidate) == beforeTax {
        chosen = candidate
        included = true
      }
    }
    // A total under the one the arithmetic closes on, a rounding between them, is what was paid
    // (`Total with GST 6.83`, `Rounding 0.02`, `TOTAL 6.85`). Had it closed, the loop would have
    // taken it; it is taken all the same, and the checks say what does not add up (a rounding
    // misread `0.92`), where keeping the first would verify a total that was not paid.
    if let closed = chosen,
      let rounding = summary.first(where: { $0.role == .rounding && $0.index > closed.index }),
      let later = totals.first(where: { $0.index > rounding.index }), value(later) != value(closed)
    {
      chosen = later
      included = false
    }
    if chosen == nil {
      let paid = receipt.cash.map { $0.minorUnits - (receipt.change?.minorUnits ?? 0) }
      chosen =
        totals.first { candidate in
          value(candidate) == paid || payments.contains { $0.role == .tender && value($0) == value(candidate) }
        } ?? totals.max { value($0) < value($1) }
      // Nothing closes, so the arithmetic cannot tell whether the prices hold the tax: the label
      // can (`(Inclusive) GST 6%`, `inkl. MwSt`), and the review then does not add it again.
      let end = chosen?.index ?? lines.count
      included = summary.contains { $0.role == .tax && $0.index < end && LineRole.saysIncluded($0.labelText) }
    }
    if chosen == nil, let cash = receipt.cash, cash.minorUnits - (receipt.change?.minorUnits ?? 0) > 0 {
      // No total line read: what was paid, if the items tie to it.
      let paid = cash.minorUnits - (receipt.change?.minorUnits ?? 0)
      if paid == receipt.itemsSum { receipt.total = ReadFigure(minorUnits: paid, line: cash.line) }
    }
    if chosen == nil, receipt.total == nil, !receipt.items.isEmpty,
      let card = payments.first(where: { $0.role == .tender && value($0) == receipt.itemsSum && value($0) > 0 })
    {
      // No total line read, none paid in cash: what the card paid, if the items tie to it.
      receipt.total = figure(card)
    }
    // No total legible at all: the subtotal and the adjustments printed under it, when the items
    // tie to that subtotal, give a total for the person reviewing to compare with the paper.
    if chosen == nil, receipt.total == nil, let subtotal = receipt.subtotal, !receipt.items.isEmpty,
      receipt.itemsSum == subtotal.minorUnits, let subtotalLine = subtotal.line
    {
      let end = adjustmentsEnd(lines, after: subtotalLine - 1, summary: summary)
      var worked = receipt
      setAdjustments(&worked, summary.filter { $0.index < end }, adjustments(before: end), exponent: exponent)
      // Added up as the checks add up a printed total.
      let total = ReceiptChecks.chain(worked).withTip
      if total > 0 {
        receipt = worked
        receipt.total = ReadFigure(minorUnits: total, line: nil)
        receipt.totalWorkedOut = true
      }
    }
    if let chosen {
      receipt.total = figure(chosen)
      let parts = adjustments(before: chosen.index)
      let between = summary.filter { $0.index < chosen.index }
      receipt.taxIncluded = included
      setAdjustments(&receipt, between, parts, exponent: exponent)
      // A tax printed after the total, none before it: a VAT summary, included in the prices.
      if receipt.tax == nil, let after = summary.first(where: { $0.role == .tax && $0.index > chosen.index }),
        value(after) < value(chosen)
      {
        receipt.tax = figure(after)
        receipt.taxIncluded = true
        receipt.taxRate = percentage(in: after.labelText)
        // One line a rate (`DPH 15% 6,51`, `DPH 21% 4,32`): the tax is theirs together, and no
        // one rate is of the whole total.
        let rated = summary.filter { $0.role == .tax && $0.index > chosen.index }.prefix {
          percentage(in: $0.labelText) != nil
        }
        let rates = rated.compactMap { percentage(in: $0.labelText) }
        let together = rated.reduce(0) { $0 + value($1) }
        if rated.count > 1, Set(rates).count == rates.count, together < value(chosen) {
          receipt.tax = ReadFigure(minorUnits: together, line: after.index + 1)
          receipt.taxRate = nil
        }
      }
      // A rounding printed under the total, no total after it (`Total 31.47`, `Rounding -0.02`):
      // what is paid is the two together, a figure no line prints (the checks say so).
      if receipt.rounding == nil,
        let rounding = summary.first(where: { $0.role == .rounding && $0.index > chosen.index }),
        value(rounding) != 0, abs(value(rounding)) * 20 <= value(chosen),
        abs(value(rounding)) < Self.power(of: 10, exponent), !totals.contains(where: { $0.index > rounding.index }),
        !summary.contains(where: { $0.index > chosen.index && $0.index < rounding.index && $0.role != .tax })
      {
        receipt.rounding = figure(rounding)
        receipt.printedTotal = receipt.total
        receipt.total = ReadFigure(minorUnits: value(chosen) + value(rounding), line: nil, inferred: true)
      }
    }
    if let chosen { receipt.unreadFigures = unreadFigures(lines, priced: priced, after: chosen.index) }
    ReceiptChecks.check(&receipt, exponent: exponent)
    return receipt
  }

  /// `base` to the power `exponent` (10², 10³ for the currencies' minor units).
  static func power(of base: Int64, _ exponent: Int) -> Int64 {
    (0..<max(exponent, 0)).reduce(1) { product, _ in product * base }
  }

  /// The lines among the three under the total at `totalIndex` that name a rounding or a total and
  /// hold no figure, their value not on the line under them either: numbered from 1.
  static func unreadFigures(_ lines: [ReceiptLine], priced: [PricedLine], after totalIndex: Int) -> [Int] {
    let roles = Dictionary(priced.map { ($0.index, $0.role) }, uniquingKeysWith: { first, _ in first })
    return lines.indices.filter { index in
      guard index > totalIndex, index <= totalIndex + 3, roles[index] == nil,
        !lines[index].text.contains(where: \.isNumber), let role = LineRole.of(label: lines[index].text),
        role == .rounding || role == .total
      else { return false }
      return roles[index + 1].flatMap { $0 } != role
    }.map { $0 + 1 }
  }

  /// Weighed items whose printed price could not be read (`0.825 kg @ $6.59/kg` with a smudge
  /// where `5.44` is): priced at their weight times their price per unit of weight. A weight line
  /// under an item whose price was read as that product is a detail of it, not an item.
  static func addWeighedLines(_ lines: [ReceiptLine], _ priced: inout [PricedLine], exponent: Int) {
    var amounts: [Int: Int64] = [:]
    for line in priced { amounts[line.index] = line.amount.minorUnits(exponent: exponent) }
    var added = false
    for index in lines.indices where amounts[index] == nil {
      var weighed = WeighedLine.read(lines[index].text)
      var weightLine: Int?
      for neighbour in [index + 1, index - 1] where weighed == nil && lines.indices.contains(neighbour) {
        weighed = WeighedLine.read(lines[index].text, neighbour: lines[neighbour].text)
        if weighed != nil { weightLine = neighbour }
      }
      guard let weighed, let amount = weighed.amount(exponent: exponent), amount > 0,
        amounts[index - 1] != amount, amounts[index + 1] != amount
      else { continue }
      if let weightLine { priced.removeAll { $0.index == weightLine } }
      priced.append(
        PricedLine(
          index: index, label: [], amount: PrintedAmount(digits: amount, fractionDigits: exponent, groupedWhole: false),
          role: nil, amountRight: lines[index].words.last?.right ?? 0, weighed: true))
      added = true
    }
    if added { priced.sort { $0.index < $1.index } }
  }

  /// The index of the first line after the subtotal's (`subtotalIndex`) that names a figure other
  /// than an adjustment or a tip (a total, a payment, change), priced or not: where the
  /// adjustments a total is worked out from end. A tax summary printed under the total is not one.
  static func adjustmentsEnd(_ lines: [ReceiptLine], after subtotalIndex: Int, summary: [PricedLine]) -> Int {
    let adjustments: Set<LineRole> = [.discount, .service, .tax, .rounding, .tip, .net]
    let priced = Dictionary(summary.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
    for index in lines.indices where index > subtotalIndex {
      let role = priced[index]?.role ?? LineRole.of(label: lines[index].text)
      if let role, role != .ignored, !adjustments.contains(role) { return index }
    }
    return lines.count
  }

  /// Sets the receipt's discount, service, tax, rounding and tip from the summary lines
  /// `between` the items and its total, whose sums are `parts`.
  private static func setAdjustments(
    _ receipt: inout ScannedReceipt, _ between: [PricedLine],
    _ parts: (discount: Int64, service: Int64, tax: Int64, rounding: Int64), exponent: Int
  ) {
    func line(_ role: LineRole) -> Int? { between.first { $0.role == role }.map { $0.index + 1 } }
    if parts.discount > 0 { receipt.discount = ReadFigure(minorUnits: parts.discount, line: line(.discount)) }
    if parts.service != 0 { receipt.service = ReadFigure(minorUnits: parts.service, line: line(.service)) }
    if parts.tax != 0 { receipt.tax = ReadFigure(minorUnits: parts.tax, line: line(.tax)) }
    if parts.rounding != 0 { receipt.rounding = ReadFigure(minorUnits: parts.rounding, line: line(.rounding)) }
    receipt.tip = between.first { $0.role == .tip }.map {
      ReadFigure(minorUnits: $0.amount.minorUnits(exponent: exponent) ?? 0, line: $0.index + 1)
    }
    receipt.taxRate = between.first { $0.role == .tax }.flatMap { percentage(in: $0.labelText) }
  }

  // MARK: - Lines and amounts

  /// Words after an amount that are not part of a name: tax codes and flags (`J`, `T`, `SR`, `*`).
  static func isTrailingFlag(_ word: String) -> Bool {
    word.count <= 2 && !word.contains(where: \.isNumber) || word == "*" || word == "**"
  }

  /// A tax flag read as a digit (`S` as `5` or `3`, `$` as `8`): one digit after a price with the
  /// currency's decimals. Receipts print counts before the price, never after it.
  static func isMisreadFlag(_ word: String, after previous: String?, exponent: Int) -> Bool {
    guard exponent > 0, word.count == 1, word.first?.isNumber == true, let previous,
      let amount = PrintedAmount.parse(cleanNumber(previous), exponent: exponent, wholeAmounts: false)
    else { return false }
    return amount.fractionDigits == exponent
  }

  /// A tax rate printed after a price as its tax code (`49,90 15%`, `1.99 7,0%`): a percentage
  /// (``percentage(in:)``) under 100, its first character a digit, after a price with the
  /// currency's decimals.
  static func isRateCode(_ word: String, after previous: String?, exponent: Int) -> Bool {
    guard exponent > 0, word.hasSuffix("%"), word.first?.isNumber == true, let previous,
      let rate = percentage(in: word), rate < 100_00,
      let amount = PrintedAmount.parse(cleanNumber(previous), exponent: exponent, wholeAmounts: false)
    else { return false }
    return amount.fractionDigits == exponent
  }

  /// The line's amount: its rightmost number, past tax flags, with the words before it.
  static func pricedLine(
    _ line: ReceiptLine, index: Int, exponent: Int, whole: Bool, mendPoints: Bool = false
  ) -> PricedLine? {
    var words = line.words
    var skipped = 0
    while let last = words.last, skipped < 2,
      isTrailingFlag(last.text) && PrintedAmount.parse(last.text, exponent: exponent, wholeAmounts: whole) == nil
        || isMisreadFlag(last.text, after: words.dropLast().last?.text, exponent: exponent)
        || isRateCode(last.text, after: words.dropLast().last?.text, exponent: exponent)
    {
      words.removeLast()
      skipped += 1
    }
    if mendPoints, let last = words.last, let mended = withLostPoint(last.text, exponent: exponent) {
      words[words.count - 1].text = mended
    }
    guard let last = words.last,
      var amount = PrintedAmount.parse(
        cleanNumber(String(last.text.trimmingSuffix(while: { ",.;:".contains($0) }))), exponent: exponent,
        wholeAmounts: whole)
    else { return nil }
    var label = Array(words.dropLast())
    // A currency sign or code standing alone before the amount belongs to neither; a minus
    // against it (`-RM 0.02`, `-$ 1.00`) is the amount's.
    while let mark = label.last {
      let minus = PrintedAmount.startsWithMinus(mark.text)
      let sign = minus ? String(mark.text.dropFirst()) : mark.text
      guard isCurrencyWord(sign) || mark.text == ":" else { break }
      if minus, amount.digits > 0 { amount.digits = -amount.digits }
      label.removeLast()
    }
    // A bare whole number is only a price on a line with words (not a date or a phone number).
    if whole, amount.fractionDigits == 0, label.isEmpty, !amount.groupedWhole { return nil }
    if let right = rightHandLabel(label, exponent: exponent) {
      return PricedLine(index: index, label: right.words, amount: amount, role: right.role, amountRight: last.right)
    }
    let text = label.map(\.text).joined(separator: " ")
    return PricedLine(
      index: index, label: label, amount: amount, role: LineRole.of(label: text), amountRight: last.right)
  }

  /// The decimal mark the receipt's amounts with decimals print: the one at least two of them
  /// print and three times as many as print the other (a comma misread for a point is no
  /// second style).
  static func decimalMark(of priced: [PricedLine]) -> Character? {
    let marks = priced.filter { $0.amount.fractionDigits > 0 }.compactMap(\.amount.separator).filter {
      $0 == "." || $0 == ","
    }
    let points = marks.filter { $0 == "." }.count
    let commas = marks.count - points
    if points >= 2, points >= 3 * commas { return "." }
    if commas >= 2, commas >= 3 * points { return "," }
    return nil
  }

  /// The figure's own label on a line that prints two label–value pairs side by side (a summary
  /// in two columns: `ITEM: 2   Total with GST @ 6%  6.83`, `QTY: 3   ROUNDING  0.02`, `TOTAL
  /// SAVING: 0.00   TOTAL  6.85`): the words after the label's last number, when the words
  /// before that number hold letters and the words after it name a figure (a total, a rounding, a
  /// payment). `nil` for any other label, an item's name with a number in it among them
  /// (`HEINEKEN (5 BTL) 2x 95.00`, `Samudra Bun 180g Blueberry`).
  static func rightHandLabel(_ label: [RecognizedWord], exponent: Int) -> (words: [RecognizedWord], role: LineRole)? {
    guard label.count >= 3,
      let number = label.indices.dropFirst().dropLast().last(where: {
        PrintedAmount.parse(cleanNumber(label[$0].text), exponent: exponent, wholeAmounts: true) != nil
      }),
      label[..<number].contains(where: { $0.text.filter(\.isLetter).count >= 2 })
    else { return nil }
    let words = Array(label[(number + 1)...])
    guard let role = LineRole.of(label: words.map(\.text).joined(separator: " ")), role != .ignored, role != .item
    else { return nil }
    return (words, role)
  }

  /// A number token with the letters Tesseract puts for digits mended (`1O.5O` → `10.50`,
  /// `l4.00` → `14.00`, `86.0¢` → `86.00`), when the rest of it is a number.
  static func cleanNumber(_ token: String) -> String {
    var token = withoutTaxCode(token)
    let digits = token.filter(\.isNumber).count
    guard digits >= 2, token.contains(where: { $0 == "." || $0 == "," }) else { return token }
    // A last `0` read as `c`, `C` or `¢` (`86.0¢`): the second of two decimals.
    let characters = Array(token)
    if characters.count >= 4, let last = characters.last, "cC¢".contains(last),
      characters[characters.count - 2].isNumber,
      ".,".contains(characters[characters.count - 3]), characters[characters.count - 4].isNumber
    {
      token = String(characters.dropLast()) + "0"
    }
    let mended = String(
      token.map { character -> Character in
        switch character {
        case "O", "o", "D": "0"
        case "l", "I", "|", "i": "1"
        default: character
        }
      })
    return mended
  }

  /// `$600` as `$6.00`: a currency sign, then three digits or more and no separator, is a
  /// price whose decimal point was lost (receipts in a currency with decimals print them).
  static func withLostPoint(_ token: String, exponent: Int) -> String? {
    guard exponent > 0 else { return nil }
    for mark in ["$", "€", "£", "RM", "S$"] where token.hasPrefix(mark) {
      let digits = token.dropFirst(mark.count)
      guard digits.count > exponent, digits.count <= 7, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
        return nil
      }
      return mark + digits.dropLast(exponent) + "." + digits.suffix(exponent)
    }
    return nil
  }

  /// A count written against its `x` (`1x`, `2X`, `x3`, and `jx`, `lx`: a `1` misread).
  static func isCount(_ word: String) -> Bool {
    let lowered = word.lowercased()
    guard lowered.count >= 2, lowered.count <= 4, lowered.hasSuffix("x") || lowered.hasPrefix("x") else { return false }
    let rest = lowered.hasSuffix("x") ? lowered.dropLast() : lowered.dropFirst()
    return rest.allSatisfy(\.isNumber) || ["j", "l", "i", "|"].contains(String(rest))
  }

  /// A price with the tax code printed against it taken off (`5.50ZR`, `4.80SR`, and `4.802R`,
  /// the `Z` read as a digit): two decimals, then one or two letters (a digit and a letter).
  static func withoutTaxCode(_ token: String) -> String {
    let characters = Array(token)
    guard let last = characters.last, last.isLetter, characters.count >= 5 else { return token }
    for cut in [1, 2] where characters.count > cut + 3 {
      let head = characters.dropLast(cut)
      let tail = characters.suffix(cut)
      guard tail.last?.isLetter == true, tail.allSatisfy({ $0.isLetter || $0.isNumber }) else { continue }
      let count = head.count
      if head[head.startIndex + count - 3] == "." || head[head.startIndex + count - 3] == ",",
        head.suffix(2).allSatisfy(\.isNumber), head[head.startIndex + count - 4].isNumber
      {
        return String(head)
      }
    }
    return token
  }

  static func isCurrencyWord(_ word: String) -> Bool {
    let upper = word.uppercased()
    return upper == "$" || CurrencyMark.unambiguous.contains { $0.mark == upper } || commonCodes.contains(upper)
  }

  /// Labels whose value is printed on another line: alone on the line above (`14.85` over
  /// `NET TOTAL`), or, where the price column has slipped a line down (a curled or tilted
  /// receipt), on the line below, each label of the run taking the value one line under it.
  ///
  /// A value given away is alone on its line (``PricedLine/isValueAlone``): an item's line of a
  /// code, a count and prices under a name that holds a figure's word (`workmanship & service`)
  /// keeps its amount. A run down the page must end on a value alone on its line; one that does
  /// not (a price split in two, a garbled word) is undone, and a line with words that name
  /// nothing never gives its value away.
  static func attachValuesToBareLabels(_ lines: [ReceiptLine], _ priced: inout [PricedLine], exponent: Int) {
    let figureRoles: Set<LineRole> = [
      .subtotal, .net, .discount, .service, .tax, .rounding, .tip, .total, .cash, .tender, .change,
    ]
    var pending: (role: LineRole, words: [RecognizedWord])?
    var before = priced
    for (index, line) in lines.enumerated() {
      if let position = priced.firstIndex(where: { $0.index == index }) {
        guard let label = pending else { continue }
        let bare = priced[position].isValueAlone
        let own = priced[position].role.flatMap { figureRoles.contains($0) ? $0 : nil }
        guard bare || own != nil else {
          priced = before
          pending = nil
          continue
        }
        let ownWords = priced[position].label
        priced[position].role = label.role
        priced[position].label = label.words
        // This line's own label takes the value of the line after; a bare value ends the run.
        pending = own.map { ($0, ownWords) }
        if pending == nil { before = priced }
        continue
      }
      guard let role = LineRole.of(label: line.text), figureRoles.contains(role) else {
        if pending != nil { priced = before }
        pending = nil
        continue
      }
      if pending != nil {
        priced = before
        pending = nil
      }
      // The value alone on the line above, unclaimed, unless it is the price of a name above it.
      let nameAbove =
        index >= 2 && !priced.contains { $0.index == index - 2 } && lines[index - 2].text.filter(\.isLetter).count >= 3
        && LineRole.of(label: lines[index - 2].text) == nil
      if !nameAbove, let above = priced.firstIndex(where: { $0.index == index - 1 }), priced[above].isValueAlone {
        priced[above].role = role
        priced[above].label = line.words
        before = priced
      } else {
        before = priced
        pending = (role, line.words)
      }
    }
    if pending != nil { priced = before }
  }

  /// The percentage a label prints (`GST 6%`, `MwSt 19 %`, `8.875%`), in hundredths of a percent.
  static func percentage(in label: String) -> Int64? {
    let words = label.split(separator: " ").map(String.init)
    for (index, word) in words.enumerated() {
      var number = word
      if word == "%", index > 0 {
        number = words[index - 1]
      } else if word.hasSuffix("%") {
        number = String(word.dropLast())
      } else {
        continue
      }
      number = String(number.drop { !$0.isNumber }).replacingOccurrences(of: ",", with: ".")
      let parts = number.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count <= 2, let whole = Int64(parts[0]), whole <= 100 else { continue }
      var fraction: Int64 = 0
      if parts.count == 2 {
        guard parts[1].count <= 2, let digits = Int64(parts[1]) else { continue }
        fraction = parts[1].count == 1 ? digits * 10 : digits
      }
      return whole * 100 + fraction
    }
    return nil
  }

  // MARK: - Items

  /// Lines among the items that end in what looks like a price but does not read as one
  /// (`“O55`, `1O,5`): an item whose price was lost, so the items cannot tie to the total.
  static func unreadPriceLines(
    _ lines: [ReceiptLine], priced: [PricedLine], items: [ScannedItem], names: Set<Int>,
    details quantities: [Int: QuantityLine], before end: Int
  ) -> [Int] {
    guard let first = items.first?.line else { return [] }
    let pricedIndices = Set(priced.map(\.index))
    return lines.indices.filter { index in
      guard index + 1 > first, index < end, !pricedIndices.contains(index), !names.contains(index),
        quantities[index] == nil, WeighedLine.read(lines[index].text) == nil
      else { return false }
      var words = lines[index].words.map(\.text)
      while let last = words.last, isTrailingFlag(last), words.count > 1 { words.removeLast() }
      guard words.count > 1, let last = words.last, last.count <= 8, lines[index].text.filter(\.isLetter).count >= 3
      else { return false }
      let digits = last.filter(\.isNumber).count
      let letters = last.filter(\.isLetter).count
      return digits >= 2 && (digits > letters || last.contains(where: { $0 == "." || $0 == "," })) && Int(last) == nil
    }.map { $0 + 1 }
  }

  /// Header words of an item table, never an item's name.
  static let headerWords: Set<String> = [
    "QTY", "ITEM", "ITEMS", "DESCRIPTION", "PRICE", "AMOUNT", "AMT", "RSP", "TOTAL", "UNIT", "MENGE", "PREIS",
    "BETRAG", "ARTICLE", "PRIX", "CANT", "CANTIDAD", "PRECIO", "QTE", "QTÉ",
  ]

  static func isHeader(_ line: ReceiptLine) -> Bool {
    let words = LineRole.normalisedWords(line.text)
    return words.count >= 2 && words.filter { headerWords.contains($0) }.count >= 2
  }

  /// The item lines among `candidates`, and the indices of the lines read as their names.
  /// `quantities` are the count lines among them, by line index: details, never items or names.
  static func items(
    _ lines: [ReceiptLine], _ candidates: [PricedLine], quantities: [Int: QuantityLine], exponent: Int
  ) -> (items: [ScannedItem], nameLines: Set<Int>) {
    let pricedIndices = Set(candidates.map(\.index))
    var used = Set<Int>()
    var items: [ScannedItem] = []
    // Items start after a table header if there is one.
    let headerIndex = lines.indices.last { index in
      index < (candidates.last?.index ?? 0) && isHeader(lines[index])
    }
    // Where the names start: specks and torn edges left of it are no part of a name.
    let starts = candidates.compactMap { candidate in
      candidate.label.first { $0.text.filter(\.isLetter).count >= 3 }?.left
    }.sorted()
    let nameColumn = starts.count >= 3 ? starts[starts.count / 2] : nil
    /// A line that may be an item's name: a word of letters on it (not a code such as
    /// `EZ10HDO5`), no figure's label, no table header, no count or weight.
    func mayBeName(_ index: Int) -> Bool {
      guard lines.indices.contains(index), !pricedIndices.contains(index) else { return false }
      let line = lines[index]
      return line.text.filter(\.isLetter).count >= 3 && line.words.contains { isNameWord($0.text) } && !isHeader(line)
        && LineRole.of(label: line.text) == nil
        && quantities[index] == nil && WeighedLine.read(line.text) == nil
    }
    /// A line of codes between a name and its price line (`EZ10HDO5 - 24`): digits, no name.
    func isCodeLine(_ index: Int) -> Bool {
      guard lines.indices.contains(index), !pricedIndices.contains(index) else { return false }
      return lines[index].text.contains(where: \.isNumber) && !lines[index].words.contains { isNameWord($0.text) }
    }
    let namesBelow =
      candidates.last { $0.role == nil && !$0.hasName && !$0.weighed }.map { mayBeName($0.index + 1) } ?? false
    for candidate in candidates where candidate.role == nil {
      if let headerIndex, candidate.index <= headerIndex { continue }
      if quantities[candidate.index] != nil { continue }
      guard let amount = candidate.amount.minorUnits(exponent: exponent), amount != 0 else { continue }
      var label = candidate.label
      func isNameLine(_ index: Int) -> Bool { !used.contains(index) && mayBeName(index) }
      if !candidate.hasName {
        // A code line: its name is printed on the line above or below it, the same way for the
        // whole receipt (below when the last code line has a name under it); above, a line of
        // codes may come between them. A weighed line's name is above it (above its weight, when
        // that is a line of its own).
        let above =
          isCodeLine(candidate.index - 1) ? [candidate.index - 1, candidate.index - 2] : [candidate.index - 1]
        let order =
          candidate.weighed
          ? [candidate.index - 1, candidate.index - 2]
          : namesBelow ? [candidate.index + 1, candidate.index - 1] : above + [candidate.index + 1]
        let source = order.first { index in
          isNameLine(index) && (headerIndex.map { index > $0 } ?? true)
        }
        guard let source else { continue }
        used.insert(source)
        label = lines[source].words + label
      } else if !items.isEmpty, isNameLine(candidate.index - 1), candidate.index + 1 > (items.last?.line ?? 0) + 1 {
        // A name too long for one line, its first part on the line above.
        used.insert(candidate.index - 1)
        label = lines[candidate.index - 1].words + label
      }
      if let nameColumn {
        while label.count > 1, let first = label.first, first.right < nameColumn - first.height / 2,
          first.text.count <= 3
        {
          label.removeFirst()
        }
      }
      let (name, quantity) = nameAndQuantity(label, amount: amount, exponent: exponent)
      guard !name.isEmpty else { continue }
      items.append(ScannedItem(name: name, amount: amount, quantity: quantity, line: candidate.index + 1))
    }
    // A count line's item: the one above or below whose amount is the count times the unit price.
    // In the page's order, so that of two count lines tying to one item the upper one gives it.
    for (index, quantity) in quantities.sorted(by: { $0.key < $1.key }) where quantity.count > 1 {
      let item =
        items.firstIndex { $0.line == index && $0.amount == quantity.amount }
        ?? items.firstIndex { $0.line == index + 2 && $0.amount == quantity.amount }
      if let item, items[item].quantity == 1 { items[item].quantity = quantity.count }
    }
    return (items, used)
  }

  /// A word of a name: two letters or more, and letters at least two in three of its
  /// characters (`CHOPPING`, `Milch`, `eh`; not `120ML`, `EZ10HDO5`, `HCO3-7` or `35.5x25.5CM`).
  static func isNameWord(_ word: String) -> Bool {
    let letters = word.filter(\.isLetter).count
    return letters >= 2 && letters * 3 >= word.count * 2
  }

  /// The item's name (codes, counts and unit prices taken out) and its quantity. A count before
  /// the name (`2 x Fish tacos`, `2 FISHBALL NOODLE @7.00`) is the quantity when the amount
  /// divides by it; a count after the name (`Cooler x 1`) or in a column (`5 3.50 17.50`) only
  /// when a unit price printed on the line times it is the amount (a misread `x 1` is `x 4`
  /// often enough). The line's amount is the same either way.
  static func nameAndQuantity(_ label: [RecognizedWord], amount: Int64, exponent: Int) -> (String, Int) {
    var words = label.map(\.text)
    let weighed = words.contains { $0.contains("@") }
    let prices = words.compactMap {
      PrintedAmount.parse($0.hasPrefix("@") ? String($0.dropFirst()) : $0, exponent: exponent)?
        .minorUnits(exponent: exponent)
    }
    func count(_ word: String) -> Int? {
      let digits = word.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "x×«"))
      guard digits.count <= 3, let value = Int(digits), value > 0 else { return nil }
      return value
    }
    func isMark(_ word: String) -> Bool {
      ["x", "X", "*", "«", "×"].contains(word) || (word.count == 1 && !word.contains(where: \.isLetter))
    }
    func unitPriceTies(_ count: Int) -> Bool { prices.contains { $0 * Int64(count) == amount } }
    // A count after the name.
    var trailing: Int?
    if words.count >= 3, let last = words.last, last.count <= 2, let value = Int(last), isMark(words[words.count - 2]) {
      trailing = value
      words.removeLast(2)
    } else if words.count >= 2, let last = words.last, isCount(last) || last.hasPrefix("«"), let value = count(last) {
      trailing = value
      words.removeLast()
    }
    // A count before it.
    var leading: Int?
    if words.count >= 2, let first = words.first, let value = count(first), first.count <= 3 {
      leading = value
      words.removeFirst()
      if let next = words.first, isMark(next), words.count > 1 { words.removeFirst() }
    }
    var quantity = 1
    if let leading, leading > 1, unitPriceTies(leading) || (prices.isEmpty && amount % Int64(leading) == 0) {
      quantity = leading
    } else if let trailing, trailing > 1, unitPriceTies(trailing) {
      quantity = trailing
    } else if let column = words.compactMap({ Int($0) }).first(where: { $0 > 1 && $0 < 1000 && unitPriceTies($0) }) {
      quantity = column
      if let index = words.firstIndex(of: String(column)) { words.remove(at: index) }
    }
    // What is left: the words with letters; codes (long digit runs), prices and marks dropped.
    words.removeAll { word in
      let digits = word.filter(\.isNumber).count
      // A unit price: `@7.00`, `2@$3.49ea.`, `$4.39/kg`, and a weight's unit beside it.
      if word.contains("@") { return true }
      if weighed, WeighedLine.units.contains(word.uppercased()) { return true }
      if word.contains("/"), let head = word.split(separator: "/").first,
        PrintedAmount.parse(head, exponent: exponent)?.fractionDigits == exponent
      {
        return true
      }
      if PrintedAmount.parse(word, exponent: exponent) != nil { return true }
      if digits >= 5 && digits * 10 >= word.count * 8 { return true }
      if isMark(word) { return true }
      if isCount(word), word != label.first?.text { return true }
      return false
    }
    while let last = words.last, isCurrencyWord(last) { words.removeLast() }
    let name = words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: " .:-*"))
    return (name, quantity)
  }

  // MARK: - Merchant, date and currency

  static func findMerchant(_ lines: [ReceiptLine]) -> String? {
    for line in lines.prefix(6) {
      let text = line.text
      let letters = text.filter(\.isLetter).count
      guard letters >= 3, letters * 2 >= text.filter({ !$0.isWhitespace }).count else { continue }
      return String(text.prefix(60))
    }
    return nil
  }

  static let monthNames: [String: Int] = [
    "JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6, "JUL": 7, "AUG": 8, "SEP": 9, "OCT": 10, "NOV": 11,
    "DEC": 12, "MEI": 5, "AGU": 8, "OKT": 10, "DES": 12, "MRZ": 3, "DEZ": 12, "JANV": 1, "FEV": 2, "AVR": 4,
    "MAI": 5, "ENE": 1, "ABR": 4, "AGO": 8, "DIC": 12, "GEN": 1, "MAG": 5, "GIU": 6, "LUG": 7, "SET": 9, "OTT": 10,
  ]

  /// The first date printed: `2026-11-20`, `19/04/2017`, `20-11-17`, `12.04.2018`, `03 MAR 19`.
  /// Day and month are told apart by a number over 12, else by `dayFirst` (month first for US dollars).
  static func findDate(_ lines: [ReceiptLine], dayFirst: Bool) -> CalendarDate? {
    for line in lines {
      let text = line.text.uppercased()
      let tokens = text.split { $0 == " " || $0 == "," }.map(String.init)
      for (position, token) in tokens.enumerated() {
        let parts = token.split { $0 == "/" || $0 == "-" || $0 == "." }.map(String.init)
        if parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isNumber) && !$0.isEmpty }) {
          let numbers = parts.compactMap { Int($0) }
          if parts[0].count == 4, let date = CalendarDate(year: numbers[0], month: numbers[1], day: numbers[2]) {
            return date
          }
          guard parts[2].count == 4 || parts[2].count == 2 else { continue }
          let year = parts[2].count == 2 ? 2000 + numbers[2] : numbers[2]
          let (day, month) =
            numbers[0] > 12
            ? (numbers[0], numbers[1])
            : numbers[1] > 12
              ? (numbers[1], numbers[0])
              : dayFirst ? (numbers[0], numbers[1]) : (numbers[1], numbers[0])
          if let date = CalendarDate(year: year, month: month, day: day) { return date }
        }
        // 03 MAR 19, 3 MAR 2019
        if position + 2 < tokens.count, let day = Int(token),
          let month = monthNames[String(tokens[position + 1].prefix(3))],
          let yearNumber = Int(tokens[position + 2].prefix(4)),
          tokens[position + 2].count == 2 || tokens[position + 2].count == 4
        {
          let year = yearNumber < 100 ? 2000 + yearNumber : yearNumber
          if let date = CalendarDate(year: year, month: month, day: day) { return date }
        }
      }
    }
    return nil
  }

  /// Currencies a receipt names by code.
  static let commonCodes: Set<String> = [
    "USD", "EUR", "GBP", "MYR", "IDR", "CAD", "AUD", "NZD", "SGD", "CHF", "JPY", "INR", "THB", "PHP", "VND", "HKD",
    "CNY", "KRW", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "MXN", "BRL", "ZAR", "TRY", "AED", "KWD", "MAD",
  ]

  /// The receipt's currency: the one the receipt names most, each ISO code it prints in capitals
  /// counting two, each sign that names one currency (`€`, `RM`, `Kč`) one, and the country it
  /// was printed in (``ReceiptCountry``) three (so one misread `KWD` does not outweigh `SDN BHD`);
  /// else `option`, else a bare `$` as US dollars. With it, the country the lines point to.
  static func findCurrency(_ lines: [ReceiptLine], option: Currency?) -> (Currency?, String?, ReceiptCountry?) {
    var counts: [String: Int] = [:]
    var dollar = false
    for line in lines {
      for word in line.words {
        let upper = word.text.uppercased()
        let letters = String(upper.filter { $0.isLetter })
        if commonCodes.contains(letters), letters.count == 3, word.text.filter(\.isLetter).allSatisfy(\.isUppercase),
          upper.hasPrefix(letters) || upper.hasSuffix(letters) || upper.contains("(" + letters)
        {
          counts[letters, default: 0] += 2
        }
        for (mark, code) in CurrencyMark.unambiguous {
          // A sign before a number, after one, or alone (`RM` and `Rp` are words too).
          if upper.hasPrefix(mark) {
            let rest = upper.dropFirst(mark.count)
            guard rest.isEmpty || rest.first?.isNumber == true || rest.first == "." || rest.first == ")" else {
              continue
            }
          } else if upper.hasSuffix(mark) {
            guard upper.dropLast(mark.count).last?.isNumber == true else { continue }
          } else if !upper.contains("(" + mark + ")") {
            continue
          }
          counts[code, default: 0] += 1
        }
        if upper.contains("$") { dollar = true }
      }
    }
    let printed = counts
    let country = ReceiptCountry.of(lines: lines.map(\.text))
    if let country { counts[country.currency, default: 0] += 3 }
    // The most named; of equals, the one printed, then the first in the alphabet.
    if let best = counts.max(by: {
      ($0.value, printed[$0.key] ?? 0, $1.key) < ($1.value, printed[$1.key] ?? 0, $0.key)
    }),
      let currency = try? Currency(code: best.key)
    {
      if printed[best.key] != nil { return (currency, "printed", country) }
      if let country { return (currency, "country: \(country.code), from \"\(country.evidence)\"", country) }
    }
    if let option { return (option, "option", country) }
    if dollar { return (.usd, "dollar", country) }
    return (nil, nil, country)
  }
}

extension StringProtocol {
  /// The text without the characters at its end that `predicate` accepts.
  func trimmingSuffix(while predicate: (Character) -> Bool) -> SubSequence {
    var end = endIndex
    while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
    return self[startIndex..<end]
  }
}
