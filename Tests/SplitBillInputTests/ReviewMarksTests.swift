import SplitBillYAML
import Testing

/// The `# REVIEW` marks `scan` leaves are found in the chunks libyaml reads, wherever a chunk's
/// end cuts them.
@Suite struct ReviewMarksTests {
  static let text = Array(
    "# REVIEW: first\nbills:\n  - {amount: 1}   # REVIEW: a total\n  - {description: \"# REVIEW\"}\n#REVIEW no\n\t# REVIEW\n# REVIE\n"
      .utf8)
  /// Where the marks are: the start, after spaces, after a tab; not after a quote, without the
  /// space, or cut short.
  static let expected = [0, 41, 101]

  func offsets(_ chunks: [ArraySlice<UInt8>]) -> [Int] {
    let marks = ReviewMarks()
    for chunk in chunks { Array(chunk).withUnsafeBufferPointer { unsafe marks.scan($0) } }
    return marks.offsets
  }

  @Test func wholeTextInOneChunk() {
    #expect(offsets([Self.text[...]]) == Self.expected)
  }

  @Test func everyCutIntoTwoChunks() {
    for cut in 0...Self.text.count {
      #expect(offsets([Self.text[..<cut], Self.text[cut...]]) == Self.expected, "cut at \(cut)")
    }
  }

  @Test func chunksOfEverySmallSize() {
    for size in 1...12 {
      let chunks = stride(from: 0, to: Self.text.count, by: size).map {
        Self.text[$0..<min($0 + size, Self.text.count)]
      }
      #expect(offsets(chunks) == Self.expected, "chunks of \(size)")
    }
  }
}
