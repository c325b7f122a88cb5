import SplitBillText

/// What a receipt line with an amount is: an item, or one of the figures under them. Told by the
/// words before the amount, in the languages of the receipts `scan` is measured on (en, de, fr, es,
/// it, pt, nl, ms/id, cs, pl), accents ignored (`Zaokrouhlení` and `ZAOKROUHLENI` alike), allowing
/// a misread letter in long words (`TOTA`, `SUBT0TAL`, `Teta]` is too far).
public enum LineRole: String, Sendable, Equatable {
  case item, subtotal, discount, service, tax, rounding, tip, total, cash, tender, change
  /// A total before tax (`Total Exclusive of Tax`, `Netto`, `Total excl. GST`): the total less
  /// the tax. It is the items' sum only where the items are priced before tax; where they hold
  /// the tax it is checked against the total and the tax instead.
  case net
  /// A line that is none of them and no item either: a phone number, a date, a count of items.
  case ignored

  /// The role of a line labelled `label` (the words before its amount).
  public static func of(label: String) -> LineRole? {
    let words = normalisedWords(label)
    // A figure's label is a few words (`Total Sales Inclusive GST`); a longer line is an item, an
    // address or a sentence, and matching every phrase in every place of it would cost time in
    // proportion to its length (a line of garbage thousands of words long, read off a photo).
    guard !words.isEmpty, words.count <= maximumLabelWords else { return nil }
    let joined = words.joined(separator: " ")
    let spelled = words.map { Array($0.utf8) }
    // A total that says what it includes or comes after (`Total Sales Incl GST`, `Total with GST
    // @ 6%`, `Total After Adj`) is a total, whatever else it names.
    if spelled.contains(where: { near($0, totalKeyword) }), !words.contains(where: { $0.hasPrefix("EXCL") }),
      words.contains(where: { inclusionWords.contains($0) || ["AFTER", "TTC", "WITH"].contains($0) })
    {
      return .total
    }
    // A line to ignore says so in its first words (`Pax(s): 2`, `Table 5`); further on, the same
    // word is part of an item's name (`KUO POH (2 PAX) 6.00`, `Mineral water table 2.00`).
    for (role, phrases) in compiled {
      for phrase in phrases {
        if role == .ignored {
          // Within the phrase's length and one word more (`Check #: Pax(s)`).
          let opening = min(phrase.parts.count + 1, words.count)
          if phrase.matches(
            Array(spelled.prefix(opening)), joined: words.prefix(opening).joined(separator: " "))
          {
            return role
          }
        } else if phrase.matches(spelled, joined: joined) {
          return role
        }
      }
    }
    return nil
  }

  /// A word of a phrase, as bytes, and how many edits a word read may be from it: one for five
  /// letters or more, two for ten or more.
  struct Keyword {
    let bytes: [UInt8]
    let allowed: Int

    init(_ word: String) {
      bytes = Array(word.utf8)
      allowed = word.count >= 10 ? 2 : word.count >= 5 ? 1 : 0
    }
  }

  /// A phrase of the table made ready once: its words, and the words glued (`SUBTOTAL`).
  struct Phrase {
    let text: String
    let parts: [Keyword]
    let glued: Keyword

    init(_ text: String) {
      self.text = text
      let words = text.split(separator: " ").map(String.init)
      parts = words.map(Keyword.init)
      glued = Keyword(words.joined())
    }

    /// Whether it is in the label `words` (bytes; `joined` by spaces): each word exactly, or
    /// within its edits; a phrase of several words also printed as one (`SUBTOTAL`).
    func matches(_ words: [[UInt8]], joined: String) -> Bool {
      guard parts.count > 1 else { return words.contains { LineRole.near($0, parts[0]) } }
      if joined.contains(text) { return true }
      return words.contains { LineRole.near($0, glued) }
        || words.indices.dropLast(parts.count - 1).contains { start in
          zip(parts, words[start..<(start + parts.count)]).allSatisfy { LineRole.near($1, $0) }
        }
    }
  }

  static let totalKeyword = Keyword("TOTAL")

  /// ``table`` made ready once.
  static let compiled: [(LineRole, [Phrase])] = table.map { role, phrases in (role, phrases.map(Phrase.init)) }

  /// The most words a figure's label has.
  static let maximumLabelWords = 12

  /// Whether a tax's label says the prices hold it (`(Inclusive) GST 6%`, `GST incl.`, `inkl.
  /// MwSt`, `enthaltene MwSt`, `TVA incluse`, `IVA incluido`).
  static func saysIncluded(_ label: String) -> Bool {
    normalisedWords(label).contains { word in
      inclusionWords.contains(word)
        || ["INCLUDED", "INKLUSIVE", "ENTH", "INCLUSE", "INCLUS", "INCLUIDO", "INCLUSO"].contains(word)
        || word.hasPrefix("ENTHALTEN")
    }
  }

