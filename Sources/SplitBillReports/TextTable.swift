/// Aligns rows of cells into columns for a terminal.
package struct TextTable {
  package var alignments: [TerminalText.Alignment]
  package var rows: [[String]] = []

  /// A table with a column per alignment.
  package init(alignments: [TerminalText.Alignment], rows: [[String]] = []) {
    self.alignments = alignments
    self.rows = rows
  }

  /// The rows, each cell padded to its column's width, joined by two spaces, indented; with
  /// `trimmed`, trailing spaces (left by empty last cells) removed.
  ///
  /// A report prints a table per bill: each line is built in one string, each cell measured once.
  package func lines(indent: String = "", trimmed: Bool = false) -> [String] {
    let columns = alignments.count
    var widths = [Int](repeating: 0, count: columns)
    var cellWidths: [Int] = []
    cellWidths.reserveCapacity(rows.count * columns)
    for row in rows {
      for (index, cell) in row.enumerated() where index < columns {
        let width = TerminalText.width(cell)
        cellWidths.append(width)
        widths[index] = max(widths[index], width)
      }
    }
    var measured = cellWidths.makeIterator()
    return rows.map { row in
      var line = indent
      for (index, cell) in row.enumerated() where index < columns {
        if index > 0 { line += "  " }
        let fill = widths[index] - (measured.next() ?? widths[index])
        let last = index == row.count - 1 && alignments[index] == .left
        if alignments[index] == .right { Self.appendSpaces(fill, to: &line) }
        line += cell
        if alignments[index] == .left && !last { Self.appendSpaces(fill, to: &line) }
      }
      if trimmed {
        while line.utf8.last == 0x20 { line.removeLast() }
      }
      return line
    }
  }

  private static let spaces = String(repeating: " ", count: 64)

  private static func appendSpaces(_ count: Int, to line: inout String) {
    var left = count
    while left > 0 {
      let run = min(left, 64)
      line += spaces.prefix(run)
      left -= run
    }
  }
}
