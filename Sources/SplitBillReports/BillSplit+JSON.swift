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
          shares.map { share in
            .object([
              ("person", .string(share.person)),
              ("weight", .number(share.weight.description)),
              ("amount", .money(share.amount)),
              ("absorbed", .int(share.absorbed)),
            ])
          })
      ),
    ]
  }
}
