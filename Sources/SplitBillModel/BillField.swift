import SplitBillCore

/// One key of the bill format, version 1: the single table the readers, the rules (``BillRules``), the JSON
/// Schema (`splitbill schema`) and the documentation are generated from.
package struct BillField: Sendable {
  /// What values the key takes.
  package enum Kind: String, Sendable {
    case text, date, amount, currency, tip, tipAmount, diners, person, leftover, rounding, payers, shares, items,
      adjustment, names, flag, tipBase, rate, recurrence
  }

  /// The key as written in YAML, and the CSV column name.
  package var name: String
  /// What it takes.
  package var kind: Kind
  /// Whether a bill must give it (after defaults).
  package var required: Bool
  /// Whether `defaults:` may give it too.
  package var inDefaults: Bool
  /// One line for the schema and the docs.
  package var summary: String

  /// Every bill key, in the documented order.
  package static let all: [BillField] = [
    BillField(
      name: "id", kind: .text, required: false, inDefaults: false,
      summary: "Unique across all inputs; default '<file>#<n>'."),
    BillField(
      name: "date", kind: .date, required: false, inDefaults: false,
      summary: "ISO date YYYY-MM-DD, a real calendar date."),
    BillField(name: "description", kind: .text, required: false, inDefaults: false, summary: "What the bill was for."),
    BillField(
      name: "category", kind: .text, required: false, inDefaults: true,
      summary: "Where the money went, free text: food, groceries, transport, lodging, rent, utilities, ..."),
    BillField(
      name: "amount", kind: .amount, required: true, inDefaults: false,
      summary: "The bill before tip, as exact decimal text in the currency's digits."),
    BillField(
      name: "currency", kind: .currency, required: false, inDefaults: true,
      summary: "ISO 4217 code; default from defaults or --currency (none: an error)."),
    BillField(
      name: "tip", kind: .tip, required: false, inDefaults: true,
      summary: "A percentage from 0 to 100 (18, '18%', 12.5) or 'ai' for advice."),
    BillField(
      name: "tip_amount", kind: .tipAmount, required: false, inDefaults: false,
      summary: "A fixed tip in the bill's currency; never together with tip."),
    BillField(
      name: "diners", kind: .diners, required: true, inDefaults: false,
      summary: "A head count, a list of names, or name -> weight; default: everyone in people."),
    BillField(
      name: "paid_by", kind: .payers, required: false, inDefaults: false,
      summary: "Who paid: a name, or name -> amount when several paid (adding up to the total, tip included)."),
    BillField(
      name: "notes", kind: .text, required: false, inDefaults: false, summary: "Experience notes for the tip advisor."),
    BillField(
      name: "leftover", kind: .leftover, required: false, inDefaults: true,
      summary: "Who absorbs leftover units: balanced, remainder, first, payer, to-tip."),
    BillField(
      name: "rounding", kind: .rounding, required: false, inDefaults: true,
      summary: "How a percentage tip is rounded: half-up, half-even, up, down."),
    BillField(
      name: "shares", kind: .shares, required: false, inDefaults: false,
      summary: "Exact shares: name -> part of the amount before tip (adding up to amount); instead of diners."),
    BillField(
      name: "rate", kind: .rate, required: false, inDefaults: false,
      summary:
        "What one unit of the bill's currency cost, such as '0.0058 EUR' (the card statement's rate); wins over rate tables."
    ),
    BillField(
      name: "repeat", kind: .recurrence, required: false, inDefaults: false,
      summary:
        "A recurring bill: every (week, month, year), then until (a date) or count, and skip (instances not billed); "
        + "in CSV 'every: month; until: 2026-12-31; skip: 2026-08'."
    ),
    BillField(
      name: "items", kind: .items, required: false, inDefaults: false,
      summary:
        "The receipt's lines: name, price, quantity (default 1), for (names; default every diner); amount then optional."
    ),
    BillField(
      name: "discount", kind: .adjustment, required: false, inDefaults: false,
      summary: "Off the items before tax: a percentage (10%) or an amount; spread over the items by their totals."),
    BillField(
      name: "discount_items", kind: .names, required: false, inDefaults: false,
      summary: "The names of the items the discount is on; default every item."),
    BillField(
      name: "service", kind: .adjustment, required: false, inDefaults: false,
      summary: "A service charge on the subtotal after discount: a percentage (12.5%) or an amount."),
    BillField(
      name: "tax", kind: .adjustment, required: false, inDefaults: false,
      summary: "Tax on the subtotal after discount and service: a percentage (8.875%) or an amount."),
    BillField(
      name: "tax_included", kind: .flag, required: false, inDefaults: false,
      summary: "true when the prices include the tax (VAT): it is reported, not added."),
    BillField(
      name: "tip_on", kind: .tipBase, required: false, inDefaults: false,
      summary: "What a percentage tip is on: subtotal, pretax (default: after discount and service) or total."),
    BillField(
      name: "receipt_total", kind: .amount, required: false, inDefaults: false,
      summary: "The receipt's printed total, checked: it must equal the computed total before tip or with it."),
  ]

  /// The keys a bill may have.
  package static let billKeys = all.map(\.name)
  /// The keys `defaults:` may have.
  package static let defaultKeys = all.filter(\.inDefaults).map(\.name)
}

/// The bill keys by their position in ``BillField/all``: lookups by number, not by string.
///
/// Public as the SPI `Readers`, its small members `@inlinable`: the readers ask for a key's raw
/// value at every field, and a `package` declaration is not inlined into another module (its
/// synthesized `rawValue` was a call each time; a public enum's is inlined).
@_spi(Readers) public enum BillKey: Int, CaseIterable, Sendable {
  case id, date, description, category, amount, currency, tip, tipAmount, diners, paidBy, notes, leftover, rounding
  case shares, rate, `repeat`
  case items, discount, discountItems, service, tax, taxIncluded, tipOn, receiptTotal

  /// Whether the key takes a list or a mapping of names (``FieldValue/entries``).
  @inlinable public var takesEntries: Bool {
    switch self {
    case .diners, .paidBy, .shares, .discountItems, .repeat: true
    default: false
    }
  }

  /// The keys only an itemized bill takes: those after `items`, in the order of the table.
  package static let receiptKeys = allCases.filter { $0.rawValue > BillKey.items.rawValue }

  /// The key as written (`tip_amount`).
  package var name: String { BillField.all[rawValue].name }

  /// The key written `name`, if the format has one.
  package init?(name: String) {
    guard let key = Self.key(utf8: name.utf8) else { return nil }
    self = key
  }

  /// The key whose name is these UTF-8 bytes, if the format has one.
  package init?(utf8 bytes: ArraySlice<UInt8>) {
    guard let key = Self.key(utf8: bytes) else { return nil }
    self = key
  }

  /// The key spelt `bytes`: no hashing, the bytes compared only with the names of the same length
  /// (one or two; YAML asks this for every key of every bill).
  private static func key(utf8 bytes: some Collection<UInt8>) -> BillKey? {
    let count = bytes.count
    return utf8Names.indices.first { utf8Names[$0].count == count && utf8Names[$0].elementsEqual(bytes) }
      .flatMap(BillKey.init(rawValue:))
  }

  private static let utf8Names = BillField.billKeys.map { Array($0.utf8) }
}
