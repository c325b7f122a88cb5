import SplitBillModel
import Testing

@testable import SplitBillCore

/// Itemized bills: hand-worked receipts, the rules' errors, and properties over generated ones.
@Suite struct ReceiptTests {
  static let eur = Currency(unchecked: "EUR", exponent: 2)
  static let jpy = Currency(unchecked: "JPY", exponent: 0)

  static func money(_ units: Int64, _ currency: Currency = .usd) -> Money {
    Money(minorUnits: units, currency: currency)
  }
  static func people(_ names: String...) -> [Diner] { names.map { Diner(name: $0) } }

  /// Splits `receipt` among `diners` at `tip`, its amount the receipt's total before tip.
  static func split(
    _ receipt: Receipt, diners: [Diner], tip: TipChoice, currency: Currency = .usd,
    leftover: LeftoverPolicy = .balanced, rounding: RoundingMode = .halfUp
  ) throws -> BillSplit {
    let figures = try receipt.figures(currency: currency, rounding: rounding)
    var ledger = LeftoverLedger()
    return try BillTerms(
      amount: figures.beforeTip, tip: tip, diners: .named(diners), leftover: leftover, rounding: rounding,
      receipt: receipt
    ).split(ledger: &ledger)
  }

  /// A US diner: 8.875 % sales tax added, 20 % tip on the pre-tax subtotal.
  ///
  /// Items: Ana 15.00 + ⅓ of 6.00, Ben 12.00 + ⅓, Cy 2 × 7.00 + ⅓: 17.00, 14.00, 16.00 (47.00).
  /// Tax 4.17 (4.17125 rounded), tip 9.40, total 60.57. Exact parts in cents: Ana 1700 + 150.83 +
  /// 340 = 2190.83, Ben 1804.21, Cy 2061.96; floors 6055, the 2 units to Cy and Ana.
  @Test func usSalesTaxAndPreTaxTip() throws {
    let diners = Self.people("Ana", "Ben", "Cy")
    let receipt = Receipt(
      items: [
        try ReceiptItem(name: "Burger", price: Self.money(1500), sharers: Self.people("Ana")),
        try ReceiptItem(name: "Salad", price: Self.money(1200), sharers: Self.people("Ben")),
        try ReceiptItem(name: "Fries", price: Self.money(600)),
        try ReceiptItem(
          name: "Beer", price: Self.money(700), quantity: Weight(tenThousandths: 20_000), sharers: Self.people("Cy")),
      ], tax: .percent(Percent(tenThousandths: 88_750)))
    let split = try Self.split(receipt, diners: diners, tip: .percent(.preset20))
    let figures = try #require(split.receipt?.figures)
    #expect(figures.subtotal.minorUnits == 4700)
    #expect(figures.tax.minorUnits == 417)
    #expect(figures.tipBase.minorUnits == 4700)
    #expect(split.tip.minorUnits == 940)
    #expect(split.total.minorUnits == 6057)
    #expect(split.shares.map(\.amount.minorUnits) == [2191, 1804, 2062])
    #expect(split.shares.map(\.absorbed) == [1, 0, 1])
    let breakdowns = try #require(split.receipt?.breakdowns)
    #expect(breakdowns.map(\.items.minorUnits) == [1700, 1400, 1600])
    #expect(breakdowns.map(\.tip.minorUnits) == [340, 280, 320])
    #expect(breakdowns.map(\.tax.minorUnits) == [150, 124, 141])
    for (share, breakdown) in zip(split.shares, breakdowns) {
      let parts =
        breakdown.items.minorUnits + breakdown.discount.minorUnits + breakdown.service.minorUnits
        + breakdown.tax.minorUnits + breakdown.tip.minorUnits
      #expect(parts + Int64(share.absorbed) == share.amount.minorUnits)
    }
    #expect(breakdowns[0].portions.map(\.fraction) == ["1", "1/3"])
  }

