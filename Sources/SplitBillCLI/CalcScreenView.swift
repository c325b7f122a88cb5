import SplitBillCore
import SplitBillReports

/// Draws the interactive calculator from its state: lines of text for a terminal of a given size.
///
/// A pure function of ``CalcScreen``: every figure comes from the state's ``CalcScreen/result``;
/// nothing here computes money. Colour and reverse video only through `style`.
package enum CalcScreenView {
  /// The lines to show, at most `height` of them, each cut to `width` columns.
  package static func render(_ screen: CalcScreen, width: Int, height: Int, color: Bool = true) -> [String] {
    func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    let error: CalcScreen.ScreenError? = {
      if case .failure(let error) = screen.result { return error }
      return nil
    }()
    var lines = [paint(" splitbill · split a bill ", "1;7"), ""]
    func row(_ field: CalcScreen.Field, _ label: String, _ value: String, hint: String = "") {
      let focused = screen.focus == field && screen.notes == nil
      let marker = focused ? paint("▸", "1;36") : " "
      let shownValue = focused ? paint(value + "▏", "1") : value
      var line = " \(marker) " + TerminalText.pad(label, to: 10, alignment: .left) + " " + shownValue
      if !hint.isEmpty { line += "   " + paint(hint, "2") }
      lines.append(line)
      if let error, error.field == field {
        lines.append(
          "     " + String(repeating: " ", count: 10) + paint("⚠ " + TerminalText.sanitize(error.message), "31"))
      }
    }
    row(.amount, "Amount", screen.amountText, hint: screen.currencyText)
    let presets = Percent.presets.map { percent in
      screen.preset == percent ? paint("[\(percent)]", "7") : " \(percent) "
    }.joined(separator: " ")
    row(.preset, "Tip", presets, hint: "←/→, or type a tip")
    row(
      .customTip, "Custom", screen.customTipText.isEmpty ? "" : screen.customTipText + " %",
      hint: "typing clears the preset")
    let namesGiven = screen.namesGiven
    row(.people, "People", namesGiven ? "(from names)" : String(screen.people), hint: "+/−")
    row(.names, "Names", TerminalText.sanitize(screen.namesText), hint: namesGiven ? "" : "optional: Ana, Ben=2")
    row(.currency, "Currency", screen.currencyText)
    lines.append(" " + String(repeating: "─", count: max(10, min(width - 2, 58))))

    switch screen.result {
    case .success(let split):
      let code = split.currency.code
      var table: [(String, String)] = [
        ("Tip (\(split.tipPercent.map(\.description) ?? "—"))", split.tip.decimalString),
        ("Total", split.total.decimalString),
      ]
      let first = split.shares.first?.amount.decimalString ?? ""
      if split.shares.allSatisfy({ $0.amount.decimalString == first }) {
        table.append(("Per person", first))
      }
      let valueWidth = table.map(\.1.count).max() ?? 0
      for (label, value) in table {
        lines.append(
          "   " + TerminalText.pad(label, to: 14, alignment: .left)
            + TerminalText.pad(value, to: valueWidth, alignment: .right) + " " + code)
      }
      lines.append("")
      let nameWidth = split.shares.map { TerminalText.width(TerminalText.sanitize($0.person)) }.max() ?? 0
      let amountWidth = split.shares.map(\.amount.decimalString.count).max() ?? 0
      let visible = max(0, height - lines.count - 5)
      for share in split.shares.prefix(visible) {
        var line =
          "     " + TerminalText.pad(TerminalText.sanitize(share.person), to: nameWidth, alignment: .left) + "  "
          + TerminalText.pad(share.amount.decimalString, to: amountWidth, alignment: .right) + " " + code
        if share.absorbed > 0 {
          line +=
            "  " + paint("◀ +" + Money(minorUnits: Int64(share.absorbed), currency: split.currency).decimalString, "33")
        }
        lines.append(line)
      }
      if split.shares.count > visible { lines.append("     … \(split.shares.count - visible) more") }
      lines.append("   " + TerminalText.sanitize(split.leftoverSentence))
    case .failure:
      lines.append("   " + paint("no bill yet: fix the field marked ⚠", "2"))
    }
    lines.append("")
    if let notes = screen.notes {
      lines.append(" " + paint("Describe the experience, Enter to ask, Esc to cancel:", "1"))
      lines.append(" > " + TerminalText.sanitize(notes) + "▏")
    } else if let suggestion = screen.suggestion {
      lines.append(" " + paint("Suggested tip: \(suggestion.percent)", "1;32") + " (\(suggestion.advisor))")
      lines.append("   " + TerminalText.sanitize(suggestion.reason))
      lines.append(" " + paint("y or Enter: use it · Esc: dismiss", "2"))
    }
    // Keys that work on every row (on the text rows `?` and `q` are typed).
    lines.append(paint(" ↑/↓ move · ←/→ presets · +/− people · Ctrl-A advice · Esc or Ctrl-C quit ", "2"))
    return lines.prefix(max(height, 1)).map { cut($0, to: width) }
  }

  /// `line` cut to `width` visible columns (escape sequences do not count).
  static func cut(_ line: String, to width: Int) -> String {
    var out = ""
    var columns = 0
    var inEscape = false
    for character in line {
      if character == "\u{1B}" {
        inEscape = true
        out.append(character)
        continue
      }
      if inEscape {
        out.append(character)
        if character.isLetter { inEscape = false }
        continue
      }
      let cost = TerminalText.width(String(character))
      if columns + cost > width { break }
      columns += cost
      out.append(character)
    }
    return out + (line.contains("\u{1B}") ? "\u{1B}[0m" : "")
  }
}
