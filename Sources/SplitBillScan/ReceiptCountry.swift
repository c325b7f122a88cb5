/// The country a receipt was printed in, told by what it prints besides its prices: a phone
/// number's country code, the country's name, a company form (`Sdn Bhd`, `Pte Ltd`, `GmbH`,
/// `s.r.o.`), a tax's name or number (`MwSt`, `DIČ CZ…`, `NIP`, `NPWP`), a city or state, a US
/// ZIP or a Canadian postal code. Only what names one currency's country counts: `Pty Ltd`
/// (Australia and South Africa), `+1` (the US and Canada) and `GST` (five countries) say nothing.
///
/// It gives the currency when no code or sign printed names one: after a printed `RM`, `€` or
/// `USD`, before `--currency` and before a bare `$`.
public struct ReceiptCountry: Sendable, Equatable {
  /// The ISO 3166 code of the country (`MY`), or `EU` for a euro-area sign that does not say which.
  public var code: String
  /// Its currency's ISO 4217 code.
  public var currency: String
  /// What on the receipt told it, as printed (`SDN BHD`, `+420`).
  public var evidence: String

  /// The country the lines point to, when the hints agree on one currency (a hint for another
  /// currency outweighed two to one is ignored), else `nil`.
  public static func of(lines: [String]) -> ReceiptCountry? {
    var votes: [String: (count: Int, first: ReceiptCountry)] = [:]
    func vote(_ country: ReceiptCountry) {
      if let existing = votes[country.currency] {
        votes[country.currency] = (existing.count + 1, existing.first)
      } else {
        votes[country.currency] = (1, country)
      }
    }
    for line in lines {
      let upper = LineRole.unaccented(line).uppercased()
      let words = upper.split { !($0.isLetter || $0.isNumber || $0 == "+") }.map(String.init)
      for word in words {
        for hint in oneWordPhrases[word] ?? [] {
          vote(ReceiptCountry(code: hint.country, currency: hint.currency, evidence: word))
        }
      }
      if words.count > 1 {
        let joined = " " + words.joined(separator: " ") + " "
        for hint in longerPhrases where joined.contains(hint.spaced) {
          vote(ReceiptCountry(code: hint.country, currency: hint.currency, evidence: hint.phrase))
        }
      }
      for word in words where word.hasPrefix("+") && !isSignedFigure(word, in: upper) {
        let digits = word.dropFirst()
        for (prefix, country, currency) in callingCodes where digits.hasPrefix(prefix) {
          vote(ReceiptCountry(code: country, currency: currency, evidence: "+" + prefix))
          break
        }
      }
      for word in words {
        for (prefix, digits, country, currency) in vatNumbers
        where word.hasPrefix(prefix) && word.count == prefix.count + digits
          && word.dropFirst(prefix.count).allSatisfy(\.isASCIINumber)
        {
          vote(ReceiptCountry(code: country, currency: currency, evidence: word))
        }
      }
      if let found = postalCode(upper) { vote(found) }
    }
    let ranked = votes.values.sorted { ($0.count, $1.first.currency) > ($1.count, $0.first.currency) }
    guard let best = ranked.first else { return nil }
    if ranked.count > 1, ranked[1].count * 2 > best.count { return nil }
    return best.first
  }

  /// The Tesseract language a receipt printed in this country is most likely written in (`deu`
  /// for `DE`), or `nil` where receipts are mostly printed in English (Malaysia, Singapore, India)
  /// or in several languages (Switzerland, Belgium). Morocco's receipts are mostly in French.
  public var language: String? { Self.languages[code] }

  static let languages: [String: String] = [
    "DE": "deu", "AT": "deu", "CZ": "ces", "SK": "slk", "PL": "pol", "FR": "fra", "MA": "fra", "NL": "nld",
    "IT": "ita", "ES": "spa", "MX": "spa", "PT": "por", "BR": "por", "ID": "ind", "HU": "hun",
    "SE": "swe", "DK": "dan", "NO": "nor", "FI": "fin", "TR": "tur", "VN": "vie", "TH": "tha", "JP": "jpn",
    "KR": "kor", "CN": "chi_sim", "GR": "ell",
  ]

