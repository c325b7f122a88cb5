/// How a CSV cell is written: RFC 4180 quoting, and the spreadsheet-formula guard for text.
package enum CSVCell {
  /// `text` safe for a spreadsheet: a cell that would run as a formula (starting with `=`, `+`,
  /// `-`, `@`, tab or carriage return) gets a `'` before it; quoted when needed.
  package static func safe(_ text: String) -> String {
    if let first = text.utf8.first, startsFormula(first) { return quoted("'" + text) }
    return quoted(text)
  }

  /// `text` quoted when it holds a comma, a quote or a line break (its quotes doubled), else as it is.
  package static func quoted(_ text: String) -> String {
    guard text.utf8.contains(where: needsQuotes) else { return text }
    var quoted = "\""
    for scalar in text.unicodeScalars {
      if scalar == "\"" { quoted += "\"\"" } else { quoted.unicodeScalars.append(scalar) }
    }
    return quoted + "\""
  }

  /// Whether a cell starting with `byte` is read as a formula by a spreadsheet: `=`, `+`, `-`,
  /// `@`, tab, CR (ASCII, so a first byte is a first character).
  package static func startsFormula(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D: true
    default: false
    }
  }

  /// Whether a cell holding `byte` must be quoted: `,`, `"`, LF, CR.
  package static func needsQuotes(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x2C, 0x22, 0x0A, 0x0D: true
    default: false
    }
  }
}
