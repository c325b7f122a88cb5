/// An itemized receipt: what was ordered, who shares each line, and the bill-level adjustments.
///
/// The order of application is fixed: items → discount → service → tax → tip.
///
/// - The **subtotal** is the sum of the line totals.
/// - The **discount** (a percentage or an amount) comes off the subtotal, or off the items it
///   names, and is spread over those items in proportion to their line totals.
/// - The **service** charge is on the subtotal after discount.
/// - The **tax** is on the subtotal after discount plus service. With ``taxIncluded`` the prices
///   already hold it: the tax is worked out (`base × rate / (100 + rate)`) and reported, not added.
/// - The **tip** is on the base ``tipOn`` names.
///
/// Each percentage is rounded to the minor unit by the bill's rounding mode. Each person's exact
/// part of the total is then a fraction: their part of every item they share, less their part of
/// the discount, plus their part of service, tax and tip, which follow each person's subtotal
/// after discount (a tip on `subtotal` follows their subtotal before it). The split rounds once
/// per bill: every exact part floored, the leftover units placed by the leftover policy.
public struct Receipt: Hashable, Sendable {
  /// The receipt's values, behind one reference: a bill holds its receipt in one word, and an
  /// absent receipt costs the bills without one (nearly all) nothing as they are copied.
  private struct Fields: Hashable, Sendable {
    var items: [ReceiptItem]
    var discount: Adjustment?
    var discountItems: [String]?
    var service: Adjustment?
    var tax: Adjustment?
    var taxIncluded: Bool
    var tipOn: TipBase
    var receiptTotal: Money?
    var diners: Diners = .anonymous(count: 0)
  }
  /// Immutable: a change makes a new one. Not generic, so that copying a bill needs no
  /// generic type's metadata.
  private final class Storage: Sendable {
    let value: Fields
    init(_ value: Fields) { self.value = value }
  }
  private var box: Storage

  private mutating func update(_ change: (inout Fields) -> Void) {
    var fields = box.value
    change(&fields)
    box = Storage(fields)
  }

  public static func == (lhs: Receipt, rhs: Receipt) -> Bool { lhs.box === rhs.box || lhs.box.value == rhs.box.value }

  public func hash(into hasher: inout Hasher) { hasher.combine(box.value) }

  /// The lines, in receipt order.
  public var items: [ReceiptItem] {
    get { box.value.items }
    set { update { $0.items = newValue } }
  }
  /// Off the subtotal (or the named items), before tax.
  public var discount: Adjustment? {
    get { box.value.discount }
    set { update { $0.discount = newValue } }
  }
  /// The names of the items the discount is on; `nil`: every item.
  public var discountItems: [String]? {
    get { box.value.discountItems }
    set { update { $0.discountItems = newValue } }
  }
  /// A service charge on the subtotal after discount.
  public var service: Adjustment? {
    get { box.value.service }
    set { update { $0.service = newValue } }
  }
  /// Tax on the subtotal after discount plus service.
  public var tax: Adjustment? {
    get { box.value.tax }
    set { update { $0.tax = newValue } }
  }
  /// Whether the prices include the tax (VAT): then it is reported, not added.
  public var taxIncluded: Bool {
    get { box.value.taxIncluded }
    set { update { $0.taxIncluded = newValue } }
  }
  /// What a percentage tip is computed on.
  public var tipOn: TipBase {
    get { box.value.tipOn }
    set { update { $0.tipOn = newValue } }
  }
  /// The receipt's printed total, checked against the computed one (before tip, or with it).
  public var receiptTotal: Money? {
    get { box.value.receiptTotal }
    set { update { $0.receiptTotal = newValue } }
  }

  /// The people at the table: set by the bill whose receipt it is (``BillTerms/receipt``).
  public var diners: Diners {
    get { box.value.diners }
    set { update { $0.diners = newValue } }
  }

  /// Creates a receipt; without adjustments it is its items' sum.
  public init(
    items: [ReceiptItem], discount: Adjustment? = nil, discountItems: [String]? = nil, service: Adjustment? = nil,
    tax: Adjustment? = nil, taxIncluded: Bool = false, tipOn: TipBase = .pretax, receiptTotal: Money? = nil
  ) {
    box = Storage(
      Fields(
        items: items, discount: discount, discountItems: discountItems, service: service, tax: tax,
        taxIncluded: taxIncluded, tipOn: tipOn, receiptTotal: receiptTotal))
  }
}

/// A bill-level adjustment: a percentage of its base, or an amount in the bill's currency.
public enum Adjustment: Hashable, Sendable, CustomStringConvertible {
  case percent(Percent)
  case amount(Money)

  /// The one reading of an adjustment as text, for bill files and `calc`: a percentage when it
  /// ends in `%` (`10%`, `8.875 %`, from 0 to 100), else an amount in `currency` (`5.00`).
  ///
  /// - Throws: ``AdjustmentError`` saying which reading failed.
  public init(parsing text: String, currency: Currency, decimalComma: Bool = false) throws(AdjustmentError) {
    if text.hasSuffix("%") {
      do {
        self = .percent(try Percent(parsing: text, decimalComma: decimalComma))
      } catch {
        throw .percent(error)
      }
      return
    }
    do {
      self = .amount(try Money(parsing: text, currency: currency, decimalComma: decimalComma))
    } catch {
      throw .amount(error)
    }
  }

