import SplitBillCore

/// How Spliit has turned an expense into each participant's part. The rule changed three times
/// (spliit-app/spliit, `src/lib/balances.ts` and `src/lib/shares.ts`), and what users compare is
/// the balances the app showed them, so an import reproduces the rule of the export's era.
///
/// An export tells its era only through its fields: Spliit added expense ids to exports on
/// 2026-08-13, together with today's rule. So `auto` takes ``largestRemainder`` for an export
/// with ids and ``roundedBalances`` for one without.
public enum SpliitRule: String, CaseIterable, Sendable {
  /// Since 2026-08-13: participants sorted by id; everyone gets the floor of their exact share;
  /// the units left over go by largest remainder, ties broken by rotating the starting participant
  /// by FNV-1a (32-bit, over the id's UTF-16 code units) of the expense id, modulo the number of
  /// participants (no rotation without an id). Independent of the order of `paidFor`.
  case largestRemainder = "largest-remainder"
  /// 2024-02-13 to 2026-08-13: shares are never rounded; each participant's balance is rounded
  /// once, at the end, half up (`Math.round`). Spliit used floating point; the importer works the
  /// same sums exactly (a fraction per participant), which differs only where a float error
  /// would have crossed a half cent.
  case roundedBalances = "rounded-balances"
  /// 2024-01-08 to 2024-02-13: every participant of `paidFor` but the last gets the floor of their
  /// share, the last gets the rest (depends on the order of `paidFor`).
  case floorLast = "floor-last"

  /// The rule of an export's era: ids present, today's rule; none, the 2024–2026 one.
  public static func era(hasExpenseIDs: Bool) -> SpliitRule {
    hasExpenseIDs ? .largestRemainder : .roundedBalances
  }

  /// The rule and its era in words, for the YAML header and `--help`.
  public var summary: String {
    switch self {
    case .largestRemainder:
      return "largest-remainder (Spliit since 2026-08: each share rounded down, the units left over by "
        + "largest remainder, ties rotated by the expense id)"
    case .roundedBalances:
      return "rounded-balances (Spliit 2024-02 to 2026-08: shares never rounded, each balance rounded once "
        + "at the end)"
    case .floorLast:
      return "floor-last (Spliit 2024-01 to 2024-02: each share rounded down, the last participant takes the rest)"
    }
  }

  /// One participant's weight in an expense: their id and their `shares` (1 each for `EVENLY`).
  struct Entry: Hashable {
    var participant: String
    var weight: Int64
  }

  /// Each entry's whole minor units of `amount` by this rule (``roundedBalances`` has none of its
  /// own and takes ``largestRemainder``'s, used for the payers of a several-payer expense), in the
  /// entries' order. `seed` is Spliit's expense id, `nil` when the export has none.
  func parts(of amount: Int64, among entries: [Entry], seed: String?) -> [Int64] {
    let total = entries.reduce(Int128(0)) { $0 + Int128($1.weight) }
    guard !entries.isEmpty, total > 0 else { return entries.map { _ in 0 } }
    switch self {
    case .floorLast:
      var parts = entries.dropLast().map { Int64(Self.floorDivision(Int128(amount) * Int128($0.weight), total)) }
      parts.append(amount - parts.reduce(0, +))
      return parts
    case .largestRemainder, .roundedBalances:
      let order = entries.indices.sorted { Self.precedes(entries[$0].participant, entries[$1].participant) }
      let offset = seed.map { $0.isEmpty ? 0 : Int(Self.fnv1a($0) % UInt32(entries.count)) } ?? 0
      var parts = [Int64](repeating: 0, count: entries.count)
      var remainders: [(position: Int, remainder: Int128)] = []
      var distributed: Int64 = 0
      for (position, index) in order.enumerated() {
        let exact = Int128(amount) * Int128(entries[index].weight)
        let base = Self.floorDivision(exact, total)
        parts[index] = Int64(base)
        distributed += Int64(base)
        remainders.append((position, exact - base * total))
      }
      let count = entries.count
      let rotated = { (position: Int) in (position - offset + count) % count }
      remainders.sort {
        $0.remainder != $1.remainder ? $0.remainder > $1.remainder : rotated($0.position) < rotated($1.position)
      }
      for place in 0..<Int(amount - distributed) { parts[order[remainders[place].position]] += 1 }
      return parts
    }
  }

  /// `numerator ÷ denominator` rounded toward minus infinity (the denominator is positive).
  static func floorDivision(_ numerator: Int128, _ denominator: Int128) -> Int128 {
    let quotient = numerator / denominator
    return numerator % denominator < 0 ? quotient - 1 : quotient
  }

  /// JavaScript's `<` on strings: by UTF-16 code units.
  static func precedes(_ first: String, _ second: String) -> Bool {
    first.utf16.lexicographicallyPrecedes(second.utf16)
  }

  /// FNV-1a, 32-bit, over UTF-16 code units (JavaScript's `charCodeAt`).
  static func fnv1a(_ text: String) -> UInt32 {
    var hash: UInt32 = 0x811c_9dc5
    for unit in text.utf16 {
      hash ^= UInt32(unit)
      hash = hash &* 0x0100_0193
    }
    return hash
  }
}

/// An exact sum of fractions: a participant's unrounded shares under ``SpliitRule/roundedBalances``.
/// 128 bits hold the sums of real groups; an overflow is reported, never wrapped.
struct FractionSum: Hashable {
  private(set) var numerator: Int128 = 0
  private(set) var denominator: Int128 = 1

  /// Adds `numerator ÷ denominator` (a positive denominator); `false` when 128 bits do not hold the sum.
  mutating func add(_ top: Int128, over bottom: Int128) -> Bool {
    let divisor = Self.gcd(denominator, bottom)
    let (scaledBottom, o1) = bottom.quotientAndRemainder(dividingBy: divisor).quotient
      .multipliedReportingOverflow(by: denominator)
    let (left, o2) = numerator.multipliedReportingOverflow(by: bottom / divisor)
    let (right, o3) = top.multipliedReportingOverflow(by: denominator / divisor)
    let (sum, o4) = left.addingReportingOverflow(right)
    guard !(o1 || o2 || o3 || o4) else { return false }
    let common = Self.gcd(sum, scaledBottom)
    numerator = sum / common
    denominator = scaledBottom / common
    return true
  }

  /// The sum rounded half up (JavaScript's `Math.round`): ⌊sum + ½⌋.
  var roundedHalfUp: Int64 {
    Int64(SpliitRule.floorDivision(2 * numerator + denominator, 2 * denominator))
  }

  /// The sum rounded to a whole unit by Core's `mode`, applied to its magnitude (so `.halfUp` rounds
  /// an exact half away from zero, `.halfEven` to the even unit either side).
  func rounded(_ mode: RoundingMode) -> Int64 {
    let magnitude = mode.divide(Int128(clamping: numerator.magnitude), by: denominator)
    return Int64(numerator < 0 ? -magnitude : magnitude)
  }

  /// The largest whole number not above the sum.
  var floor: Int64 { Int64(SpliitRule.floorDivision(numerator, denominator)) }

  /// How far the sum lies above its floor, as a fraction of one unit: `(top, bottom)`.
  var aboveFloor: (Int128, Int128) {
    (numerator - SpliitRule.floorDivision(numerator, denominator) * denominator, denominator)
  }

  static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
    var (x, y) = (a.magnitude, b.magnitude)
    while y != 0 { (x, y) = (y, x % y) }
    return x == 0 ? 1 : Int128(x)
  }
}
