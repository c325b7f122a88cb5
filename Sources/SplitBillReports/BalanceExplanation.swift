import SplitBillCore
import SplitBillModel

/// The records behind each person's balance, for `report --explain`: every bill they paid or had
/// a share of and every payment they sent or received, in reading order, per currency, so that
/// anyone can check a transfer by hand. A bill moves a balance only when it has a payer and named
/// diners (as the books count it): `paid − share`; a payment `sent − received`.
///
/// It keeps a row per person and record, which is what the explanation prints: memory grows with
/// the books (the report without `--explain` keeps none of it).
package struct BalanceExplanation: Sendable {
  /// One record's effect on one person's balance.
  package struct Row: Sendable, Equatable {
    /// The bill's id, or `payment to Ben` / `payment from Ana` (with the payment's id, if any).
    package var record: String
    /// `YYYY-MM-DD`, or empty.
    package var date: String
    /// What they paid (a bill) or sent (a payment).
    package var paid: Int64
    /// Their share (a bill) or what they received (a payment).
    package var share: Int64
    /// The balance after this row, from the opening balance on.
    package var running: Int64
    /// Whether the row is a payment.
    package var isPayment: Bool
  }

  /// One person's balance in one currency, record by record.
  package struct Balance: Sendable {
    package var person: String
    package var currency: Currency
    /// Carried from before the period (`0` without one).
    package var opening: Int64
    package var rows: [Row]
    /// Where the rows end: the balance the settle-up settles.
    package var closing: Int64

    /// The rows as a table's cells, unescaped: date, record, paid or sent, share or received and
    /// the balance after it; the carried balance first when there is one, `balance` last.
    package var cells: [[String]] {
      let signed = { (units: Int64) in BalanceExplanation.signed(units, currency) }
      let amount = { (units: Int64) in Money(minorUnits: units, currency: currency).groupedString }
      var cells: [[String]] = []
      if opening != 0 { cells.append(["", "carried from before the period", "", "", signed(opening)]) }
      for row in rows {
        cells.append([row.date, row.record, amount(row.paid), amount(row.share), signed(row.running)])
      }
      cells.append(["", "balance", "", "", signed(closing)])
      return cells
    }
  }

  private struct Key: Hashable {
    var person: String
    var currency: String
  }

  private var rows: [Key: [(record: String, date: String, paid: Int64, share: Int64, isPayment: Bool)]] = [:]

  package init() {}

  /// Notes a bill of the period.
  package mutating func add(_ reported: ReportedBill) {
    let split = reported.split
    guard split.movesBalances else { return }
    let date = reported.bill.date?.description ?? ""
    var paid: [String: Int64] = [:]
    var order: [String] = []
    split.forEachPayer { payer, amount in
      if paid[payer] == nil { order.append(payer) }
      paid[payer, default: 0] += amount.minorUnits
    }
    var share: [String: Int64] = [:]
    for item in split.shares {
      if share[item.person] == nil, paid[item.person] == nil { order.append(item.person) }
      share[item.person, default: 0] += item.amount.minorUnits
    }
    for person in order {
      rows[Key(person: person, currency: split.currency.code), default: []].append(
        (reported.bill.id, date, paid[person] ?? 0, share[person] ?? 0, false))
    }
  }

  /// Notes a payment of the period.
  package mutating func add(_ record: PaymentRecord) {
    let payment = record.payment
    let date = record.date?.description ?? ""
    let id = record.id.isEmpty ? "" : " (\(record.id))"
    let code = payment.amount.currency.code
    rows[Key(person: payment.from, currency: code), default: []].append(
      ("payment to \(payment.to)\(id)", date, payment.amount.minorUnits, 0, true))
    rows[Key(person: payment.to, currency: code), default: []].append(
      ("payment from \(payment.from)\(id)", date, 0, payment.amount.minorUnits, true))
  }

  /// The balances of everyone in a transfer of `summary`'s settle-up, by name, then currency
  /// (with `--settle-in`, each of their currencies: the conversion turns them into the one
  /// settled).
  package func balances(for summary: ReportSummary) -> [Balance] {
    let people = Set(summary.settlements.flatMap { $0.transfers.flatMap { [$0.from, $0.to] } })
    return summary.people.filter { people.contains($0.person) }
      .sorted { ($0.person, $0.currency.code) < ($1.person, $1.currency.code) }
      .compactMap { totals in
        let own = rows[Key(person: totals.person, currency: totals.currency.code)] ?? []
        guard !own.isEmpty || totals.opening != 0 else { return nil }
        var running = totals.opening
        let shown = own.map { row in
          running += row.paid - row.share
          return Row(
            record: row.record, date: row.date, paid: row.paid, share: row.share, running: running,
            isPayment: row.isPayment)
        }
        return Balance(
          person: totals.person, currency: totals.currency, opening: totals.opening, rows: shown,
          closing: totals.closing)
      }
  }

  /// `Ana pays Ben 45.00 EUR: Ana's balance is −45.00, Ben's is +60.00.`, for each transfer.
  package static func transferLines(_ summary: ReportSummary, escape: (String) -> String) -> [String] {
    var closing: [String: Int64] = [:]
    for row in summary.people { closing["\(row.person)\u{0}\(row.currency.code)"] = row.closing }
    let converted = summary.conversion.map { conversion in
      Dictionary(
        conversion.balances.map { ($0.person, $0.balance.minorUnits) }, uniquingKeysWith: { first, _ in first })
    }
    return summary.settlements.flatMap { settlement in
      settlement.transfers.map { transfer in
        let balance = { (person: String) -> String in
          let units = converted?[person] ?? closing["\(person)\u{0}\(settlement.currency.code)"] ?? 0
          return signed(units, settlement.currency)
        }
        return
          "\(escape(transfer.from)) pays \(escape(transfer.to)) \(transfer.amount.groupedString) \(settlement.currency.code): "
          + "\(escape(transfer.from))'s balance is \(balance(transfer.from)), \(escape(transfer.to))'s is \(balance(transfer.to))."
      }
    }
  }

  /// `+60.00`, `−45.00`, `0.00`: a balance with its sign, grouped.
  package static func signed(_ units: Int64, _ currency: Currency) -> String {
    let text = Money(minorUnits: units == .min ? .max : abs(units), currency: currency).groupedString
    return units > 0 ? "+" + text : units < 0 ? "−" + text : text
  }

  /// What each row says: `paid 90.00, share 30.00` / `sent 10.00` / `received 10.00`.
  package static func effect(_ row: Row, _ currency: Currency) -> String {
    let money = { (units: Int64) in Money(minorUnits: units, currency: currency).groupedString }
    if row.isPayment { return row.paid > 0 ? "sent \(money(row.paid))" : "received \(money(row.share))" }
    return "paid \(money(row.paid)), share \(money(row.share))"
  }
}
