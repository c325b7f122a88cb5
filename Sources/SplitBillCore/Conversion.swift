/// Rounds exact values that add up to zero to multiples of a step so that the rounded values
/// still add up to zero, each within one step of its exact value.
///
/// Each value is first rounded to the nearest multiple (halves to the even multiple). The few
/// steps by which those fail to add up to zero are then moved, one each, to distinct people whose
/// rounding went the other way, so nobody ends more than a step from their exact value; who, by
/// the leftover policy (``order(_:policy:absorbed:)``).
enum BalancedRounding {
  /// One value to round: its exact value `numerator / denominator` (the denominator shared by all).
  struct Entry {
    var person: String
    var numerator: BigInt
  }

  /// What became of each entry: its rounded value, in steps, and the steps moved to it by the
  /// balancing (+1, −1 or 0).
  struct Rounded {
    var steps: Int128
    var moved: Int
  }

  /// Rounds every entry; `nil` when a value does not fit 126 bits of steps.
  ///
  /// - Parameters:
  ///   - denominator: the exact values' common denominator, positive.
  ///   - step: the multiple rounded to, in the same units as the exact values, positive.
  ///   - policy: who is moved first among the eligible.
  ///   - absorbed: leftover units each person absorbed in the run, for `balanced` ties.
  static func round(
    _ entries: [Entry], denominator: BigUInt, step: Int128, policy: LeftoverPolicy, absorbed: (String) -> Int
  ) -> [Rounded]? {
    let unit = denominator.multiplied(by: step.magnitude)
    var rounded: [Rounded] = []
    // What is left of each exact value after rounding, over `unit`: the order of moving.
    var residues: [BigInt] = []
    var sum: Int128 = 0
    for entry in entries {
      guard let steps = nearest(entry.numerator, unit: unit) else { return nil }
      rounded.append(Rounded(steps: steps, moved: 0))
      residues.append(entry.numerator - BigInt(negative: steps < 0, magnitude: unit.multiplied(by: steps.magnitude)))
      sum += steps
    }
    // Σ exact = 0, so Σ residues = −sum × unit: at least |sum| residues have the sign asked for.
    let direction = sum > 0 ? -1 : 1
    let eligible = entries.indices.filter { residues[$0].signum == direction }
    let chosen = order(
      eligible.map { (entries[$0].person, direction > 0 ? residues[$0] : -residues[$0]) }, policy: policy,
      absorbed: absorbed)
    for position in chosen.prefix(Int(sum.magnitude)) {
      let index = eligible[position]
      rounded[index].steps += Int128(direction)
      rounded[index].moved = direction
    }
    return rounded
  }

  /// `numerator / unit` rounded to the nearest whole number, halves to the even one; `nil` beyond
  /// 126 bits.
  static func nearest(_ numerator: BigInt, unit: BigUInt) -> Int128? {
    guard let (quotient, remainder) = numerator.magnitude.quotientAndRemainder(dividingBy: unit) else { return nil }
    var steps = Int128(quotient)
    let twice = remainder.shiftedLeft(by: 1)
    if twice > unit || (twice == unit && steps % 2 == 1) { steps += 1 }
    return numerator.negative ? -steps : steps
  }

  /// The order in which candidates take a moved step: the leftover policy's
  /// (``LeftoverPolicy/takesUnitBefore(_:_:)``), the residue as the remainder and the name as the
  /// position (`payer` and `to-tip`, with no payer or tip to go to here, go as `balanced`).
  static func order<Residue: Comparable>(
    _ candidates: [(person: String, residue: Residue)], policy: LeftoverPolicy, absorbed: (String) -> Int
  ) -> [Int] {
    let keys = candidates.map { (remainder: $0.residue, absorbed: absorbed($0.person), position: $0.person) }
    return candidates.indices.sorted { policy.takesUnitBefore(keys[$0], keys[$1]) }
  }
}

/// One person's balance converted into the settlement currency.
public struct ConvertedBalance: Hashable, Sendable {
  /// The person.
  public var person: String
  /// Their balance in the settlement currency, rounded (positive: others owe them).
  public var balance: Money
  /// Minor units the balancing took from them (+1: their balance is one unit lower than its
  /// nearest rounding; −1: one higher; 0 mostly). They add up to the rounding's shortfall.
  public var absorbed: Int
  /// Their balance in each currency they touched (by code, at zero too) and its part of
  /// ``balance``. Each part is its exact conversion rounded to the nearest unit (half to even);
  /// the units by which those miss ``balance`` go one each to the parts whose rounding went
  /// furthest the other way (ties: the first code), so the parts add up to ``balance`` exactly.
  /// A part whose balance is zero is an exchange difference: what the person's records in that
  /// currency come to at the different rates of their days.
  public var parts: [Part]

