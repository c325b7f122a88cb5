import SplitBillCore
import SplitBillModel
import SplitBillText

/// The bills of an app that splits each bill among its owers in proportion to the members'
/// weights and never rounds a share, only each member's balance when it shows it (IHateMoney,
/// Cospend), written as splitbill bills whose whole-unit shares give exactly those balances.
///
/// A member's balance is what they paid less `amount × weight ÷ Σ owers' weights` of every bill
/// they owe, summed exactly (the apps use floating point; exact sums differ only where a float
/// error would cross a half unit) and rounded once by the app's ``Rounding``. Balances rounded each
/// on their own can add up to a unit or two off zero: those units go to the members whose
/// unrounded sums lay nearest the half, each with a warning. The shares are then found by
/// ``RoundedBalances/wholeParts(of:participants:targets:)``.
struct WeightedBills {
  /// One bill: who paid, who owes it with their weights (any scale), and what it is.
  struct Bill {
    var id: String
    var date: CalendarDate?
    var what: String
    var amount: Money
    var payer: String
    var owers: [SpliitRule.Entry]
    /// A transfer between members (IHateMoney's `Reimbursement`): written as payments.
    var isReimbursement = false
    var notes: String?
    var category: String?
    /// A few words after the app's split, for the comment above the bill (`repeats monthly`).
    var remark: String?
  }

  /// How the app rounds a balance it shows.
  enum Rounding {
    /// Python's `round`: to the nearest unit, an exact half to the even one (IHateMoney).
    case halfEven
    /// PHP's `round` and JavaScript's `toFixed`: an exact half away from zero (Cospend).
    case halfAwayFromZero

    /// The sum rounded by Core's rule: half to even is the same either side of zero; half away
    /// from zero is Core's half up on the sum's magnitude.
    func rounded(_ sum: FractionSum) -> Int64 {
      switch self {
      case .halfEven: sum.rounded(.halfEven)
      case .halfAwayFromZero: sum.rounded(.halfUp)
      }
    }

    var words: String {
      switch self {
      case .halfEven: "half to even"
      case .halfAwayFromZero: "half away from zero"
      }
    }
  }

  /// The app's name, for messages and comments (`IHateMoney`).
  let app: String
  /// The export's path, for the diagnostics.
  let file: String
  let rounding: Rounding
  /// The codes of "no whole-unit shares give the balances" and of a residue's warning.
  let roundingCode: ImportCode
  let residueCode: ImportCode
  var bills: [Bill] = []
  /// Members in the order they first come.
  var members: [String] = []

  /// Writes the bills (and reimbursements as payments) into `book`, with the people, the balances
  /// the app shows as its expected balances, and the rule in its header.
  func write(into book: inout ImportedBook) throws(Diagnostic) {
    book.people = members
    let currencies = Set(bills.map(\.amount.currency)).sorted()
    var parts: [Int: [Int64]] = [:]
    for currency in currencies {
      let indices = bills.indices.filter { bills[$0].amount.currency == currency }
      let (found, shown) = try shares(of: indices, in: currency, remarks: &book.remarks)
      for (index, shares) in zip(indices, found) { parts[index] = shares }
      book.expectedBalances[currency] = shown
    }
    for (index, bill) in bills.enumerated() { record(bill, shares: parts[index] ?? [], into: &book) }
    book.expectedFrom = "\(app)'s own balances (paid minus owed, split by weight, rounded once)"
    book.headerNotes.append(
      "\(app) rule: shares never rounded, each member's balance rounded once (\(rounding.words)); the shares "
        + "below are whole units that give exactly those balances.")
  }

  /// The whole-unit shares of the bills at `indices` (one currency) that give each member the
  /// balance the app shows, and those balances.
  func shares(
    of indices: [Int], in currency: Currency, remarks: inout [Diagnostic]
  ) throws(Diagnostic) -> ([[Int64]], [String: Int64]) {
    var paid: [String: Int64] = [:]
    var owed: [String: FractionSum] = [:]
    var balance: [String: FractionSum] = [:]
    for index in indices {
      let bill = bills[index]
      paid[bill.payer, default: 0] += bill.amount.minorUnits
      let total = bill.owers.reduce(Int128(0)) { $0 + Int128($1.weight) }
      for ower in bill.owers {
        let share = Int128(bill.amount.minorUnits) * Int128(ower.weight)
        guard owed[ower.participant, default: FractionSum()].add(share, over: total),
          balance[ower.participant, default: FractionSum()].add(-share, over: total)
        else {
          throw Diagnostic(
            in: file, .error, roundingCode,
            "the bills' weight ratios are too many to add up exactly as \(app)'s balances are (128 bits)")
        }
      }
    }
    for (person, amount) in paid {
      guard balance[person, default: FractionSum()].add(Int128(amount), over: 1) else {
        throw Diagnostic(in: file, .error, roundingCode, "the amounts are too large to add up exactly (128 bits)")
      }
    }
    let people = members.filter { balance[$0] != nil }
    var shown: [String: Int64] = [:]
    var targets: [String: Int64] = [:]
    for person in people {
      let rounded = balance[person].map(rounding.rounded) ?? 0
      shown[person] = rounded
      targets[person] = (paid[person] ?? 0) - rounded
    }
    let residue = shown.values.reduce(0, +)
    if residue != 0 {
      let sums = people.compactMap { person in owed[person].map { (participant: person, sum: $0) } }
      let change: Int64 = residue < 0 ? -1 : 1
      for person in RoundedBalances.residueMoves(residue, unrounded: sums, rounded: targets) {
        let before = shown[person] ?? 0
        targets[person, default: 0] += change
        shown[person] = before - change
        remarks.append(
          Diagnostic(
            in: file, .warning, residueCode,
            "\(app) rounds each balance on its own, so its \(currency.code) balances add up to "
              + "\(Money(minorUnits: residue, currency: currency)), not zero: \(EchoedText.quote(person))'s is "
              + "imported as \(Money(minorUnits: before - change, currency: currency)), not the "
              + "\(Money(minorUnits: before, currency: currency)) \(app) shows"))
      }
    }
    let weighted = indices.map {
      RoundedBalances.Expense(amount: bills[$0].amount.minorUnits, paidFor: bills[$0].owers)
    }
    guard let found = RoundedBalances.wholeParts(of: weighted, participants: people, targets: targets) else {
      throw Diagnostic(
        in: file, .error, roundingCode,
        "no whole-unit shares give every member the \(currency.code) balance \(app) shows")
    }
    return (found, shown)
  }

