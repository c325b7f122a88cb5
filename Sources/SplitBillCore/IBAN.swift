/// An International Bank Account Number (ISO 13616) whose check digits are right: what a bank
/// transfer is addressed to, and what an EPC QR code carries.
///
/// Read with spaces anywhere and in either case (`de89 3704 0044 0532 0130 00`); kept in the
/// electronic form (`DE89370400440532013000`). The check is the standard one: the two check
/// digits make the number, read with its first four characters moved to the end and each letter
/// counted as 10…35, leave 1 when divided by 97; and for the countries of ``lengths`` the
/// length is the registry's. A country not in that table is checked by its digits alone (the
/// registry grows; a new country's IBAN is not refused for being new).
public struct IBAN: Sendable, Hashable, CustomStringConvertible {
  /// The electronic form: upper-case, no spaces.
  public let electronic: String

  /// Why a text is not an IBAN.
  public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// A character other than a letter, a digit or a space.
    case character(Character)
    /// Not two letters, then two digits.
    case start
    /// Shorter than 15 or longer than 34 characters, or not its country's length.
    case length(found: Int, expected: Int?, country: String)
    /// The check digits do not match the rest: a digit mistyped or two swapped.
    case checksum

    public var description: String {
      switch self {
      case .character(let character):
        let shown =
          character.unicodeScalars.allSatisfy { $0.value >= 0x21 && $0.value < 0x7F } ? "'\(character)'" : "a character"
        return "\(shown) is not a letter, a digit or a space"
      case .start: return "an IBAN starts with its country's two letters and two check digits (DE89…)"
      case .length(let found, let expected?, let country):
        return "\(found) characters, but an IBAN of \(country) has \(expected)"
      case .length(let found, nil, _): return "\(found) characters, but an IBAN has 15 to 34"
      case .checksum: return "its check digits do not match (a digit mistyped or two swapped?)"
      }
    }
  }

  /// Reads `text`, refusing it with the reason when it is not an IBAN.
  public init(parsing text: String) throws(Problem) {
    var characters: [UInt8] = []
    for character in text {
      guard let ascii = character.asciiValue, character != "\r\n" else { throw .character(character) }
      switch ascii {
      case 0x20: continue
      case 0x30...0x39, 0x41...0x5A: characters.append(ascii)
      case 0x61...0x7A: characters.append(ascii - 0x20)
      default: throw .character(character)
      }
    }
    guard characters.count >= 4, characters[0] >= 0x41, characters[1] >= 0x41, characters[2] <= 0x39,
      characters[3] <= 0x39
    else { throw .start }
    let country = String(decoding: characters[0..<2], as: UTF8.self)
    let expected = Self.lengths[country]
    guard (15...34).contains(characters.count), expected.map({ $0 == characters.count }) ?? true else {
      throw .length(found: characters.count, expected: expected, country: country)
    }
    // The remainder by 97, a digit at a time: a letter counts as its two digits 10…35.
    var remainder = 0
    for ascii in characters[4...] + characters[0..<4] {
      if ascii <= 0x39 {
        remainder = (remainder * 10 + Int(ascii - 0x30)) % 97
      } else {
        remainder = (remainder * 100 + Int(ascii - 0x41 + 10)) % 97
      }
    }
    guard remainder == 1 else { throw .checksum }
    electronic = String(decoding: characters, as: UTF8.self)
  }

  /// The two letters of its country (`DE`).
  public var countryCode: Substring { electronic.prefix(2) }

  /// In groups of four, as printed on paper and read aloud: `DE89 3704 0044 0532 0130 00`.
  public var grouped: String {
    var text = ""
    for (offset, character) in electronic.enumerated() {
      if offset > 0, offset % 4 == 0 { text.append(" ") }
      text.append(character)
    }
    return text
  }

  public var description: String { grouped }

  /// The length of an IBAN in each country of the SWIFT IBAN registry that SEPA and its
  /// neighbours use.
  public static let lengths: [String: Int] = [
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
    "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
    "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
    "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
    "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29,
    "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28,
    "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
  ]
}

/// A bank's identifier (ISO 9362, the BIC or SWIFT code): four letters of the bank, two of its
/// country, two letters or digits of its place, and optionally three of its branch
/// (`COBADEFFXXX`, `COBADEFF`). Read in either case; kept upper-case.
public struct BIC: Sendable, Hashable, CustomStringConvertible {
  /// Upper-case, 8 or 11 characters.
  public let code: String

  /// Reads `text` (spaces around it ignored), `nil` when it is not a BIC's shape.
  public init?(parsing text: String) {
    let bytes = Array(text.uppercased().utf8).filter { $0 != 0x20 }
    let letter = { (byte: UInt8) in (0x41...0x5A).contains(byte) }
    let alphanumeric = { (byte: UInt8) in letter(byte) || (0x30...0x39).contains(byte) }
    guard bytes.count == 8 || bytes.count == 11, bytes[0..<6].allSatisfy(letter),
      bytes[6...].allSatisfy(alphanumeric)
    else { return nil }
    code = String(decoding: bytes, as: UTF8.self)
  }

  public var description: String { code }
}
