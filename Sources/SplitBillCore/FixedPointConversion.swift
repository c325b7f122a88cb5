/// A value in 2⁻⁶⁴ths of a minor unit, known to within ``error`` of them either way (0: exact).
///
/// Converted balances are sums of `units × rate` over every rate met. Exactly, their common
/// denominator grows with every distinct rate (a year of daily rates in 30 currencies: thousands
/// of bits per person); in fixed point each term costs a few 128-bit operations, and the error
/// bound says when the result can be trusted: a rounding is decided when every value within the
/// bound rounds alike, an order when the bounds do not overlap.
struct FixedPointValue: Sendable {
  var value: Int128
  var error: Int128

  static let zero = FixedPointValue(value: 0, error: 0)
  /// One minor unit.
  static let one: Int128 = 1 << 64
  private static let fractionMask: Int128 = (1 << 64) - 1

  var isExact: Bool { error == 0 }

  /// The sum, or `nil` past 126 bits.
  func adding(_ other: FixedPointValue) -> FixedPointValue? {
    let (value, overflow) = value.addingReportingOverflow(other.value)
    guard !overflow, value.magnitude < 1 << 126, error <= Int128(1) << 100 else { return nil }
    return FixedPointValue(value: value, error: error + other.error)
  }

  /// This value less `units` whole minor units (which must keep it within 126 bits).
  func subtracting(units: Int128) -> FixedPointValue {
    FixedPointValue(value: value - units * Self.one, error: error)
  }

  /// The nearest whole number of minor units (halves to the even one) when every value within the
  /// error rounds to it and none is a half; `nil` otherwise.
  func nearest() -> Int128? {
    let half: Int128 = 1 << 63
    if isExact {
      let shifted = value + half
      var steps = shifted >> 64
      if shifted & Self.fractionMask == 0, steps & 1 == 1 { steps -= 1 }
      return steps
    }
    let low = value - error + half
    let high = value + error + half
    guard low >> 64 == high >> 64, low & Self.fractionMask != 0 else { return nil }
    return low >> 64
  }

  /// The sign of the value when it is certain (the bound not reaching zero), else `nil`.
  var certainSign: Int? {
    if isExact { return value == 0 ? 0 : value > 0 ? 1 : -1 }
    if value - error > 0 { return 1 }
    if value + error < 0 { return -1 }
    return nil
  }

  /// Whether this value is certainly larger than `other`'s (`true`), certainly smaller or
  /// certainly equal (`false`); `nil` when the bounds overlap and not both values are exact.
  func isCertainlyGreater(than other: FixedPointValue) -> Bool? {
    if isExact && other.isExact { return value > other.value }
    if value - error > other.value + other.error { return true }
    if value + error < other.value - other.error { return false }
    return nil
  }

  /// The value times `sign` (±1): the bound is unchanged.
  func times(sign: Int128) -> FixedPointValue { FixedPointValue(value: value * sign, error: error) }
}

/// A rate's minor-unit factor in fixed point: `whole + fraction / 2¹²⁸`, rounded down.
struct FixedPointFactor: Sendable {
  /// The factor itself, to tell the products that are whole numbers.
  var ratio: ExactRatio
  var whole: UInt128
  var fraction: UInt128
  /// Whether `whole + fraction / 2¹²⁸` is the factor itself (its denominator a power of two).
  var isExact: Bool

  init(_ ratio: ExactRatio) {
    self.ratio = ratio
    let numerator = ratio.numerator.magnitude
    let denominator = ratio.denominator.magnitude
    whole = numerator / denominator
    var remainder = numerator % denominator
    var fraction: UInt128 = 0
    // Long division, a bit at a time: the remainder stays below the denominator (< 2¹²⁷), so
    // doubling it fits.
    for _ in 0..<128 {
      remainder <<= 1
      fraction <<= 1
      if remainder >= denominator {
        remainder -= denominator
        fraction |= 1
      }
    }
    self.fraction = fraction
    isExact = remainder == 0
  }

