import SplitBillCore
import SplitBillJSON

extension TipAdvice {
  /// The `advice` object of reports and `suggest --json`: percent (decimal string), reason,
  /// advisor, model, fallback, fallback_reason, clamped.
  package var jsonMembers: [(String, JSON)] {
    [
      ("percent", .string(percent.decimalString)), ("reason", .string(reason)), ("advisor", .string(advisor)),
      ("model", .optional(model)), ("fallback", .bool(fallback)), ("fallback_reason", .optional(fallbackReason)),
      ("clamped", .bool(clamped)),
    ]
  }
}

extension BillSplit {
  /// The bill object `calc --json` prints and every report reuses:
  /// `currency, amount, tip_percent, tip, total, leftover_policy, leftover_to_tip, shares`.
  ///
  /// Money is a decimal string in the currency's digits (`"33.34"`), `tip_percent` a decimal
  /// string without a `%` (`"17.125"`, `null` for a fixed tip on a zero amount), `weight` a JSON
  /// number and `absorbed` an integer count of minor units.
  package var jsonMembers: [(String, JSON)] {
    [
      ("currency", .string(currency.code)),
      ("amount", .money(amount)),
      ("tip_percent", .optional(tipPercent?.decimalString)),
      ("tip", .money(tip)),
      ("total", .money(total)),
      ("leftover_policy", .string(leftoverPolicy.rawValue)),
      ("leftover_to_tip", .money(leftoverToTip)),
      (
        "shares",
        .array(
          shares.enumerated().map { index, share in
            var members: [(String, JSON)] = [
              ("person", .string(share.person)),
              ("weight", .number(share.weight.description)),
              ("amount", .money(share.amount)),
              ("absorbed", .int(share.absorbed)),
            ]
            if let receipt { members.append(("breakdown", receipt.breakdownJSON(index))) }
            return .object(members)
          })
      ),
    ] + (receipt.map { [("items", $0.itemsJSON), ("receipt", $0.figuresJSON)] } ?? [])
  }
}

extension ReceiptSplit {
  /// The bill's `items` array: each line's name, price, quantity, total and who shares it
  /// (`for`: `null` for every diner, else people with their weights).
  package var itemsJSON: JSON {
    .array(
      receipt.items.map { item in
        .object([
          ("name", .string(item.name)),
          ("price", .money(item.price)),
          ("quantity", .number(item.quantity.description)),
          ("total", .money(item.total)),
          (
            "for",
            item.sharers.map { sharers in
              .array(
                sharers.map { .object([("person", .string($0.name)), ("weight", .number($0.weight.description))]) })
            } ?? .null
          ),
        ])
      })
  }

  /// The bill's `receipt` object: subtotal, discount (with the items it is on), service, tax,
  /// tax_included, tip_on, tip_base and receipt_total, money as decimal strings.
  package var figuresJSON: JSON {
    .object([
      ("subtotal", .money(figures.subtotal)),
      ("discount", .money(figures.discount)),
      (
        "discount_rate",
        .optional(receipt.discount?.rate?.decimalString)
      ),
      ("discount_items", receipt.discountItems.map { .array($0.map(JSON.string)) } ?? .null),
      ("service", .money(figures.service)),
      (
        "service_rate",
        .optional(receipt.service?.rate?.decimalString)
      ),
      ("tax", .money(figures.tax)),
      ("tax_rate", .optional(receipt.tax?.rate?.decimalString)),
      ("tax_included", .bool(figures.taxIncluded)),
      ("before_tip", .money(figures.beforeTip)),
      ("tip_on", .string(receipt.tipOn.rawValue)),
      ("tip_base", .money(figures.tipBase)),
      ("receipt_total", receipt.receiptTotal.map(JSON.money) ?? .null),
    ])
  }

  /// A share's `breakdown`: its items, discount (zero or negative), service, tax and tip parts,
  /// which with its absorbed units add up to its amount (tax not, when included in the prices),
  /// and its `portions` of the lines it shares.
  package func breakdownJSON(_ index: Int) -> JSON {
    let breakdown = breakdowns[index]
    return .object([
      ("items", .money(breakdown.items)),
      ("discount", .money(breakdown.discount)),
      ("service", .money(breakdown.service)),
      ("tax", .money(breakdown.tax)),
      ("tip", .money(breakdown.tip)),
      (
        "portions",
        .array(
          breakdown.portions.map {
            .object([("item", .string(receipt.items[$0.item].name)), ("portion", .string($0.fraction))])
          })
      ),
    ])
  }
}