  /// A balance in one currency and what it converts to.
  public struct Part: Hashable, Sendable {
    /// The balance in its own currency.
    public var original: Money
    /// Its part of the converted balance.
    public var converted: Money

    /// Whether the part is an exchange difference: a zero balance in another currency that
    /// converts to something, its records' days having had different rates.
    public var isExchangeDifference: Bool {
      original.minorUnits == 0 && converted.minorUnits != 0 && original.currency != converted.currency
    }
  }
}

/// A rate and how many records used it.
public struct UsedRate: Hashable, Sendable {
  /// The rate.
  public var rate: ExchangeRate
  /// Bills and payments converted with it.
  public var records: Int
}

/// Every balance settled in one currency: the rates, the converted balances, who absorbed the
/// units rounding left over.
public struct Conversion: Hashable, Sendable {
  /// The settlement currency.
  public var currency: Currency
  /// The rates used, by pair then date.
  public var rates: [UsedRate]
  /// Each person's converted balance, by name.
  public var balances: [ConvertedBalance]
  /// Records whose currency was the settlement currency (not converted).
  public var unconverted: Int
  /// Records converted.
  public var converted: Int
}

/// Accumulates, for `--settle-in`, each person's balance changes by the exact rate they are
/// converted at, and converts them once at the end.
///
/// Changes are summed exactly per rate (whole minor units), so a run keeps one sum per person and
/// distinct rate, not per bill; the exact converted balance is `Σ sum × rate` over the rates, kept
/// over their common denominator with no rounding until the last step.
public struct ConversionLedger: Sendable {
  struct Group: Sendable {
    var use: RateUse
    /// `use`'s factor in minor units, worked out once.
    var factor: ExactRatio
    /// Each person's sum of balance changes in the group, by person number.
    var sums = PersonSums()
    var records = 0
  }

  /// The settlement currency.
  public let currency: Currency
  private(set) var groups: [Group] = []
  /// The currencies converted from, in code order (what the two ways of converting take).
  package var sourceCurrencies: [Currency] { Array(Set(groups.map(\.use.from))).sorted() }
  private var groupNumbers: [RateUse: Int] = [:]
  private(set) var people = PersonNumbers()
  private var overflowed = false

  /// A ledger converting into `currency`.
  public init(currency: Currency) { self.currency = currency }

  /// The number of the sums kept for records converted by `use`, made on first use; `nil` when the
  /// rate is too precise to apply exactly. A caller that meets the same rate for many records
  /// asks once and adds with ``add(_:group:)``.
  public mutating func group(for use: RateUse) -> Int? {
    if let known = groupNumbers[use] { return known }
    guard let factor = use.minorUnitFactor else { return nil }
    groups.append(Group(use: use, factor: factor))
    groupNumbers[use] = groups.count - 1
    return groups.count - 1
  }

  /// The factor, in minor units, of the rate of `group` (``group(for:)``).
  public func factor(of group: Int) -> ExactRatio? { groups.indices.contains(group) ? groups[group].factor : nil }

  private mutating func add(_ units: Int64, to person: String, in group: Int) {
    if groups[group].sums.add(units, to: people.number(of: person)) { overflowed = true }
  }

  /// Adds a bill's balance changes (only bills with named diners and a payer change balances),
  /// converted by `use` (from the bill's currency into ``currency``).
  ///
  /// - Returns: `false` when the rate is too precise to apply exactly (nothing is added).
  @discardableResult
  public mutating func add(_ split: BillSplit, at use: RateUse) -> Bool {
    guard let number = group(for: use) else { return false }
    add(split, group: number)
    return true
  }

  /// Adds a bill's balance changes to the sums of `group` (``group(for:)``).
  public mutating func add(_ split: BillSplit, group number: Int) {
    groups[number].records += 1
    guard split.movesBalances else { return }
    for share in split.shares { add(-share.amount.minorUnits, to: share.person, in: number) }
    split.forEachPayer { payer, amount in add(amount.minorUnits, to: payer, in: number) }
  }

