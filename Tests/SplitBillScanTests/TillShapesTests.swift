import SplitBillCore
import Testing

@testable import SplitBillScan

/// Lays rows out as a till prints them: the label from the left, the figure and whatever follows
/// it (a tax letter, a rate) at the right edge. `page` puts only a last word with a digit there.
func tillPage(_ rows: [String]) -> [ReceiptLine] {
  var words: [RecognizedWord] = []
  for (row, text) in rows.enumerated() {
    let parts = text.split(separator: " ").map(String.init)
    // The right-hand block: the last word with a digit and what follows it.
    let lastFigure = parts.lastIndex { $0.contains(where: \.isNumber) }
    let firstRight = lastFigure.map { $0 > 0 ? $0 : parts.count } ?? parts.count
    var left = 20
    for part in parts[..<firstRight] {
      words.append(
        RecognizedWord(text: part, left: left, top: 20 + row * 40, width: part.count * 14, height: 24, confidence: 90))
      left += part.count * 14 + 12
    }
    var right = 700
    for part in parts[firstRight...].reversed() {
      right -= part.count * 14
      words.append(
        RecognizedWord(text: part, left: right, top: 20 + row * 40, width: part.count * 14, height: 24, confidence: 90))
      right -= 12
    }
  }
  return ReceiptLine.lines(from: words)
}

/// Shapes of the item lines European and American tills print, written from how such receipts
/// are laid out (not from the photos scan is measured on): a count and unit price on a line of
/// their own, a weight line under its item, discounts and deposits among the items, a tax rate as
/// the tax code, one tax line per rate under the total, codes between a name and its price, and a
/// card payment where the total line went unread.
@Suite struct TillShapesTests {
  let eur = Currency.eur

  @Test(arguments: [
    ("2 x 0,89", 2, 89), ("2 Stk x 0,99", 2, 99), ("3 ks x 12,50", 3, 1250), ("2 @ 0.19", 2, 19),
    ("2X 1,49 EUR", 2, 149), ("2 @ 0.19 ea", 2, 19), ("4 × 1,25", 4, 125), ("2 St. x 1,99 EUR/Stk", 2, 199),
  ])
  func readsACountLine(text: String, count: Int, unitPrice: Int64) throws {
    let line = try #require(QuantityLine.read(text, exponent: 2))
    #expect(line.count == count)
    #expect(line.unitPrice == unitPrice)
  }

  @Test(arguments: [
    "2 x 0,8", "1000 x 1,00", "0 x 1,00", "2 x -1,00", "2 x 0,00", "Joghurt 2 x 0,89", "2 x 0,89 1,78", "2 x", "x 0,89",
    "2 Stk 0,99", "0,826 kg x 1,99 EUR/kg",
  ])
  func refusesWhatIsNoCountLine(text: String) {
    #expect(QuantityLine.read(text, exponent: 2) == nil, "\(text)")
  }

