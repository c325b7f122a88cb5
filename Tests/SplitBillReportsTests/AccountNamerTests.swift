import Testing

@testable import SplitBillReports

@Suite struct AccountNamerTests {
  @Test func beancountComponentsFollowTheLexer() {
    var namer = AccountNamer(beancount: true)
    let names = ["ben", "O'Brien", "Jean Luc", "Jean-Luc", "李雷", "élodie", "Ana_B", "Chloé", "2Pac", "Ch:lo"]
    #expect(
      names.map { namer.component($0) } == [
        "Ben", "O-Brien", "Jean-Luc", "Jean-Luc-2", "X-李雷", "Élodie", "Ana-B", "Chloé", "2Pac", "Ch-lo",
      ])
    #expect(namer.component("Jean-Luc") == "Jean-Luc-2")
  }

  @Test func hledgerAndLedgerComponentsKeepNamesButTheSeparator() {
    var namer = AccountNamer(beancount: false)
    #expect(
      ["Jean Luc", "O'Brien", "Ch:lo", "a  b", "李雷"].map { namer.component($0) } == [
        "Jean Luc", "O'Brien", "Ch-lo", "a b", "李雷",
      ])
  }
}
