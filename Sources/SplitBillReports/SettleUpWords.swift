import SplitBillCore

/// The settle-up in plain words, for every format that people read (text, Markdown, HTML,
/// messages): one paragraph a person, then the few terms the rest of the report uses, explained
/// once.
///
///     Ben: you paid 266.48 EUR, your share was 184.05, so you get 82.43 back: Ana pays you 11.39
///     and Dmitri pays you 71.04.
///
/// Names are untrusted: each format passes its own escaping.
package enum SettleUpWords {
  /// One paragraph per person, by name: what they paid, their share, payments and what was carried
  /// in, where they stand, and the plan's transfers that bring them to zero.
  package static func paragraphs(_ summary: ReportSummary, escape: (String) -> String) -> [(
    person: String, text: String
  )] {
    var rows: [String: [PersonTotals]] = [:]
    for row in summary.people { rows[row.person, default: []].append(row) }
    let currencies = Set(summary.people.map(\.currency))
    let converted = summary.conversion.map { conversion in
      Dictionary(conversion.balances.map { ($0.person, $0.balance) }, uniquingKeysWith: { first, _ in first })
    }
    // Each person's transfers, found once: a bill of thousands of diners has thousands of them.
    let byPerson = transfersByPerson(summary)
    return rows.keys.sorted().map { person in
      let theirs = byPerson[person] ?? []
      var sentences: [String] = []
      let own = (rows[person] ?? []).filter {
        $0.consumed != 0 || $0.paid != 0 || $0.sent != 0 || $0.received != 0 || $0.opening != 0
      }
      for (index, row) in own.enumerated() {
        let code = row.currency.code
        let money = { (units: Int64) in Money(minorUnits: units, currency: row.currency).groupedString }
        var parts: [String] = []
        // One currency: the first amount names it; several: each sentence does.
        let lead =
          currencies.count > 1 ? "in \(code) you paid \(money(row.paid))" : "you paid \(money(row.paid)) \(code)"
        parts.append(lead)
        parts.append("your share was \(money(row.consumed))")
        if row.sent > 0 { parts.append("you sent \(money(row.sent)) in payments") }
        if row.received > 0 { parts.append("you received \(money(row.received)) in payments") }
        if row.opening > 0 { parts.append("you were owed \(money(row.opening)) from before the period") }
        if row.opening < 0 { parts.append("you owed \(money(-row.opening)) from before the period") }
        var sentence = parts.joined(separator: ", ") + ", so " + standing(row.closing, money)
        if converted == nil {
          let inCurrency = theirs.filter { $0.1 == row.currency }.map(\.0)
          sentence += transfers(of: person, inCurrency, money, escape: escape, owed: row.closing)
        }
        sentences.append((index == 0 ? sentence : capitalized(sentence)) + ".")
      }
      if let conversion = summary.conversion, let balance = converted?[person] {
        let money = { (units: Int64) in Money(minorUnits: units, currency: conversion.currency).groupedString }
        let inCurrency = theirs.filter { $0.1 == conversion.currency }.map(\.0)
        sentences.append(
          "Settled in \(conversion.currency.code) at the rates below, "
            + standing(balance.minorUnits, money)
            + transfers(of: person, inCurrency, money, escape: escape, owed: balance.minorUnits) + ".")
      }
      if sentences.isEmpty { sentences.append("nothing to pay or get back.") }
      return (person, escape(person) + ": " + sentences.joined(separator: " "))
    }
  }

  /// The transfers each person makes or gets, with their currencies, in the settlements' order.
  package static func transfersByPerson(_ summary: ReportSummary) -> [String: [(Transfer, Currency)]] {
    var byPerson: [String: [(Transfer, Currency)]] = [:]
    for settlement in summary.settlements {
      for transfer in settlement.transfers {
        byPerson[transfer.from, default: []].append((transfer, settlement.currency))
        byPerson[transfer.to, default: []].append((transfer, settlement.currency))
      }
    }
    return byPerson
  }

  /// `so you get 55.80 back`, `so you owe 12.00`, `so you are even`.
  private static func standing(_ closing: Int64, _ money: (Int64) -> String) -> String {
    closing > 0 ? "you get \(money(closing)) back" : closing < 0 ? "you owe \(money(-closing))" : "you are even"
  }

  /// `: Chloé pays you 55.80` / `: you pay Ben 11.39 and Chloé 54.56`, and a note when the
  /// transfers (rounded to a cash step) do not add up to the balance.
  private static func transfers(
    of person: String, _ transfers: [Transfer], _ money: (Int64) -> String, escape: (String) -> String, owed: Int64
  ) -> String {
    let paying = transfers.filter { $0.from == person }
    let getting = transfers.filter { $0.to == person }
    var clauses: [String] = []
    if !paying.isEmpty {
      clauses.append("you pay " + list(paying.map { "\(escape($0.to)) \(money($0.amount.minorUnits))" }))
    }
    if !getting.isEmpty {
      clauses.append(list(getting.map { "\(escape($0.from)) pays you \(money($0.amount.minorUnits))" }))
    }
    guard !clauses.isEmpty else { return owed == 0 ? "" : ": no transfer is due (below the cash step)" }
    let moved =
      getting.reduce(Int64(0)) { $0 + $1.amount.minorUnits } - paying.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
    let rounded = moved == owed ? "" : " (rounded to the cash step)"
    return ": " + clauses.joined(separator: "; ") + rounded
  }

  /// How a person is paid, in words: `IBAN DE89 3704 0044 0532 0130 00 (BIC COBADEFFXXX), or
  /// https://paypal.me/ben`; `nil` without an account or a link.
  package static func howToPay(_ details: PaymentDetails, escape: (String) -> String) -> String? {
    var ways: [String] = []
    if let iban = details.iban {
      var notes: [String] = []
      if let bic = details.bic { notes.append("BIC \(bic.code)") }
      if let holder = details.holder { notes.append("account of \(escape(holder))") }
      ways.append("IBAN \(iban.grouped)" + (notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"))
    }
    if let link = details.link { ways.append(escape(link)) }
    return ways.isEmpty ? nil : ways.joined(separator: ", or ")
  }

  /// `To pay Ben: IBAN …, or https://paypal.me/ben`, for each person the plan has paid who gave
  /// payment details, by name.
  package static func paymentLines(_ summary: ReportSummary, escape: (String) -> String) -> [String] {
    let receivers = Set(summary.settlements.flatMap { $0.transfers.map(\.to) })
    return receivers.sorted().compactMap { person in
      guard let details = summary.payees[person], let how = howToPay(details, escape: escape) else { return nil }
      return "To pay \(escape(person)): \(how)"
    }
  }

  /// `a`, `a and b`, `a, b and c`.
  package static func list(_ items: [String]) -> String {
    items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
  }

  private static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

  /// How the plan of `method` is named beside a currency's transfers.
  package static func method(_ method: SettlementMethod) -> String {
    switch method {
    case .minimal: "fewest transfers"
    case .ordered: "in name order: more than \(Settlement.exactLimit) people"
    case .pairwise: "pairwise: each pair settles what passed between them"
    case .keepingOut: "named people settle pairwise, the others with the fewest transfers"
    }
  }

  /// The report's terms, each explained once, for the end of the settle-up.
  package static let terms: [(term: String, meaning: String)] = [
    (
      "absorbed",
      "a share cannot hold a fraction of a cent: the units left over when a total is divided go one each to "
        + "some people, and the report marks who took them"
    ),
    (
      "leftover policy",
      "who takes those units: balanced (whoever has taken the fewest so far), payer, or remainder (the "
        + "largest fractions)"
    ),
    ("balance", "what you paid, less your shares, plus payments you sent, less payments you received"),
    (
      "exchange difference",
      "with one settlement currency, the units the conversion's rounding moves, taken like leftover units"
    ),
  ]
}
