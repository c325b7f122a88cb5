import SplitBillBytes
import SplitBillCore
import SplitBillModel
import Testing

@testable import SplitBillImport

/// A Cospend project export as Cospend's own export test writes it (julien-nc/cospend-nc,
/// `tests/.../ApiControllerTest` `exportCsvProject`: Alice 1, Bob 2, Carol 1.5 and inactive; the
/// dinner with its form-encoded comment, the monthly train tickets), with a bill in the trash
/// and a settlement of the Reimbursement category added.
private let trip = """
  name,weight,active,color
  "Alice",1,1,"#112233"
  "Bob",2,1,"#445566"
  "Carol",1.5,0,"#778899"

  what,amount,date,timestamp,payer_name,payer_weight,payer_active,owers,repeat,repeatfreq,repeatallactive,repeatuntil,categoryid,paymentmode,paymentmodeid,comment,deleted
  "Dinner",42.5,2024-01-15,1705276800,"Alice",1,1,"Alice,Bob",n,1,0,,1,n,1,"pizza+%26+drinks",0
  "Train tickets",99.99,2024-02-01,1706745600,"Bob",2,1,"Alice,Bob,Carol",m,2,1,2024-06-01,2,n,2,"",0
  "Museum",30,2024-02-02,1706832000,"Carol",1.5,0,"Alice,Carol",n,1,0,,-5,n,-2,"",1
  "Alice -> Bob",20,2024-02-03,1706918400,"Alice",1,1,"Bob",n,1,0,,-11,n,-4,"",0

  categoryname,categoryid,icon,color
  "Food",1,"fork","#AA5500"
  "Travel",2,"train","#0055AA"

  paymentmodename,paymentmodeid,icon,color
  "Cash",1,"c","#00AA00"
  "Wire",2,"w","#0000AA"

  currencyname,exchange_rate
  "EUR",1
  "CHF",0.95

  """

private func read(_ text: String, currency: String? = nil, skipInvalid: Bool = false) throws -> ImportResult {
  try CospendImport.read(
    Array(text.utf8), file: "project.csv", currency: currency.flatMap { try? Currency(code: $0) },
    skipInvalid: skipInvalid)
}

@Suite struct CospendImportTests {
  let euro = Currency.eur

  /// Cospend's balances: Alice paid 42.50 and 20.00 to Bob and owes 14.1666… and 22.22; Bob paid
  /// 99.99 and owes 28.3333… and 44.44; Carol (weight 1.5 of 4.5) owes 33.33. The trashed museum
  /// counts for nothing.
  @Test func cospendsOwnExportTestGivesItsBalances() throws {
    let result = try read(trip)
    #expect(result.errors.isEmpty, "\(result.errors)")
    #expect(result.book.expectedBalances[euro] == ["Alice": 2611, "Bob": 722, "Carol": -3333])
    #expect(result.book.balances[euro] == result.book.expectedBalances[euro])
    #expect(result.book.people == ["Alice", "Bob", "Carol"])
    #expect(result.book.bills.map(\.description) == ["Dinner", "Train tickets"])
    #expect(result.book.bills.map(\.category) == ["Food", "Travel"])
    #expect(result.book.bills[0].notes == "pizza & drinks; paid by Cash")
    #expect(result.book.bills[1].shares.map(\.minorUnits) == [2222, 4444, 3333])
    #expect(result.book.bills[1].comment?.contains("(weights 2:4:3); repeats monthly") == true)
    #expect(result.book.payments.map { "\($0.from)->\($0.to) \($0.amount)" } == ["Alice->Bob 20.00 EUR"])
    #expect(result.book.omitted.map(\.code) == ["cospend.deleted"])
    #expect(result.book.omitted[0].location?.line == 9)
  }