  /// Adds a payment's balance changes to the sums of `group` (``group(for:)``).
  public mutating func add(_ payment: Payment, group number: Int) {
    groups[number].records += 1
    add(payment.amount.minorUnits, to: payment.from, in: number)
    add(-payment.amount.minorUnits, to: payment.to, in: number)
  }

  /// Adds a payment's balance changes, converted by `use`.
  @discardableResult
  public mutating func add(_ payment: Payment, at use: RateUse) -> Bool {
    guard let number = group(for: use) else { return false }
    add(payment, group: number)
    return true
  }

  /// The converted balances: exact `Σ sum × factor` per person, rounded to the currency's minor
  /// units (half to even), the shortfall moved by `policy`; they add up to zero.
  ///
  /// The sums are first worked out in fixed point (``fixedPointBalances(currencies:policy:absorbed:)``):
  /// linear in people × rates, and enough to decide every rounding and every order but for values
  /// within a few 2⁻⁶⁴ of a tie. Only then is it done again exactly, over the rates' common
  /// denominators (``exactBalances(currencies:policy:absorbed:)``), whose size grows with every
  /// distinct rate. Both give the same balances, always (a test compares them).
  public func convert(policy: LeftoverPolicy, absorbed: (String) -> Int) throws(ReconciliationFailure) -> Conversion {
    let failure = ReconciliationFailure(currency: currency, identity: .convertedSumsFit)
    if overflowed { throw failure }
    let currencies = sourceCurrencies
    let balances: [ConvertedBalance]
    if let fixedPoint = try fixedPointBalances(currencies: currencies, policy: policy, absorbed: absorbed) {
      balances = fixedPoint
    } else {
      balances = try exactBalances(currencies: currencies, policy: policy, absorbed: absorbed)
    }
    if balances.reduce(0, { $0 + $1.balance.minorUnits }) != 0 {
      throw ReconciliationFailure(currency: currency, identity: .convertedBalancesCancel)
    }
    var rates: [ExchangeRate: Int] = [:]
    for group in groups where group.records > 0 {
      for leg in group.use.legs { rates[leg, default: 0] += group.records }
    }
    let used = rates.map { UsedRate(rate: $0.key, records: $0.value) }.sorted { a, b in
      (a.rate.base, a.rate.quote, a.rate.date?.daysSinceEpoch ?? .min, a.rate.source, a.rate.line ?? 0)
        < (b.rate.base, b.rate.quote, b.rate.date?.daysSinceEpoch ?? .min, b.rate.source, b.rate.line ?? 0)
    }
    let unconverted = groups.filter { $0.use.legs.isEmpty }.reduce(0) { $0 + $1.records }
    return Conversion(
      currency: currency, rates: used, balances: balances.sorted { $0.person < $1.person }, unconverted: unconverted,
      converted: groups.reduce(0) { $0 + $1.records } - unconverted)
  }

