import Foundation
import SplitBillCore
import Testing

@testable import SplitBillScan

/// Lines as Tesseract would give them: each entry a line of words, the last word at the right
/// edge (the price column), 40 px apart.
func page(_ rows: [String]) -> [ReceiptLine] {
  var words: [RecognizedWord] = []
  for (row, text) in rows.enumerated() {
    let parts = text.split(separator: " ").map(String.init)
    var left = 20
    for (index, part) in parts.enumerated() {
      let width = part.count * 14
      let isLast = index == parts.count - 1 && parts.count > 1 && part.contains(where: \.isNumber)
      words.append(
        RecognizedWord(
          text: part, left: isLast ? 700 - width : left, top: 20 + row * 40, width: width, height: 24, confidence: 90))
      left += width + 12
    }
  }
  return ReceiptLine.lines(from: words)
}

@Suite struct PrintedAmountTests {
  @Test func readsThePrintedFormsExactly() throws {
    func units(_ text: String, exponent: Int = 2, whole: Bool = false) -> Int64? {
      PrintedAmount.parse(text, exponent: exponent, wholeAmounts: whole)?.minorUnits(exponent: exponent)
    }
    #expect(units("14.00") == 1400)
    #expect(units("8.2") == 820)
    #expect(units("1,234.56") == 123_456)
    #expect(units("1.234,56") == 123_456)
    #expect(units("12,50") == 1250)
    #expect(units("$7.97") == 797)
    #expect(units("RM12.00") == 1200)
    #expect(units("€3,50") == 350)
    #expect(units("5.00-") == -500)
    #expect(units("(2.50)") == -250)
    #expect(units("174,600", exponent: 2) == 17_460_000)
    #expect(units("0.825") == nil, "three decimals are not a price in a two-decimal currency")
    #expect(units("1.250", exponent: 3) == 1250)
    #expect(units("2017") == nil, "a bare integer is a year or a count")
    #expect(units("1500", exponent: 0, whole: true) == 1500)
    #expect(units("12:44") == nil)
    #expect(units("19/04/2017") == nil)
    #expect(units("1,2,3") == nil)
    // A tax flag joined to the dollar sign goes with it; a currency's own mark is read as before.
    #expect(units("W$4.47") == 447)
    #expect(units("HM$2.99") == 299)
    #expect(units("S$4.47") == 447)
    #expect(units("WHX$4.47") == nil, "three letters are a word, not a flag")
    #expect(units("w$4.47") == nil)
  }

  @Test func aTaxFlagJoinedToThePriceStillPricesTheItem() {
    let receipt = ReceiptReader.read(
      page([
        "WING HING SWT SOY BEVERAGE W$4.47",
        "FF SHEPHERDS PURSE FILLING W $6.98",
        "TOTAL $11.45",
      ]), currency: .usd)
    #expect(receipt.items.map(\.amount) == [447, 698])
    #expect(receipt.total?.minorUnits == 1145)
    #expect(receipt.status == .verified)
  }
}

@Suite struct LineRoleTests {
  @Test(arguments: [
    ("SUBTOTAL", LineRole.subtotal), ("Sub Total", .subtotal), ("Zwischensumme", .subtotal),
    ("TOTAL", .total), ("TOTA", .total), ("Net Total", .total), ("Summe EUR", .total), ("TOTALE", .total),
    ("Totaal", .total), ("Jumlah", .total), ("Total incl. GST", .total), ("GST 6%", .tax), ("MwSt 19%", .tax),
    ("TVA 10%", .tax), ("IVA", .tax), ("BTW 9%", .tax), ("10% Srv Chg", .service), ("Service charge", .service),
    ("Coperto", .service), ("Discount", .discount), ("Rabatt", .discount), ("Rounding adj", .rounding),
    ("Tip", .tip), ("Gratuity 18%", .tip), ("Trinkgeld", .tip), ("CASH", .cash), ("Tunai", .cash),
    ("CHANGE DUE", .change), ("Rückgeld", .change), ("Kembalian", .change), ("VISA TEND", .tender),
    ("Total qty", .ignored), ("Tel", .ignored),
  ])
  func tellsTheFigureByItsLabel(label: String, role: LineRole) {
    #expect(LineRole.of(label: label) == role)
  }

