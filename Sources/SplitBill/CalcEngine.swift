import Foundation
import SplitBillInput
import SplitBillModel
import SplitBillReports
import SplitBillText

/// One bill as `calc` takes it: the values as typed (text, read exactly), the choices typed.
public struct CalcRequest: Sendable {
  /// The amount before tip (`84.50`); with ``items``, it may be left out (the receipt gives it).
  public var amount: String?
  /// A tip percentage (`18`, `12.5%`); or ``tipAmount``, not both.
  public var tip: String?
  /// A fixed tip (`5.00`).
  public var tipAmount: String?
  /// A number of anonymous people (`3`); or ``people``.
  public var split: String?
  /// Named people, with weights (`Ana=2,Ben,Chloé`).
  public var people: String?
  /// Who paid.
  public var payer: String?
  /// An ISO 4217 code; USD when `nil`.
  public var currency: String?
  /// Who absorbs the leftover units; balanced when `nil`.
  public var leftover: LeftoverPolicy?
  /// How the tip rounds; half-up when `nil`.
  public var rounding: RoundingMode?
  /// Amounts written `84,50`.
  public var decimalComma: Bool
  /// Empty names in ``people`` are passed over (`Ana, , Ben`, `Ana,`), as while a row is being typed.
  public var skipsEmptyNames = false
  /// A receipt's lines: `NAME=PRICE[xQTY][@NAMES]` (`Wine=9.00x3@Ana;Ben`).
  public var items: [String]
  /// A receipt's discount, service and tax: a percentage (`10%`) or an amount.
  public var discount: String?
  /// The items the discount is on (`Wine;Pizza`), else all.
  public var discountItems: String?
  public var service: String?
  public var tax: String?
  /// The prices include the tax: it is reported, not added.
  public var taxIncluded: Bool
  /// What a percentage tip is worked out on.
  public var tipOn: TipBase?
  /// The total the receipt prints, checked against the computed one.
  public var receiptTotal: String?

  /// A request with nothing given.
  public init() {
    decimalComma = false
    items = []
    taxIncluded = false
  }
}

/// Which value of a ``CalcRequest`` a ``CalcFailure`` is about.
public enum CalcField: Sendable, Hashable {
  case amount, tip, tipAmount, people, split, currency, items
}

/// Why a bill could not be worked out: one message naming the value (``text``, its options worded
/// by the reader: `tipAmount` to a program, `--tip-amount` on the command line), and which value it
/// is (`field`) with what is wrong with it (`reason`, without the name: what a form shows beside
/// the field).
public struct CalcFailure: Error, Sendable, CustomStringConvertible {
  /// The message, its options named by whoever shows it (``EngineText/worded(_:)``).
  public var text: EngineText
  /// The value at fault; `nil` when it is the bill as a whole (its diners and weights, as split).
  public var field: CalcField?
  /// The message without the option's name (its own options, if any, named by the reader).
  public var reasonText: EngineText
  /// The message, options named as a program sees them.
  public var message: String { text.description }
  /// ``reasonText``, options named as a program sees them.
  public var reason: String { reasonText.description }
  public var description: String { message }

  init(_ text: EngineText, field: CalcField? = nil, reason: EngineText? = nil) {
    self.text = text
    self.field = field
    self.reasonText = reason ?? text
  }
}

/// `calc`: one bill worked out, the original app's screen as a function.
///
/// ```swift
/// var request = CalcRequest()
/// request.amount = "84.50"; request.tip = "18"; request.people = "Ana,Ben,Chloé"
/// let split = try Calculator.split(request)     // tip, total, shares, who absorbed the leftover
/// print(Calculator.text(of: split))
/// ```
public enum Calculator {
  /// The bill `request` describes and its split.
  public static func split(_ request: CalcRequest) throws(CalcFailure) -> BillSplit {
    let terms = try terms(request)
    var ledger = LeftoverLedger()
    do throws(SplitError) {
      return try terms.split(ledger: &ledger)
    } catch {
      throw CalcFailure(EngineText(verbatim: error.description))
    }
  }

  /// The split as `calc` prints it.
  public static func text(of split: BillSplit) -> String { split.text }

  /// The split as `calc --json` prints it (one object, no line break at the end).
  public static func json(of split: BillSplit) -> String { split.jsonText(level: 0) }