  /// The converted balances worked out exactly: each currency's parts over the least common
  /// multiple of its rates' denominators, the whole balance over their product.
  package func exactBalances(
    currencies: [Currency], policy: LeftoverPolicy, absorbed: (String) -> Int
  ) throws(ReconciliationFailure) -> [ConvertedBalance] {
    let failure = ReconciliationFailure(currency: currency, identity: .convertedSumsFit)
    // Per currency: the exact converted parts of every person over one denominator, the least
    // common multiple of its groups' (when a group's fits 64 bits; else their product); and the
    // original units.
    var denominators = [BigUInt](repeating: BigUInt(1), count: currencies.count)
    var partNumerators = [[BigInt]](
      repeating: [BigInt](repeating: .zero, count: currencies.count), count: people.names.count)
    var originals = [[Int64]](repeating: [Int64](repeating: 0, count: currencies.count), count: people.names.count)
    var touched = [[Bool]](repeating: [Bool](repeating: false, count: currencies.count), count: people.names.count)
    for group in groups {
      let column = currencies.firstIndex(of: group.use.from) ?? 0
      let denominator = denominators[column]
      var newTerms = BigUInt(group.factor.denominator.magnitude)  // what the old denominator is multiplied by
      var oldTerms = denominator  // what the group's terms are multiplied by
      if let small = UInt64(exactly: group.factor.denominator) {
        let common = UInt64(
          Fraction.gcd(Int128(denominator.quotientAndRemainder(dividingBy: small).remainder), Int128(small)))
        newTerms = BigUInt(UInt128(small / common))
        oldTerms = denominator.quotientAndRemainder(dividingBy: common).quotient
      }
      let numerator = BigUInt(group.factor.numerator.magnitude) * oldTerms
      for person in partNumerators.indices {
        let units = group.sums.sum(of: person)
        if group.sums.touched(person) { touched[person][column] = true }
        var part = partNumerators[person][column].multiplied(by: newTerms)
        if units != 0 {
          part = part + BigInt(Int128(units)).multiplied(by: numerator)
          let (sum, overflow) = originals[person][column].addingReportingOverflow(units)
          if overflow { throw failure }
          originals[person][column] = sum
        }
        partNumerators[person][column] = part
      }
      denominators[column] = denominator * newTerms
    }
    // The whole balance over the product of the currencies' denominators.
    let denominator = denominators.reduce(BigUInt(1), *)
    let numerators = partNumerators.map { parts in
      parts.indices.reduce(BigInt.zero) { sum, index in
        var others = BigUInt(1)
        for other in denominators.indices where other != index { others = others * denominators[other] }
        return sum + parts[index].multiplied(by: others)
      }
    }
    let entries = zip(people.names, numerators).map { BalancedRounding.Entry(person: $0, numerator: $1) }
    guard
      let rounded = BalancedRounding.round(
        entries, denominator: denominator, step: 1, policy: policy, absorbed: absorbed)
    else { throw failure }
    var balances: [ConvertedBalance] = []
    for (person, (entry, result)) in zip(entries, rounded).enumerated() {
      guard let units = Int64(exactly: result.steps) else { throw failure }
      // Each part rounded to the nearest unit; the units they miss the balance by moved one at a
      // time to the part whose rounding went furthest the other way.
      var parts: [ConvertedBalance.Part] = []
      var residues: [(column: Int, residue: BigInt)] = []
      for (index, from) in currencies.enumerated() where touched[person][index] {
        guard let steps = BalancedRounding.nearest(partNumerators[person][index], unit: denominators[index]),
          let value = Int64(exactly: steps)
        else { throw failure }
        parts.append(
          ConvertedBalance.Part(
            original: Money(minorUnits: originals[person][index], currency: from),
            converted: Money(minorUnits: value, currency: currency)))
        let rounded = BigInt(negative: steps < 0, magnitude: denominators[index].multiplied(by: steps.magnitude))
        residues.append((index, partNumerators[person][index] - rounded))
      }
      var difference = units - parts.reduce(0) { $0 + $1.converted.minorUnits }
      while difference != 0 {
        let direction: Int128 = difference > 0 ? 1 : -1
        // The part whose exact value lies furthest beyond its rounding in `direction`:
        // residue / denominator compared across currencies by cross-multiplying.
        let further = { (a: Int, b: Int) -> Bool in
          let left = residues[a].residue.multiplied(by: denominators[residues[b].column]).multiplied(by: direction)
          let right = residues[b].residue.multiplied(by: denominators[residues[a].column]).multiplied(by: direction)
          return right < left
        }
        // The first such part on a tie (currencies are in code order).
        guard let chosen = parts.indices.max(by: { further($1, $0) }) else { throw failure }
        parts[chosen].converted.minorUnits += Int64(direction)
        let unit = BigInt(negative: direction < 0, magnitude: denominators[residues[chosen].column])
        residues[chosen].residue = residues[chosen].residue - unit
        difference -= Int64(direction)
      }
      balances.append(
        ConvertedBalance(
          person: entry.person, balance: Money(minorUnits: units, currency: currency), absorbed: -result.moved,
          parts: parts))
    }
    return balances
  }
}

/// The people's sums of balance changes at one rate, by person number: a few looked through (a
/// day's rate in one currency meets a few bills), or, past ``fewLimit`` people, one per person
/// numbered so far. A run of many rates and many people would otherwise keep rates × people sums.
struct PersonSums: Sendable {
  /// Up to ``fewLimit`` people with their sums, in order of first change.
  private var few: [(person: Int, sum: Int64)] = []
  /// Past ``fewLimit`` people: every person's sum, and whether they had a change (a sum may be 0).
  private var dense: [Int64] = []
  private var denseTouched: [Bool] = []
  private var isDense = false
  static let fewLimit = 16