  @Test func anItemNameIsNoFigure() {
    for name in ["Clam chowder", "Pizza margherita", "Fish tacos", "Bagel"] { #expect(LineRole.of(label: name) == nil) }
  }
}

@Suite struct ReceiptReaderTests {
  let usd = Currency.usd

  @Test func aReceiptWhoseArithmeticClosesIsVerified() {
    let receipt = ReceiptReader.read(
      page([
        "BLUE HERON CAFE", "Date: 2026-11-20", "Clam chowder 9.50", "2 x Fish tacos 25.00", "Lemonade 4.25",
        "Subtotal 38.75", "Tax 8% 3.10", "TOTAL 41.85", "CASH 50.00", "CHANGE 8.15",
      ]), currency: usd)
    #expect(receipt.status == .verified)
    #expect(receipt.total?.minorUnits == 4185)
    #expect(receipt.merchant == "BLUE HERON CAFE")
    #expect(receipt.date == CalendarDate(year: 2026, month: 11, day: 20))
    #expect(receipt.items.map(\.name) == ["Clam chowder", "Fish tacos", "Lemonade"])
    #expect(receipt.items.map(\.quantity) == [1, 2, 1])
    #expect(receipt.items[1].unitPrice == 1250)
    #expect(receipt.checks.map(\.name) == ["items-subtotal", "subtotal-total", "cash-change", "decimals"])
    #expect(receipt.checks.filter { !$0.passed }.isEmpty)
  }

  @Test func aTotalThatDoesNotAddUpNeedsReviewAtItsLine() {
    let receipt = ReceiptReader.read(
      page(["CAFE", "Soup 9.50", "Bread 4.25", "Subtotal 13.75", "Tax 1.10", "TOTAL 15.95"]), currency: usd)
    #expect(receipt.status == .needsReview)
    #expect(receipt.total?.minorUnits == 1595)
    let reason = receipt.reasons.first { $0.code == "scan.total-mismatch" }
    #expect(reason?.line == 6)
    #expect(reason?.message.contains("14.85") == true)
  }

  @Test func aMissingItemNeedsReview() {
    let receipt = ReceiptReader.read(
      page(["CAFE", "Soup 9.50", "Subtotal 13.75", "Tax 1.10", "TOTAL 14.85"]), currency: usd)
    #expect(receipt.status == .needsReview)
    #expect(receipt.reasons.map(\.code) == ["scan.items-subtotal"])
  }

  @Test func aTotalNoOneCanReadIsWorkedOutForReview() throws {
    let myr = try Currency(code: "MYR")
    let receipt = ReceiptReader.read(
      page([
        "B & BEST RESTAURANT", "2 FISHBALL NOODLE @7.00 14.00", "2 SUB TOTAL 14.00", "GST 6% 0.84",
        "ROUNDING ADJ 0.01", "NET TOTAL", "CASH", "GST SUMMARY 6% 0.84",
      ]), currency: myr)
    #expect(receipt.total?.minorUnits == 1485)
    #expect(receipt.total?.line == nil)
    #expect(receipt.totalWorkedOut)
    #expect(receipt.status == .needsReview)
    #expect(receipt.reasons.map(\.code) == ["scan.total-worked-out"])
    #expect(
      receipt.reasons.first?.message
        == "no total could be read: 14.85 is subtotal 14.00 + tax 0.84 + rounding 0.01; compare it with the printed total"
    )
    // The items tie to the subtotal: the one check a worked-out total rests on.
    #expect(receipt.checks.map(\.name) == ["items-subtotal", "decimals"])
    let bill = ReceiptBill(id: "b", photo: "b.jpg", receipt: receipt, diners: ["Ana"], paidBy: "Ana")
    let total = try #require(bill.yamlLines(dash: 2).first { $0.contains("receipt_total:") })
    #expect(total.hasSuffix("receipt_total: 14.85  # REVIEW: \(receipt.reasons[0].message)"))