  /// An older mobile export: one header, members as `deleteMeIfYouWant` bills, no currency (so
  /// it must be given), a weight of 0 (Cospend counts it as 1).
  @Test func anOlderMobileExport() throws {
    let text = """
      what,amount,date,timestamp,payer_name,payer_weight,payer_active,owers,repeat,categoryid,paymentmode
      "deleteMeIfYouWant",1,1970-01-01,0,"Ana",0,1,"Ana",n,0,n
      "deleteMeIfYouWant",1,1970-01-01,0,"Ben",1,1,"Ben",n,0,n
      "Groceries",30,2026-11-14,1763078400,"Ana",0,1,"Ana,Ben",n,-1,c

      """
    let refusal = #expect(throws: Diagnostic.self) { try read(text) }
    #expect(refusal?.code == "cospend.currency")
    #expect(refusal?.message.contains("--currency") == true)
    let result = try read(text, currency: "EUR")
    #expect(result.errors.isEmpty, "\(result.errors)")
    #expect(result.book.rowsRead == 1)
    #expect(result.book.bills[0].category == "Groceries")
    #expect(result.book.bills[0].notes == "paid by card")
    #expect(result.book.expectedBalances[euro] == ["Ana": 1500, "Ben": -1500])
  }

  /// Rows that cannot be imported are errors at their cell, skipped only when asked.
  @Test func badRowsAreErrorsAtTheirCell() throws {
    let text = """
      what,amount,date,timestamp,payer_name,payer_weight,payer_active,owers,repeat,categoryid,paymentmode,deleted
      "fine",10,2026-11-14,0,"Ana",1,1,"Ana,Ben",n,0,n,0
      "cents",10.005,2026-11-14,0,"Ana",1,1,"Ben",n,0,n,0
      "when",1,14.11.2026,0,"Ana",1,1,"Ben",n,0,n,0
      "nobody",1,2026-11-14,0,"Ana",1,1,"",n,0,n,0

      currencyname,exchange_rate
      "€",1

      """
    let result = try read(text)
    #expect(result.errors.map(\.code) == ["cospend.amount", "cospend.date", "cospend.owers"])
    #expect(result.errors[0].location?.line == 3)
    #expect(result.errors[0].location?.column == 9)
    let skipping = try read(text, skipInvalid: true)
    #expect(skipping.book.skipped.count == 3)
    #expect(skipping.book.expectedBalances[euro] == ["Ana": 500, "Ben": -500])
  }

  @Test func aCurrencyNamedByNeitherCodeNorSymbolNeedsOne() throws {
    let text = trip.replacingOccurrences(of: "\"EUR\",1", with: "\"Euro\",1")
    #expect(throws: Diagnostic.self) { try read(text) }
    #expect(try read(text, currency: "EUR").book.expectedBalances[euro] == ["Alice": 2611, "Bob": 722, "Carol": -3333])
  }

  /// Cospend rounds a balance's exact half away from zero: 0.125 owed is 0.13, 0.005 paid back is 0.01.
  @Test func anExactHalfRoundsAwayFromZero() throws {
    let text = """
      what,amount,date,timestamp,payer_name,payer_weight,payer_active,owers,repeat,categoryid,paymentmode
      "Gum",0.25,2026-11-14,0,"Ana",1,1,"Ben,Chloé",n,0,n

      currencyname,exchange_rate
      "EUR",1

      """
    let result = try read(text)
    // Ben and Chloé each owe 0.125, shown as -0.13; Ana's 0.25 would make the sum -0.01: the
    // residue's cent goes back to one of them, with a warning.
    let balances = try #require(result.book.expectedBalances[euro])
    #expect(balances["Ana"] == 25)
    #expect(Set([balances["Ben"], balances["Chloé"]]) == [-13, -12])
    #expect(result.book.remarks.map(\.code) == ["cospend.rounding-residue"])
  }

  /// Cospend's comment decoding keeps what is not form encoding.
  @Test func commentsAreFormDecoded() {
    #expect(CospendImport.formDecoded("pizza+%26+drinks") == "pizza & drinks")
    #expect(CospendImport.formDecoded("caf%C3%A9") == "café")
    #expect(CospendImport.formDecoded("100%") == "100%")
    #expect(CospendImport.formDecoded("%FF") == "%FF")
  }
}