  /// Whole receipts of the kinds scan is measured on, laid out as their tills print them and read
  /// without a misread: each is verified, with its items and total. What scan misses on real
  /// photos of such receipts is the reading of the page (docs/scan.md).
  @Test(arguments: [
    (
      [
        "ALDI SUED", "Milch 3,5% 0,79 A", "Bananen 1,29 A", "Pfand 0,25 A", "Summe 2,33", "Bar 10,00", "Rueckgeld 7,67",
        "MwSt Netto MwSt Brutto", "A 7% 2,18 0,15 2,33",
      ], "EUR", [79, 129, 25], 233
    ),
    (
      ["LIDL", "Bio Bananen 1,49 A", "2 x 0,89", "Joghurt 1,78 A", "zu zahlen 3,27", "Bar 5,00", "Rueckgeld 1,73"],
      "EUR", [149, 178], 327
    ),
    (
      [
        "EDEKA Marktkauf", "EUR", "Brot 1,99 A", "Butter 2,29 A", "Wein 4,99 B", "Posten: 3", "SUMME EUR 9,27",
        "Geg. Bar EUR 20,00", "Rueckgeld BAR EUR 10,73", "A= 7,0% 4,00 0,28 4,28", "B= 19,0% 4,19 0,80 4,99",
      ],
      "EUR", [199, 229, 499], 927
    ),
    (
      [
        "toom Baumarkt GmbH", "EUR", "4006381333931 Schraube 4x40 3,99 A", "4001234567890 Duebel 3,98 A", "Summe 7,97",
        "Bar 10,00", "Rueckgeld 2,03",
      ], "EUR", [399, 398], 797
    ),
    (
      [
        "real,- SB-Warenhaus GmbH", "Brot 1,99 B", "Pfand 0,25 A", "Leergut -0,25 A", "SUMME EUR 1,99", "EC-Karte 1,99",
      ],
      "EUR", [199, 25, -25], 199
    ),
    (
      ["Kaiser's", "Kaese 2,49 1", "Wurst 3,10 1", "Summe EUR 5,59", "EC-Cash 5,59", "MwSt 7% 0,37"], "EUR",
      [249, 310],
      559
    ),
    (
      [
        "TESCO Praha", "ROHLIK 3,90 A", "MLEKO 2x 21,90 43,80 A", "CELKEM 47,70", "Platba kartou 47,70", "DPH 15% 6,22",
      ],
      "CZK", [390, 4380], 4770
    ),
    (
      [
        "WALMART", "BANANAS 000000004011 F 1.24 N", "MILK 007874235186 F 2.98 N", "SUBTOTAL 4.22", "TAX 1 7.000 % 0.00",
        "TOTAL 4.22", "DEBIT TEND 4.22", "CHANGE DUE 0.00",
      ], "USD", [124, 298], 422
    ),
  ])
  func aCleanlyReadReceiptOfTheMeasuredKindsIsVerified(
    lines: [String], currency: String, items: [Int64], total: Int64
  ) throws {
    let receipt = ReceiptReader.read(page(lines), currency: try Currency(code: currency))
    #expect(receipt.status == .verified, "\(lines[0]): \(receipt.reasons)")
    #expect(receipt.items.map(\.amount) == items, "\(lines[0]): \(receipt.items)")
    #expect(receipt.total?.minorUnits == total)
    #expect(receipt.currency?.code == currency)
  }

  @Test func aCountLineIsADetailOfItsItemAboveOrBelow() throws {
    // Above the item (ALDI), and below it with a word for pieces (REWE).
    let above = ReceiptReader.read(
      tillPage([
        "ALDI SÜD", "EUR", "Milch 0,79 A", "2 x 0,89", "Joghurt 1,78 A", "Pfand 0,25 B", "Summe 2,82", "Bar 5,00",
        "Rückgeld 2,18",
      ]), currency: nil)
    #expect(above.status == .verified, "\(above.reasons)")
    #expect(above.items.map(\.name) == ["Milch", "Joghurt", "Pfand"])
    #expect(above.items.map(\.quantity) == [1, 2, 1])
    let below = ReceiptReader.read(
      tillPage(["REWE Markt GmbH", "EUR", "BROT 1,49 B", "APFEL 1,98 B", "2 Stk x 0,99", "SUMME EUR 3,47"]),
      currency: nil)
    #expect(below.status == .verified, "\(below.reasons)")
    #expect(below.items.map(\.name) == ["BROT", "APFEL"])
    #expect(below.items.last?.quantity == 2)
    #expect(below.unreadPrices.isEmpty)
    // A count line no neighbour ties to is no item either: the arithmetic says a price is off.
    let misread = ReceiptReader.read(
      tillPage(["REWE", "EUR", "BROT 1,49 B", "APFEL 1,93 B", "2 Stk x 0,99", "SUMME EUR 3,47"]), currency: nil)
    #expect(misread.items.map(\.name) == ["BROT", "APFEL"])
    #expect(misread.status == .needsReview)
  }

  @Test func aCountLineLeftOfThePriceColumnStillGivesItsItemsQuantity() {
    // Tills print the unit price in a column of its own, left of the prices: the column rule
    // takes the line out of the priced ones, and it is still the last item's count.
    let lines = tillPage([
      "REWE", "EUR", "BROT 1,49 B", "MILCH 0,99 B", "APFEL 1,98 B", "2 Stk x 0,99", "SUMME EUR 4,46",
    ])
    .map { line in
      guard line.text.hasPrefix("2 Stk") else { return line }
      var moved = line
      moved.words = line.words.map { word in
        var word = word
        if word.text == "0,99" { word.left -= 300 }
        return word
      }
      return moved
    }
    let receipt = ReceiptReader.read(lines, currency: nil)
    #expect(receipt.items.map(\.name) == ["BROT", "MILCH", "APFEL"], "\(receipt.items)")
    #expect(receipt.items.map(\.quantity) == [1, 1, 2])
    #expect(receipt.unreadPrices.isEmpty)
    #expect(receipt.status == .verified, "\(receipt.reasons)")
  }

