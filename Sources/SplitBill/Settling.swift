import SplitBillCore
import SplitBillInput
import SplitBillModel
import SplitBillRates
import SplitBillText

/// `report`'s one-currency settings: the currency to settle in, the rate tables, cash rounding.
package struct Settling: Sendable {
  /// The currency every balance is converted into and settled in, if any.
  package let currency: Currency?
  /// The rate files' tables, in the order given (the files' own `rates:` come first).
  package let tables: [RateTable]
  /// What is wrong in the rate files: reported, and the run's exit code is 1.
  package let rateProblems: [Diagnostic]
  /// `--cash-rounding` as given (checked against each currency it rounds).
  package let cashRounding: String?
  /// Its increments by currency as given (`HUF=5,CHF=0.05`), read in each currency as the ledger
  /// keeps it (whole units or not), and the one for every other currency when an amount is given
  /// alone (`0.05`).
  let cashIncrements: (byCurrency: [Currency: String], every: String?)
  /// A record converted at a rate more days older than its own day is warned of.
  package let maxRateAge: Int

  /// Reads the rate files; a file that cannot be read fails the run (`noInput`), a cash rounding
  /// that is no amount, or finer than `currency`'s unit, is a usage failure.
  package init(
    currency: Currency?, rateFiles: [String], maxRateAge: Int, cashRounding: String?, wholeUnits: Set<Currency> = []
  ) throws(ReportFailure) {
    self.currency = currency
    var tables: [RateTable] = []
    var problems: [Diagnostic] = []
    for path in rateFiles {
      let bytes: [UInt8]
      do {
        bytes = try InputFile.bytes(path)
      } catch {
        throw ReportFailure(.noInput, "\(.rateFiles): \(error.message)")
      }
      let (table, found) = RateReader.table(bytes, path: path)
      tables.append(table)
      problems += found
    }
    self.tables = tables
    self.rateProblems = problems
    self.maxRateAge = maxRateAge
    self.cashRounding = cashRounding
    cashIncrements =
      try cashRounding.map { text throws(ReportFailure) in try Self.cashIncrements(text, wholeUnits) }
      ?? ([:], nil)
    if let every = cashIncrements.every, let currency { _ = try Self.increment(every, in: currency) }
  }

  /// `--cash-rounding`'s text read: an amount for every currency settled (`0.05`), or increments
  /// by currency (`HUF=5,CHF=0.05`; `HUF:5` too), each checked against its currency's unit.
  static func cashIncrements(_ text: String, _ wholeUnits: Set<Currency>) throws(ReportFailure) -> (
    byCurrency: [Currency: String], every: String?
  ) {
    let expected = "expected an amount for every currency (0.05) or CODE=AMOUNT by currency (HUF=5,CHF=0.05)"
    let entries = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
    var byCurrency: [Currency: String] = [:]
    var every: String?
    for entry in entries {
      let parts = entry.split(maxSplits: 1, whereSeparator: { $0 == "=" || $0 == ":" }).map { $0.trimmingSpaces }
      if parts.count == 1 {
        guard entries.count == 1, DecimalRate(parsing: parts[0]) != nil else {
          throw ReportFailure(.usage, "\(.cashRounding) '\(text)': '\(entry)' is not a positive amount: \(expected)")
        }
        every = parts[0]
        continue
      }
      guard let code = try? Currency(code: parts[0]) else {
        throw ReportFailure(
          .usage, "\(.cashRounding) '\(text)': '\(parts[0])' is not an ISO 4217 currency: \(expected)")
      }
      let currency = code.kept(wholeUnits: wholeUnits)
      guard byCurrency[currency] == nil else {
        throw ReportFailure(.usage, "\(.cashRounding) '\(text)' gives \(currency.code) twice")
      }
      _ = try increment(parts[1], in: currency)
      byCurrency[currency] = parts[1]
    }
    return (byCurrency, every)
  }

  /// `text` in `currency`'s minor units: a usage error when it is finer than the currency's unit.
  static func increment(_ text: String, in currency: Currency) throws(ReportFailure) -> Int64 {
    guard DecimalRate(parsing: text) != nil else {
      throw ReportFailure(
        .usage, "\(.cashRounding) '\(text)' is not a positive amount: expected such as 0.05, 0.10 or 1")
    }
    guard let money = try? Money(parsing: text, currency: currency), money.minorUnits > 0 else {
      throw ReportFailure(
        .usage,
        "\(.cashRounding) \(text) is not a whole number of \(currency.code) minor units (\(currency.code) has \(currency.exponent) decimals)"
      )
    }
    return money.minorUnits
  }

  /// What settling produced.
  package struct Settled {
    var settlements: [Settlement]
    var conversion: Conversion?
    var cash: [CashSettlement] = []
  }

  /// The run's settlements: with `--settle-in`, the converted balances' one settlement; otherwise
  /// one per currency. Either is then cash-rounded where a rule applies (`--cash-rounding` for every
  /// currency settled, else the files' `cash_rounding:` for theirs). Every identity is checked.
  package func settle(
    _ ledger: ReportLedger, _ conversion: ConversionLedger?, cashRules: [CashRule], readOptions: ReadOptions,
    plan given: SettlementPlan = .fewest
  ) throws -> Settled {
    // Names as the books hold them (NFC), however they were typed.
    var plan = given
    if case .keepingOut(let names) = given {
      plan = .keepingOut(Set(names.map(PersonName.normalized)))
    }
    if case .keepingOut(let names) = plan {
      let known = Set(ledger.personTotals.map(\.person))
      if let stranger = names.sorted().first(where: { !known.contains($0) }) {
        let guess = Spelling.suggestion(for: stranger, among: known.sorted()).map { "; did you mean '\($0)'?" } ?? ""
        throw ReportFailure(
          .usage, "\(.keepOut) '\(EchoedText.quote(stranger))' is in none of the books read\(guess)")
      }
    }
    let policy = readOptions.defaults.leftover ?? .balanced
    var absorbedUnits: [String: Int] = [:]
    for person in ledger.personTotals { absorbedUnits[person.person, default: 0] += person.absorbed }
    let absorbed = { (name: String) in absorbedUnits[name] ?? 0 }
    var rules: [Currency: Int64] = [:]
    for rule in cashRules where rules[rule.currency] == nil { rules[rule.currency] = rule.increment.minorUnits }
    // The command line's increment for the currency, else its amount for every currency, else the
    // files' `cash_rounding:` rule for it.
    func increment(for currency: Currency) throws -> Int64? {
      if let text = cashIncrements.byCurrency[currency] { return try Self.increment(text, in: currency) }
      if let text = cashIncrements.every { return try Self.increment(text, in: currency) }
      return rules[currency]
    }
    func settled(_ balances: [String: Int64], in currency: Currency) throws -> (Settlement, CashSettlement?) {
      guard let step = try increment(for: currency) else {
        let settlement = Settlement.settle(
          balances, debts: ledger.pairwiseDebts(in: currency), plan: plan, in: currency)
        // Every plan brings every balance to zero; one that does not is a bug, and nothing is written.
        guard settlement.applied(to: balances).values.allSatisfy({ $0 == 0 }) else {
          throw ReportFailure(
            .internalError,
            "internal error: the \(plan.name) plan leaves \(currency.code) balances that are not zero; nothing was written"
          )
        }
        return (settlement, nil)
      }
      guard plan == .fewest else {
        throw ReportFailure(
          .usage,
          "the \(plan.name) plan (\(.plan)) pays exact amounts: a cash rounding of \(currency.code) (\(.cashRounding) or the file's cash_rounding:) works with the fewest-transfers plan only"
        )
      }
      let cash = CashSettlement.settle(balances, in: currency, increment: step, policy: policy, absorbed: absorbed)
      try cash.check(balances)
      return (cash.settlement, cash)
    }
    if let conversion {
      let converted = try conversion.convert(policy: policy, absorbed: absorbed)
      let balances = Dictionary(uniqueKeysWithValues: converted.balances.map { ($0.person, $0.balance.minorUnits) })
      let (settlement, cash) = try settled(balances, in: conversion.currency)
      return Settled(settlements: [settlement], conversion: converted, cash: cash.map { [$0] } ?? [])
    }
    var settlements: [Settlement] = []
    var cash: [CashSettlement] = []
    // Each currency settled once here (ReportLedger.settlements would settle them all first).
    for currency in ledger.currencyTotals.map(\.currency) {
      let balances = ledger.closingBalances(in: currency)
      let (rounded, residues) = try settled(balances, in: currency)
      settlements.append(rounded)
      if let residues { cash.append(residues) }
    }
    return Settled(settlements: settlements, conversion: nil, cash: cash)
  }
}