  /// The percentage, when it is one.
  public var rate: Percent? {
    if case .percent(let percent) = self { return percent }
    return nil
  }

  /// `10%`, `5.00 EUR`.
  public var description: String {
    switch self {
    case .percent(let percent): return percent.description
    case .amount(let money): return money.description
    }
  }
}

/// Why a text is not an adjustment: its percentage (it ends in `%`) or its amount is wrong.
public enum AdjustmentError: Error, Hashable, Sendable {
  case percent(PercentError)
  case amount(MoneyError)
}

/// What a percentage tip on an itemized bill is computed on.
///
/// The default is `pretax`: a tip rewards the service, and tax is not part of it (the common
/// advice in the US, where tax is added on top); a discount voucher should not cut the tip, but
/// a service charge already paid for it is counted in.
public enum TipBase: String, CaseIterable, Sendable, Hashable {
  /// The items' sum, before discount.
  case subtotal
  /// The subtotal after discount and service, before tax.
  case pretax
  /// Everything before the tip, tax included.
  case total
}

/// One line of a receipt.
public struct ReceiptItem: Hashable, Sendable {
  /// As printed.
  public var name: String
  /// The unit price.
  public var price: Money
  /// How many, exact; 1 unless given (0.5 for half a kilo).
  public var quantity: Weight
  /// Price × quantity, exact in minor units.
  public var total: Money
  /// Who shares the line, with weights; `nil`: every diner of the bill, with the bill's weights.
  public var sharers: [Diner]?

  /// A line of `quantity` × `price` shared by `sharers`.
  ///
  /// - Throws: ``SplitError/inexactLineTotal(item:price:quantity:)`` when price × quantity is not
  ///   a whole number of minor units (0.5 × 3.99 EUR), and ``SplitError/totalTooLarge``.
  public init(name: String, price: Money, quantity: Weight = .one, sharers: [Diner]? = nil) throws(SplitError) {
    self.name = name
    self.price = price
    self.quantity = quantity
    self.sharers = sharers
    let (product, remainder) = (Int128(price.minorUnits) * Int128(quantity.tenThousandths))
      .quotientAndRemainder(dividingBy: 10_000)
    guard remainder == 0 else { throw .inexactLineTotal(item: name, price: price, quantity: quantity) }
    guard product <= Int128(Money.maximumMinorUnits) else { throw .totalTooLarge }
    self.total = Money(minorUnits: Int64(product), currency: price.currency)
  }
}

/// A receipt's bill-level figures, each rounded to the minor unit.
public struct ReceiptFigures: Hashable, Sendable {
  /// The items' sum.
  public var subtotal: Money
  /// What the discount takes off (zero or more).
  public var discount: Money
  /// The service charge.
  public var service: Money
  /// The tax: added, or (``taxIncluded``) inside the prices.
  public var tax: Money
  /// Whether ``tax`` is inside the prices.
  public var taxIncluded: Bool
  /// What the bill comes to before tip: subtotal − discount + service + added tax.
  public var beforeTip: Money
  /// What a percentage tip is computed on.
  public var tipBase: Money
}

extension Receipt {
  /// The bill-level figures in `currency`, percentages rounded by `rounding`.
  ///
  /// - Throws: ``SplitError/unknownDiscountItem(_:)``, ``SplitError/discountTooLarge(discount:base:)``,
  ///   ``SplitError/includedTaxTooLarge(tax:base:)``, ``SplitError/totalTooLarge``.
  public func figures(currency: Currency, rounding: RoundingMode) throws(SplitError) -> ReceiptFigures {
    func money(_ units: Int128) throws(SplitError) -> Money {
      guard units <= Int128(Money.maximumMinorUnits), units >= -Int128(Money.maximumMinorUnits) else {
        throw .totalTooLarge
      }
      return Money(minorUnits: Int64(units), currency: currency)
    }
    func percentOf(_ base: Int128, _ percent: Percent) -> Int128 {
      rounding.divide(base * Int128(percent.tenThousandths), by: 100 * 10_000)
    }
    let subtotal = items.reduce(Int128(0)) { $0 + Int128($1.total.minorUnits) }
    let discountBase = try Int128(discountedItems().reduce(Int64(0)) { $0 + items[$1].total.minorUnits })
    var discount: Int128 = 0
    switch self.discount {
    case nil: break
    case .percent(let percent): discount = percentOf(discountBase, percent)
    case .amount(let amount): discount = Int128(amount.minorUnits)
    }
    guard discount <= discountBase else {
      throw .discountTooLarge(discount: try money(discount), base: try money(discountBase))
    }
    let afterDiscount = subtotal - discount
    var service: Int128 = 0
    switch self.service {
    case nil: break
    case .percent(let percent): service = percentOf(afterDiscount, percent)
    case .amount(let amount): service = Int128(amount.minorUnits)
    }
    let taxBase = afterDiscount + service
    var tax: Int128 = 0
    switch self.tax {
    case nil: break
    case .percent(let percent):
      tax =
        taxIncluded
        ? rounding.divide(
          taxBase * Int128(percent.tenThousandths), by: 100 * 10_000 + Int128(percent.tenThousandths))
        : percentOf(taxBase, percent)
    case .amount(let amount): tax = Int128(amount.minorUnits)
    }
    if taxIncluded && tax > taxBase { throw .includedTaxTooLarge(tax: try money(tax), base: try money(taxBase)) }
    let beforeTip = taxBase + (taxIncluded ? 0 : tax)
    let tipBase: Int128
    switch tipOn {
    case .subtotal: tipBase = subtotal
    case .pretax: tipBase = taxIncluded ? taxBase - tax : taxBase
    case .total: tipBase = beforeTip
    }
    return ReceiptFigures(
      subtotal: try money(subtotal), discount: try money(discount), service: try money(service), tax: try money(tax),
      taxIncluded: taxIncluded, beforeTip: try money(beforeTip), tipBase: try money(tipBase))
  }