  /// Words that say a figure includes the tax (`Total Incl GST`, `(Inclusive) GST`, `inkl. MwSt`),
  /// for a total and for a tax line alike.
  static let inclusionWords: Set<String> = ["INC", "INCL", "INCLUSIVE", "INKL"]

  /// The label's words, upper-case letters only, accents taken off (`Sub-Total:` → `SUB`,
  /// `TOTAL`; `Rückgeld` → `RUCKGELD`; `K úhradě` → `K`, `UHRADE`).
  static func normalisedWords(_ label: String) -> [String] {
    unaccented(label).uppercased().split { !$0.isLetter }.map(String.init).filter { !$0.isEmpty }
  }

  /// `text` without the accents of the Latin letters the receipts' languages use (`Zaokrouhlení`
  /// → `Zaokrouhleni`, `Łódź` → `Lodz`, `ß` → `ss`); other characters as they are. ASCII text
  /// (most of what Tesseract reads) is returned at once. A table of our own, not Foundation's
  /// folding, which calls into ICU for every line.
  static func unaccented(_ text: String) -> String {
    guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
    var plain = ""
    plain.reserveCapacity(text.utf8.count)
    for character in text {
      if let base = baseLetters[character] { plain += base } else { plain.append(character) }
    }
    return plain
  }

  /// Accented Latin letters and what they are without their accents.
  static let baseLetters: [Character: String] = {
    let groups: [(String, String)] = [
      ("a", "áàâäãåāăą"), ("c", "çćč"), ("d", "ďđ"), ("e", "éèêëěēęė"), ("i", "íìîïī"), ("l", "ľĺł"),
      ("n", "ňńñ"), ("o", "óòôöõøőō"), ("r", "řŕ"), ("s", "šśş"), ("t", "ťţ"), ("u", "úùûüůűū"), ("y", "ýÿ"),
      ("z", "žźż"),
    ]
    var table: [Character: String] = ["ß": "ss", "ẞ": "SS"]
    for (base, accented) in groups {
      for letter in accented {
        table[letter] = base
        table[Character(String(letter).uppercased())] = base.uppercased()
      }
    }
    return table
  }()

  /// Whether the word read (bytes) is `keyword`, or within its edits of it.
  static func near(_ word: [UInt8], _ keyword: Keyword) -> Bool {
    if word == keyword.bytes { return true }
    guard keyword.allowed > 0, abs(word.count - keyword.bytes.count) <= keyword.allowed else { return false }
    return Spelling.editDistance(word, keyword.bytes, atMost: keyword.allowed) != nil
  }