    // A tax summary under the total's label, a tip above it: the tip counts, the summary does not.
    let tipped = ReceiptReader.read(
      page(["CAFE", "Soup 9.50", "Bread 4.50", "SUBTOTAL 14.00", "Gratuity 18% 2.52", "Tax 1.12", "TOTAL", "Tax 1.12"]),
      currency: usd)
    #expect(tipped.total?.minorUnits == 1764)
    #expect(tipped.tip?.minorUnits == 252)

    // Items that do not tie to the subtotal leave the total unread.
    let untied = ReceiptReader.read(
      page(["CAFE", "Soup 9.50", "SUBTOTAL 14.00", "Tax 1.12", "TOTAL"]), currency: usd)
    #expect(untied.total == nil)
    #expect(untied.reasons.map(\.code).contains("scan.no-total"))
    // A total that can be read is never worked out.
    let printed = ReceiptReader.read(
      page(["CAFE", "Soup 9.50", "Bread 4.50", "SUBTOTAL 14.00", "Tax 1.12", "TOTAL 15.12"]), currency: usd)
    #expect(printed.status == .verified)
    #expect(!printed.totalWorkedOut)
  }

  @Test func aDigitAfterAPriceIsATaxFlagMisread() throws {
    let myr = try Currency(code: "MYR")
    let receipt = ReceiptReader.read(
      page(["ECONSAVE", "(NR)ES CHOICE SOFT 1 4.20 3", "(NR)ES ICE COOL MI 1 0.95 5", "SUBTOTAL 5.15", "TOTAL 5.15"]),
      currency: myr)
    #expect(receipt.items.map(\.amount) == [420, 95])
    #expect(receipt.status == .verified)
    // Not after a whole number or a price with too few decimals.
    #expect(!ReceiptReader.isMisreadFlag("3", after: "420", exponent: 2))
    #expect(!ReceiptReader.isMisreadFlag("3", after: "4.2", exponent: 2))
    #expect(!ReceiptReader.isMisreadFlag("3", after: "4.20", exponent: 0))
    #expect(!ReceiptReader.isMisreadFlag("13", after: "4.20", exponent: 2))
  }

  @Test func aWeighedItemIsItsWeightTimesItsPricePerUnit() throws {
    func amount(_ text: String, neighbour: String? = nil) -> Int64? {
      WeighedLine.read(text, neighbour: neighbour)?.amount(exponent: 2)
    }
    #expect(amount("0.825 kg @ $6.59/kg") == 544)  // 5.43675
    #expect(amount("0.715 @ $4.39/kq") == 314)  // 3.13885, the unit misread
    #expect(amount("1.5 lb @ 2.99/lb") == 449)  // 4.485, half up
    #expect(amount("0,750 kg x 2,65 EUR/kg") == 199)  // 1.9875
    #expect(amount("kg @ $6.59/kg f 338", neighbour: "0.825") == 544)  // the weight on its own line
    #expect(amount("2 @ 3.49") == nil)  // a count and a unit price: no weight
    #expect(amount("@ $6.59/kg") == nil)
    #expect(amount("2@$3.49ea.") == nil)

    // Its printed price smudged: the weight times the price per kilo prices it, named from above.
    let cad = try Currency(code: "CAD")
    let receipt = ReceiptReader.read(
      page([
        "GROCER", "BABY BOK CHOY", "0.825 kg @ $6.59/kg ~~", "ORGANIC GINGER", "0.715 kg @ $4.39/kg W $3.14",
        "MILK 4.99", "TOTAL $13.57",
      ]), currency: cad)
    #expect(receipt.items.map(\.amount) == [544, 314, 499])
    #expect(receipt.items.map(\.name) == ["BABY BOK CHOY", "ORGANIC GINGER W", "MILK"])
    #expect(receipt.status == .verified)
    // A weight line under the price it makes is a detail of that item, not another one.
    let eur = try Currency(code: "EUR")
    let detail = ReceiptReader.read(
      page(["REWE", "Bananen 1,99", "0,750 kg x 2,65 EUR/kg", "Milch 1,09", "SUMME EUR 3,08"]), currency: eur)
    #expect(detail.items.map(\.amount) == [199, 109])
    #expect(detail.status == .verified)
  }