  /// A French brasserie: prices include 20 % VAT, a 10 % service charge, no tip.
  ///
  /// Menus 2 × 24.50 for both, wine 32.00 for both, an espresso 2.50 for Ana: 83.50; service 8.35
  /// (on 83.50); VAT inside 91.85 × 20/120 = 15.308… → 15.31, reported. Ana 43.00 + 4.30, Ben
  /// 40.50 + 4.05: 47.30 and 44.55, no leftover.
  @Test func europeanVATIncludedWithServiceCharge() throws {
    let diners = Self.people("Ana", "Ben")
    let receipt = Receipt(
      items: [
        try ReceiptItem(name: "Menu", price: Self.money(2450, Self.eur), quantity: Weight(tenThousandths: 20_000)),
        try ReceiptItem(name: "Wine", price: Self.money(3200, Self.eur)),
        try ReceiptItem(name: "Espresso", price: Self.money(250, Self.eur), sharers: Self.people("Ana")),
      ], service: .percent(.preset10), tax: .percent(Percent(tenThousandths: 200_000)), taxIncluded: true,
      receiptTotal: Self.money(9185, Self.eur))
    let split = try Self.split(receipt, diners: diners, tip: .percent(Percent(tenThousandths: 0)), currency: Self.eur)
    let figures = try #require(split.receipt?.figures)
    #expect(figures.service.minorUnits == 835)
    #expect(figures.tax.minorUnits == 1531)
    #expect(figures.beforeTip.minorUnits == 9185)
    #expect(split.total.minorUnits == 9185)
    #expect(split.shares.map(\.amount.minorUnits) == [4730, 4455])
    #expect(split.leftoverUnits == 0)
    let breakdowns = try #require(split.receipt?.breakdowns)
    #expect(breakdowns.map(\.service.minorUnits) == [430, 405])
    // Reported, inside the items: 15.31 × 47.30 / 91.85 = 7.884… and 7.425…
    #expect(breakdowns.map(\.tax.minorUnits) == [788, 743])
  }

  /// A 10.00 voucher off the food, 10 % tax on what is left, 15 % tip before tax.
  ///
  /// Ana 30.00, Ben 20.00, Cy 10.00: discount 5.00 / 3.33… / 1.66…, tax 5.00, tip 7.50, total
  /// 62.50; exact parts 3125, 2083.33, 1041.67 cents, the one unit to Cy.
  @Test func discountVoucherBeforeTax() throws {
    let diners = Self.people("Ana", "Ben", "Cy")
    let receipt = Receipt(
      items: [
        try ReceiptItem(name: "Steak", price: Self.money(3000), sharers: Self.people("Ana")),
        try ReceiptItem(name: "Pasta", price: Self.money(2000), sharers: Self.people("Ben")),
        try ReceiptItem(name: "Soup", price: Self.money(1000), sharers: Self.people("Cy")),
      ], discount: .amount(Self.money(1000)), tax: .percent(.preset10))
    let split = try Self.split(receipt, diners: diners, tip: .percent(.preset15))
    #expect(split.receipt?.figures.discount.minorUnits == 1000)
    #expect(split.receipt?.figures.tax.minorUnits == 500)
    #expect(split.tip.minorUnits == 750)
    #expect(split.shares.map(\.amount.minorUnits) == [3125, 2083, 1042])
    #expect(split.receipt?.breakdowns.map(\.discount.minorUnits) == [-500, -333, -167])
  }