  /// Adds `units` to `person`'s sum; `true` when the sum overflowed.
  mutating func add(_ units: Int64, to person: Int) -> Bool {
    if !isDense {
      if let index = few.firstIndex(where: { $0.person == person }) {
        let (sum, overflow) = few[index].sum.addingReportingOverflow(units)
        few[index].sum = sum
        return overflow
      }
      guard few.count == Self.fewLimit else {
        few.append((person, units))
        return false
      }
      isDense = true
      for (known, sum) in few {
        grow(to: known)
        dense[known] = sum
        denseTouched[known] = true
      }
      few = []
    }
    grow(to: person)
    denseTouched[person] = true
    let (sum, overflow) = dense[person].addingReportingOverflow(units)
    dense[person] = sum
    return overflow
  }

  private mutating func grow(to person: Int) {
    guard dense.count <= person else { return }
    dense += Array(repeating: 0, count: person + 1 - dense.count)
    denseTouched += Array(repeating: false, count: person + 1 - denseTouched.count)
  }

  /// `person`'s sum (0 without a change).
  func sum(of person: Int) -> Int64 {
    if isDense { return person < dense.count ? dense[person] : 0 }
    return few.first { $0.person == person }?.sum ?? 0
  }

  /// Whether `person` had a change at this rate.
  func touched(_ person: Int) -> Bool {
    if isDense { return person < denseTouched.count && denseTouched[person] }
    return few.contains { $0.person == person }
  }

  /// The people with a change, and their sums.
  var changes: [(person: Int, sum: Int64)] {
    guard isDense else { return few }
    return denseTouched.indices.compactMap { denseTouched[$0] ? ($0, dense[$0]) : nil }
  }
}

/// A settlement whose transfers are whole multiples of a cash increment, and what each person is
/// left with (their residue).
public struct CashSettlement: Hashable, Sendable {
  /// The transfers, each a multiple of ``increment``.
  public var settlement: Settlement
  /// The increment, such as 0.05 CHF.
  public var increment: Money
  /// Each person's residue: their balance minus what the transfers settle (positive: they are
  /// owed it and will not get it). The residues add up to zero, each smaller than the increment.
  public var residues: [Residue]

  /// What one person is left with.
  public struct Residue: Hashable, Sendable {
    /// The person.
    public var person: String
    /// Their balance minus what the transfers settle.
    public var amount: Money
  }

  /// Settles `balances` (adding up to zero) with transfers in multiples of `increment` (minor
  /// units, positive): each balance is rounded to a multiple, the rounded ones still adding up to
  /// zero (``BalancedRounding``, the policy choosing who carries the larger residues).
  public static func settle(
    _ balances: [String: Int64], in currency: Currency, increment: Int64, policy: LeftoverPolicy,
    absorbed: (String) -> Int
  ) -> CashSettlement {
    let people = balances.sorted { $0.key < $1.key }
    let entries = people.map { BalancedRounding.Entry(person: $0.key, numerator: BigInt(Int128($0.value))) }
    // Balances fit 64 bits, so their multiples of an increment do too.
    let rounded =
      BalancedRounding.round(
        entries, denominator: BigUInt(1), step: Int128(increment), policy: policy, absorbed: absorbed)
      ?? []
    var roundedBalances: [String: Int64] = [:]
    var residues: [Residue] = []
    for (person, result) in zip(people, rounded) {
      let units = Int64(result.steps) * increment
      roundedBalances[person.key] = units
      residues.append(Residue(person: person.key, amount: Money(minorUnits: person.value - units, currency: currency)))
    }
    return CashSettlement(
      settlement: Settlement.settle(roundedBalances, in: currency),
      increment: Money(minorUnits: increment, currency: currency), residues: residues)
  }

  /// Checks that the residues add up to zero, each smaller than the increment, and that the
  /// transfers leave every person with exactly their residue.
  public func check(_ balances: [String: Int64]) throws(ReconciliationFailure) {
    let currency = increment.currency
    let residueSum = residues.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
    if residueSum != 0 { throw ReconciliationFailure(currency: currency, identity: .cashResiduesCancel) }
    if residues.contains(where: { abs($0.amount.minorUnits) >= increment.minorUnits }) {
      throw ReconciliationFailure(currency: currency, identity: .cashResiduesBelowIncrement)
    }
    if settlement.transfers.contains(where: { $0.amount.minorUnits % increment.minorUnits != 0 }) {
      throw ReconciliationFailure(currency: currency, identity: .transfersAreCashMultiples)
    }
    let after = settlement.applied(to: balances)
    for residue in residues where after[residue.person, default: 0] != residue.amount.minorUnits {
      throw ReconciliationFailure(currency: currency, identity: .transfersLeaveResidues)
    }
  }
}
