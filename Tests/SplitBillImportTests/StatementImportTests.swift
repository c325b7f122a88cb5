import SplitBillCore
import SplitBillModel
import Testing

@testable import SplitBillImport

private func read(
  _ statement: String, rules: String, currency: Currency? = nil, skipInvalid: Bool = false
) throws(Diagnostic) -> ImportResult {
  try StatementImport.read(
    Array(statement.utf8), file: "statement.csv", rules: ImportCompanion(path: "bank.rules", bytes: Array(rules.utf8)),
    currency: currency, skipInvalid: skipInvalid)
}

/// The rules' problem: its code, line, column and message.
private func rulesProblem(_ rules: String) -> Diagnostic? {
  do {
    _ = try StatementRules.parse(Array(rules.utf8), file: "bank.rules")
    return nil
  } catch {
    return error
  }
}

private func parts(_ bill: ImportedBill) -> [String: Int64] {
  Dictionary(uniqueKeysWithValues: bill.shares.map { ($0.person, $0.minorUnits) })
}

/// A US card statement: month-first dates, spending positive, a payment to the card negative.
private let card = """
  Transaction Date,Post Date,Description,Category,Type,Amount,Memo
  11/28/2026,11/29/2026,TRADER JOE'S #123,Groceries,Sale,84.17,
  11/30/2026,12/01/2026,"UBER   *TRIP, HELP.UBER.COM",Travel,Sale,23.50,
  12/01/2026,12/01/2026,Payment Thank You-Mobile,,Payment,-500.00,
  12/02/2026,12/03/2026,AMC THEATRES,Entertainment,Sale,"1,024.00",

  """

private let cardRules = """
  skip 1
  fields date, _, description, category, _, amount, notes
  date-format MM/DD/YYYY
  thousands-separator ,
  sign spending-positive
  currency USD
  paid-by Sam
  diners Sam, Alex
  if payment thank you
    skip
  if %description uber
    diners Sam
  """

@Suite struct StatementImportTests {
  @Test func aCardStatementByItsRules() throws {
    let result = try read(card, rules: cardRules)
    #expect(result.errors.isEmpty)
    let book = result.book
    #expect(book.rowsRead == 4)
    #expect(book.bills.map(\.id) == ["csv-2026-11-28-1", "csv-2026-11-30-1", "csv-2026-12-02-1"])
    #expect(book.bills.map(\.amount.minorUnits) == [8_417, 2_350, 102_400])
    #expect(parts(book.bills[0]) == ["Sam": 4_209, "Alex": 4_208], "the odd cent to the first diner")
    #expect(parts(book.bills[1]) == ["Sam": 2_350], "the later rule's diners")
    #expect(book.bills[1].description == "UBER   *TRIP, HELP.UBER.COM")
    #expect(book.bills[0].category == "Groceries")
    #expect(book.omitted.map(\.code) == ["statement.skipped"])
    #expect(book.omitted.first?.location?.line == 4)
    #expect(book.people == ["Sam", "Alex"])
    #expect(book.expectedBalances.isEmpty)
  }

  @Test func aGermanCurrentAccountWithItsPreamble() throws {
    let statement = """
      Kontoinhaber;Maya
      IBAN;DE02120300000000202051

      Buchungstag;Wertstellung;Auftraggeber/Empfänger;Verwendungszweck;Betrag (EUR)
      03.11.2026;03.11.2026;REWE Markt GmbH;Einkauf;-42,80
      12.11.2026;12.11.2026;Hausverwaltung;Miete Dezember;-1.180,00
      14.11.2026;14.11.2026;Edeka;Einkauf;-7,05

      """
    let rules = """
      skip 4
      separator ;
      fields date, _, payee, description, amount
      date-format DD.MM.YYYY
      decimal-mark ,
      thousands-separator .
      currency EUR
      paid-by Maya
      diners Maya, Jonas
      if rewe
      if EDEKA
        category groceries
      if %payee hausverwaltung
        description Rent
      """
    let book = try read(statement, rules: rules).book
    #expect(book.bills.map(\.amount.minorUnits) == [4_280, 118_000, 705])
    #expect(book.bills.map(\.description) == ["REWE Markt GmbH: Einkauf", "Rent", "Edeka: Einkauf"])
    #expect(book.bills.map(\.category) == ["groceries", nil, "groceries"], "either pattern of a block")
    #expect(book.bills[0].comment == "rule at line 10")
  }

