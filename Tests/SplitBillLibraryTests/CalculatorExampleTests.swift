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
      (error as? CalcFailure)?.message == "--tip: 'ai' tips are for bill files; give a percentage such as 15"
    }
  }
}