  @Test func aLastZeroReadAsCIsMended() {
    #expect(ReceiptReader.cleanNumber("86.0¢") == "86.00")
    #expect(ReceiptReader.cleanNumber("40.0c") == "40.00")
    #expect(ReceiptReader.cleanNumber("4.80C") == "4.80")  // a tax code
    #expect(ReceiptReader.cleanNumber("400c") == "400c")  // no decimal point: not a price
  }

  @Test func aLineTwoReadingsDisagreeOnIsTakenWhereTheArithmeticSaysForReview() throws {
    let first = ReceiptReader.read(
      page(["T&T", "WHITE POMELO 2.66", "RED POMELO 2.32", "TOTAL 5.00"]), currency: usd)
    let second = ReceiptReader.read(
      page(["T&T", "WHITE POHELO 2.68", "RED POMELO 2.33", "TOTAL 5.01"]), currency: usd)
    #expect(first.status == .needsReview)
    let mended = try #require(first.mended(by: [second]))
    #expect(mended.items.map(\.amount) == [268, 232])
    #expect(mended.status == .needsReview)
    #expect(mended.reasons.map(\.code) == ["scan.another-reading"])
    #expect(mended.reasons.first?.line == 2)
    #expect(mended.checks.filter { !$0.passed }.isEmpty)
    let bill = ReceiptBill(id: "t", photo: "t.jpg", receipt: mended, diners: ["Ana"], paidBy: "Ana")
    #expect(bill.yamlLines(dash: 2).contains { $0.contains("{name: WHITE POMELO, price: 2.68}  # REVIEW: ") })

    // Two different changes that would each close: nothing is taken.
    let third = ReceiptReader.read(page(["T&T", "WHITE POMELO 2.66", "RED POMELO 2.34", "TOTAL 5.00"]), currency: usd)
    #expect(first.mended(by: [second, third]) == nil)
    // A reading that closes, or whose total was worked out, is left as it is.
    let worked = ReceiptReader.read(
      page(["CAFE", "Soup 9.50", "Bread 4.50", "SUBTOTAL 14.00", "Tax 1.12", "TOTAL"]), currency: usd)
    let other = ReceiptReader.read(
      page(["CAFE", "Soup 9.60", "Bread 4.50", "SUBTOTAL 14.10", "Tax 1.12", "TOTAL"]), currency: usd)
    #expect(worked.totalWorkedOut)
    #expect(worked.mended(by: [other]) == nil)
    let closed = ReceiptReader.read(page(["T&T", "WHITE POMELO 2.68", "RED POMELO 2.32", "TOTAL 5.00"]), currency: usd)
    #expect(closed.status == .verified)
    #expect(closed.mended(by: [first]) == nil)
  }

  @Test func cashLessChangeMustBeTheTotal() {
    let receipt = ReceiptReader.read(
      page(["CAFE", "Soup 9.50", "Bread 4.25", "TOTAL 13.75", "CASH 20.00", "CHANGE 7.25"]), currency: usd)
    #expect(receipt.status == .needsReview)
    #expect(receipt.reasons.map(\.code) == ["scan.cash-change"])
  }

  @Test func noTotalAndNoItemsAreSaid() {
    let receipt = ReceiptReader.read(page(["CAFE", "Thank you"]), currency: usd)
    #expect(Set(receipt.reasons.map(\.code)) == ["scan.no-total", "scan.no-items"])
    let noItems = ReceiptReader.read(page(["CAFE", "TOTAL 13.75"]), currency: usd)
    #expect(noItems.reasons.map(\.code) == ["scan.no-items"])
  }

  @Test func anUnreadablePriceAmongTheItemsNeedsReview() {
    let receipt = ReceiptReader.read(
      page(["CAFE", "Soup 9.50", "Bread 4.2O5x", "TOTAL 9.50"]), currency: usd)
    #expect(receipt.reasons.map(\.code) == ["scan.unread-price"])
    #expect(receipt.reasons.first?.line == 3)
  }

