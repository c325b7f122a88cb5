/// How a person can be paid: a bank account (IBAN, and the bank's BIC where one is needed), a
/// payment link (`https://paypal.me/ben`), and the account holder's name when the bank knows it
/// by another than the one the bills use. Given in a file's or the configuration's `people:`
/// (`{name: Ben, iban: DE89 3704 0044 0532 0130 00}`); reports show them beside the transfers
/// to that person, with an EPC QR code for a transfer in euros to an IBAN.
public struct PaymentDetails: Sendable, Hashable {
  /// The account, its check digits verified.
  public var iban: IBAN?
  /// The bank, when given (SEPA transfers within the EEA need none).
  public var bic: BIC?
  /// A payment link, always `https://`.
  public var link: String?
  /// The account's name as the bank has it (at most 70 characters, the EPC limit); `nil`: the
  /// person's name.
  public var holder: String?

  public init(iban: IBAN? = nil, bic: BIC? = nil, link: String? = nil, holder: String? = nil) {
    self.iban = iban
    self.bic = bic
    self.link = link
    self.holder = holder
  }

  /// Whether nothing was given.
  public var isEmpty: Bool { iban == nil && bic == nil && link == nil && holder == nil }

  /// The keys of a person's entry in `people:`.
  public static let keys = ["name", "iban", "bic", "link", "holder"]

  /// Whether `text` is a payment link a report may show and link to: `https://`, then a host,
  /// with no white space, control character, quote or angle bracket anywhere (a `javascript:`
  /// address, or one that would break out of an HTML attribute, is refused), at most 500 bytes.
  public static func isPaymentLink(_ text: String) -> Bool {
    let lowered = text.lowercased()
    guard lowered.hasPrefix("https://"), text.utf8.count <= 500, text.utf8.count > "https://".utf8.count else {
      return false
    }
    let hostStart = text.utf8.dropFirst("https://".utf8.count).first
    guard let hostStart, hostStart != UInt8(ascii: "/") else { return false }
    return text.unicodeScalars.allSatisfy { scalar in
      scalar.value > 0x20 && scalar.value != 0x7F && !(0x80...0x9F).contains(scalar.value)
        && !"\"'<>`\\{}|^".unicodeScalars.contains(scalar) && !scalar.properties.isWhitespace
        && scalar.properties.generalCategory != .format
    }
  }
}
