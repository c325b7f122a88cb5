/// One person's exact parts of an itemized bill, each a fraction of a minor unit.
struct ExactParts {
  var items = Fraction.zero
  var discount = Fraction.zero
  var service = Fraction.zero
  var tax = Fraction.zero
  var tip = Fraction.zero
  var portions: [ItemPortion] = []

  /// What the person owes exactly: items − discount + service + tax (unless included) + tip.
  func total(taxIncluded: Bool) throws(SplitError) -> Fraction {
    var sum = try items.subtracting(discount).adding(service).adding(tip)
    if !taxIncluded { sum = try sum.adding(tax) }
    return sum
  }
}

extension BillTerms {
  /// Splits an itemized bill (``Receipt``): every person's exact part worked out as a fraction,
  /// rounded once, the leftover units placed by ``leftover`` as for any bill.
  func splitItemized(_ receipt: Receipt, ledger: inout LeftoverLedger) throws(SplitError) -> BillSplit {
    if case .exact = receipt.diners { throw .itemsWithShares }
    guard !receipt.items.isEmpty else { throw .noItems }
    let currency = amount.currency
    let figures = try receipt.figures(currency: currency, rounding: rounding)
    guard figures.beforeTip == amount else {
      throw .amountDoesNotMatchItems(amount: amount, computed: figures.beforeTip)
    }
    let (tip, total) = try tipAndTotal()
    let people = diners.list
    let payerIndex = try Self.payerIndex(
      leftover: leftover, payer: payer, diners: diners, severalPayers: payers.count > 1)

    let parts = try Self.exactParts(of: receipt, figures: figures, tip: tip, people: people, diners: receipt.diners)
    let exact = try parts.map { (part) throws(SplitError) in try part.total(taxIncluded: receipt.taxIncluded) }
    var common: Int128 = 1
    for part in exact { common = try Fraction.lcm(common, part.denominator) }
    var shares: [Share] = []
    shares.reserveCapacity(people.count)
    var remainders: [Int128] = []
    remainders.reserveCapacity(people.count)
    var floorSum: Int64 = 0
    for (person, part) in zip(people, exact) {
      let (quotient, remainder) = try part.numerator(over: common).quotientAndRemainder(dividingBy: common)
      shares.append(
        Share(
          person: person.name, weight: person.weight, amount: Money(minorUnits: Int64(quotient), currency: currency),
          absorbed: 0))
      remainders.append(remainder)
      floorSum += Int64(quotient)
    }
    let (leftover, surplus) = placeUnits(
      Int(total - floorSum), on: &shares, remainders: remainders.span, payerIndex: payerIndex, ledger: ledger)
    try receipt.checkReceiptTotal(figures, tip: tip, roundUp: Int64(surplus))
    var breakdowns: [ShareBreakdown] = []
    breakdowns.reserveCapacity(shares.count)
    for (index, share) in shares.enumerated() {
      breakdowns.append(
        Self.breakdown(
          parts[index], exact: exact[index], share: share, taxIncluded: receipt.taxIncluded, currency: currency))
    }
    return try finish(
      tip: tip, total: total, leftover: leftover, surplus: surplus, exact: false, shares: shares, ledger: &ledger,
      receipt: ReceiptSplit(receipt: receipt, figures: figures, breakdowns: breakdowns))
  }