  /// The bill as a bill, payments (a reimbursement) or a refund, with `shares` its owers' parts.
  func record(_ bill: Bill, shares: [Int64], into book: inout ImportedBook) {
    let owed = zip(bill.owers, shares).map { ImportedPart(person: $0.participant, minorUnits: $1) }
    let description = bill.what.isEmpty ? nil : bill.what
    if bill.isReimbursement, bill.amount.minorUnits > 0 {
      let receivers = owed.filter { $0.person != bill.payer && $0.minorUnits > 0 }
      for (number, part) in receivers.enumerated() {
        book.payments.append(
          ImportedPayment(
            id: receivers.count == 1 ? bill.id : ImportedBook.id(bill.id, part: number), date: bill.date,
            from: bill.payer, to: part.person,
            amount: Money(minorUnits: part.minorUnits, currency: bill.amount.currency),
            notes: ([description, bill.notes].compactMap { $0 }).joined(separator: "; ").nilIfEmpty))
      }
      return
    }
    let paid = [ImportedPart(person: bill.payer, minorUnits: bill.amount.minorUnits)]
    let weights = Set(bill.owers.map(\.weight)).count > 1
    let unit = Int64(bill.owers.reduce(Int128(0)) { FractionSum.gcd($0, Int128($1.weight)) })
    let comment =
      "\(app): paid by \(bill.payer), owed by " + bill.owers.map(\.participant).joined(separator: ", ")
      + (weights ? " (weights " + bill.owers.map { String($0.weight / max(unit, 1)) }.joined(separator: ":") + ")" : "")
      + (bill.remark.map { "; \($0)" } ?? "")
    if bill.amount.minorUnits < 0 {
      let effects = ImportedBill.netted(paid + owed.map { ImportedPart(person: $0.person, minorUnits: -$0.minorUnits) })
      book.bills.append(
        ImportedBill.moving(
          effects, refund: bill.amount, id: bill.id, date: bill.date, description: description,
          notes: ([bill.notes].compactMap { $0 } + ["\(app) refund of \(bill.amount)"]).joined(separator: "; "),
          comment: "\(comment); a negative amount, \(bill.amount), written as the balances it moves",
          category: bill.category))
      return
    }
    book.bills.append(
      ImportedBill(
        id: bill.id, date: bill.date, description: description, amount: bill.amount, payers: paid,
        shares: owed.filter { $0.minorUnits > 0 }, notes: bill.notes, comment: comment, category: bill.category))
  }

  /// Weights are read to millionths (`1.5` is 1,500,000): the apps store them as floats.
  static let weightUnit: Int64 = 1_000_000

  /// A number as Python or PHP prints a float (`200.0`, `13.33`, `42.5`), its trailing zeros after
  /// the point taken off so that `200.0` is a whole number of yen; `nil` for exponent notation.
  static func plainDecimal(_ text: String) -> String? {
    let trimmed = text.trimmingSpaces
    guard !trimmed.contains(where: { $0 == "e" || $0 == "E" }) else { return nil }
    guard trimmed.contains(".") else { return trimmed }
    var result = Substring(trimmed)
    while result.hasSuffix("0") { result = result.dropLast() }
    if result.hasSuffix(".") { result = result.dropLast() }
    return String(result)
  }

  /// An amount printed as a float, exactly, in `currency` (a sign allowed); `nil` when it is not one.
  static func amount(_ text: String, in currency: Currency) -> Money? {
    plainDecimal(text).flatMap { try? Money(parsing: $0, currency: currency, allowNegative: true) }
  }

  /// A weight printed as a float, in millionths (at most six decimals, zero or more); `nil` when it
  /// is not one.
  static func weight(_ text: String) -> Int64? {
    plainDecimal(text).flatMap { try? DecimalText.parse($0, scale: 6, maxIntegerDigits: 9) }
  }
}