  @Test func debitAndCreditColumns() throws {
    let statement = "Date,Details,Debit,Credit\n2026-11-02,Shop,12.00,\n2026-11-03,Refund,,5.00\n"
    let rules = """
      fields date, description, debit, credit
      date-format YYYY-MM-DD
      currency GBP
      paid-by Ana
      diners Ana, Ben
      """
    let result = try read(statement, rules: rules)
    #expect(result.book.bills.map(\.amount.minorUnits) == [1_200])
    #expect(result.errors.map(\.code) == ["statement.credit"])
    #expect(result.errors.first?.location?.line == 3)
    #expect(result.errors.first?.location?.position?.column == 20)
    #expect(result.errors.first?.message.contains("money in (5.00 GBP)") == true)
  }

  @Test(arguments: [
    ("-1.234,50", ",", ".", -123_450), ("1.234,50-", ",", ".", -123_450), ("(12.50)", ".", ",", -1_250),
    ("€ 12,50", ",", "none", 1_250), ("-1 234.50 EUR", ".", "space", -123_450), ("+7", ".", "none", 700),
    ("−3.10", ".", "none", -310),
  ])
  func amountsAsBanksWriteThem(_ text: String, _ mark: String, _ thousands: String, _ units: Int) throws {
    let rules = try StatementRules.parse(
      Array(
        "fields date, amount\ndate-format YYYY-MM-DD\ndecimal-mark \(mark)\nthousands-separator \(thousands)\n".utf8),
      file: "r")
    #expect(StatementImport.amount(text, rules: rules, currency: .eur) == Int64(units))
  }

  @Test func amountsThatDoNotReadAreErrorsAtTheirCell() throws {
    let rules = "fields date, amount\ndate-format YYYY-MM-DD\ncurrency EUR\npaid-by A\ndiners A, B\n"
    let result = try read("date,amount\n2026-11-02,12.3.4\n2026-13-02,-1\n2026-11-02,-1.234\n", rules: rules)
    #expect(result.errors.map(\.code) == ["statement.amount", "statement.date", "statement.amount"])
    #expect(result.errors.map { $0.location?.line } == [2, 3, 4])
    #expect(result.errors[1].message == "'2026-13-02' is not a date in the rules' shape YYYY-MM-DD")
  }

  @Test func rowsNobodyPaidOrSharesAreErrorsNeverDropped() throws {
    let rules = "fields date, amount\ndate-format YYYY-MM-DD\ncurrency EUR\nif 2026-11-03\n  paid-by A\n  diners A\n"
    let result = try read("date,amount\n2026-11-02,-1\n2026-11-03,-2\n", rules: rules, skipInvalid: true)
    #expect(result.errors.map(\.code) == ["statement.unplaced"])
    #expect(result.book.skipped.count == 1)
    #expect(result.book.bills.count == 1)
  }

