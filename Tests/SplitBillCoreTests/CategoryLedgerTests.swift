import Testing

@testable import SplitBillCore

/// Spending by category adds up to the books: per currency, the categories (the bills without one
/// included) hold every bill's total once, and each person's parts hold exactly their consumption.
@Suite struct CategoryLedgerTests {
  /// A random split bill: named or head-count diners, a payer or none.
  static func randomSplit(_ random: inout SeededGenerator, currency: Currency, ledger: inout LeftoverLedger) throws
    -> BillSplit
  {
    let names = ["Ana", "Ben", "Chloé", "Dmitri", "李雷"]
    let diners: Diners =
      Int.random(in: 0..<5, using: &random) == 0
      ? .anonymous(count: Int.random(in: 1...6, using: &random))
      : .named(
        try names.shuffled(using: &random).prefix(Int.random(in: 1...names.count, using: &random)).map {
          Diner(name: $0, weight: try Weight(Int.random(in: 1...3, using: &random)))
        })
    let payer = diners.isAnonymous ? nil : diners.list.randomElement(using: &random)?.name
    let terms = BillTerms(
      amount: Money(minorUnits: Int64.random(in: 0...1_000_000, using: &random), currency: currency),
      tip: .percent(Percent(tenThousandths: Int64.random(in: 0...250_000, using: &random))), diners: diners,
      payer: Bool.random(using: &random) ? payer : nil, leftover: .balanced)
    return try terms.split(ledger: &ledger)
  }