  @Test func anIncludedTaxIsCheckedByItsRate() {
    let wrong = ReceiptReader.read(
      page(["KEDAI", "Nasi lemak RM 8.50", "Teh tarik RM 2.80", "TOTAL RM 11.30", "GST 6% included 0.84"]),
      currency: nil)
    #expect(wrong.reasons.map(\.code) == ["scan.tax-included"])
  }

  @Test func includedTaxIsNotAdded() {
    let receipt = ReceiptReader.read(
      page(["KEDAI", "Nasi lemak RM 8.50", "Teh tarik RM 2.80", "TOTAL RM 11.30", "GST 6% included 0.64"]),
      currency: nil)
    #expect(receipt.currency?.code == "MYR")
    #expect(receipt.status == .verified)
    #expect(receipt.taxIncluded)
    #expect(receipt.tax?.minorUnits == 64)
  }

  @Test func serviceDiscountAndRoundingCloseTheChain() throws {
    let receipt = ReceiptReader.read(
      page([
        "TONY'S", "Steak 67.67", "Latte 9.35", "Subtotal 77.02", "Discount 2.00", "10% Service 7.50", "GST 6% 4.97",
        "Rounding -0.04", "Total 87.45",
      ]), currency: try Currency(code: "MYR"))
    #expect(receipt.status == .verified, "\(receipt.reasons)")
    #expect(receipt.discount?.minorUnits == 200)
    #expect(receipt.service?.minorUnits == 750)
    #expect(receipt.rounding?.minorUnits == -4)
  }

  @Test func decimalCommaAndWordsInOtherLanguages() {
    let receipt = ReceiptReader.read(
      page(["GASTHAUS ADLER", "21.11.2026", "Schnitzel 18,90", "Bier 4,50", "Summe EUR 23,40"]), currency: nil)
    #expect(receipt.status == .verified)
    #expect(receipt.currency?.code == "EUR")
    #expect(receipt.total?.minorUnits == 2340)
    #expect(receipt.date == CalendarDate(year: 2026, month: 11, day: 21))
  }

  @Test func valuesPrintedUnderTheirLabelsAreTaken() {
    // The price column slipped a line down: each label's value is on the line under it.
    let receipt = ReceiptReader.read(
      page(["LOBLAW", "COORS LIGHT 13.99", "DEPOSIT", "0.60", "SUBTOTAL", "HST 13% 14.59", "1.82", "TOTAL", "16.41"]),
      currency: .usd)
    #expect(receipt.subtotal?.minorUnits == 1459)
    #expect(receipt.tax?.minorUnits == 182)
    #expect(receipt.total?.minorUnits == 1641)
    #expect(receipt.status == .verified, "\(receipt.reasons)")
  }

  @Test func codeLinesTakeTheirNamesFromBelowAndTaxCodesComeOff() throws {
    // AEON's layout: a count, a barcode and a price with its tax code (`ZR`, read `2R`), the
    // name on the line under it; then a total before and one after the rounding.
    let receipt = ReceiptReader.read(
      page([
        "AEON CO. (M) BHD", "1x 000001227192 4.802R", "QL CLASSIC EGGS", "1x 000000812238 0.88ZR", "WHITE GARLIC",
        "Sub-total 5.68", "Total Sales Incl GST 5.68", "Rounding Adj -0.03", "Total After Adj Incl GST 5.65",
        "GST Summary Amount Tax", "Total 5.36 0.32",
      ]), currency: try Currency(code: "MYR"))
    #expect(receipt.items.map(\.name) == ["QL CLASSIC EGGS", "WHITE GARLIC"])
    #expect(receipt.items.map(\.amount) == [480, 88])
    #expect(receipt.total?.minorUnits == 565)
    #expect(receipt.status == .verified, "\(receipt.reasons)")
  }

  @Test func aPrintedTipIsPartOfTheTotal() {
    let receipt = ReceiptReader.read(
      page(["DINER", "Burger 12.00", "Fries 4.00", "Subtotal 16.00", "Tip 3.00", "Total 19.00"]), currency: .usd)
    #expect(receipt.status == .verified)
    #expect(receipt.tip?.minorUnits == 300)
  }