  @Test func aWeightLineIsNoName() {
    let receipt = ReceiptReader.read(
      tillPage(["LIDL", "EUR", "Gurken 0,69 A", "0,826 kg x 1,99 EUR/kg", "Bananen 1,64 A", "zu zahlen 2,33"]),
      currency: nil)
    #expect(receipt.items.map(\.name) == ["Gurken", "Bananen"], "\(receipt.items)")
    #expect(receipt.status == .verified, "\(receipt.reasons)")
  }

  @Test func aDiscountAmongTheItemsTakesOff() {
    for discount in ["Rabatt -0,30 A", "Rabatt 0,30-", "Rabatt 0,30"] {
      let receipt = ReceiptReader.read(
        tillPage(["LIDL", "EUR", "Tomaten 1,49 A", discount, "Leergut -0,50 B", "Käse 2,49 B", "zu zahlen 3,18"]),
        currency: nil)
      #expect(receipt.status == .verified, "\(discount): \(receipt.reasons)")
      #expect(receipt.items.map(\.amount) == [149, -30, -50, 249], "\(discount)")
    }
  }

  @Test func aRateAfterThePriceIsItsTaxCode() throws {
    let receipt = ReceiptReader.read(
      tillPage([
        "Albert", "PRAHA", "MASLO 49,90 15%", "PIVO 24,90 21%", "Celkem Kč 74,80", "DPH 15% 6,51", "DPH 21% 4,32",
        "Platba kartou 74,80",
      ]), currency: nil)
    #expect(receipt.items.map(\.amount) == [4990, 2490])
    #expect(receipt.currency?.code == "CZK")
    // One tax line a rate: the tax is theirs together, and no single rate is checked against the total.
    #expect(receipt.tax?.minorUnits == 1083)
    #expect(receipt.taxIncluded)
    #expect(receipt.taxRate == nil)
    #expect(receipt.status == .verified, "\(receipt.reasons)")
    // A percentage is a tax code only after a price with the currency's decimals.
    #expect(ReceiptReader.isRateCode("15%", after: "49,90", exponent: 2))
    #expect(ReceiptReader.isRateCode("7,0%", after: "1.99", exponent: 2))
    #expect(!ReceiptReader.isRateCode("15%", after: "Rabatt", exponent: 2))
    #expect(!ReceiptReader.isRateCode("150%", after: "49,90", exponent: 2))
    #expect(!ReceiptReader.isRateCode("%", after: "49,90", exponent: 2))
  }

  @Test func aMinusAgainstTheCurrencyIsTheAmounts() {
    let receipt = ReceiptReader.read(
      tillPage([
        "KEDAI SDN BHD", "SPRAYER 19.00", "CLEANER 14.92", "TOTAL RM 33.92", "ROUNDING ADJUSTMENT -RM 0.02",
        "TOTAL ROUNDED RM 33.90", "CASH RM 50.00", "CHANGE RM 16.10",
      ]), currency: nil)
    #expect(receipt.rounding?.minorUnits == -2)
    #expect(receipt.total?.minorUnits == 3390)
    #expect(receipt.status == .verified, "\(receipt.reasons)")
  }