  /// Roles in the order they are tried: the more specific first (`SUB TOTAL` before `TOTAL`,
  /// `TOTAL GST` before `TOTAL`, `CHANGE` before `CASH`).
  static let table: [(LineRole, [String])] = [
    (
      .ignored,
      [
        "TOTAL QTY", "TOTAL QUANTITY", "TOTAL ITEMS", "TOTAL ITEM", "ITEM COUNT", "NO OF ITEMS", "TOTAL SAVINGS",
        "YOU SAVED", "TOTAL DISCOUNT", "QTY", "ITEMS SOLD", "ANZAHL", "ARTIKEL", "POINTS", "BALANCE POINTS",
        "TEL", "FAX", "PHONE", "GST ID", "GST REG", "REG NO", "INVOICE", "RECEIPT NO", "BILL NO", "TABLE", "PAX",
        "CASHIER", "TERMINAL", "APPROVAL", "AUTH", "REF", "TRANS", "CARD NO", "ACCOUNT", "MEMBER", "TIME",
        "POCET", "POLOZEK", "ILOSC", "KASJER", "POKLADNA", "UCTENKA", "PARAGON", "ITEM S QTY", "ITEMS QTY",
      ]
    ),
    // A total before tax, before `SUB TOTAL` (`Subtotal excl. VAT` is one) and `TOTAL`.
    (
      .net,
      [
        "TOTAL EXCL", "TOTAL EXCLUDING", "TOTAL EXCLUSIVE", "TOTAL BEFORE TAX", "TOTAL BEFORE GST", "SUBTOTAL EXCL",
        "TOTAL SALES EXCLUSIVE", "TOTAL SALES EXCL", "AMOUNT EXCL", "NETTO", "NETTOBETRAG", "SUMME NETTO",
        "NET AMOUNT", "TOTAL HT", "HORS TAXE", "BEZ DPH", "ZAKLAD DANE", "ZAKLAD", "NETTO BEDRAG", "IMPONIBILE",
        "BASE IMPONIBLE", "SPRZEDAZ OPODATKOWANA", "TAXABLE AMT", "TAXABLE AMOUNT", "TAXABLE VALUE",
      ]
    ),
    (
      .subtotal,
      [
        "SUB TOTAL", "SUBTOTAL", "SUB TTL", "ZWISCHENSUMME", "SOUS TOTAL", "SUBTOTALE", "SUBTOTAAL", "JUMLAH KECIL",
        "TOTAL BEFORE", "MEZISOUCET", "PODSUMA", "SUMA CZESCIOWA",
      ]
    ),
    (
      .service,
      [
        "SERVICE", "SERVICE CHARGE", "SVC", "SVC CHG", "SERV CHG", "SRV", "SRV CHG", "SERVIS", "CAJ PERKHIDMATAN",
        "BEDIENUNG", "COPERTO",
        "SERVIZIO", "SERVICIO", "SERVIÇO", "BEDIENING",
      ]
    ),
    (
      .change,
      [
        "CHANGE", "CHANGE DUE", "RUCKGELD", "RÜCKGELD", "WECHSELGELD", "RENDU", "MONNAIE", "CAMBIO", "VUELTO", "RESTO",
        "TROCO", "WISSELGELD", "BAKI", "KEMBALIAN", "KEMBALI", "ZURUCK", "VRACENO", "VRATIT", "RESZTA",
      ]
    ),
    // A total that names the tax it holds is the total, not the tax.
    (
      .total,
      [
        "TOTAL INCL", "TOTAL INCLUSIVE", "TOTAL INC", "TOTAL AMOUNT", "NET TOTAL", "GRAND TOTAL", "TOTAL PAYABLE",
        "TOTAL RM", "TOTAL MYR", "TOTAL SALES INCLUSIVE", "TOTAL TTC", "TOTAL EUR", "TOTAL USD", "TOTAL ROUNDED",
        "ROUNDED TOTAL", "CELKEM", "CELKOVA CASTKA", "K UHRADE", "K PLATBE", "SUMA PLN", "DO ZAPLATY", "RAZEM",
        "GESAMTBETRAG", "ENDSUMME", "BRUTTO", "NET A PAYER", "TOTAL A PAYER",
      ]
    ),
    (
      .rounding,
      [
        "ROUNDING", "ROUND ADJ", "ROUNDING ADJ", "ADJ", "PEMBUNDARAN", "RUNDUNG", "RUNDUNGSDIFFERENZ", "ARRONDI",
        "REDONDEO", "ZAOKROUHLENI", "ZAOKR", "ZAOKRAGLENIE", "AFRONDING",
      ]
    ),
    (
      .tax,
      [
        "GST", "VAT", "TAX", "HST", "PST", "QST", "SST", "MWST", "MWST", "UST", "TVA", "IVA", "BTW", "PPN", "PB1",
        "CUKAI", "PAJAK", "IMPOSTO", "IMPUESTO", "STEUER", "SALES TAX", "TAXES", "DPH", "PTU", "PODATEK",
        "MEHRWERTSTEUER",
      ]
    ),
    (
      .discount,
      [
        "DISCOUNT", "DISC", "DISKAUN", "DISKON", "RABATT", "NACHLASS", "REMISE", "RÉDUCTION", "REDUCTION", "DESCUENTO",
        "SCONTO", "DESCONTO", "KORTING", "PROMO", "COUPON", "VOUCHER", "SAVINGS",
      ]
    ),
    (.tip, ["TIP", "TIPS", "GRATUITY", "TRINKGELD", "POURBOIRE", "PROPINA", "MANCIA", "GORJETA", "FOOI", "GRAT"]),
    (
      .cash,
      [
        "CASH", "TUNAI", "BAR", "BARGELD", "ESPECES", "ESPÈCES", "EFECTIVO", "CONTANTI", "DINHEIRO", "CONTANT",
        "CASH TENDERED", "TENDERED", "BETAALD", "GEGEBEN", "HOTOVOST", "HOTOVE", "GOTOWKA", "BARZAHLUNG",
      ]
    ),
    (
      .tender,
      [
        "VISA", "MASTERCARD", "MASTER", "AMEX", "DEBIT", "CREDIT", "CARD", "TEND", "EFTPOS", "KARTE", "CARTE",
        "TARJETA", "CARTA", "CARTAO", "PIN", "MAESTRO", "INTERAC", "PAID", "PAYMENT", "KARTOU", "KARTA",
        "KARTENZAHLUNG", "GIROCARD", "PLATBA",
      ]
    ),
    (
      .total,
      [
        "TOTAL", "NET TOTAL", "GRAND TOTAL", "AMOUNT DUE", "BALANCE DUE", "TOTAL DUE", "AMOUNT", "SUMME", "GESAMT",
        "ZU ZAHLEN", "SUMA", "TOTALE", "TOTAAL", "TE BETALEN", "JUMLAH", "MONTANT", "A PAGAR", "IMPORTE", "DUE",
        "BALANCE", "TTL", "NETT",
      ]
    ),
  ]
}