  @Test func wholeAmountCurrencies() throws {
    let receipt = ReceiptReader.read(
      page(["WARUNG", "Ice coffee 82,000", "Avocado coffee 61,000", "Subtotal 143,000", "TOTAL 143,000"]),
      currency: try Currency(code: "IDR"))
    #expect(receipt.status == .verified)
    #expect(receipt.total?.minorUnits == 14_300_000)
  }

  @Test func dayAndMonthAreToldApart() {
    #expect(
      ReceiptReader.read(page(["A", "04/05/2026"]), currency: .usd).date == CalendarDate(year: 2026, month: 4, day: 5))
    #expect(
      ReceiptReader.read(page(["A", "04/05/2026"]), currency: .eur).date == CalendarDate(year: 2026, month: 5, day: 4))
    #expect(
      ReceiptReader.read(page(["A", "25/12/18"]), currency: .usd).date == CalendarDate(year: 2018, month: 12, day: 25))
    #expect(
      ReceiptReader.read(page(["A", "03 MAR 19"]), currency: .usd).date == CalendarDate(year: 2019, month: 3, day: 3))
  }

  /// Many generated receipts, each read once as printed and once with one figure misread: the
  /// right one is verified with its total, the misread one never is.
  @Test func aWrongFigureIsNeverVerified() {
    var generator = SeededGenerator(seed: 20_261_203)
    // Pure arithmetic: under a sanitizer (several times slower, one thread) fewer cases.
    let cases = ProcessInfo.processInfo.environment["SPLITBILL_SANITIZER"] == nil ? 400 : 60
    for _ in 0..<cases {
      let count = Int.random(in: 1...6, using: &generator)
      let prices = (0..<count).map { _ in Int64.random(in: 50...9_999, using: &generator) }
      let subtotal = prices.reduce(0, +)
      let tax = subtotal * Int64.random(in: 0...20, using: &generator) / 100
      let total = subtotal + tax
      func money(_ units: Int64) -> String { DecimalText.format(units, scale: 2) }
      var rows = ["SHOP"] + prices.enumerated().map { "Item\($0.offset + 1) \(money($0.element))" }
      rows += ["Subtotal \(money(subtotal))", "Tax \(money(tax))", "TOTAL \(money(total))"]
      let right = ReceiptReader.read(page(rows), currency: .usd)
      #expect(right.status == .verified && right.total?.minorUnits == total, "\(rows)")
      // One figure misread by a digit's worth.
      var wrong = rows
      let line = Int.random(in: 1..<wrong.count, using: &generator)
      let delta = [1, 9, 10, 90, 100, 900][Int.random(in: 0..<6, using: &generator)]
      let parts = wrong[line].split(separator: " ")
      let value = PrintedAmount.parse(parts.last!)!.minorUnits(exponent: 2)! + Int64(delta)
      wrong[line] = parts.dropLast().joined(separator: " ") + " " + money(value)
      let misread = ReceiptReader.read(page(wrong), currency: .usd)
      // A misread tax with no rate printed may be read as included in the prices (nothing to
      // check it by): the total is then still the right one.
      let taxLine = wrong.count - 2
      #expect(
        misread.status == .needsReview
          || (line == taxLine && misread.taxIncluded && misread.total?.minorUnits == total),
        "\(wrong) was verified")
    }
  }
}

/// A small deterministic generator (SplitMix64), so the generated cases are the same every run.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite struct ImageFormatTests {
  @Test func formatsAreToldByTheirFirstBytes() {
    #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
    #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
    #expect(ImageFormat.sniff(Array("II*\u{0}".utf8)) == .tiff)
    #expect(ImageFormat.sniff([0, 0, 0, 0x18] + Array("ftypheic".utf8)) == .heic)
    #expect(ImageFormat.sniff(Array("%PDF-1.4".utf8)) == nil)
  }

  @Test func theExifOrientationIsReadFromAJPEG() {
    // SOI, then APP1 "Exif\0\0" holding a little-endian TIFF with one entry: 0x0112 = 6.
    let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
    let body = Array("Exif".utf8) + [0, 0] + tiff
    let length = body.count + 2
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body + [0xFF, 0xD9]
    let orientation = ExifOrientation.read(from: jpeg, format: .jpeg)
    #expect(orientation?.value == 6)
    #expect(orientation?.clockwiseQuarterTurns == 1)
    #expect(orientation?.mirrored == false)
    #expect(ExifOrientation.read(from: [0xFF, 0xD8, 0xFF, 0xD9], format: .jpeg) == nil)
  }
}