  @Test func aNameTwoLinesAboveItsPriceAcrossALineOfCodes() {
    // Name, then a line of codes, then the barcode, count and price; a count of items under them.
    let receipt = ReceiptReader.read(
      tillPage([
        "HARDWARE SDN BHD", "-INVOICE-", "CHOPPING BOARD 35.5x25.5CM", "EZ10HDO5 - 24", "8970669 1X 19.00 19.00",
        "AIR PRESSURE SPRAYER 1.5L", "HCO3-7 - 15", "9066468 1X 8.02 8.02", "Item(s) : 2 Qty(s) : 2", "TOTAL RM 27.02",
      ]), currency: nil)
    #expect(
      receipt.items.map(\.name) == ["CHOPPING BOARD 35.5x25.5CM", "AIR PRESSURE SPRAYER 1.5L"], "\(receipt.items)")
    #expect(receipt.unreadPrices.isEmpty)
    #expect(receipt.status == .verified, "\(receipt.reasons)")
    #expect(LineRole.of(label: "Item(s) : 2 Qty(s) : 2") == .ignored)
    // A name Tesseract read short (`eh` for `teh`) is still a name; a code is not.
    #expect(ReceiptReader.isNameWord("eh"))
    #expect(!ReceiptReader.isNameWord("120ML"))
    #expect(!ReceiptReader.isNameWord("EZ10HDO5"))
    #expect(!ReceiptReader.isNameWord("HCO3-7"))
  }

  @Test func aLineOfCodesAndFiguresTakesItsNameFromBelow() throws {
    // Product codes with letters in them (`FG-A00019`) are no name: each name is under its line.
    let receipt = ReceiptReader.read(
      tillPage([
        "YHH AEON", "Item Qty U.Price Amount Tax", "FG-A00019 1 1.50 1.50 SR", "Green Tea", "FG-H00001 1 8.80 8.80 SR",
        "Kake Udon", "FG-H00100 1 2.80 2.80 SR", "Enoki Tempura", "SubTotal : 13.10", "Total : 13.10",
      ]), currency: try Currency(code: "MYR"))
    #expect(receipt.items.map { $0.name.hasPrefix("Green Tea") } == [true, false, false], "\(receipt.items)")
    #expect(receipt.items.map { $0.name.split(separator: " ").first.map(String.init) } == ["Green", "Kake", "Enoki"])
    #expect(receipt.status == .verified, "\(receipt.reasons)")
  }

  @Test func aNameLineWithAFiguresWordKeepsTheItemLineUnderIt() throws {
    // A second line of a name (`workmanship & service`) over the next item's line of a code, a
    // count and prices: that line is an item's, not the service's value printed a line down.
    let receipt = ReceiptReader.read(
      tillPage([
        "SOON HUAT MACHINERY", "Item Qty S/Price Amount", "1072 1 80.00 80.00", "REPAIR ENGINE POWER SPRAYER",
        "workmanship & service", "70349 1 160.00 160.00", "GIANT 606 OVERFLOW ASSY", "1071 1 17.00 17.00",
        "ENGINE OIL", "Total Sales 257.00", "CASH 257.00", "Change 0.00",
      ]), currency: try Currency(code: "MYR"))
    #expect(receipt.service == nil)
    #expect(receipt.items.map(\.amount) == [8_000, 16_000, 1_700], "\(receipt.items)")
    #expect(receipt.status == .verified, "\(receipt.reasons)")
    // A value alone on the line under a bare label is still the label's (a price column that
    // slipped a line down).
    let slipped = ReceiptReader.read(
      tillPage(["CAFE", "Soup 5.00", "Tea 2.00", "SERVICE CHARGE", "0.70", "TOTAL", "7.70"]),
      currency: try Currency(code: "MYR"))
    #expect(slipped.service?.minorUnits == 70, "\(slipped.reasons)")
    #expect(slipped.total?.minorUnits == 770)
  }
  @Test func aTaxWhoseLabelSaysThePricesHoldItIsNotAddedWhenNothingCloses() throws {
    // A price misread (108.90 printed): the review names it, where adding the tax again made
    // the gap 8.57, which no one misread digit explains.
    let receipt = ReceiptReader.read(
      tillPage([
        "MORGANFIELDS", "Ribs 58.90", "Platter 106.90", "Mojito 18.90", "(Inclusive) GST 6% 10.57", "Total 186.70",
      ]), currency: try Currency(code: "MYR"))
    #expect(receipt.status == .needsReview)
    #expect(receipt.taxIncluded)
    let message = receipt.reasons.first { $0.code == "scan.total-mismatch" }?.message ?? ""
    #expect(message.contains("108.90 would make it add up"), "\(receipt.reasons)")
    #expect(receipt.checks.first { $0.name == "tax-included" }?.passed == true, "\(receipt.checks)")
    // Without the word, a tax that closes nothing is still taken as added on top.
    let added = ReceiptReader.read(
      tillPage(["CAFE", "Ribs 58.90", "Platter 106.90", "GST 6% 9.95", "Total 180.00"]),
      currency: try Currency(code: "MYR"))
    #expect(!added.taxIncluded)
    #expect(LineRole.saysIncluded("inkl. MwSt 19%") && LineRole.saysIncluded("enthaltene MwSt"))
    #expect(!LineRole.saysIncluded("GST 6%") && !LineRole.saysIncluded("Total excl. VAT"))
  }

  @Test func aCardPaymentTheItemsTieToStandsForAnUnreadTotal() {
    let receipt = ReceiptReader.read(
      tillPage(["REWE", "EUR", "BROT 1,49 B", "BUTTER 1,99 B", "S#MME EUR ~~", "Geg. EC-Karte EUR 3,48"]),
      currency: nil)
    #expect(receipt.total == ReadFigure(minorUnits: 348, line: 6))
    #expect(receipt.status == .verified, "\(receipt.reasons)")
    // One the items do not tie to gives no total.
    let apart = ReceiptReader.read(
      tillPage(["REWE", "EUR", "BROT 1,49 B", "BUTTER 1,99 B", "S#MME EUR ~~", "Geg. EC-Karte EUR 3,98"]),
      currency: nil)
    #expect(apart.total == nil)
    #expect(apart.status == .needsReview)
  }

  /// A summary printed in two columns, a count and a figure on each line (Malaysian tills:
  /// `ITEM: 2   Total with GST @ 6%  6.83`, `QTY: 3   ROUNDING  0.02`, `TOTAL SAVING: 0.00
  /// TOTAL  6.85`).
  func twoColumnSummary(rounding: String, under: [String] = []) -> [ReceiptLine] {
    tillPage(
      [
        "WELLMART SDN BHD", "Blueberry bun 3.05 S", "Pak choy 3.78 Z", "ITEM: 2 Total with GST @ 6% 6.83",
        "QTY: 3 ROUNDING \(rounding)", "TOTAL SAVING: 0.00 TOTAL 6.85", "Cash 20.00", "CHANGE 13.15",
      ] + under)
  }

  @Test func eachLineOfATwoColumnSummaryIsReadByItsRightHandLabel() throws {
    let receipt = ReceiptReader.read(twoColumnSummary(rounding: "0.02"), currency: nil)
    #expect(receipt.total == ReadFigure(minorUnits: 685, line: 6))
    #expect(receipt.rounding?.minorUnits == 2)
    #expect(receipt.items.map(\.amount) == [305, 378])
    #expect(receipt.status == .verified, "\(receipt.reasons)")
    #expect(LineRole.of(label: "Total with GST @ 6%") == .total)
  }

  @Test func aTotalUnderARoundingIsWhatWasPaidEvenWhenTheRoundingIsMisread() throws {
    // `0.92` for `0.02`: the total before the rounding adds up to the items, but it was not paid.
    let receipt = ReceiptReader.read(twoColumnSummary(rounding: "0.92"), currency: nil)
    #expect(receipt.total == ReadFigure(minorUnits: 685, line: 6))
    #expect(receipt.status == .needsReview)
    let mismatch = try #require(receipt.reasons.first { $0.code == "scan.total-mismatch" })
    #expect(mismatch.message.contains("the rounding on line 5 reads 0.92; 0.02 would make it add up"), "\(mismatch)")
    // The total under the rounding, not one further down (a tax summary's).
    let summary = ReceiptReader.read(
      twoColumnSummary(rounding: "0.92", under: ["GST Summary", "Total 6.44"]), currency: nil)
    #expect(summary.total == ReadFigure(minorUnits: 685, line: 6))
    #expect(summary.status == .needsReview)
  }

  @Test func aLabelTakesItsRightHandWordsOnlyWhenTheyNameAFigure() {
    func words(_ text: String) -> [RecognizedWord] {
      text.split(separator: " ").enumerated().map { index, part in
        RecognizedWord(text: String(part), left: 20 + index * 100, top: 20, width: 80, height: 24, confidence: 90)
      }
    }
    #expect(ReceiptReader.rightHandLabel(words("Cash 20.00 Change"), exponent: 2)?.role == .change)
    #expect(ReceiptReader.rightHandLabel(words("QTY: 3 ROUNDING"), exponent: 2)?.role == .rounding)
    // An item's name with a number in it, a count and a unit price: no figure's label.
    #expect(ReceiptReader.rightHandLabel(words("HEINEKEN (5 BTL) 2x 95.00"), exponent: 2) == nil)
    #expect(ReceiptReader.rightHandLabel(words("Samudra Bun 180g Blueberry"), exponent: 2) == nil)
    #expect(ReceiptReader.rightHandLabel(words("PIZZA 12 INCH"), exponent: 2) == nil)
    // Nothing but a number before it: no pair on the left.
    #expect(ReceiptReader.rightHandLabel(words("2 TOTAL"), exponent: 2) == nil)
    // A figure on the left and a count of items on the right.
    #expect(ReceiptReader.rightHandLabel(words("Subtotal 6.83 QTY"), exponent: 2) == nil)
  }

  @Test func aPriceSplitAfterItsPointIsOnePrice() throws {
    // Tesseract reads `RM1.38` on a thermal till as `RM1. 38`.
    let rows = [
      "STATIONERY SDN BHD", "B/W PRINT A4", "1 RM1.38", "GST TAXABLE AMT RM1.30", "GST 6% RM0.08", "TOTAL RM1.38",
    ]
    // Line 3's price as read: `RM1.` and `38`, a space (20 pixels, the text 24 high) apart.
    var words = tillPage(rows).flatMap(\.words)
    let price = try #require(words.firstIndex { $0.text == "RM1.38" && $0.top == 100 })
    let top = words[price].top
    words[price] = RecognizedWord(text: "RM1.", left: 600, top: top, width: 56, height: 24, confidence: 90)
    words.append(RecognizedWord(text: "38", left: 676, top: top, width: 24, height: 24, confidence: 90))
    let receipt = ReceiptReader.read(ReceiptLine.lines(from: words), currency: nil)
    #expect(receipt.items.map(\.amount) == [138])
    #expect(receipt.net?.minorUnits == 130)
    #expect(receipt.status == .verified, "\(receipt.reasons)")
    // A number split closer than a space joins, decimals alone after a point a space away too;
    // farther apart, or three digits after no point, they stay apart.
    func joined(_ first: String, _ second: String, gap: Int) -> [String] {
      ReceiptLine.joinSplitNumbers([
        RecognizedWord(text: first, left: 600, top: 20, width: 42, height: 24, confidence: 90),
        RecognizedWord(text: second, left: 642 + gap, top: 20, width: 28, height: 24, confidence: 90),
      ]).map(\.text)
    }
    #expect(joined("12,", "50", gap: 20) == ["12,50"])
    #expect(joined("12", ".50", gap: 10) == ["12.50"])
    #expect(joined("12,", "50", gap: 30) == ["12,", "50"])
    #expect(joined("12", ".50", gap: 20) == ["12", ".50"])
    #expect(joined("12", "500", gap: 8) == ["12", "500"])
  }

  @Test func anIncludedTaxLargerThanAnyTaxIsAReview() throws {
    // Two lines read as tax (a taxable amount among them) add up to the whole total.
    let receipt = ReceiptReader.read(
      tillPage(["SHOP SDN BHD", "PRINT 1.38", "GST TA AMT 1.30", "GST 0.08", "TOTAL 1.38"]), currency: nil)
    #expect(receipt.total?.minorUnits == 138)
    #expect(receipt.status == .needsReview)
    #expect(receipt.reasons.map(\.code) == ["scan.tax-included"], "\(receipt.reasons)")
    // One a tax can be, with no rate printed, is taken as read.
    let plausible = ReceiptReader.read(
      tillPage(["SHOP SDN BHD", "PRINT 1.38", "GST 0.08", "TOTAL 1.38"]), currency: nil)
    #expect(plausible.status == .verified, "\(plausible.reasons)")
  }

  @Test func aFigureWithThreeDecimalsIsNoThousandsWhereThePricesPrintAPoint() throws {
    // `28.970` for `28.90`: on a receipt whose prices print a decimal point it is a misread, not
    // 28,970. The total is then worked out from the subtotal the items tie to, for review.
    let misread = ReceiptReader.read(
      tillPage(["SHOP SDN BHD", "Gloves 14.90", "Mask 14.00", "SUB-TOTAL 28.90", "TOTAL 28.970"]), currency: nil)
    #expect(misread.total?.minorUnits == 2890, "\(String(describing: misread.total))")
    #expect(misread.totalWorkedOut)
    #expect(misread.reasons.map(\.code) == ["scan.total-worked-out"], "\(misread.reasons)")
    // Where the prices print a decimal comma, a point groups thousands as before.
    let grouped = ReceiptReader.read(
      tillPage(["Möbelhaus GmbH", "Sofa 1.299,00", "Tisch 250,50", "Lampe 49,50", "SUMME EUR 1.599,00"]), currency: nil)
    #expect(grouped.total?.minorUnits == 159_900)
    #expect(grouped.status == .verified, "\(grouped.reasons)")
    #expect(ReceiptReader.decimalMark(of: []) == nil)
  }
}