  /// The terms of the bill `request` describes; every mistake names its option.
  public static func terms(_ request: CalcRequest) throws(CalcFailure) -> BillTerms {
    let decimalComma = request.decimalComma
    let currency =
      try parse(.currency, .currency, request.currency) { text throws(MoneyError) in try Currency(code: text) }
      ?? .usd
    let receipt = try receipt(request, currency: currency)
    guard receipt != nil || request.amount != nil else {
      throw CalcFailure(
        "missing the bill \(.amount), for example: splitbill calc 84.50 \(.tip) 18 \(.split) 3", field: .amount,
        reason: "type the bill amount")
    }
    var amount: Money
    let rounding = request.rounding ?? .halfUp
    let figures: ReceiptFigures?
    do {
      figures = try receipt?.figures(currency: currency, rounding: rounding)
    } catch {
      throw CalcFailure(EngineText(verbatim: error.description), field: .items)
    }
    guard let amountText = request.amount else {
      guard let figures else { throw CalcFailure("missing the bill \(.amount)", field: .amount) }
      return try finish(figures.beforeTip, receipt: receipt, currency: currency, rounding: rounding, request)
    }
    // `84,50`: a decimal comma is the likelier reading than a thousands separator; say so first.
    if !decimalComma, let comma = amountText.firstIndex(of: ","), !amountText.contains("."),
      amountText[amountText.index(after: comma)...].count <= 2,
      amountText.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ",") })
    {
      throw CalcFailure(
        "decimal comma? amount '\(amountText)': use \(.decimalComma) to read it so, or write \(amountText.replacingOccurrences(of: ",", with: "."))",
        field: .amount)
    }
    do {
      amount = try Money(parsing: amountText, currency: currency, decimalComma: decimalComma)
    } catch {
      throw CalcFailure(EngineText(verbatim: error.message(field: "amount")), field: .amount)
    }
    if let figures {
      guard amount == figures.beforeTip else {
        throw CalcFailure(
          EngineText(
            verbatim: SplitError.amountDoesNotMatchItems(amount: amount, computed: figures.beforeTip).description),
          field: .amount)
      }
      amount = figures.beforeTip
    }
    return try finish(amount, receipt: receipt, currency: currency, rounding: rounding, request)
  }

  /// The diners ``CalcRequest/people`` or ``CalcRequest/split`` name (one anonymous person when
  /// neither is given).
  public static func diners(people: String?, split: String?, decimalComma: Bool) throws(CalcFailure) -> Diners {
    try diners(people: people, split: split, decimalComma: decimalComma, skippingEmpty: false)
  }

  /// The diners, empty names passed over with `skippingEmpty`.
  static func diners(people: String?, split: String?, decimalComma: Bool, skippingEmpty: Bool) throws(CalcFailure)
    -> Diners
  {
    if split != nil && people != nil {
      throw CalcFailure(
        "give either \(.split, placeholder: "N") or \(.people, placeholder: "NAMES"), not both", field: .people)
    }
    if let people = try parse(
      .people, .people, people,
      { text throws(DinerList.Problem) in
        try DinerList.diners(in: text, decimalComma: decimalComma, skippingEmpty: skippingEmpty)
      }
    ) {
      return .named(people)
    }
    let count = try parse(.split, .split, split) { text throws(CalcFailure) in
      guard let count = Int(text), count > 0 else {
        throw CalcFailure("'\(text)' is not a number of people: expected a whole number of at least 1")
      }
      return count
    }
    return .anonymous(count: count ?? 1)
  }

  /// `transform(text)` when `text` is given; a mistake is prefixed with the option's name and
  /// is about `field`.
  private static func parse<T, Failure: Error>(
    _ option: EngineOption, _ field: CalcField, _ text: String?, _ transform: (String) throws(Failure) -> T
  ) throws(CalcFailure) -> T? {
    guard let text else { return nil }
    do {
      return try transform(text)
    } catch let failure as CalcFailure {
      throw CalcFailure(failure.text.prefixed("\(option): "), field: field, reason: failure.reasonText)
    } catch {
      throw CalcFailure("\(option): \(String(describing: error))", field: field, reason: "\(String(describing: error))")
    }
  }

  /// The terms for `amount`, with the tip, diners and policies the request gives.
  private static func finish(
    _ amount: Money, receipt: Receipt?, currency: Currency, rounding: RoundingMode, _ request: CalcRequest
  ) throws(CalcFailure) -> BillTerms {
    let decimalComma = request.decimalComma
    let percent = try parse(.tip, .tip, request.tip) { text throws(CalcFailure) in
      let tip: DefaultTip
      do throws(PercentError) {
        tip = try TipText.parsing(text, decimalComma: decimalComma)
      } catch {
        throw CalcFailure(EngineText(verbatim: "\(error)"))
      }
      switch tip {
      case .percent(let percent): return percent
      case .advisor:
        throw CalcFailure(
          "'ai' tips are for bill files; give a percentage such as 15",
          reason: "type a percentage here; advice has its own key")
      }
    }
    let fixed = try parse(.tipAmount, .tipAmount, request.tipAmount) { text throws(CalcFailure) in
      do throws(MoneyError) {
        return try Money(parsing: text, currency: currency, decimalComma: decimalComma)
      } catch {
        throw CalcFailure(EngineText(verbatim: error.message(field: "tip amount")))
      }
    }
    let choice: TipChoice?
    do {
      choice = try TipChoice.resolve(percent: percent, fixed: fixed, askAdvisor: false)
    } catch {
      throw CalcFailure("give either \(.tip) or \(.tipAmount), not both", field: .tip)
    }
    guard let choice else {
      throw CalcFailure(
        "no tip given: add \(.tip, placeholder: "PERCENT") (for example \(.tip) 15) or \(.tipAmount, placeholder: "AMOUNT")",
        field: .tip,
        reason: "choose a preset or type a custom tip")
    }
    let diners = try diners(
      people: request.people, split: request.split, decimalComma: decimalComma, skippingEmpty: request.skipsEmptyNames)
    return BillTerms(
      amount: amount, tip: choice, diners: diners, payer: request.payer, leftover: request.leftover ?? .balanced,
      rounding: rounding, receipt: receipt)
  }

  /// The receipt ``CalcRequest/items`` and the adjustments describe; `nil` without items.
  private static func receipt(_ request: CalcRequest, currency: Currency) throws(CalcFailure) -> Receipt? {
    let decimalComma = request.decimalComma
    guard !request.items.isEmpty else {
      let given: [(EngineOption, Bool)] = [
        (.discount, request.discount != nil), (.discountItems, request.discountItems != nil),
        (.service, request.service != nil), (.tax, request.tax != nil), (.tipOn, request.tipOn != nil),
        (.receiptTotal, request.receiptTotal != nil), (.taxIncluded, request.taxIncluded),
      ]
      if let (option, _) = given.first(where: \.1) {
        throw CalcFailure("\(option) is for itemized bills: add their lines with \(.items, placeholder: "NAME=PRICE")")
      }
      return nil
    }
    func money(_ text: Substring, _ what: String) throws(CalcFailure) -> Money {
      do {
        return try Money(
          parsing: text.trimmingCharacters(in: .whitespaces), currency: currency, decimalComma: decimalComma)
      } catch {
        throw CalcFailure(EngineText(verbatim: error.message(field: what)))
      }
    }
    var items: [ReceiptItem] = []
    for line in request.items {
      var body = Substring(line)
      var sharers: [Diner]?
      if let at = body.lastIndex(of: "@") {
        do {
          sharers = try DinerList.diners(in: String(body[body.index(after: at)...]), decimalComma: decimalComma)
        } catch {
          throw CalcFailure("\(.items) '\(line)': \(String(describing: error))")
        }
        body = body[..<at]
      }
      guard let equals = body.lastIndex(of: "="), !body[..<equals].trimmingCharacters(in: .whitespaces).isEmpty else {
        throw CalcFailure("\(.items) '\(line)': expected NAME=PRICE, such as 'Wine=42.00@Ana;Ben' or 'Coffee=3.50x2'")
      }
      let name = body[..<equals].trimmingCharacters(in: .whitespaces)
      var priceText = body[body.index(after: equals)...]
      var quantity = Weight.one
      if let times = priceText.lastIndex(where: { $0 == "x" || $0 == "*" }) {
        do throws(SplitError) {
          quantity = try Weight(parsing: priceText[priceText.index(after: times)...], decimalComma: decimalComma)
        } catch {
          throw CalcFailure("\(.items) '\(line)': quantity: \(error.description)")
        }
        priceText = priceText[..<times]
      }
      let price = try money(priceText, "price")
      do throws(SplitError) {
        items.append(try ReceiptItem(name: name, price: price, quantity: quantity, sharers: sharers))
      } catch {
        throw CalcFailure("\(.items) '\(line)': \(error.description)")
      }
    }
    func adjustment(_ option: EngineOption, _ text: String?) throws(CalcFailure) -> Adjustment? {
      guard let text = text?.trimmingCharacters(in: .whitespaces) else { return nil }
      do throws(AdjustmentError) {
        return try Adjustment(parsing: text, currency: currency, decimalComma: decimalComma)
      } catch {
        switch error {
        case .percent: throw CalcFailure("\(option) '\(text)' is not a percentage from 0 to 100 such as 10%")
        case .amount(let error): throw CalcFailure(.naming(option) { error.message(field: $0) })
        }
      }
    }
    let discountItems = request.discountItems.map { text in
      text.split(whereSeparator: { $0 == ";" || $0 == "," }).map { $0.trimmingCharacters(in: .whitespaces) }
    }
    return Receipt(
      items: items, discount: try adjustment(.discount, request.discount), discountItems: discountItems,
      service: try adjustment(.service, request.service), tax: try adjustment(.tax, request.tax),
      taxIncluded: request.taxIncluded, tipOn: request.tipOn ?? .pretax,
      receiptTotal: try request.receiptTotal.map { text throws(CalcFailure) in
        try money(Substring(text), "receipt total")
      })
  }
}