  /// Words and phrases (accents off, upper case, punctuation as spaces) that name one country.
  static let phrases: [(phrase: String, country: String, currency: String)] = {
    let table: [(String, String, [String])] = [
      (
        "MY", "MYR",
        [
          "MALAYSIA", "SDN BHD", "SDN", "BHD", "KUALA LUMPUR", "SELANGOR", "JOHOR", "JOHOR BAHRU", "PETALING JAYA",
          "SHAH ALAM", "PULAU PINANG", "PENANG", "PERAK", "KEDAH", "PAHANG", "MELAKA", "SABAH", "SARAWAK",
          "NEGERI SEMBILAN",
          "PUTRAJAYA", "SST", "CUKAI",
        ]
      ),
      ("SG", "SGD", ["SINGAPORE", "PTE LTD", "PTE"]),
      ("ID", "IDR", ["INDONESIA", "JAKARTA", "BANDUNG", "SURABAYA", "NPWP", "TANGERANG", "BEKASI", "DENPASAR"]),
      (
        "CZ", "CZK",
        ["CESKA REPUBLIKA", "PRAHA", "BRNO", "OSTRAVA", "PLZEN", "DPH", "DIC CZ", "S R O", "SRO", "UCTENKA"]
      ),
      ("PL", "PLN", ["POLSKA", "WARSZAWA", "KRAKOW", "NIP", "SP Z O O", "PARAGON FISKALNY", "PTU"]),
      (
        "DE", "EUR",
        [
          "DEUTSCHLAND", "GERMANY", "GMBH", "MWST", "UST ID", "UST IDNR", "STEUERNR", "STEUER NR", "BERLIN", "MUNCHEN",
          "HAMBURG", "KOLN", "FRANKFURT", "OSTERREICH", "WIEN", "STRASSE",
        ]
      ),
      ("EU", "EUR", ["EURO", "EUROS"]),
      ("FR", "EUR", ["FRANCE", "TVA", "SIRET", "SARL"]),
      ("NL", "EUR", ["NEDERLAND", "BTW", "AMSTERDAM"]),
      ("IT", "EUR", ["ITALIA", "P IVA", "PARTITA IVA", "SRL"]),
      ("ES", "EUR", ["ESPANA", "CIF", "NIF"]),
      (
        "CA", "CAD",
        ["CANADA", "ONTARIO", "QUEBEC", "BRITISH COLUMBIA", "ALBERTA", "TORONTO", "VANCOUVER", "HST", "GST HST"]
      ),
      ("US", "USD", ["USA", "UNITED STATES"]),
      ("GB", "GBP", ["UNITED KINGDOM", "ENGLAND", "LONDON", "SCOTLAND"]),
      ("ZA", "ZAR", ["SOUTH AFRICA", "KWAZULU NATAL", "GAUTENG", "JOHANNESBURG", "CAPE TOWN", "DURBAN", "PRETORIA"]),
      ("AU", "AUD", ["AUSTRALIA", "ABN", "SYDNEY", "MELBOURNE", "NSW", "QLD"]),
      ("IN", "INR", ["INDIA", "GSTIN", "MUMBAI", "BANGALORE", "BENGALURU", "DELHI", "CHENNAI"]),
      ("CH", "CHF", ["SCHWEIZ", "SUISSE", "SVIZZERA", "ZURICH", "GENEVE"]),
      (
        "MA", "MAD",
        ["MAROC", "MOROCCO", "CASABLANCA", "RABAT", "MARRAKECH", "MARRAKESH", "TANGER", "AGADIR", "MEKNES"]
      ),
      ("AE", "AED", ["UNITED ARAB EMIRATES", "DUBAI", "ABU DHABI", "SHARJAH"]),
      ("JP", "JPY", ["JAPAN", "TOKYO", "OSAKA", "KYOTO"]),
      ("TH", "THB", ["THAILAND", "BANGKOK"]),
      ("PH", "PHP", ["PHILIPPINES", "MANILA", "MAKATI", "VAT REG TIN"]),
      ("HK", "HKD", ["HONG KONG", "KOWLOON"]),
      ("VN", "VND", ["VIETNAM", "VIET NAM", "HANOI", "HA NOI", "HO CHI MINH"]),
      ("NZ", "NZD", ["NEW ZEALAND", "AUCKLAND", "WELLINGTON", "CHRISTCHURCH"]),
      ("IE", "EUR", ["IRELAND", "DUBLIN"]),
      ("BE", "EUR", ["BELGIQUE", "BELGIE", "BRUXELLES", "BRUSSEL"]),
      ("PT", "EUR", ["PORTUGAL", "LISBOA"]),
      ("SE", "SEK", ["SVERIGE", "STOCKHOLM", "GOTEBORG"]),
      ("DK", "DKK", ["DANMARK", "KOBENHAVN"]),
      ("NO", "NOK", ["NORGE"]),
      ("HU", "HUF", ["MAGYARORSZAG", "BUDAPEST"]),
      ("TR", "TRY", ["TURKIYE", "ISTANBUL", "ANKARA"]),
      ("BR", "BRL", ["BRASIL", "SAO PAULO", "CNPJ"]),
    ]
    return table.flatMap { country, currency, phrases in phrases.map { ($0, country, currency) } }
  }()

  /// ``phrases`` of one word, by the word.
  static let oneWordPhrases: [String: [(country: String, currency: String)]] = Dictionary(
    grouping: phrases.filter { !$0.phrase.contains(" ") }, by: \.phrase
  ).mapValues { $0.map { ($0.country, $0.currency) } }

