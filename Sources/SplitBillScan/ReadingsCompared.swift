import SplitBillCore
import SplitBillText

extension ScannedReceipt {
  /// This reading with one item's amount taken from another reading of the same photo, when that
  /// one change, and no other, makes every check hold: the readings disagree on a line (`2.66`
  /// and `2.68`), and the arithmetic says which one the paper holds. `nil` when no single change
  /// does, or when two different ones would.
  ///
  /// The result is never verified: a reason says which line was taken from which reading, for a
  /// person to compare with the paper. Only a reading whose total was read (not worked out) is
  /// mended; items are matched by their names, a few letters apart at most.
  func mended(by others: [ScannedReceipt]) -> ScannedReceipt? {
    guard status == .needsReview, total != nil, !totalWorkedOut, !items.isEmpty,
      reasons.allSatisfy({ Self.mendableReasons.contains($0.code) })
    else { return nil }
    var found: (receipt: ScannedReceipt, index: Int, amount: Int64)?
    for index in items.indices {
      let name = Self.letters(items[index].name)
      guard name.count >= 4 else { continue }
      let alternatives = Set(
        others.flatMap(\.items).filter { other in
          other.amount != items[index].amount && other.amount > 0
            && Spelling.editDistance(Self.letters(other.name), name, atMost: max(1, name.count / 5)) != nil
        }.map(\.amount))
      for amount in alternatives {
        var candidate = self
        candidate.items[index].amount = amount
        if amount % Int64(candidate.items[index].quantity) != 0 { candidate.items[index].quantity = 1 }
        candidate.recheck()
        guard candidate.status == .verified else { continue }
        // Two different changes that both close: the arithmetic cannot tell which is right.
        if found != nil { return nil }
        found = (candidate, index, amount)
      }
    }
    guard let (receipt, index, amount) = found else { return nil }
    var mended = receipt
    let exponent = currency?.exponent ?? 2
    let line = items[index].line
    mended.reasons.append(
      ReviewReason(
        code: "scan.another-reading",
        message:
          "the figures add up only with \(items[index].name) at \(DecimalText.format(amount, scale: exponent)), "
          + "as another reading of the photo has it (this one read "
          + "\(DecimalText.format(items[index].amount, scale: exponent))): compare it with the paper",
        line: line))
    return mended
  }

  /// The reasons a reading may be mended for: the arithmetic not closing, nothing else.
  static let mendableReasons: Set<String> = ["scan.items-subtotal", "scan.total-mismatch", "scan.cash-change"]

  /// The name's letters, upper-case: what two readings of one line share.
  private static func letters(_ name: String) -> [Character] { Array(name.uppercased().filter(\.isLetter)) }

  /// The checks made again on the figures as they now are.
  private mutating func recheck() {
    checks.removeAll { $0.name != "decimals" || $0.passed }
    reasons = []
    if rounding?.inferred == true { rounding = nil }
    ReceiptChecks.check(&self, exponent: currency?.exponent ?? 2)
  }
}
