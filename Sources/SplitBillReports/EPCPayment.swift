import SplitBillCore
import SplitBillText

/// The text of an EPC QR code ("GiroCode", the European Payments Council's guidelines EPC069-12,
/// version 002): a SEPA credit transfer that a banking app fills in when it scans the code.
///
///     BCD
///     002
///     1
///     SCT
///     COBADEFFXXX
///     Ben
///     DE89370400440532013000
///     EUR65.95
///
///
///     Lisbon trip: Ana to Ben
///
/// Lines: service tag, version, character set (1: UTF-8), identification, the BIC (may be empty
/// in the EEA), the beneficiary's name (at most 70 characters), the IBAN, the amount in euros
/// (0.01 to 999999999.99, a full stop before the cents), an empty purpose, an empty structured
/// reference, and the reference as text (at most 140 characters). The whole text is at most 331
/// bytes: a long name or reference is shortened to fit. Line breaks and control characters in
/// names and the title are made spaces, so that they cannot add or shift a line.
package enum EPCPayment {
  /// The most bytes a payload may have.
  package static let byteLimit = 331

  /// The payload for paying `amount` to `name`'s account, or `nil` when the amount is not in euros
  /// or outside the range a code may carry.
  package static func payload(name: String, iban: IBAN, bic: BIC?, amount: Money, reference: String) -> String? {
    guard amount.currency.code == "EUR", amount.minorUnits > 0 else { return nil }
    guard amount.minorUnits <= maximumUnits(exponent: amount.currency.exponent) else { return nil }
    let head = ["BCD", "002", "1", "SCT", bic?.code ?? ""]
    let amountLine = "EUR" + amount.decimalString
    // The fixed lines and the line breaks between all eleven.
    let fixed = (head + [iban.electronic, amountLine, "", ""]).reduce(0) { $0 + $1.utf8.count } + 10
    let shownName = fitted(oneLine(name), characters: 70, bytes: byteLimit - fixed - 1)
    guard !shownName.isEmpty else { return nil }
    let shownReference = fitted(
      oneLine(reference), characters: 140, bytes: byteLimit - fixed - shownName.utf8.count)
    return (head + [shownName, iban.electronic, amountLine, "", "", shownReference]).joined(separator: "\n")
  }

  /// The reference a transfer's code carries: `Lisbon trip: Ana to Ben`.
  package static func reference(title: String, from payer: String, to payee: String) -> String {
    "\(title): \(payer) to \(payee)"
  }

  /// 999999999.99 euros in minor units of `exponent` (0 when the euro is kept in whole units).
  private static func maximumUnits(exponent: Int) -> Int64 {
    var limit: Int64 = 999_999_999
    for _ in 0..<exponent { limit = limit * 10 + 9 }
    return limit
  }

  /// `text` on one line: what every output makes a space of (controls and bidi overrides,
  /// `isControlOrBidiOverride`) and, for a banking app's form, Unicode's line and paragraph
  /// separators and invisible format characters too; the spaces around it trimmed.
  private static func oneLine(_ text: String) -> String {
    var line = ""
    for scalar in text.unicodeScalars {
      let category = scalar.properties.generalCategory
      let breaks =
        scalar.isControlOrBidiOverride || category == .format || category == .lineSeparator
        || category == .paragraphSeparator
      line.unicodeScalars.append(breaks ? " " : scalar)
    }
    return line.trimmingSpaces
  }

  /// The longest prefix of `text`, in whole characters, of at most `characters` characters and
  /// `bytes` UTF-8 bytes.
  private static func fitted(_ text: String, characters: Int, bytes: Int) -> String {
    var kept = ""
    var used = 0
    for character in text.prefix(characters) {
      let size = character.utf8.count
      guard used + size <= bytes else { break }
      kept.append(character)
      used += size
    }
    return kept
  }
}
