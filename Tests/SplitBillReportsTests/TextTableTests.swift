import SplitBillBytes
import Testing

@testable import SplitBillCore
@testable import SplitBillReports

/// The table is built a line at a time for speed; it must lay out exactly what padding each cell
/// and joining gave.
@Suite struct TextTableTests {
  /// The plain layout: widths walked character by character, each cell padded, cells joined.
  static func reference(_ table: TextTable, indent: String, trimmed: Bool) -> [String] {
    func width(_ text: String) -> Int {
      text.reduce(0) { columns, character in
        guard let scalar = character.unicodeScalars.first else { return columns }
        return columns + (TerminalText.isWide(scalar) ? 2 : 1)
      }
    }
    var widths = [Int](repeating: 0, count: table.alignments.count)
    for row in table.rows {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], width(cell))
      }
    }
    return table.rows.map { row in
      var cells: [String] = []
      for (index, cell) in row.enumerated() where index < widths.count {
        let fill = String(repeating: " ", count: max(0, widths[index] - width(cell)))
        let last = index == row.count - 1 && table.alignments[index] == .left
        cells.append(last ? cell : table.alignments[index] == .left ? cell + fill : fill + cell)
      }
      var line = indent + cells.joined(separator: "  ")
      if trimmed { while line.last == " " { line.removeLast() } }
      return line
    }
  }

  @Test func laysOutLikeTheReference() {
    var random = SplitMix64(seed: 11)
    let pieces = [
      "", "Ana", "李雷", "e\u{301}", "×1.5", "12.50", " ", "◀ +0.01 absorbed", "a\tb", "🍕",
      String(repeating: "w", count: 70),
    ]
    let alignments: [TerminalText.Alignment] = [.left, .right]
    for _ in 0..<500 {
      let columns = 1 + Int(random.next() % 5)
      var table = TextTable(alignments: (0..<columns).map { _ in alignments[Int(random.next() % 2)] })
      for _ in 0..<(1 + Int(random.next() % 5)) {
        // Rows may be shorter or longer than the table has columns.
        table.rows.append((0..<Int(random.next() % 7)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] })
      }
      for trimmed in [false, true] {
        #expect(table.lines(indent: "  ", trimmed: trimmed) == Self.reference(table, indent: "  ", trimmed: trimmed))
      }
    }
  }

  @Test func printableASCIIIsMeasuredByBytes() {
    #expect(TerminalText.width("Ana Ben") == 7)
    #expect(TerminalText.width("a\tb") == 3)
    #expect(TerminalText.width("e\u{301}") == 1)
    #expect(TerminalText.sanitize("plain text ~") == "plain text ~")
    #expect(TerminalText.sanitize("a\u{7F}b") == "a\\u{7F}b")
  }
}
