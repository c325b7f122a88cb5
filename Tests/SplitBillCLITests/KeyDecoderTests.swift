import SplitBillCore
import Testing

@testable import SplitBillCLI

@Suite struct KeyDecoderTests {
  @Test func decodesSequencesTextAndControls() {
    var decoder = KeyDecoder()
    let bytes: [UInt8] =
      [0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x35] + Array("é".utf8) + [0x7F, 0x0D, 0x09, 0x03, 0x1B]
    #expect(
      decoder.keys(from: bytes) == [
        .up, .up, .down, .character("5"), .character("é"), .backspace, .enter, .tab, .interrupt, .escape,
      ])
    #expect(decoder.keys(from: [0x1B, 0x5B, 0x5A, 0x1B, 0x4F, 0x43]) == [.backTab, .right])
    // a character split across reads
    let euro = Array("€".utf8)
    #expect(decoder.keys(from: Array(euro.prefix(2))) == [])
    #expect(decoder.keys(from: Array(euro.suffix(1))) == [.character("€")])
    // function keys are skipped whole
    #expect(decoder.keys(from: Array("\u{1B}[15~x".utf8)) == [.character("x")])
  }
}