  /// `units × factor`: rounded toward zero to a 2⁻⁶⁴th, less than 1.5 of them from the exact
  /// product (the bound says 2); `nil` past 126 bits.
  func times(_ units: Int64) -> FixedPointValue? {
    guard units != 0 else { return .zero }
    let magnitude = units.magnitude
    // A whole number of minor units (so many records at one rate often come to one) is exact.
    let (product, productOverflow) = UInt128(magnitude).multipliedReportingOverflow(by: ratio.numerator.magnitude)
    if !productOverflow, product % ratio.denominator.magnitude == 0 {
      let quotient = product / ratio.denominator.magnitude
      guard quotient < 1 << 61 else { return nil }
      let value = Int128(quotient) << 64
      return FixedPointValue(value: units < 0 ? -value : value, error: 0)
    }
    let (wholeUnits, overflow) = UInt128(magnitude).multipliedReportingOverflow(by: whole)
    guard !overflow, wholeUnits < 1 << 61 else { return nil }
    // magnitude × fraction = low + (high₁ + low₂)·2⁶⁴ + high₂·2¹²⁸, kept from 2⁶⁴ up; the product is
    // below 2¹⁹¹, so what is kept is below 2¹²⁷.
    let (high1, low1) = magnitude.multipliedFullWidth(by: UInt64(truncatingIfNeeded: fraction))
    let (high2, low2) = magnitude.multipliedFullWidth(by: UInt64(truncatingIfNeeded: fraction >> 64))
    let kept = UInt128(high2) << 64 + UInt128(high1) + UInt128(low2)
    let (total, carried) = (wholeUnits << 64).addingReportingOverflow(kept)
    guard !carried, total < 1 << 126 else { return nil }
    // Left out: under 2⁻⁶⁴ from the fraction's own rounding (magnitude < 2⁶⁴ times < 2⁻¹²⁸), under
    // one 2⁻⁶⁴th from the product's.
    let exact = isExact && low1 == 0
    return FixedPointValue(value: units < 0 ? -Int128(total) : Int128(total), error: exact ? 0 : 2)
  }
}