  /// ``phrases`` of several words, with a space either side to be found between words.
  static let longerPhrases: [(phrase: String, spaced: String, country: String, currency: String)] = phrases.filter {
    $0.phrase.contains(" ")
  }.map { ($0.phrase, " " + $0.phrase + " ", $0.country, $0.currency) }

  /// Country calling codes, longest first where one begins another (`+420` before `+42…`).
  static let callingCodes: [(String, String, String)] = [
    ("420", "CZ", "CZK"), ("421", "SK", "EUR"), ("852", "HK", "HKD"), ("60", "MY", "MYR"), ("65", "SG", "SGD"),
    ("62", "ID", "IDR"), ("49", "DE", "EUR"), ("43", "AT", "EUR"), ("48", "PL", "PLN"), ("33", "FR", "EUR"),
    ("39", "IT", "EUR"), ("34", "ES", "EUR"), ("31", "NL", "EUR"), ("32", "BE", "EUR"), ("41", "CH", "CHF"),
    ("44", "GB", "GBP"), ("27", "ZA", "ZAR"), ("91", "IN", "INR"), ("61", "AU", "AUD"), ("64", "NZ", "NZD"),
    ("66", "TH", "THB"), ("63", "PH", "PHP"), ("212", "MA", "MAD"), ("971", "AE", "AED"), ("81", "JP", "JPY"),
    ("82", "KR", "KRW"), ("84", "VN", "VND"), ("86", "CN", "CNY"), ("90", "TR", "TRY"), ("46", "SE", "SEK"),
    ("45", "DK", "DKK"), ("47", "NO", "NOK"), ("36", "HU", "HUF"), ("52", "MX", "MXN"), ("55", "BR", "BRL"),
    ("353", "IE", "EUR"), ("351", "PT", "EUR"), ("30", "GR", "EUR"), ("358", "FI", "EUR"),
  ]

  /// Whether `word` (`+30`) is printed in `upper` as the start of a signed figure (`+30.00`, a
  /// surcharge), not a telephone number's country code.
  static func isSignedFigure(_ word: String, in upper: String) -> Bool {
    var rest = upper[...]
    while let found = rest.range(of: word) {
      let after = rest[found.upperBound...]
      if let mark = after.first, mark == "." || mark == ",", after.dropFirst().first?.isNumber == true { return true }
      rest = after
    }
    return false
  }

  /// VAT numbers as the EU prints them: the country's prefix and its count of digits.
  static let vatNumbers: [(String, Int, String, String)] = [
    ("CZ", 8, "CZ", "CZK"), ("CZ", 9, "CZ", "CZK"), ("CZ", 10, "CZ", "CZK"), ("DE", 9, "DE", "EUR"),
    ("ATU", 8, "AT", "EUR"), ("PL", 10, "PL", "PLN"), ("SK", 10, "SK", "EUR"), ("FR", 11, "FR", "EUR"),
    ("NL", 12, "NL", "EUR"), ("IT", 11, "IT", "EUR"),
  ]

  static let usStates: Set<String> = [
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME",
    "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA",
    "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "DC",
  ]
  static let provinces: Set<String> = ["ON", "QC", "BC", "AB", "MB", "SK", "NS", "NB", "NL", "PE", "YT", "NT", "NU"]

  /// A US state and ZIP (`CA 94016`, `TX 75001-1234`) or a Canadian province and postal code
  /// (`ON M5V 2T6`, or the code alone: letter, digit, letter, digit, letter, digit).
  static func postalCode(_ upper: String) -> ReceiptCountry? {
    let words = upper.split { !($0.isLetter || $0.isNumber || $0 == "-") }.map(String.init)
    for (index, word) in words.enumerated() where index + 1 < words.count {
      let next = words[index + 1]
      let zip = next.split(separator: "-").map(String.init)
      if usStates.contains(word), zip.first?.count == 5, zip.first?.allSatisfy(\.isASCIINumber) == true,
        zip.count == 1 || (zip.count == 2 && zip[1].count == 4 && zip[1].allSatisfy(\.isASCIINumber))
      {
        return ReceiptCountry(code: "US", currency: "USD", evidence: word + " " + next)
      }
      if isCanadianHalf(word, letterFirst: true), isCanadianHalf(next, letterFirst: false) {
        return ReceiptCountry(code: "CA", currency: "CAD", evidence: word + " " + next)
      }
    }
    return nil
  }

  /// `M5V` (letter, digit, letter) or `2T6` (digit, letter, digit): half a Canadian postal code.
  private static func isCanadianHalf(_ word: String, letterFirst: Bool) -> Bool {
    let characters = Array(word)
    guard characters.count == 3, characters.allSatisfy(\.isASCII) else { return false }
    return characters.enumerated().allSatisfy { index, character in
      (index % 2 == 0) == letterFirst ? character.isLetter : character.isNumber
    }
  }
}

extension Character {
  fileprivate var isASCIINumber: Bool { isASCII && isNumber }
}
