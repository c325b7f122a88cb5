extension BillTerms {
  /// The tip this choice gives on `amount`, before any `to-tip` surplus.
  ///
  /// `amount × percent / 100`, rounded to the minor unit by `rounding`.
  ///
  ///     // 84.50 EUR at 18 % is 15.21 EUR
  ///
  /// - Throws: ``SplitError/tipNotResolved`` for ``TipChoice/advisor``, and
  ///   ``SplitError/tipCurrencyMismatch(bill:tip:)`` for a fixed tip in another currency.
  public func tipAmount() throws(SplitError) -> Money {
    switch tip {
    case .advisor: throw .tipNotResolved
    case .fixed(let money):
      guard money.currency == amount.currency else {
        throw .tipCurrencyMismatch(bill: amount.currency, tip: money.currency)
      }
      return money
    case .percent(let percent):
      let exact = Int128(try tipBase().minorUnits) * Int128(percent.tenThousandths)
      let units = rounding.divide(exact, by: 100 * 10_000)
      return Money(minorUnits: Int64(units), currency: amount.currency)
    }
  }

  /// What a percentage tip is computed on: the amount, or on an itemized bill the base its
  /// ``Receipt/tipOn`` names.
  public func tipBase() throws(SplitError) -> Money {
    guard let receipt else { return amount }
    return try receipt.figures(currency: amount.currency, rounding: rounding).tipBase
  }

  /// Where the payer stands among the diners under the `payer` leftover policy, which needs one
  /// who is a named diner; `nil` under the other policies. The bill readers check bills with it.
  ///
  /// - Throws: ``SplitError/payerPolicyWithoutPayer`` or ``SplitError/payerNotDiner(_:)``.
  public static func payerIndex(
    leftover: LeftoverPolicy, payer: String?, diners: Diners, severalPayers: Bool = false
  ) throws(SplitError) -> Int? {
    guard leftover == .payer else { return nil }
    guard !severalPayers else { throw .payerPolicyWithSeveralPayers }
    guard let payer else { throw .payerPolicyWithoutPayer }
    guard !diners.isAnonymous, let index = diners.list.firstIndex(where: { $0.name == payer }) else {
      throw .payerNotDiner(payer)
    }
    return index
  }

  /// The rule of exact shares: the parts of ``Diners/exact(_:)`` diners (their weights, in minor
  /// units) add up to the amount. Other diners have no parts to check. The split and the bill
  /// readers (which say where the parts were written) both check it here.
  ///
  /// - Throws: ``SplitError/sharesDoNotAddUp(parts:amount:)``, or ``SplitError/totalTooLarge``.
  public static func checkParts(of diners: Diners, amount: Money) throws(SplitError) {
    guard case .exact(let list) = diners else { return }
    var parts: Int64 = 0
    for diner in list {
      let (sum, overflow) = parts.addingReportingOverflow(diner.weight.tenThousandths)
      guard !overflow else { throw .totalTooLarge }
      parts = sum
    }
    guard parts == amount.minorUnits else {
      throw .sharesDoNotAddUp(parts: Money(minorUnits: parts, currency: amount.currency), amount: amount)
    }
  }

  /// The rule of several payers: their parts, in the bill's currency, add up to `total` (tip
  /// included). The split checks it against the final total; the bill readers against the total
  /// the file already tells (``knownTotal``).
  ///
  /// - Throws: ``SplitError/payersDoNotAddUp(paid:total:)``, or ``SplitError/totalTooLarge``.
  public static func checkPayers(_ payers: [PayerPart], total: Money) throws(SplitError) {
    var paid: Int64 = 0
    for part in payers {
      guard part.amount.currency == total.currency else { throw .payersDoNotAddUp(paid: part.amount, total: total) }
      let (sum, overflow) = paid.addingReportingOverflow(part.amount.minorUnits)
      guard !overflow else { throw .totalTooLarge }
      paid = sum
    }
    guard paid == total.minorUnits else {
      throw .payersDoNotAddUp(paid: Money(minorUnits: paid, currency: total.currency), total: total)
    }
  }

  /// The total, when it is known before the split: amount plus a percentage or fixed tip, unless
  /// the tip waits for advice or the `to-tip` policy adds a surplus; `nil` otherwise.
  public var knownTotal: Money? {
    guard tip != .advisor, leftover != .toTip, let tip = try? tipAmount() else { return nil }
    let (total, overflow) = amount.minorUnits.addingReportingOverflow(tip.minorUnits)
    return overflow ? nil : Money(minorUnits: total, currency: amount.currency)
  }

  /// Works the bill out: tip, total, and each diner's share, which always add up to the total.
  ///
  ///     var ledger = LeftoverLedger()
  ///     let terms = BillTerms(amount: Money(minorUnits: 10_000, currency: .usd),
  ///                           tip: .percent(Percent(tenThousandths: 0)), diners: .anonymous(count: 3))
  ///     try terms.split(ledger: &ledger).shares.map(\.amount.minorUnits)   // [3334, 3333, 3333]
  ///
  /// Each share starts at the floor of its exact part `total × weight / Σweights`; the leftover units
  /// (fewer than the diners) are placed by ``leftover``. Named diners' absorbed units are recorded in
  /// `ledger`, which the `balanced` policy also reads.
  ///
  /// On a bill of exact shares (diners with a ``Diner/part``), the parts are the weights: each
  /// share's exact part is `part + tip × part / amount`, so the tip is split in proportion to the
  /// parts and the leftover rules place the units as for weights. Parts must add up to the amount;
  /// several payers' parts must add up to the total.
  ///
  /// - Complexity: O(*n* log *n*) for *n* diners.
  public func split(ledger: inout LeftoverLedger) throws(SplitError) -> BillSplit {
    try diners.validate()
    if let receipt { return try splitItemized(receipt, ledger: &ledger) }
    let currency = amount.currency
    let (tip, total) = try tipAndTotal()

    var people = diners.list
    let payerIndex = try Self.payerIndex(
      leftover: leftover, payer: payer, diners: diners, severalPayers: payers.count > 1)
    let exact: Bool
    if case .exact = diners {
      exact = true
      try Self.checkParts(of: diners, amount: amount)
      // A bill of nothing splits evenly.
      if amount.minorUnits == 0 { people = people.map { Diner(name: $0.name) } }
    } else {
      exact = false
    }
    let weightSum = people.reduce(Int128(0)) { $0 + Int128($1.weight.tenThousandths) }
    // Runs for every bill: the remainders live on the stack (up to 16 diners), only the shares
    // are allocated.
    var shares = [Share]()
    shares.reserveCapacity(people.count)
    let (leftover, surplus) = withScratch(count: people.count, repeating: Int128(0)) { remainders in
      var floorSum: Int64 = 0
      // Nearly always total, weights and their sum are non-negative 64-bit numbers: one 128-bit
      // product and one hardware division then, rather than Int128's software division.
      // (With no weight negative, each is at most the sum, so each quotient is at most the total.)
      let narrow =
        total >= 0 && weightSum > 0 && weightSum <= Int128(Int64.max)
        && people.allSatisfy { $0.weight.tenThousandths >= 0 }
      for (index, person) in people.enumerated() {
        let quotient: Int128
        let remainder: Int128
        if narrow {
          let product = UInt64(total).multipliedFullWidth(by: UInt64(person.weight.tenThousandths))
          let divided = UInt64(weightSum).dividingFullWidth(product)
          (quotient, remainder) = (Int128(divided.quotient), Int128(divided.remainder))
        } else {
          (quotient, remainder) = (Int128(total) * Int128(person.weight.tenThousandths))
            .quotientAndRemainder(dividingBy: weightSum)
        }
        remainders[index] = remainder
        shares.append(
          Share(
            person: person.name, weight: person.weight, amount: Money(minorUnits: Int64(quotient), currency: currency),
            absorbed: 0))
        floorSum += Int64(quotient)
      }
      return placeUnits(
        Int(total - floorSum), on: &shares, remainders: remainders.span.extracting(0..<people.count),
        payerIndex: payerIndex, ledger: ledger)
    }

    return try finish(
      tip: tip, total: total, leftover: leftover, surplus: surplus, exact: exact, shares: shares, ledger: &ledger)
  }

  /// The tip and the total before any `to-tip` surplus, for every kind of bill; the total within
  /// the range computed exactly.
  func tipAndTotal() throws(SplitError) -> (tip: Money, total: Int64) {
    let tip = try tipAmount()
    let total = amount.minorUnits + tip.minorUnits
    guard total <= 2 * Money.maximumMinorUnits else { throw .totalTooLarge }
    return (tip, total)
  }

  /// The split's last steps, for every kind of bill: the `to-tip` surplus added to tip and total,
  /// several payers checked against the total, absorbed units recorded in `ledger`.
  func finish(
    tip: Money, total: Int64, leftover: Int, surplus: Int64, exact: Bool, shares: [Share],
    ledger: inout LeftoverLedger, receipt: ReceiptSplit? = nil
  ) throws(SplitError) -> BillSplit {
    let currency = amount.currency
    var tip = tip
    tip.minorUnits += surplus
    let totalMoney = Money(minorUnits: total + surplus, currency: currency)
    if !payers.isEmpty { try Self.checkPayers(payers, total: totalMoney) }
    if !diners.isAnonymous {
      for share in shares { ledger.record(share.absorbed, by: share.person, in: currency) }
    }
    var split = BillSplit(
      amount: amount,
      tipPercent: effectivePercent(),
      tip: tip,
      total: totalMoney,
      leftoverPolicy: self.leftover,
      leftoverToTip: Money(minorUnits: surplus, currency: currency),
      leftoverUnits: leftover,
      anonymousDiners: diners.isAnonymous,
      paidBy: payers.count > 1 ? paidBy : payer.map(PaidBy.one) ?? .nobody,
      exactShares: exact,
      shares: shares)
    split.receipt = receipt
    return split
  }

  /// Hands out the `leftover` units that flooring every share left: all to the payer under the
  /// `payer` policy (`payerIndex`); under `to-tip` one to every share with a remainder, the
  /// surplus returned; else one each by the policy's order. `remainders` are the shares' exact
  /// parts' remainders over one common denominator.
  func placeUnits(
    _ leftover: Int, on shares: inout [Share], remainders: Span<Int128>, payerIndex: Int?, ledger: LeftoverLedger
  ) -> (leftover: Int, surplus: Int64) {
    var surplus: Int64 = 0
    if let payerIndex {
      shares[payerIndex].amount.minorUnits += Int64(leftover)
      shares[payerIndex].absorbed = leftover
    } else if leftover > 0 && self.leftover == .toTip {
      var withRemainder: Int64 = 0
      for index in shares.indices where remainders[index] > 0 {
        shares[index].amount.minorUnits += 1
        withRemainder += 1
      }
      surplus = withRemainder - Int64(leftover)
    } else if leftover > 0 {
      placeLeftover(leftover, on: &shares, remainders: remainders, ledger: ledger)
    }
    return (leftover, surplus)
  }

  /// Gives one leftover unit each to the first `units` diners in the policy's order.
  private func placeLeftover(
    _ units: Int, on shares: inout [Share], remainders: Span<Int128>, ledger: LeftoverLedger
  ) {
    // The policy as a local: the sorts' closures would otherwise capture the whole bill.
    let policy = leftover
    let count = shares.count
    switch policy {
    case .first:
      for index in 0..<min(units, count) { shares[index].give(units: 1) }
    case .remainder:
      Self.withOrder(count: count) {
        policy.takesUnitBefore((remainders[$0], 0, $0), (remainders[$1], 0, $1))
      } body: { order in
        for position in 0..<min(units, count) { shares[order[position]].give(units: 1) }
      }
    case .balanced, .payer, .toTip:
      let anonymous = diners.isAnonymous
      withScratch(count: count, repeating: 0) { sofar in
        for index in 0..<count {
          sofar[index] = anonymous ? 0 : ledger.absorbed(by: shares[index].person, in: amount.currency)
        }
        let absorbed = sofar.span
        Self.withOrder(count: count) { left, right in
          policy.takesUnitBefore((remainders[left], absorbed[left], left), (remainders[right], absorbed[right], right))
        } body: { order in
          for position in 0..<min(units, count) { shares[order[position]].give(units: 1) }
        }
      }
    }
  }

  /// Calls `body` with `0..<count` sorted by `takesBefore` (a strict total order: the policies
  /// break ties by position). Up to 16 indices are sorted by insertion on the stack (bills have a
  /// handful of diners); more, in an array by the standard sort.
  private static func withOrder(
    count: Int, by takesBefore: (Int, Int) -> Bool, body: (Span<Int>) -> Void
  ) {
    guard count <= 16 else {
      var order = Array(0..<count)
      order.sort(by: takesBefore)
      body(order.span)
      return
    }
    withScratch(count: count, repeating: 0) { order in
      for index in 0..<count {
        var position = index
        while position > 0 {
          let before = order[position - 1]
          if !takesBefore(index, before) { break }
          order[position] = before
          position -= 1
        }
        order[position] = index
      }
      body(order.span.extracting(0..<count))
    }
  }

  /// The percentage the tip stands for: the chosen one, or one derived from a fixed tip.
  ///
  /// A surplus moved to the tip by `to-tip` is reported on its own and does not change it.
  private func effectivePercent() -> Percent? {
    switch tip {
    case .percent(let percent): return percent
    case .advisor: return nil
    case .fixed(let money):
      guard let base = try? tipBase(), base.minorUnits > 0 else { return nil }
      let derived = RoundingMode.halfUp.divide(
        Int128(money.minorUnits) * 100 * 10_000, by: Int128(base.minorUnits))
      return Percent(tenThousandths: Int64(derived))
    }
  }
}

/// Calls `body` with room for `count` values, each `value` at first: on the stack for up to 16
/// (a bill's diners, nearly always), else in an array. Only the first `count` are the caller's.
func withScratch<Value, Result>(
  count: Int, repeating value: Value, _ body: (inout MutableSpan<Value>) -> Result
) -> Result {
  guard count <= 16 else {
    var large = [Value](repeating: value, count: count)
    var span = large.mutableSpan
    return body(&span)
  }
  var small = InlineArray<16, Value>(repeating: value)
  var span = small.mutableSpan
  return body(&span)
}