extension ConversionLedger {
  /// The converted balances worked out in fixed point (``FixedPointValue``), the same as
  /// ``exactBalances(currencies:policy:absorbed:)`` gives; `nil` when a rounding or an order
  /// depends on values closer than the error bounds can tell apart (or a sum nears 2¹²⁶), for the
  /// exact arithmetic to decide.
  ///
  /// Two people whose sums are the same at every rate have the same exact balance: their equal
  /// fixed-point values are an exact tie, whatever the bound.
  package func fixedPointBalances(
    currencies: [Currency], policy: LeftoverPolicy, absorbed: (String) -> Int
  ) throws(ReconciliationFailure) -> [ConvertedBalance]? {
    let failure = ReconciliationFailure(currency: currency, identity: .convertedSumsFit)
    let width = currencies.count
    let count = people.names.count
    var columns: [Currency: Int] = [:]
    for (index, code) in currencies.enumerated() { columns[code] = index }
    // Per person and currency (person × width + column): the converted part, the original
    // units, whether the person had a record in it.
    var parts = [FixedPointValue](repeating: .zero, count: count * width)
    var originals = [Int64](repeating: 0, count: count * width)
    var touched = [Bool](repeating: false, count: count * width)
    for group in groups {
      guard let column = columns[group.use.from] else { return nil }
      let factor = FixedPointFactor(group.factor)
      for (person, units) in group.sums.changes {
        let cell = person * width + column
        touched[cell] = true
        guard units != 0 else { continue }
        let (sum, overflow) = originals[cell].addingReportingOverflow(units)
        if overflow { throw failure }
        originals[cell] = sum
        guard let term = factor.times(units), let part = parts[cell].adding(term) else { return nil }
        parts[cell] = part
      }
    }
    // Each balance rounded to the nearest unit.
    var units: [Int128] = []
    var residues: [FixedPointValue] = []
    var shortfall: Int128 = 0
    for person in 0..<count {
      var total = FixedPointValue.zero
      for column in 0..<width {
        guard let sum = total.adding(parts[person * width + column]) else { return nil }
        total = sum
      }
      guard let steps = total.nearest(), steps.magnitude < 1 << 62 else { return nil }
      units.append(steps)
      residues.append(total.subtracting(units: steps))
      shortfall += steps
    }
    // The units they miss zero by, moved one each to people whose rounding went the other way,
    // in the leftover policy's order (as BalancedRounding.round does exactly).
    let direction: Int128 = shortfall > 0 ? -1 : 1
    var eligible: [Int] = []
    for person in 0..<count {
      guard let sign = residues[person].certainSign else { return nil }
      if Int128(sign) == direction { eligible.append(person) }
    }
    let order = BalancedRounding.order(
      eligible.map { (people.names[$0], residues[$0].value * direction) }, policy: policy, absorbed: absorbed)
    if policy != .first {
      // Sorted by the fixed-point values, the order is the exact one when no two neighbours' bounds
      // overlap (an overlap anywhere shows between some two neighbours) or they are an exact tie.
      for (a, b) in zip(order, order.dropFirst()) {
        let (left, right) = (eligible[a], eligible[b])
        if residues[left].isCertainlyGreater(than: residues[right]) == nil, !sameSums(left, right) { return nil }
      }
    }
    var moved = [Int](repeating: 0, count: count)
    for position in order.prefix(Int(shortfall.magnitude)) {
      let person = eligible[position]
      units[person] += direction
      moved[person] = Int(direction)
    }
    var balances: [ConvertedBalance] = []
    balances.reserveCapacity(count)
    for person in 0..<count {
      guard let balance = Int64(exactly: units[person]) else { return nil }
      // Each part rounded to the nearest unit; the units they miss the balance by moved one at a
      // time to the part whose rounding went furthest the other way (the first on a tie).
      var personParts: [ConvertedBalance.Part] = []
      var partResidues: [FixedPointValue] = []
      var difference = Int128(balance)
      for column in 0..<width where touched[person * width + column] {
        let part = parts[person * width + column]
        guard let steps = part.nearest(), let converted = Int64(exactly: steps) else { return nil }
        personParts.append(
          ConvertedBalance.Part(
            original: Money(minorUnits: originals[person * width + column], currency: currencies[column]),
            converted: Money(minorUnits: converted, currency: currency)))
        partResidues.append(part.subtracting(units: steps))
        difference -= steps
      }
      while difference != 0 {
        let step: Int128 = difference > 0 ? 1 : -1
        let signed = partResidues.map { $0.times(sign: step) }
        guard var chosen = signed.indices.first else { return nil }
        for index in signed.indices.dropFirst() where signed[index].value > signed[chosen].value { chosen = index }
        for index in signed.indices where index != chosen {
          guard let further = signed[chosen].isCertainlyGreater(than: signed[index]) else { return nil }
          // An exact tie goes to the first part; the chosen one is the first of the largest.
          if !further && !(signed[index].value == signed[chosen].value && chosen < index) { return nil }
        }
        personParts[chosen].converted.minorUnits += Int64(step)
        partResidues[chosen] = partResidues[chosen].subtracting(units: step)
        difference -= step
      }
      balances.append(
        ConvertedBalance(
          person: people.names[person], balance: Money(minorUnits: balance, currency: currency),
          absorbed: -moved[person], parts: personParts))
    }
    return balances
  }

  /// Whether two people's sums are the same at every rate (so are their exact balances).
  private func sameSums(_ a: Int, _ b: Int) -> Bool {
    groups.allSatisfy { group in
      group.sums.sum(of: a) == group.sums.sum(of: b)
    }
  }
}
