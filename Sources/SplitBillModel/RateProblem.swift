import SplitBillCore
import SplitBillText

/// What is wrong with a rate: in a `rates:` section, a rates file or a bill's `rate`.
package enum RateProblem: Error, Hashable, Sendable {
  /// `rates:` that is not a list, described.
  case sectionShape(String)
  /// An entry that is not a mapping, described.
  case entryShape(String)
  /// An entry without `base`, `quote` or `rate`.
  case missingKey(String)
  /// A key rates do not have.
  case unknownKey(String, guess: String?)
  /// A rate that is not an exact positive decimal.
  case value(String)
  /// A currency code that is not one.
  case currency(String)
  /// A date that is not `YYYY-MM-DD` (or the ECB's `28 November 2026`).
  case date(String)
  /// A rate from a currency to itself.
  case sameCurrency(String)
  /// The same pair and day given again with another rate, first at `first`.
  case conflict(pair: String, date: String, first: String)
  /// The ECB file's header names currencies that are none: how many, and the first few.
  case unknownColumns(count: Int, first: [String])
  /// The ECB file's header names a currency again (a day would have two rates): the code and the
  /// column it was first in.
  case columnTwice(code: String, firstColumn: Int)
  /// A rate and the rate of the opposite direction for the same day that are not each other's
  /// inverse (within half a percent): each direction converts at its own.
  case inverseDiffers(pair: String, date: String, inverse: String, first: String)
  /// A CSV header that is neither the ECB's (`Date,USD,JPY,…`) nor `date,base,quote,rate`.
  case header(String)
  /// A CSV row with another number of cells than its header.
  case cellCount(found: Int, expected: Int)
  /// A rates file without one rate.
  case empty
  /// A bill's `rate` that is not `PRICE CODE`, such as `0.0058 EUR`.
  case billRate(String)
  /// A bill's `rate` priced in the bill's own currency.
  case billRateSameCurrency(String)

  /// The stable code.
  package var code: String {
    switch self {
    case .sectionShape: return "rates.shape"
    case .entryShape: return "rates.entry-shape"
    case .missingKey: return "rates.missing-key"
    case .unknownKey: return "rates.unknown-key"
    case .value: return "rates.value"
    case .currency: return "rates.currency"
    case .date: return "rates.date"
    case .sameCurrency: return "rates.same-currency"
    case .conflict: return "rates.conflict"
    case .header: return "rates.header"
    case .unknownColumns: return "rates.currency"
    case .columnTwice: return "rates.conflict"
    case .inverseDiffers: return "rates.inverse"
    case .cellCount: return "rates.cells"
    case .empty: return "rates.empty"
    case .billRate: return "rate.syntax"
    case .billRateSameCurrency: return "rate.same-currency"
    }
  }

  /// The message.
  package var message: String {
    switch self {
    case .sectionShape(let shape):
      return "rates must be a list of entries with date, base, quote and rate, found \(shape)"
    case .entryShape(let shape):
      return "a rate must be a mapping with date, base, quote and rate, found \(shape)"
    case .missingKey(let key):
      let example = ["base": "EUR", "quote": "JPY", "rate": "161.23"][key] ?? ""
      return "rate has no '\(key)': expected such as \(key): \(example)"
    case .unknownKey(let key, let guess):
      return "unknown key '\(EchoedText.quote(key))' in a rate\(guess.map { " (did you mean '\($0)'?)" } ?? ""): "
        + "expected date, base, quote, rate"
    case .value(let text):
      return "rate '\(EchoedText.quote(text))' is not an exact positive decimal: expected digits such as 161.23 or "
        + "0.0058 (at most \(DecimalRate.maximumDigits) significant digits, no exponent)"
    case .currency(let text):
      return "unknown currency '\(EchoedText.quote(text))' in a rate: expected an ISO 4217 code such as EUR or JPY"
    case .date(let text):
      return "rate date '\(EchoedText.quote(text))' is not a date: expected YYYY-MM-DD, a date that exists"
    case .sameCurrency(let code):
      return "a rate from \(code) to \(code): base and quote must differ"
    case .conflict(let pair, let date, let first):
      return "a second \(pair) rate for \(date) that differs from the one at \(first)"
    case .unknownColumns(let count, let first):
      let named = first.map { "'\(EchoedText.quote($0))'" }.joined(separator: ", ")
      return "\(count) column\(count == 1 ? "" : "s") of the header \(count == 1 ? "is" : "are") no currency "
        + "(\(named)\(count > first.count ? " and \(count - first.count) more" : "")): expected ISO 4217 codes "
        + "such as USD or JPY; \(count == 1 ? "its column is" : "their columns are") not read"
    case .columnTwice(let code, let firstColumn):
      return "\(code) is a column of the header twice (first column \(firstColumn)): a day has one rate "
        + "for each currency; this column is not read"
    case .inverseDiffers(let pair, let date, let inverse, let first):
      return "the \(pair) rate for \(date) is not the inverse of the \(inverse) rate at \(first) (they differ by "
        + "more than 0.5%): each direction converts at its own rate; give one of them, or rates that agree"
    case .header(let text):
      return "rates CSV header '\(EchoedText.quote(text))' is not one of: the ECB's (Date,USD,JPY,…), "
        + "or date,base,quote,rate"
    case .cellCount(let found, let expected):
      return "row has \(found) cells but the header has \(expected)"
    case .empty:
      return "the rates file holds no rate"
    case .billRate(let text):
      return "rate '\(EchoedText.quote(text))' is not a price and a currency: expected what one unit of the bill's "
        + "currency cost, such as 0.0058 EUR"
    case .billRateSameCurrency(let code):
      return "rate is priced in \(code), the bill's own currency: expected the currency it was converted into"
    }
  }
}
