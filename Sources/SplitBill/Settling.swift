import SplitBillCore
import SplitBillInput

/// `report`'s one-currency options: `--settle-in`, `--rates` and `--cash-rounding`.
struct SettlingOptions {
  /// The currency every balance is converted into and settled in, if any.
  let currency: Currency?
  /// The `--rates` files' tables, in the order given (the files' own `rates:` come first).
  let tables: [RateTable]
  /// What is wrong in the `--rates` files: reported, and the run's exit code is 1.
  let rateProblems: [Diagnostic]
  /// `--cash-rounding`, as given (checked against each currency it rounds).
  let cashRounding: String?
  /// `--max-rate-age`: a record converted at a rate more days older than its own day is warned of.
  let maxRateAge: Int

  init(_ arguments: ParsedArguments) throws {
    currency = try arguments.parse("--settle-in") { text in
      do {
        return try Currency(code: text)
      } catch {
        throw UsageError("--settle-in '\(text)' is not a currency: expected an ISO 4217 code such as EUR")
      }
    }
    let paths = arguments.values["--rates"] ?? []
    if !paths.isEmpty, currency == nil {
      throw UsageError("--rates is for --settle-in CODE: give the currency to settle in")
    }
    var tables: [RateTable] = []
    var problems: [Diagnostic] = []
    for path in paths {
      let bytes: [UInt8]
      do {
        bytes = try InputFile.bytes(path)
      } catch {
        throw CommandFailure(message: "--rates: \(error.message)", code: .noInput)
      }
      let (table, found) = RateReader.table(bytes, path: path)
      tables.append(table)
      problems += found
    }
    self.tables = tables
    self.rateProblems = problems
    maxRateAge =
      try arguments.parse("--max-rate-age") { text in
        guard let days = Int(text), days >= 0 else {
          throw UsageError("'\(text)' is not a number of days: expected a whole number such as 7")
        }
        return days
      } ?? 7
    if arguments.value("--max-rate-age") != nil, currency == nil {
      throw UsageError("--max-rate-age is for --settle-in CODE: give the currency to settle in")
    }
    cashRounding = arguments.value("--cash-rounding")
    if let text = cashRounding {
      guard DecimalRate(parsing: text) != nil else {
        throw UsageError("--cash-rounding '\(text)' is not a positive amount: expected such as 0.05, 0.10 or 1")
      }
      if let currency { _ = try Self.increment(text, in: currency) }
    }
  }

  /// `text` in `currency`'s minor units: a usage error when it is finer than the currency's unit.
  static func increment(_ text: String, in currency: Currency) throws(UsageError) -> Int64 {
    guard let money = try? Money(parsing: text, currency: currency), money.minorUnits > 0 else {
      throw UsageError(
        "--cash-rounding \(text) is not a whole number of \(currency.code) minor units (\(currency.code) has \(currency.exponent) decimals)"
      )
    }
    return money.minorUnits
  }

  /// What settling produced.
  struct Settled {
    var settlements: [Settlement]
    var conversion: Conversion?
    var cash: [CashSettlement] = []
  }

  /// The run's settlements: with `--settle-in`, the converted balances' one settlement; otherwise
  /// one per currency. Either is then cash-rounded where a rule applies (`--cash-rounding` for every
  /// currency settled, else the files' `cash_rounding:` for theirs). Every identity is checked.
  func settle(
    _ ledger: ReportLedger, _ conversion: ConversionLedger?, cashRules: [CashRule], readOptions: ReadOptions
  ) throws -> Settled {
    let policy = readOptions.defaults.leftover ?? .balanced
    var absorbedUnits: [String: Int] = [:]
    for person in ledger.personTotals { absorbedUnits[person.person, default: 0] += person.absorbed }
    let absorbed = { (name: String) in absorbedUnits[name] ?? 0 }
    var rules: [Currency: Int64] = [:]
    for rule in cashRules where rules[rule.currency] == nil { rules[rule.currency] = rule.increment.minorUnits }
    func increment(for currency: Currency) throws -> Int64? {
      if let text = cashRounding { return try Self.increment(text, in: currency) }
      return rules[currency]
    }
    func settled(_ balances: [String: Int64], in currency: Currency) throws -> (Settlement, CashSettlement?) {
      guard let step = try increment(for: currency) else { return (Settlement.settle(balances, in: currency), nil) }
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