  @Test func categoriesHoldEveryBillAndEveryShareOnce() throws {
    var random = SeededGenerator(seed: 20_261_203)
    let currencies = try ["EUR", "JPY", "KWD"].map { try Currency(code: $0) }
    let categories: [String?] = ["groceries", "transport", "rent", nil, nil]
    for _ in 0..<50 {
      var books = ReportLedger()
      var byCategory = CategoryLedger()
      var leftovers = LeftoverLedger()
      // What each category should hold, worked out the plain way.
      var expected: [String: (bills: Int, total: Int64, people: [String: Int64])] = [:]
      for _ in 0..<Int.random(in: 1...60, using: &random) {
        let currency = currencies.randomElement(using: &random) ?? .usd
        let split = try Self.randomSplit(&random, currency: currency, ledger: &leftovers)
        let category = categories.randomElement(using: &random) ?? nil
        books.add(split)
        if let category { byCategory.add(split, category: category) }
        let key = "\(category ?? "-")|\(currency.code)"
        var entry = expected[key] ?? (0, 0, [:])
        entry.bills += 1
        entry.total += split.total.minorUnits
        if !split.anonymousDiners {
          for share in split.shares { entry.people[share.person, default: 0] += share.amount.minorUnits }
        }
        expected[key] = entry
      }
      let result = byCategory.categories(totals: books.currencyTotals, people: books.personTotals)
      if byCategory.isEmpty {
        #expect(result.isEmpty)
        continue
      }
      for category in result {
        let key = "\(category.category ?? "-")|\(category.currency.code)"
        let entry = try #require(expected[key], "\(key) was never added")
        #expect(category.bills == entry.bills, "\(key)")
        #expect(category.total == entry.total, "\(key)")
        let people = Dictionary(uniqueKeysWithValues: category.people.map { ($0.person, $0.consumed) })
        #expect(people == entry.people.filter { $0.value != 0 }, "\(key)")
      }
      // Every currency's categories add up to its totals and its people's consumption.
      for totals in books.currencyTotals {
        let own = result.filter { $0.currency == totals.currency }
        #expect(own.reduce(0) { $0 + $1.total } == totals.totals)
        #expect(own.reduce(0) { $0 + $1.bills } == totals.bills)
        for person in books.personTotals where person.currency == totals.currency {
          let parts = own.flatMap(\.people).filter { $0.person == person.person }.reduce(0) { $0 + $1.consumed }
          #expect(parts == person.consumed, "\(person.person) \(totals.currency.code)")
        }
      }
      // Largest first within a currency, the bills without a category last.
      for currency in currencies {
        let own = result.filter { $0.currency == currency }
        let named = own.filter { $0.category != nil }
        #expect(named.map(\.total) == named.map(\.total).sorted(by: >))
        if let last = own.last, own.contains(where: { $0.category == nil }) { #expect(last.category == nil) }
      }
    }
  }

  @Test func aConvertedBillsSharesAddUpToItsConvertedTotal() throws {
    var random = SeededGenerator(seed: 7_031_226)
    var leftovers = LeftoverLedger()
    let jpy = try Currency(code: "JPY")
    for _ in 0..<2_000 {
      let split = try Self.randomSplit(&random, currency: jpy, ledger: &leftovers)
      // A yen in euro cents: 100 / 161.87, and random rates of up to six decimals.
      let factor = ExactRatio(
        unchecked: Int128.random(in: 1...9_999_999, using: &random), Int128.random(in: 1...99_999_999, using: &random))
      var ledger = ConvertedCategoryLedger(currency: .usd)
      ledger.add(split, category: "food", factor: factor)
      let category = try #require(ledger.categories?.first)
      // The total: the exact product, to the nearest unit.
      let exact = Int128(split.total.minorUnits) * factor.numerator
      let total = Int128(category.total)
      #expect(abs(total * factor.denominator * 2 - exact * 2) <= factor.denominator)
      if !split.anonymousDiners {
        #expect(category.namedConsumption == category.total, "every share named: they are the whole total")
        // Each part within one unit of its exact value.
        let parts = Dictionary(category.people.map { ($0.person, $0.consumed) }, uniquingKeysWith: +)
        for share in split.shares where share.amount.minorUnits > 0 {
          let part = Int128(parts[share.person] ?? 0)
          let exactPart = Int128(share.amount.minorUnits) * Int128(category.total)
          #expect(abs(part * Int128(split.total.minorUnits) - exactPart) < Int128(split.total.minorUnits))
        }
      } else {
        #expect(category.people.isEmpty)
      }
    }
  }

  @Test func apportioningKeepsSignsAndHalves() {
    // 3 parts of 1.00 into 1.01: the extra unit to the first of the equal remainders.
    #expect(ConvertedCategoryLedger.apportion([100, 100, 100], of: 300, into: 101) == [34, 34, 33])
    // A negative whole (a refund's) is apportioned as its opposite, negated.
    #expect(ConvertedCategoryLedger.apportion([-100, -200], of: -300, into: -151) == [-50, -101])
    // Part of a whole: the named parts' exact sum, rounded (a head-count diner holds the rest).
    #expect(ConvertedCategoryLedger.apportion([100], of: 300, into: 100) == [33])
    #expect(ConvertedCategoryLedger.apportion([], of: 0, into: 0) == [])
    #expect(ConvertedCategoryLedger.convert(5, by: ExactRatio(unchecked: 1, 2)) == 2)  // 2.5: to even
    #expect(ConvertedCategoryLedger.convert(7, by: ExactRatio(unchecked: 1, 2)) == 4)  // 3.5: to even
    #expect(ConvertedCategoryLedger.convert(-5, by: ExactRatio(unchecked: 1, 2)) == -2)
  }

  /// Weeks tracked: every line ends at the person's closing balance, weeks run Monday to Monday
  /// without a gap, and the books are the untracked ledger's.
  @Test func weeklyBalancesEndAtTheClosingBalances() throws {
    var random = SeededGenerator(seed: 2_026_120_3)
    let euro = try Currency(code: "EUR")
    for _ in 0..<40 {
      var tracked = ReportLedger(tracksWeeks: true)
      var plain = ReportLedger()
      var leftovers = LeftoverLedger()
      for _ in 0..<Int.random(in: 1...80, using: &random) {
        let day = Int.random(in: 0..<6, using: &random) == 0 ? nil : Int.random(in: 20_400...20_800, using: &random)
        let date = day.map { CalendarDate(daysSinceEpoch: $0) }
        if Int.random(in: 0..<5, using: &random) == 0 {
          let payment = Payment(
            from: "Ana", to: ["Ben", "Chloé"].randomElement(using: &random) ?? "Ben",
            amount: Money(minorUnits: Int64.random(in: 1...50_000, using: &random), currency: euro))
          tracked.add(payment, on: date)
          plain.add(payment)
        } else if Int.random(in: 0..<8, using: &random) == 0 {
          // Carried from before the period: the lines start there.
          let split = try Self.randomSplit(&random, currency: euro, ledger: &leftovers)
          tracked.carry(split)
          plain.carry(split)
        } else {
          let split = try Self.randomSplit(&random, currency: euro, ledger: &leftovers)
          tracked.add(split, on: date)
          plain.add(split)
        }
      }
      #expect(tracked.personTotals == plain.personTotals)
      #expect(plain.weeklyBalances.isEmpty)
      for series in tracked.weeklyBalances {
        #expect(series.mondays.allSatisfy { $0.isoWeekday == 1 })
        #expect(
          zip(series.mondays, series.mondays.dropFirst()).allSatisfy { $1.daysSinceEpoch - $0.daysSinceEpoch == 7 })
        for line in series.people {
          let closing = tracked.personTotals.first { $0.person == line.person && $0.currency == series.currency }?
            .closing
          #expect(line.balances.count == series.mondays.count)
          #expect(line.balances.last == closing, "\(line.person)")
        }
      }
    }
  }
}
