import SplitBillCore

extension BillSplit {
  /// The single-bill screen as aligned text, the way `calc` prints it:
  ///
  ///     Amount       100.00 USD
  ///     Tip (0%)       0.00 USD
  ///     Total        100.00 USD
  ///
  ///     Split 3 ways (leftover: balanced)
  ///       Diner 1     33.34 USD  +0.01 absorbed
  ///       Diner 2     33.33 USD
  ///       Diner 3     33.33 USD
  ///
  ///     Diner 1 absorbs the leftover cent (0.01 USD).
  ///
  /// Names are sanitized for the terminal.
  package var text: String {
    let code = currency.code
    let tipLabel = tipPercent.map { "Tip (\($0))" } ?? "Tip"
    let weighted = shares.contains { $0.weight != .one }
    let names = shares.map { share in
      TerminalText.sanitize(share.person) + (weighted ? " ×\(share.weight)" : "")
    }
    var rows: [(String, String)] = [("Amount", amount.decimalString), (tipLabel, tip.decimalString)]
    if leftoverToTip.minorUnits > 0 {
      rows.append(("  incl. leftover", leftoverToTip.decimalString))
    }
    rows.append(("Total", total.decimalString))
    let labelWidth = (rows.map { TerminalText.width($0.0) } + names.map { TerminalText.width($0) + 2 }).max() ?? 0
    let numberWidth = (rows.map(\.1.count) + shares.map(\.amount.decimalString.count)).max() ?? 0

    var lines = rows.map { label, value in
      TerminalText.pad(label, to: labelWidth, alignment: .left) + "  "
        + TerminalText.pad(value, to: numberWidth, alignment: .right) + " " + code
    }
    if let receipt {
      lines.append("")
      lines.append(TerminalText.sanitize(ReceiptText.summary(receipt)))
    }
    lines.append("")
    lines.append(
      (shares.count == 1 ? "1 person" : "Split \(shares.count) ways") + " (leftover: \(leftoverPolicy.rawValue))")
    for (index, (share, name)) in zip(shares, names).enumerated() {
      var line =
        "  " + TerminalText.pad(name, to: labelWidth - 2, alignment: .left) + "  "
        + TerminalText.pad(share.amount.decimalString, to: numberWidth, alignment: .right) + " " + code
      if share.absorbed > 0 {
        line += "  +" + Money(minorUnits: Int64(share.absorbed), currency: currency).decimalString + " absorbed"
      }
      lines.append(line)
      if let receipt {
        lines.append("      " + TerminalText.sanitize(ReceiptText.breakdown(receipt, share: share, index: index)))
      }
    }
    lines.append("")
    lines.append(leftoverSentence)
    return lines.joined(separator: "\n") + "\n"
  }

  /// One sentence naming who absorbed the leftover units, or saying there were none.
  package var leftoverSentence: String {
    let unit = currency.minorUnitName
    if leftoverPolicy == .toTip && leftoverToTip.minorUnits > 0 {
      return "Every share was rounded up; the surplus \(leftoverToTip) was added to the tip."
    }
    let absorbers = shares.filter { $0.absorbed > 0 }
    guard !absorbers.isEmpty else { return "The total divides evenly: no leftover \(unit)." }
    let parts = absorbers.map { share in
      let money = Money(minorUnits: Int64(share.absorbed), currency: currency)
      let count =
        leftoverUnits == 1
        ? "the leftover \(unit)" : "\(share.absorbed) leftover \(unit)\(share.absorbed == 1 ? "" : "s")"
      return "\(TerminalText.sanitize(share.person)) absorbs \(count) (\(money))"
    }
    if absorbers.count == 1 { return parts[0] + "." }
    return parts.dropLast().joined(separator: ", ") + " and " + (parts.last ?? "") + "."
  }
}
