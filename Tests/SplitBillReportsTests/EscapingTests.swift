import SplitBillCore
import SplitBillJSON
import Testing

@testable import SplitBillReports

@Suite struct EscapingTests {
  @Test func jsonStringsEscapeQuotesBackslashesAndControls() {
    #expect(JSON.quote("a\"b\\c\nd\u{1}\u{7F}é") == #""a\"b\\c\nd\u0001\u007fé""#)
    #expect(JSON.quote("\u{2028}") == #""\u2028""#)
  }

  @Test func terminalTextShowsControlsVisibly() {
    #expect(TerminalText.sanitize("plain Chloé") == "plain Chloé")
    #expect(TerminalText.sanitize("a\u{1B}[31mb") == "a\\u{1B}[31mb")
    #expect(TerminalText.sanitize("x\u{202E}y\u{9B}z\r") == "x\\u{202E}y\\u{9B}z\\u{D}")
  }

  @Test func widthCountsWideCharactersTwice() {
    #expect(TerminalText.width("Ana") == 3)
    #expect(TerminalText.width("李雷") == 4)
    #expect(TerminalText.width("Chloé") == 5)
    #expect(TerminalText.pad("李", to: 4, alignment: .right) == "  李")
  }

  @Test func objectsKeepKeyOrderAndNest() {
    let value = JSON.object([
      ("b", .int(1)), ("a", .array([.null, .bool(true), .string("x")])), ("c", .object([])),
    ])
    #expect(value.text == "{\n  \"b\": 1,\n  \"a\": [\n    null,\n    true,\n    \"x\"\n  ],\n  \"c\": {}\n}")
  }
}
