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
      let exact = Int128(amount.minorUnits) * Int128(percent.tenThousandths)
      let units = rounding.divide(exact, by: 100 * 10_000)
      return Money(minorUnits: Int64(units), currency: amount.currency)
    }
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
  /// - Complexity: O(*n* log *n*) for *n* diners.
  public func split(ledger: inout LeftoverLedger) throws(SplitError) -> BillSplit {
    try diners.validate()
    let currency = amount.currency
    var tip = try tipAmount()
    var total = amount.minorUnits + tip.minorUnits
    guard total <= 2 * Money.maximumMinorUnits else { throw .totalTooLarge }

    let people = diners.list
    let weightSum = people.reduce(Int128(0)) { $0 + Int128($1.weight.tenThousandths) }
    var shares = [Int64](repeating: 0, count: people.count)
    var remainders = [Int128](repeating: 0, count: people.count)
    var floorSum: Int64 = 0
    for (index, person) in people.enumerated() {
      let (quotient, remainder) = (Int128(total) * Int128(person.weight.tenThousandths))
        .quotientAndRemainder(dividingBy: weightSum)
      shares[index] = Int64(quotient)
      remainders[index] = remainder
      floorSum += shares[index]
    }
    let leftover = Int(total - floorSum)
    var absorbed = [Int](repeating: 0, count: people.count)
    var surplus: Int64 = 0

    switch leftover == 0 ? nil : leftover {
    case nil:
      break
    case .some where self.leftover == .toTip:
      for index in people.indices where remainders[index] > 0 { shares[index] += 1 }
      surplus = shares.reduce(0, +) - total
    case .some where self.leftover == .payer:
      // Checked below for every bill, whether or not there is a leftover.
      break
    case .some(let units):
      for index in recipients(of: units, people: people, remainders: remainders, ledger: ledger) {
        shares[index] += 1
        absorbed[index] += 1
      }
    }
    if self.leftover == .payer {
      guard let payer else { throw .payerPolicyWithoutPayer }
      guard !diners.isAnonymous, let index = people.firstIndex(where: { $0.name == payer }) else {
        throw .payerNotDiner(payer)
      }
      shares[index] += Int64(leftover)
      absorbed[index] = leftover
    }

    tip.minorUnits += surplus
    total += surplus
    if !diners.isAnonymous {
      for (index, person) in people.enumerated() { ledger.record(absorbed[index], by: person.name, in: currency) }
    }
    return BillSplit(
      amount: amount,
      tipPercent: effectivePercent(),
      tip: tip,
      total: Money(minorUnits: total, currency: currency),
      leftoverPolicy: self.leftover,
      leftoverToTip: Money(minorUnits: surplus, currency: currency),
      leftoverUnits: leftover,
      anonymousDiners: diners.isAnonymous,
      payer: payer,
      shares: people.indices.map {
        Share(
          person: people[$0].name, weight: people[$0].weight,
          amount: Money(minorUnits: shares[$0], currency: currency), absorbed: absorbed[$0])
      })
  }

  /// The indices of the `units` diners that get one leftover unit each, by policy.
  private func recipients(
    of units: Int, people: [Diner], remainders: [Int128], ledger: LeftoverLedger
  ) -> ArraySlice<Int> {
    let order: [Int]
    switch leftover {
    case .first:
      order = Array(people.indices)
    case .remainder:
      order = people.indices.sorted { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }
    case .balanced, .payer, .toTip:
      let anonymous = diners.isAnonymous
      let sofar = people.map { anonymous ? 0 : ledger.absorbed(by: $0.name, in: amount.currency) }
      order = people.indices.sorted { left, right in
        if remainders[left] != remainders[right] { return remainders[left] > remainders[right] }
        if sofar[left] != sofar[right] { return sofar[left] < sofar[right] }
        return left < right
      }
    }
    return order.prefix(units)
  }

  /// The percentage the tip stands for: the chosen one, or one derived from a fixed tip.
  ///
  /// A surplus moved to the tip by `to-tip` is reported on its own and does not change it.
  private func effectivePercent() -> Percent? {
    switch tip {
    case .percent(let percent): return percent
    case .advisor: return nil
    case .fixed(let money):
      guard amount.minorUnits > 0 else { return nil }
      let derived = RoundingMode.halfUp.divide(
        Int128(money.minorUnits) * 100 * 10_000, by: Int128(amount.minorUnits))
      return Percent(tenThousandths: Int64(derived))
    }
  }
}