@Suite struct CashRoundingTests {
  @Test func anUnprintedRoundingToFiveSenCloses() throws {
    // 231.06 + 23.10 + 15.25 = 269.41, paid as 269.40: Malaysia rounds cash to 5 sen.
    let receipt = ReceiptReader.read(
      page([
        "TONY ROMA'S", "NY STRIP 221.71", "ICE LATTE 9.35", "Subtotal 231.06", "10% Srv Chg 23.10", "GST 6% 15.25",
        "Total 269.40",
      ]),
      currency: try Currency(code: "MYR"))
    #expect(receipt.status == .verified, "\(receipt.reasons)")
    #expect(receipt.rounding?.minorUnits == -1)
    // Not in US dollars, and never by more than 2 units.
    let dollars = ReceiptReader.read(
      page(["DINER", "Steak 221.71", "Latte 9.35", "Subtotal 231.06", "Tax 15.25", "Total 246.30"]), currency: .usd)
    #expect(dollars.status == .needsReview)
    let far = ReceiptReader.read(
      page(["KEDAI", "Nasi 8.50", "Teh 2.77", "TOTAL 11.30"]), currency: try Currency(code: "MYR"))
    #expect(far.reasons.map(\.code) == ["scan.total-mismatch"])
  }
}

@Suite struct MoreReviewReasonTests {
  @Test func noCurrencyIsAReason() {
    let receipt = ReceiptReader.read(page(["CAFE", "Soup 9.50", "TOTAL 9.50"]), currency: nil)
    #expect(receipt.reasons.map(\.code) == ["scan.no-currency"])
  }

  @Test func moreDecimalsThanTheCurrencyHasIsAReason() throws {
    let receipt = ReceiptReader.read(page(["CAFE", "Soup 9.50", "TOTAL 9.50"]), currency: try Currency(code: "JPY"))
    #expect(receipt.reasons.contains { $0.code == "scan.decimals" })
    #expect(receipt.status == .needsReview)
  }

  @Test func aModelsAnswerIsCheckedLikeAReading() {
    let right = ReceiptReader.read(
      modelAnswer: """
        {"merchant": "CAFE", "date": "2026-11-20", "currency": "EUR", "items": [{"name": "Soup", "price": "9,50",
        "quantity": 1}, {"name": "Bread", "price": "2,00", "quantity": 2}], "subtotal": "11,50", "discount": null,
        "service": null, "tax": null, "rounding": null, "tip": "1,50", "total": "13,00", "cash": null,
        "change": null, "tax_included": false}
        """, currency: nil)
    #expect(right.status == .verified, "\(right.reasons)")
    #expect(right.currency?.code == "EUR")
    #expect(right.items.map(\.quantity) == [1, 2])
    #expect(right.tip?.minorUnits == 150)
    #expect(right.date == CalendarDate(year: 2026, month: 11, day: 20))
    let wrong = ReceiptReader.read(
      modelAnswer:
        #"{"currency": "EUR", "items": [{"name": "Soup", "price": "9.50", "quantity": 1}], "total": "19.50"}"#,
      currency: nil)
    #expect(wrong.reasons.map(\.code) == ["scan.total-mismatch"])
    let garbage = ReceiptReader.read(modelAnswer: "Sure! The total is 13 euros.", currency: .eur)
    #expect(garbage.reasons.map(\.code) == ["scan.bad-answer"])
    #expect(garbage.status == .needsReview)
  }
}