  /// The positions of the items the discount is on: every item, or those it names.
  ///
  /// - Throws: ``SplitError/unknownDiscountItem(_:)`` for a name no item has.
  public func discountedItems() throws(SplitError) -> [Int] {
    guard let names = discountItems else { return Array(items.indices) }
    // Items by name, and those chosen, looked up once each: linear in items and names.
    var byName: [String: [Int]] = [:]
    for index in items.indices { byName[items[index].name, default: []].append(index) }
    var chosen = [Bool](repeating: false, count: items.count)
    for name in names {
      guard let matching = byName[name] else { throw .unknownDiscountItem(name) }
      for index in matching { chosen[index] = true }
    }
    return items.indices.filter { chosen[$0] }
  }

  /// Checks the printed total. It matches the computed total before tip, the total with `tip`, or,
  /// when the `to-tip` policy rounded shares up by `roundUp` minor units, the total with the tip and
  /// that round-up: a receipt prints one of the first two, the slip of what the group paid the last.
  ///
  /// - Throws: ``SplitError/receiptTotalMismatch(printed:beforeTip:withTip:roundedUp:)``.
  public func checkReceiptTotal(_ figures: ReceiptFigures, tip: Money?, roundUp: Int64 = 0) throws(SplitError) {
    guard let printed = receiptTotal else { return }
    let currency = figures.beforeTip.currency
    let withTip = tip.map { Money(minorUnits: figures.beforeTip.minorUnits + $0.minorUnits, currency: currency) }
    let roundedUp = roundUp == 0 ? nil : withTip.map { Money(minorUnits: $0.minorUnits + roundUp, currency: currency) }
    guard printed != figures.beforeTip, printed != withTip, printed != roundedUp else { return }
    throw .receiptTotalMismatch(printed: printed, beforeTip: figures.beforeTip, withTip: withTip, roundedUp: roundedUp)
  }
}

/// How a person's share of an itemized bill is made up, to the minor unit.
///
/// The parts are the person's exact parts rounded so that they add up to the share less its
/// absorbed leftover units (largest fraction first, then in this order): items + discount (zero or
/// less) + service + tax + tip = share − absorbed. With tax included in the prices, ``tax`` is the
/// person's part of it, already in ``items``, and not in that sum.
public struct ShareBreakdown: Hashable, Sendable {
  /// Their part of the items they share, before discount.
  public var items: Money
  /// Their part of the discount, zero or negative.
  public var discount: Money
  /// Their part of the service charge.
  public var service: Money
  /// Their part of the tax.
  public var tax: Money
  /// Their part of the tip (with any unit `to-tip` rounded up).
  public var tip: Money
  /// The lines they share: the item's position and their portion of it.
  public var portions: [ItemPortion]
}

/// A person's portion of one line: `numerator / denominator` of it (reduced; 1/1 when alone).
public struct ItemPortion: Hashable, Sendable {
  /// The line's position in ``Receipt/items``.
  public var item: Int
  public var numerator: Int64
  public var denominator: Int64

  /// `1/3`, or `1` for the whole line.
  public var fraction: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }
}

/// An itemized bill's split: its receipt, its figures and each share's breakdown.
public struct ReceiptSplit: Hashable, Sendable {
  /// The receipt as given.
  public var receipt: Receipt
  /// Its bill-level figures.
  public var figures: ReceiptFigures
  /// One per share, in the same order.
  public var breakdowns: [ShareBreakdown]
}

/// An itemized bill's split behind one reference, so that it costs a split bill one word while
/// it is copied from stage to stage. Immutable: a new value is a new box.
final class ReceiptSplitBox: Hashable, Sendable {
  let value: ReceiptSplit

  init(_ value: ReceiptSplit) { self.value = value }

  static func == (lhs: ReceiptSplitBox, rhs: ReceiptSplitBox) -> Bool { lhs === rhs || lhs.value == rhs.value }

  func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
