/// Aligns rows of cells into columns for a terminal.
struct TextTable {
  var alignments: [TerminalText.Alignment]
  var rows: [[String]] = []

  /// The rows, each cell padded to its column's width, joined by two spaces, indented.
  func lines(indent: String = "") -> [String] {
    var widths = [Int](repeating: 0, count: alignments.count)
    for row in rows {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], TerminalText.width(cell))
      }
    }
    return rows.map { row in
      var cells: [String] = []
      for (index, cell) in row.enumerated() where index < widths.count {
        let last = index == row.count - 1 && alignments[index] == .left
        cells.append(last ? cell : TerminalText.pad(cell, to: widths[index], alignment: alignments[index]))
      }
      return indent + cells.joined(separator: "  ")
    }
  }
}
