import SplitBill
import Testing

/// The calc example of docs/library.md, compiled against `import SplitBill` alone.
@Suite struct CalculatorExampleTests {
  /// 84.50 at 18 % for three: 15.21 tip, 99.71 total, the two leftover cents to the first two.
  @Test func aProgramWorksOutOneBill() throws {
    var request = CalcRequest()
    request.amount = "84.50"
    request.tip = "18"
    request.people = "Ana,Ben,Chloé"
    request.currency = "EUR"
    let split = try Calculator.split(request)
    #expect(split.tip.minorUnits == 1_521 && split.total.minorUnits == 9_971)
    #expect(split.shares.map(\.amount.minorUnits) == [3_324, 3_324, 3_323])
    #expect(split.shares.reduce(0) { $0 + $1.amount.minorUnits } == split.total.minorUnits)
    #expect(Calculator.text(of: split).contains("Ana      33.24 EUR  +0.01 absorbed"))
    #expect(Calculator.json(of: split).contains("\"total\""))
  }

  /// A receipt: the amount comes from its lines; a mistake names the value it is about.
  @Test func aReceiptAndAMistake() throws {
    var request = CalcRequest()
    request.people = "Ana,Ben"
    request.items = ["Pizza=18.00@Ana", "Wine=9.00x2"]
    request.tip = "10"
    let split = try Calculator.split(request)
    #expect(split.amount.minorUnits == 3_600)
    request.tip = "ai"
    #expect {
      _ = try Calculator.split(request)
    } throws: { error in
      (error as? CalcFailure)?.message == "tip: 'ai' tips are for bill files; give a percentage such as 15"
    }
  }

  /// Core's errors are values with no words in Core; a program that imports only `SplitBill`
  /// still prints them as the engine words them (docs/library.md).
  @Test func coreErrorsPrintWithTheirWords() throws {
    let euro = try Currency(code: "EUR")
    #expect {
      _ = try Money(parsing: "12.345", currency: euro)
    } throws: { error in
      String(describing: error) == "amount '12.345' has 3 decimals but EUR has 2"
    }
    #expect(String(describing: SplitError.noDiners) == "no diners: a bill needs at least one person to split it")
  }

  /// A form shows each mistake beside its field: the failure says which, and the reason without
  /// the option's name.
  @Test func aFailureSaysWhichValueItIsAbout() {
    func failure(_ change: (inout CalcRequest) -> Void) -> CalcFailure? {
      var request = CalcRequest()
      request.amount = "84.50"
      request.tip = "15"
      request.split = "3"
      change(&request)
      do {
        _ = try Calculator.split(request)
        return nil
      } catch {
        return error
      }
    }
    let currency = failure { $0.currency = "US" }
    #expect(currency?.field == .currency)
    #expect(currency?.reason == "unknown currency 'US': expected an ISO 4217 code such as EUR, USD or JPY")
    #expect(currency?.message == "currency: " + (currency?.reason ?? ""))
    // Worded for the command line, the option is its flag.
    #expect(currency?.text.worded { "--\($0.rawValue)" } == "--currency: " + (currency?.reason ?? ""))
    let both = failure { $0.people = "Ana,Ben" }
    #expect(both?.message == "give either split or people, not both")
    #expect(both?.text.worded { "-\($0.rawValue)" } == "give either -split N or -people NAMES, not both")
    #expect(failure { $0.amount = "12.345" }?.field == .amount)
    #expect(failure { $0.amount = nil }?.field == .amount)
    let tip = failure { $0.tip = "101" }
    #expect(tip?.field == .tip)
    #expect(tip?.reason == "tip '101' is out of range: expected a percentage from 0 to 100")
    #expect(failure { $0.tip = nil }?.field == .tip)
    #expect(failure { $0.split = "0" }?.field == .split)
    #expect(
      failure {
        $0.split = nil
        $0.people = "Ana, Ana"
      }?.field == .people)
    #expect(
      failure {
        $0.split = nil
        $0.people = "Ana=0"
      }.map { $0.field == .people || $0.field == nil } == true)
    #expect(failure { _ in } == nil)
  }
}