  /// Each person's exact parts of `receipt`, in `people`'s order.
  static func exactParts(
    of receipt: Receipt, figures: ReceiptFigures, tip: Money, people: [Diner], diners: Diners
  ) throws(SplitError) -> [ExactParts] {
    var parts = [ExactParts](repeating: ExactParts(), count: people.count)
    var discounted = [Fraction](repeating: .zero, count: people.count)
    var position: [String: Int] = [:]
    for (index, person) in people.enumerated() { position[person.name] = index }
    let discountedItems = Set(try receipt.discountedItems())
    var discountBase: Int128 = 0
    for (index, item) in receipt.items.enumerated() {
      if item.sharers != nil && diners.isAnonymous { throw .itemsNeedNamedDiners(item: item.name) }
      let sharers = item.sharers ?? people
      guard !sharers.isEmpty else { throw .noItemSharers(item: item.name) }
      let weightSum = sharers.reduce(Int128(0)) { $0 + Int128($1.weight.tenThousandths) }
      var seen: Set<Int> = []
      if discountedItems.contains(index) { discountBase += Int128(item.total.minorUnits) }
      for sharer in sharers {
        guard let person = position[sharer.name] else {
          throw .itemSharerNotDiner(item: item.name, person: sharer.name)
        }
        guard seen.insert(person).inserted else { throw .duplicateDiner(sharer.name) }
        let weight = Int128(sharer.weight.tenThousandths)
        let part = try Fraction(Int128(item.total.minorUnits) * weight, over: weightSum)
        parts[person].items = try parts[person].items.adding(part)
        if discountedItems.contains(index) { discounted[person] = try discounted[person].adding(part) }
        let divisor = Fraction.gcd(weight, weightSum)
        parts[person].portions.append(
          ItemPortion(item: index, numerator: Int64(weight / divisor), denominator: Int64(weightSum / divisor)))
      }
    }
    let subtotal = Int128(figures.subtotal.minorUnits)
    let discount = Int128(figures.discount.minorUnits)
    let weights = people.map { Fraction(whole: Int128($0.weight.tenThousandths)) }
    let weightSum = people.reduce(Int128(0)) { $0 + Int128($1.weight.tenThousandths) }
    for person in parts.indices where discountBase > 0 {
      parts[person].discount = try discounted[person].scaled(by: discount, over: discountBase)
    }
    // Service, tax and a tip on more than the subtotal follow each person's subtotal after
    // discount; a bill whose items come to nothing spreads them by the diners' weights.
    let afterDiscount = subtotal - discount
    var basis: [Fraction] = []
    var basisSum: Int128
    if afterDiscount > 0 {
      basis = try parts.map { (part) throws(SplitError) in try part.items.subtracting(part.discount) }
      basisSum = afterDiscount
    } else if subtotal > 0 {
      basis = parts.map(\.items)
      basisSum = subtotal
    } else {
      basis = weights
      basisSum = weightSum
    }
    let (tipBasis, tipBasisSum) =
      receipt.tipOn == .subtotal && subtotal > 0 ? (parts.map(\.items), subtotal) : (basis, basisSum)
    for person in parts.indices {
      parts[person].service = try basis[person].scaled(by: Int128(figures.service.minorUnits), over: basisSum)
      parts[person].tax = try basis[person].scaled(by: Int128(figures.tax.minorUnits), over: basisSum)
      parts[person].tip = try tipBasis[person].scaled(by: Int128(tip.minorUnits), over: tipBasisSum)
    }
    return parts
  }

  /// The parts rounded so that they add up to the share less its absorbed units: each floored,
  /// the units short handed out by largest fraction (then items, discount, service, tax, tip);
  /// a unit `to-tip` rounded the share up by goes to the tip.
  static func breakdown(
    _ parts: ExactParts, exact: Fraction, share: Share, taxIncluded: Bool, currency: Currency
  ) -> ShareBreakdown {
    var components = [
      parts.items, Fraction.zero.subtractingOrZero(parts.discount), parts.service, parts.tax, parts.tip,
    ]
    if taxIncluded { components[3] = .zero }
    var rounded = components.map { Int64($0.floor) }
    let target = Int64(exact.floor)
    var short = target - rounded.reduce(0, +)
    let order = components.indices.sorted { left, right in
      let leftFraction = components[left].fractionalPart
      let rightFraction = components[right].fractionalPart
      return leftFraction != rightFraction ? leftFraction > rightFraction : left < right
    }
    for index in order where short > 0 && components[index].fractionalPart > .zero {
      rounded[index] += 1
      short -= 1
    }
    rounded[4] += share.amount.minorUnits - Int64(share.absorbed) - target
    let includedTax = taxIncluded ? Int64(RoundingMode.halfUp.divideFraction(parts.tax)) : rounded[3]
    func money(_ units: Int64) -> Money { Money(minorUnits: units, currency: currency) }
    return ShareBreakdown(
      items: money(rounded[0]), discount: money(rounded[1]), service: money(rounded[2]), tax: money(includedTax),
      tip: money(rounded[4]), portions: parts.portions)
  }
}

extension Fraction: Comparable {
  /// What is above the floor, in [0, 1).
  var fractionalPart: Fraction {
    (try? Fraction(numerator - floor * denominator, over: denominator)) ?? .zero
  }

  /// `self − other`, or zero if that overflows (for display only).
  func subtractingOrZero(_ other: Fraction) -> Fraction { (try? subtracting(other)) ?? .zero }

  static func < (lhs: Fraction, rhs: Fraction) -> Bool {
    // Denominators are positive: compare the cross products, at full width.
    let left = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
    let right = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
    return (left.high, left.low) < (right.high, right.low)
  }
}

extension RoundingMode {
  /// A non-negative fraction rounded to a whole number by this mode.
  func divideFraction(_ fraction: Fraction) -> Int128 {
    fraction.numerator < 0 ? fraction.floor : divide(fraction.numerator, by: fraction.denominator)
  }
}