  @Test(arguments: [
    (
      "fields date, amount\ndate-format YYYY-MM-DD\npaidby Ana\n", 3, 1, "unknown rule 'paidby'",
      "did you mean 'paid-by'?"
    ),
    ("fields date, amount, dscription\ndate-format YYYY-MM-DD\n", 1, 8, "unknown field 'dscription'", "'description'"),
    ("fields date, amount\ndate-format DD/MM\n", 2, 13, "'date-format DD/MM'", "YYYY"),
    ("fields date, amount\n  category x\n", 2, 3, "an indented setting with no 'if' line", "if PATTERN"),
    ("fields date, amount\ndate-format YYYY-MM-DD\nif %payee x\n  skip\n", 3, 4, "'%payee' is not one of", "fields"),
    ("fields description, amount\n", 1, 8, "fields has no date column", ""),
    ("fields date, amount\n", 1, 1, "no 'date-format' line", "never guessed"),
    ("date-format YYYY-MM-DD\n", 1, 1, "no 'fields' line", ""),
    ("fields date, amount\ndate-format YYYY-MM-DD\ndecimal-mark ,\nthousands-separator ,\n", 1, 1, "both ','", ""),
    ("fields date, amount\ndate-format YYYY-MM-DD\nsign negative\n", 3, 6, "expected spending-negative", ""),
  ])
  func rulesProblemsAreLocated(_ rules: String, _ line: Int, _ column: Int, _ what: String, _ hint: String) {
    let problem = rulesProblem(rules)
    #expect(problem?.code == "statement.rules")
    #expect(problem?.location?.file == "bank.rules")
    #expect(problem?.location?.line == line)
    #expect(problem?.location?.position?.column == column)
    #expect(problem?.message.contains(what) == true, "\(problem?.message ?? "none")")
    #expect(hint.isEmpty || problem?.message.contains(hint) == true, "\(problem?.message ?? "none")")
  }

  @Test func theDateShapeIsReadAsWrittenNeverGuessed() {
    let dayFirst = DateFormat("DD/MM/YYYY")
    let monthFirst = DateFormat("MM/DD/YYYY")
    #expect(dayFirst?.date("03/04/2026") == CalendarDate(year: 2026, month: 4, day: 3))
    #expect(monthFirst?.date("03/04/2026") == CalendarDate(year: 2026, month: 3, day: 4))
    #expect(monthFirst?.date("13/04/2026") == nil)
    #expect(dayFirst?.date("3/4/2026 14:05") == CalendarDate(year: 2026, month: 4, day: 3))
    #expect(DateFormat("DD.MM.YY")?.date("31.12.26") == CalendarDate(year: 2026, month: 12, day: 31))
    #expect(DateFormat("YYYYMMDD")?.date("20261231") == CalendarDate(year: 2026, month: 12, day: 31))
    #expect(dayFirst?.date("31/02/2026") == nil, "a date that does not exist")
    #expect(DateFormat("MM/YYYY") == nil)
  }

  @Test func aProposalFromTheHeaderAndTheFirstRows() throws {
    let proposal = StatementProposal.propose(Array(card.utf8), file: "card.csv")
    #expect(proposal.contains("\nskip 1\n"))
    #expect(proposal.contains("\nseparator ,\n"))
    #expect(proposal.contains("\nfields date, _, description, category, _, amount, _\n"))
    #expect(proposal.contains("\ndate-format MM/DD/YYYY\n"), "only month-first reads 11/28/2026")
    #expect(proposal.contains("\ndecimal-mark .\nthousands-separator ,\n"))
    #expect(proposal.contains("\n# most amounts are positive: a card statement?\nsign spending-positive\n"))
    // With who paid and shares filled in, the proposal reads the statement.
    let rules = proposal + "currency USD\npaid-by Sam\ndiners Sam, Alex\n"
    let result = try read(card, rules: rules)
    #expect(result.book.bills.count == 3)
  }

  @Test func aProposalLeavesAnAmbiguousDateToTheUser() {
    let slashes = StatementProposal.propose(Array("Date,Amount\n03/04/2026,-1\n05/06/2026,-2\n".utf8), file: "s.csv")
    #expect(slashes.contains("# date-format DD/MM/YYYY   <- or MM/DD/YYYY"), "\(slashes)")
    #expect(!slashes.contains("\ndate-format "), "never guessed")
    // Dotted dates are day-first wherever they are written: the one shape that fits.
    let dotted = StatementProposal.propose(Array("Date;Text;Amount\n03.04.2026;A;-1,00\n".utf8), file: "s.csv")
    #expect(dotted.contains("\ndate-format DD.MM.YYYY\ndecimal-mark ,\n"), "\(dotted)")
  }
}