/// When the page is read a second time scaled, and by how much.
@Suite struct RescalingTests {
  @Test func textOfAReadableHeightIsReadAtItsSize() {
    for height in [20, 29, 48, 80] {
      #expect(ReceiptScanner.rescaling(textHeight: height, pageWidth: 1_000) == nil, "\(height) px")
    }
  }

  @Test func smallPrintIsEnlargedUpToThreeTimesAndAPageWidthCap() {
    #expect(ReceiptScanner.rescaling(textHeight: 19, pageWidth: 800) == Float(48) / 19)
    #expect(ReceiptScanner.rescaling(textHeight: 10, pageWidth: 800) == 3)
    #expect(ReceiptScanner.rescaling(textHeight: 10, pageWidth: 1_800) == 2)
  }

  @Test func largePrintIsShrunkToTheBestHeight() {
    #expect(ReceiptScanner.rescaling(textHeight: 120, pageWidth: 1_800) == 0.4)
    #expect(ReceiptScanner.rescaling(textHeight: 81, pageWidth: 1_800) == Float(48) / 81)
  }

  @Test func aSmallPageWithNoWordMeasuredIsEnlargedToTheNarrowestPage() {
    #expect(ReceiptScanner.rescaling(textHeight: nil, pageWidth: 500) == 2)
    #expect(ReceiptScanner.rescaling(textHeight: nil, pageWidth: 900) == nil, "within 15 % of the narrowest")
    #expect(ReceiptScanner.rescaling(textHeight: nil, pageWidth: 1_200) == nil)
  }
}

@Suite struct LineGroupingTests {
  /// A word at `left`, its top at `top`, on Tesseract's line `line`.
  func word(_ text: String, _ left: Int, _ top: Int, height: Int = 26, line: Int?) -> RecognizedWord {
    RecognizedWord(
      text: text, left: left, top: top, width: text.count * 14, height: height, confidence: 90, recognizedLine: line)
  }

  @Test func aSlantedLineIsOneRowAndANoteBesideItIsNot() {
    // Each line climbs 25 pixels from its first word to its price, as on a curled receipt.
    func page(lines: (Int?, Int?, Int?)) -> [String] {
      let words = [
        word("4385", 98, 887, line: lines.0), word("JOHNSONS", 172, 881, line: lines.0),
        word("RM6.99", 556, 863, line: lines.0),
        word("Total", 103, 965, line: lines.1), word("Sales", 190, 963, line: lines.1),
        word("(Inclusive", 279, 955, line: lines.1), word("GST)", 432, 949, line: lines.1),
        word("RM", 504, 947, line: lines.1), word("169.78", 562, 940, line: lines.1),
        // A note written beside a figure, twice the print's height: Tesseract puts it on the line.
        word("GST", 38, 1037, height: 22, line: lines.2), word("3.72", 196, 1036, height: 22, line: lines.2),
        word("button", 434, 1045, height: 45, line: lines.2),
      ]
      return ReceiptLine.lines(from: words).map(\.text)
    }
    #expect(
      page(lines: (13, 14, 11)) == [
        "4385 JOHNSONS RM6.99", "Total Sales (Inclusive GST) RM 169.78", "GST 3.72", "button",
      ])
    // Without Tesseract's lines, the slant splits them.
    #expect(page(lines: (nil, nil, nil)).count > 4)
  }

  @Test func ofTwoReadingsThatDoNotCloseTheNearerOneWins() {
    let usd = Currency.usd
    var near = ReceiptReader.read(page(["SHOP", "Soup 9.50", "Bread 4.20", "TOTAL 13.90"]), currency: usd)
    var far = ReceiptReader.read(page(["SHOP", "Soup 9.50", "Bread 1.20", "TOTAL 13.90"]), currency: usd)
    var dearer = ReceiptReader.read(
      page(["SHOP", "Soup 9.50", "Bread 4.40", "(Excluded 4141.50", "TOTAL 13.90"]), currency: usd)
    near.confidence = 60
    far.confidence = 90
    dearer.confidence = 90
    #expect(near.nearness == 2)
    #expect(far.nearness == 1)
    #expect(dearer.itemsOverTotal == 1)
    #expect(near.score > far.score)
    #expect(near.score > dearer.score)
  }
}