  /// A discount on named items comes off those items' sharers only.
  @Test func discountOnNamedItems() throws {
    let diners = Self.people("Ana", "Ben")
    let receipt = Receipt(
      items: [
        try ReceiptItem(name: "Wine", price: Self.money(4000), sharers: Self.people("Ana")),
        try ReceiptItem(name: "Water", price: Self.money(400), sharers: Self.people("Ben")),
      ], discount: .percent(Percent(tenThousandths: 250_000)), discountItems: ["Wine"])
    let split = try Self.split(receipt, diners: diners, tip: .percent(Percent(tenThousandths: 0)))
    #expect(split.shares.map(\.amount.minorUnits) == [3000, 400])
    #expect(throws: SplitError.unknownDiscountItem("Beer")) {
      var wrong = receipt
      wrong.discountItems = ["Beer"]
      _ = try Self.split(wrong, diners: diners, tip: .percent(Percent(tenThousandths: 0)))
    }
  }

  @Test func tipOnChoosesTheBase() throws {
    let diners = Self.people("Ana")
    var receipt = Receipt(
      items: [try ReceiptItem(name: "Dinner", price: Self.money(10_000))], discount: .amount(Self.money(2000)),
      service: .amount(Self.money(1000)), tax: .percent(.preset10))
    let bases = try TipBase.allCases.map { (base: TipBase) throws -> Int64 in
      receipt.tipOn = base
      return try Self.split(receipt, diners: diners, tip: .percent(.preset20)).tip.minorUnits
    }
    // subtotal 100.00; pretax 100 − 20 + 10 = 90.00; total 90 + 9 = 99.00
    #expect(bases == [2000, 1800, 1980])
  }

  @Test func receiptTotalIsCheckedBeforeAndWithTheTip() throws {
    let diners = Self.people("Ana", "Ben")
    var receipt = Receipt(
      items: [try ReceiptItem(name: "Pizza", price: Self.money(2000))], receiptTotal: Self.money(2000))
    _ = try Self.split(receipt, diners: diners, tip: .percent(.preset10))
    receipt.receiptTotal = Self.money(2200)
    _ = try Self.split(receipt, diners: diners, tip: .percent(.preset10))
    receipt.receiptTotal = Self.money(2100)
    #expect(
      throws: SplitError.receiptTotalMismatch(
        printed: Self.money(2100), beforeTip: Self.money(2000), withTip: Self.money(2200))
    ) {
      _ = try Self.split(receipt, diners: diners, tip: .percent(.preset10))
    }
    #expect(
      SplitError.receiptTotalMismatch(printed: Self.money(2100), beforeTip: Self.money(2000), withTip: nil).description
        == "receipt_total is 21.00 USD but the items come to 20.00 USD before tip: 1.00 USD over the total before tip"
    )
    // The mismatch is told against the nearer figure: 89.40 printed, 89.45 with the tip.
    #expect(
      SplitError.receiptTotalMismatch(printed: Self.money(8940), beforeTip: Self.money(7778), withTip: Self.money(8945))
        .description
        == "receipt_total is 89.40 USD but the items come to 77.78 USD before tip, 89.45 USD with the tip: "
        + "0.05 USD short of the total with the tip")
  }

  /// Under `to-tip` the shares are rounded up into the tip: the receipt still prints the total with
  /// the tip as chosen, and a slip of what was paid prints it with the round-up. Both match.
  @Test func aRoundUpTipMatchesTheTotalAsPrinted() throws {
    let diners = Self.people("Ana", "Ben", "Chloé")
    var receipt = Receipt(
      items: [
        try ReceiptItem(name: "Pasta", price: Self.money(2500)), try ReceiptItem(name: "Wine", price: Self.money(5200)),
      ])
    for printed: Int64 in [7700, 8855, 8856] {
      receipt.receiptTotal = Self.money(printed)
      let split = try Self.split(receipt, diners: diners, tip: .percent(.preset15), leftover: .toTip)
      #expect(split.total.minorUnits == 8856, "the round-up cent is in the total")
    }
    receipt.receiptTotal = Self.money(8860)
    #expect(
      throws: SplitError.receiptTotalMismatch(
        printed: Self.money(8860), beforeTip: Self.money(7700), withTip: Self.money(8855), roundedUp: Self.money(8856))
    ) {
      _ = try Self.split(receipt, diners: diners, tip: .percent(.preset15), leftover: .toTip)
    }
  }

  @Test func rulesOfItems() throws {
    #expect(
      throws: SplitError.inexactLineTotal(
        item: "Cheese", price: Self.money(399), quantity: Weight(tenThousandths: 5000))
    ) {
      _ = try ReceiptItem(name: "Cheese", price: Self.money(399), quantity: Weight(tenThousandths: 5000))
    }
    // 0.5 kg at 3.98 is exact.
    #expect(
      try ReceiptItem(name: "Cheese", price: Self.money(398), quantity: Weight(tenThousandths: 5000)).total.minorUnits
        == 199)
    let diners = Self.people("Ana")
    let stranger = Receipt(items: [try ReceiptItem(name: "Wine", price: Self.money(100), sharers: Self.people("Zoe"))])
    #expect(throws: SplitError.itemSharerNotDiner(item: "Wine", person: "Zoe")) {
      _ = try Self.split(stranger, diners: diners, tip: .percent(.preset10))
    }
    let tooMuch = Receipt(
      items: [try ReceiptItem(name: "Wine", price: Self.money(100))], discount: .amount(Self.money(101)))
    #expect(throws: SplitError.discountTooLarge(discount: Self.money(101), base: Self.money(100))) {
      _ = try Self.split(tooMuch, diners: diners, tip: .percent(.preset10))
    }
    var ledger = LeftoverLedger()
    let wrongAmount = BillTerms(
      amount: Self.money(99), tip: .percent(.preset10), diners: .named(diners),
      receipt: Receipt(items: [try ReceiptItem(name: "Wine", price: Self.money(100))]))
    #expect(throws: SplitError.amountDoesNotMatchItems(amount: Self.money(99), computed: Self.money(100))) {
      _ = try wrongAmount.split(ledger: &ledger)
    }
  }

  /// One item for everyone and no adjustments is the plain bill, cent for cent, under every
  /// policy, rounding and weights.
  @Test func oneItemForEveryoneIsThePlainBill() throws {
    var random = SeededGenerator(seed: 17)
    let currencies = try ["JPY", "EUR", "KWD"].map { try Currency(code: $0) }
    for _ in 0..<3_000 {
      let currency = currencies.randomElement(using: &random) ?? .usd
      let amount = Money(minorUnits: Int64.random(in: 0...5_000_000, using: &random), currency: currency)
      let count = Int.random(in: 1...9, using: &random)
      let diners = (0..<count).map {
        Diner(name: "P\($0)", weight: Weight(tenThousandths: Int64.random(in: 1...4, using: &random) * 5000))
      }
      let tip: TipChoice =
        Bool.random(using: &random)
        ? .percent(Percent(tenThousandths: Int64.random(in: 0...300_000, using: &random)))
        : .fixed(Money(minorUnits: Int64.random(in: 0...10_000, using: &random), currency: currency))
      let leftover = LeftoverPolicy.allCases.filter { $0 != .payer }.randomElement(using: &random) ?? .balanced
      let rounding = RoundingMode.allCases.randomElement(using: &random) ?? .halfUp
      let plain = BillTerms(amount: amount, tip: tip, diners: .named(diners), leftover: leftover, rounding: rounding)
      var itemized = plain
      itemized.receipt = Receipt(
        items: [try ReceiptItem(name: "Everything", price: amount)],
        tipOn: [TipBase.subtotal, .pretax, .total].randomElement(using: &random) ?? .pretax)
      var plainLedger = LeftoverLedger()
      var itemizedLedger = LeftoverLedger()
      let expected = try plain.split(ledger: &plainLedger)
      var got = try itemized.split(ledger: &itemizedLedger)
      #expect(got.receipt != nil)
      got.receipt = nil
      #expect(got == expected)
      #expect(itemizedLedger == plainLedger)
    }
  }

  /// Generated receipts: shares add up to the total, every share is within one unit of its exact
  /// part (worked out here independently: with a discount on every item, each person's exact part
  /// is `total × their item subtotal / subtotal`), and the breakdown adds up to each share.
  @Test func generatedReceiptsReconcile() throws {
    var random = SeededGenerator(seed: 2026_12_01)
    let names = ["Ana", "Ben", "Chloé", "Dmitri", "Émile", "Farah"]
    for number in 0..<2_000 {
      let currency = [Currency.usd, Self.eur, Self.jpy].randomElement(using: &random) ?? .usd
      let diners = Array(names.prefix(Int.random(in: 1...names.count, using: &random))).map { Diner(name: $0) }
      var items: [ReceiptItem] = []
      for index in 0..<Int.random(in: 1...12, using: &random) {
        let sharers: [Diner]? =
          Bool.random(using: &random)
          ? nil
          : diners.shuffled(using: &random).prefix(Int.random(in: 1...diners.count, using: &random)).map {
            Diner(name: $0.name, weight: Weight(tenThousandths: Int64.random(in: 1...3, using: &random) * 10_000))
          }
        items.append(
          try ReceiptItem(
            name: "Item \(index)",
            price: Money(minorUnits: Int64.random(in: 0...9_000, using: &random), currency: currency),
            quantity: Weight(tenThousandths: Int64.random(in: 1...3, using: &random) * 10_000), sharers: sharers))
      }
      let subtotal = items.reduce(Int64(0)) { $0 + $1.total.minorUnits }
      func adjustment() -> Adjustment? {
        switch Int.random(in: 0...2, using: &random) {
        case 0: return nil
        case 1: return .percent(Percent(tenThousandths: Int64.random(in: 0...250_000, using: &random)))
        default:
          return .amount(
            Money(minorUnits: Int64.random(in: 0...max(subtotal / 4, 0), using: &random), currency: currency))
        }
      }
      let receipt = Receipt(
        items: items, discount: adjustment(), service: adjustment(), tax: adjustment(),
        taxIncluded: Bool.random(using: &random), tipOn: TipBase.allCases.randomElement(using: &random) ?? .pretax)
      let leftover = [LeftoverPolicy.balanced, .remainder, .first, .toTip].randomElement(using: &random) ?? .balanced
      let split = try Self.split(
        receipt, diners: diners, tip: .percent(Percent(tenThousandths: Int64.random(in: 0...250_000, using: &random))),
        currency: currency, leftover: leftover, rounding: RoundingMode.allCases.randomElement(using: &random) ?? .halfUp
      )
      let shares = split.shares.map(\.amount.minorUnits)
      #expect(shares.reduce(0, +) == split.total.minorUnits, "receipt \(number)")
      #expect(split.amount.minorUnits + split.tip.minorUnits == split.total.minorUnits)
      let breakdowns = split.receipt?.breakdowns ?? []
      #expect(breakdowns.count == split.shares.count)
      for (share, breakdown) in zip(split.shares, breakdowns) {
        var parts =
          breakdown.items.minorUnits + breakdown.discount.minorUnits + breakdown.service.minorUnits
          + breakdown.tip.minorUnits
        if !receipt.taxIncluded { parts += breakdown.tax.minorUnits }
        #expect(parts + Int64(share.absorbed) == share.amount.minorUnits, "receipt \(number)")
      }
      guard subtotal > 0, let figures = split.receipt?.figures, figures.subtotal != figures.discount else { continue }
      // Each person's item subtotal over one common denominator (the weight sums' multiple).
      let weightSums = items.map { item in
        (item.sharers ?? diners).reduce(Int128(0)) { $0 + Int128($1.weight.tenThousandths) }
      }
      func gcd(_ a: Int128, _ b: Int128) -> Int128 { b == 0 ? a : gcd(b, a % b) }
      let common = weightSums.reduce(Int128(1)) { $0 / gcd($0, $1) * $1 }
      let original = Int128(split.total.minorUnits - split.leftoverToTip.minorUnits)
      for (index, diner) in diners.enumerated() {
        var own: Int128 = 0
        for (item, sum) in zip(items, weightSums) {
          guard let sharer = (item.sharers ?? diners).first(where: { $0.name == diner.name }) else { continue }
          own += Int128(item.total.minorUnits) * Int128(sharer.weight.tenThousandths) * (common / sum)
        }
        // exact = original × own / (common × subtotal)
        let denominator = common * Int128(subtotal)
        let exact = original * own
        let scaled = Int128(shares[index]) * denominator
        if leftover == .toTip {
          #expect(scaled >= exact && scaled - exact < denominator, "receipt \(number)")
        } else {
          #expect(scaled - exact <= denominator && exact - scaled < denominator, "receipt \(number)")
        }
      }
    }
  }
}
