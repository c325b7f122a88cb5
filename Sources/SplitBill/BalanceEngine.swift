import SplitBillInput
import SplitBillModel
import SplitBillText

/// Where everyone stands now: each person's balance and the transfers that settle them, across
/// the books given (periods, payments, `--settle-in` and cash rounding apply as in a report).
public struct BalanceSheet: Sendable {
  /// One person's balance in one currency: positive when others owe them.
  public struct Line: Sendable, Hashable {
    public var person: String
    public var balance: Money
  }

  /// Every balance, by currency code then name (with ``ReportOptions/settleIn``, the converted
  /// ones, in that currency); zero balances included.
  public var balances: [Line]
  /// The transfers that settle them, a settlement per currency.
  public var settlements: [Settlement]
  /// The people in the books, by name.
  public var people: [String] { Array(Set(balances.map(\.person))).sorted() }
  /// Bills split (in the period).
  public var bills: Int
  /// Bills and payments that could not be used (in ``problems``).
  public var invalid: Int
  /// What the reading found.
  public var problems: ReportProblems
  /// How people are paid, by name (their `people:` entries' details).
  public var paymentDetails: [String: PaymentDetails] = [:]

  /// `person`'s balances (none when they are settled up in every currency) and the transfers
  /// they are in; `nil` when the books do not name them.
  public func of(_ person: String) -> (balances: [Line], transfers: [(currency: Currency, transfer: Transfer)])? {
    let name = PersonName.normalized(person)
    guard balances.contains(where: { $0.person == name }) else { return nil }
    let transfers = settlements.flatMap { settlement in
      settlement.transfers.filter { $0.from == name || $0.to == name }.map { (settlement.currency, $0) }
    }
    return (balances.filter { $0.person == name && $0.balance.minorUnits != 0 }, transfers)
  }

  /// The name in the books nearest to `person` (a misspelling), if any.
  public func suggestion(for person: String) -> String? {
    Spelling.suggestion(for: PersonName.normalized(person), among: people)
  }
}

/// `splitbill balance`: the report's reading and settling, without writing a report.
///
/// ```swift
/// let sheet = try Balances.compute(["flat/"], ReportOptions(today: today))
/// if let mine = sheet.of("Maya") { for line in mine.balances { print(line.balance) } }
/// ```
public enum Balances {
  /// Reads `paths` as ``Reporter`` does (``ReportOptions/outputs`` and the journal and recording
  /// options are not used; bills with `tip: ai` take the offline advisor's tip) and settles.
  /// The blocking `compute(_:_:)`, for a caller on Swift's cooperative pool: the reading blocks a
  /// thread of its own, and the task awaits it.
  public static func compute(_ paths: [String], _ options: ReportOptions) async throws(ReportFailure) -> BalanceSheet {
    try await DedicatedThread.run { () throws(ReportFailure) in try compute(paths, options) }
  }

  public static func compute(_ paths: [String], _ options: ReportOptions) throws(ReportFailure) -> BalanceSheet {
    var options = options
    options.outputs = []
    options.recordSettlementsTo = nil
    options.stamp = nil
    let outcome = try Reporter.prepare(paths, options).write()
    let lines: [BalanceSheet.Line]
    if let conversion = outcome.conversion {
      lines = conversion.balances.map { BalanceSheet.Line(person: $0.person, balance: $0.balance) }
    } else {
      lines = outcome.people.map {
        BalanceSheet.Line(person: $0.person, balance: Money(minorUnits: $0.closing, currency: $0.currency))
      }
    }
    return BalanceSheet(
      balances: lines, settlements: outcome.settlements, bills: outcome.bills, invalid: outcome.invalid,
      problems: outcome.problems, paymentDetails: outcome.paymentDetails)
  }
}
