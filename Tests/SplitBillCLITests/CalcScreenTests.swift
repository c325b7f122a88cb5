import SplitBillCore
import Testing

@testable import SplitBillCLI

@Suite struct CalcScreenTests {
  func typed(_ text: String, into screen: inout CalcScreen) {
    for character in text { _ = screen.handle(.character(character)) }
  }

  @Test func presetAndCustomTipAreExclusive() {
    var screen = CalcScreen()
    typed("100", into: &screen)
    #expect(screen.preset == .preset15)
    screen.focus = .customTip
    typed("12.5", into: &screen)
    #expect(screen.preset == nil)
    #expect(screen.customTipText == "12.5")
    #expect(screen.effectivePercent == .success(Percent(tenThousandths: 125_000)))
    screen.focus = .preset
    _ = screen.handle(.left)
    #expect(screen.preset == .preset20)
    #expect(screen.customTipText == "")
    _ = screen.handle(.right)
    #expect(screen.preset == .preset10)
    _ = screen.handle(.left)
    #expect(screen.preset == .preset20)
  }

  /// A number typed on the Tip row is a custom tip: 12.5 is 12.5 %, not a preset chosen by each
  /// digit; the arrows stop at the first and last rows, Tab goes round.
  @Test func typingOnTheTipRowIsACustomTipAndTheArrowsStopAtTheEnds() {
    var screen = CalcScreen()
    typed("100", into: &screen)
    screen.focus = .preset
    typed("12.5", into: &screen)
    #expect(screen.focus == .customTip && screen.preset == nil)
    #expect(screen.effectivePercent == .success(Percent(tenThousandths: 125_000)))
    screen.focus = .amount
    _ = screen.handle(.up)
    #expect(screen.focus == .amount)
    screen.focus = .currency
    _ = screen.handle(.down)
    #expect(screen.focus == .currency)
    _ = screen.handle(.tab)
    #expect(screen.focus == .amount)
    _ = screen.handle(.backTab)
    #expect(screen.focus == .currency)
  }

  @Test func figuresComeFromTheCore() throws {
    var screen = CalcScreen()
    typed("100", into: &screen)
    screen.focus = .preset
    _ = screen.handle(.right)
    _ = screen.handle(.right)
    screen.focus = .people
    _ = screen.handle(.character("+"))
    _ = screen.handle(.character("+"))
    let split = try screen.result.get()
    #expect(split.total.minorUnits == 11_000)
    #expect(split.shares.map(\.amount.minorUnits) == [3667, 3667, 3666])
    #expect(split.shares.map(\.person) == ["Diner 1", "Diner 2", "Diner 3"])
  }

  @Test func invalidTextIsShownNotLostOrCrashed() {
    var screen = CalcScreen()
    #expect(screen.result == .failure(.emptyAmount))
    typed("12.345", into: &screen)
    #expect(screen.amountText == "12.345")
    #expect(screen.result == .failure(.amount("amount '12.345' has 3 decimals but USD has 2")))
    typed("x-", into: &screen)  // letters are ignored in the amount, '-' takes a person away
    #expect(screen.amountText == "12.345")
    #expect(screen.people == 0)
    _ = screen.handle(.backspace)
    #expect(screen.amountText == "12.34")
    // The engine's words, as `calc --split 0` says them.
    #expect(
      screen.result == .failure(.people("'0' is not a number of people: expected a whole number of at least 1")))
    screen.focus = .currency
    _ = screen.handle(.backspace)
    #expect(
      screen.result == .failure(.currency("unknown currency 'US': expected an ISO 4217 code such as EUR, USD or JPY")))
    typed("d", into: &screen)
    screen.focus = .customTip
    typed("101", into: &screen)
    #expect(screen.result == .failure(.tip("tip '101' is out of range: expected a percentage from 0 to 100")))
    _ = screen.handle(.backspace)
    _ = screen.handle(.backspace)
    _ = screen.handle(.backspace)
    #expect(screen.result == .failure(.noTip))
  }

  @Test func namesOverrideTheCountAndCarryWeights() throws {
    var screen = CalcScreen()
    typed("90", into: &screen)
    screen.focus = .names
    typed("Ana=2, Ben, Chloé", into: &screen)
    #expect(try screen.result.get().shares.map(\.amount.minorUnits) == [5175, 2588, 2587])
    typed(", Ana", into: &screen)
    #expect(screen.result == .failure(.people("diner 'Ana' is listed twice")))
    // q and + are text in the names field
    typed("q+", into: &screen)
    #expect(screen.namesText.hasSuffix("Anaq+"))
  }

  @Test func adviceIsAskedShownAndAppliedWithOneKey() {
    var screen = CalcScreen()
    #expect(screen.handle(.character("?")) == .none)
    #expect(screen.notes == "")
    typed("slow but kind", into: &screen)
    #expect(screen.handle(.enter) == .askAdvisor)
    screen.receive(TipAdvice(percent: .preset10, reason: "slow", advisor: "offline"))
    #expect(screen.notes == nil)
    #expect(screen.handle(.character("y")) == .none)
    #expect(screen.customTipText == "10")
    #expect(screen.preset == nil)
    #expect(screen.suggestion == nil)
  }

  @Test func leavingKeys() {
    var screen = CalcScreen()
    #expect(screen.handle(.character("q")) == .quit)
    #expect(screen.handle(.escape) == .quit)
    #expect(screen.handle(.interrupt) == .quit)
    screen.focus = .names
    #expect(screen.handle(.character("q")) == .none)
    #expect(screen.handle(.interrupt) == .quit)
  }
}

/// Keys that work on every row: `?` and `q` are text on the Names row, Ctrl-A and Esc are not.
@Suite struct ScreenKeysOnEveryRowTests {
  @Test func namesTakeQuestionMarksAndQsWhileCtrlAAsksForAdvice() {
    var screen = CalcScreen()
    screen.focus = .names
    for character in "Quique?" { #expect(screen.handle(.character(character)) == .none) }
    #expect(screen.namesText == "Quique?")
    #expect(screen.notes == nil)
    _ = screen.handle(.advise)
    #expect(screen.notes == "")
    _ = screen.handle(.escape)
    #expect(screen.notes == nil)
    #expect(screen.handle(.escape) == .quit)
    let footer = CalcScreenView.render(CalcScreen(), width: 90, height: 30, color: false).joined(separator: "\n")
    #expect(footer.contains("Ctrl-A advice · Esc or Ctrl-C quit"))
  }

  @Test func ctrlAIsDecoded() {
    var decoder = KeyDecoder()
    #expect(decoder.keys(from: [0x01, 0x03]) == [.advise, .interrupt])
  }

  @Test func oneDinerIsOnePerson() async {
    let outcome = await runCLI(["calc", "10", "--tip", "0"])
    #expect(outcome.stdout.contains("\n1 person (leftover: balanced)"))
  }
}
