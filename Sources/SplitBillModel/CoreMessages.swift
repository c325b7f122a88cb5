import SplitBillCore
import SplitBillText

// The words of Core's errors. Core says what went wrong as values (a case and what it carries);
// what a person reads is made here, where every message of the project is.

extension MoneyError: CustomStringConvertible {
  /// The message, naming the value as `field` ("amount", "tip_amount").
  public func message(field: String) -> String {
    switch self {
    case .unknownCurrency(let code):
      return "unknown currency '\(EchoedText.quote(code))': expected an ISO 4217 code such as EUR, USD or JPY"
    case .invalidAmount(let text, let reason, let currency):
      let digits = currency.exponent == 0 ? "no decimals" : "at most \(currency.exponent) decimals"
      switch reason {
      case .empty: return "\(field) is empty: expected an amount such as \(MoneyError.example(currency))"
      case .exponentNotation:
        return "\(field) '\(EchoedText.quote(text))' uses exponent notation: write the digits out, with \(digits)"
      case .thousandsSeparator:
        return "\(field) '\(EchoedText.quote(text))' has a thousands separator: write \(MoneyError.example(currency)), "
          + "with no grouping (for '84,50' style input use --decimal-comma)"
      case .negative: return "\(field) '\(EchoedText.quote(text))' is negative: expected zero or more"
      case .notANumber:
        return "\(field) '\(EchoedText.quote(text))' is not a number: expected digits with \(digits), "
          + "such as \(MoneyError.example(currency))"
      case .tooManyDecimals(let count):
        let has = count == 1 ? "1 decimal" : "\(count) decimals"
        return currency.exponent == 0
          ? "\(field) '\(EchoedText.quote(text))' has \(has) but \(currency.code) has none"
          : "\(field) '\(EchoedText.quote(text))' has \(has) but \(currency.code) has \(currency.exponent)"
      case .tooLarge:
        let limit = Money(minorUnits: Money.maximumMinorUnits, currency: currency)
        return "\(field) '\(EchoedText.quote(text))' is too large: at most \(limit.decimalString) \(currency.code)"
      }
    case .currencyMismatch(let left, let right):
      return "cannot combine \(left.code) and \(right.code) amounts"
    case .overflow:
      return "a sum of amounts is too large to compute exactly"
    }
  }

  public var description: String { message(field: "amount") }

  package static func example(_ currency: Currency) -> String {
    Money(minorUnits: 1234 * currency.minorUnitsPerMajor + currency.minorUnitsPerMajor / 2, currency: currency)
      .decimalString
  }
}

extension PercentError: CustomStringConvertible {
  /// The message, naming the value as `field` ("tip").
  public func message(field: String) -> String {
    switch problem {
    case .notANumber:
      return
        "\(field) '\(EchoedText.quote(text))' is not a percentage: expected a number from 0 to 100 such as 15, 15% or 12.5"
    case .tooManyDecimals:
      return "\(field) '\(EchoedText.quote(text))' has too many decimals: a percentage has at most 4"
    case .outOfRange: return "\(field) '\(EchoedText.quote(text))' is out of range: expected a percentage from 0 to 100"
    }
  }

  public var description: String { message(field: "tip") }
}

extension SplitError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .noDiners: return "no diners: a bill needs at least one person to split it"
    case .tooManyDiners(let count): return "\(count) diners is too many: at most \(Diners.maximumCount)"
    case .nonPositiveWeight(let text): return "weight '\(EchoedText.quote(text))' must be greater than zero"
    case .invalidWeight(let text):
      return "weight '\(EchoedText.quote(text))' is not a number: expected a positive number such as 1, 2 or 1.5"
    case .weightTooLarge(let text): return "weight '\(EchoedText.quote(text))' is too large: at most 1000000"
    case .duplicateDiner(let name): return "diner '\(EchoedText.quote(name))' is listed twice"
    case .conflictingTips:
      return "more than one tip given: use exactly one of a percentage, a fixed tip amount, or ai"
    case .payerPolicyWithoutPayer: return "leftover policy 'payer' needs a payer (paid_by)"
    case .payerNotDiner(let payer):
      return "leftover policy 'payer' needs the payer among the diners, but '\(EchoedText.quote(payer))' is not one"
    case .payerPolicyWithSeveralPayers:
      return "leftover policy 'payer' needs one payer, but several paid this bill"
    case .payersDoNotAddUp(let paid, let total):
      return "paid_by adds up to \(paid) but the bill's total is \(total) (tip included): "
        + SplitError.difference(paid.minorUnits - total.minorUnits, total.currency)
    case .sharesDoNotAddUp(let parts, let amount):
      return "shares add up to \(parts) but the amount is \(amount): "
        + SplitError.difference(parts.minorUnits - amount.minorUnits, amount.currency)
    case .tipNotResolved: return "the tip is 'ai' and no advisor has answered for this bill"
    case .tipCurrencyMismatch(let bill, let tip):
      return "tip amount is in \(tip.code) but the bill is in \(bill.code)"
    case .totalTooLarge: return "amount plus tip is too large to compute exactly"
    case .inexactLineTotal(let item, let price, let quantity):
      return "item '\(EchoedText.quote(item))': \(quantity) × \(price) is not a whole number of "
        + "\(price.currency.code) minor units: give the line total as the price with quantity 1"
    case .itemSharerNotDiner(let item, let person):
      return "item '\(EchoedText.quote(item))' is for '\(EchoedText.quote(person))', who is not among the bill's diners"
    case .noItemSharers(let item):
      return "item '\(EchoedText.quote(item))' is for nobody: name who shares it, or leave 'for' out for everyone"
    case .itemsNeedNamedDiners(let item):
      return
        "item '\(EchoedText.quote(item))' names who shares it, but the bill's diners are a head count: list them by name"
    case .itemsWithShares: return "a bill has either items or exact shares, not both"
    case .noItems: return "items is empty: list at least one item, or give an amount instead"
    case .unknownDiscountItem(let name):
      return "discount_items names '\(EchoedText.quote(name))', which is not an item of this bill"
    case .discountTooLarge(let discount, let base):
      return "discount \(discount) is more than the \(base) it is on"
    case .includedTaxTooLarge(let tax, let base):
      return "included tax \(tax) is more than the \(base) of the prices it is in"
    case .amountDoesNotMatchItems(let amount, let computed):
      return "amount is \(amount) but the items come to \(computed) before tip: "
        + SplitError.difference(amount.minorUnits - computed.minorUnits, amount.currency)
    case .receiptTotalMismatch(let printed, let beforeTip, let withTip, let roundedUp):
      // Every figure it could have been, the difference told against the nearest.
      var figures = [(beforeTip, "before tip")]
      if let withTip, withTip != beforeTip { figures.append((withTip, "with the tip")) }
      if let roundedUp { figures.append((roundedUp, "with the tip and the to-tip round-up")) }
      let nearest =
        figures.min {
          (printed.minorUnits - $0.0.minorUnits).magnitude < (printed.minorUnits - $1.0.minorUnits).magnitude
        }
        ?? figures[0]
      let units = printed.minorUnits - nearest.0.minorUnits
      return "receipt_total is \(printed) but the items come to "
        + figures.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ": "
        + SplitError.difference(units, printed.currency) + (units < 0 ? " of" : "") + " the total \(nearest.1)"
    case .receiptTooComplex:
      return "the receipt's fractions are too large to compute exactly: use weights with fewer decimals"
    }
  }

  /// `0.59 EUR short`, `1.00 EUR over`.
  package static func difference(_ units: Int64, _ currency: Currency) -> String {
    "\(Money(minorUnits: units.magnitude > Int64.max.magnitude ? .max : Int64(units.magnitude), currency: currency)) \(units < 0 ? "short" : "over")"
  }
}

extension ReconciliationFailure: CustomStringConvertible {
  public var description: String { "\(currency?.code ?? "all"): \(identity) does not hold" }
}

extension ReconciliationFailure.Identity: CustomStringConvertible {
  public var description: String {
    switch self {
    case .sumsFit: "every sum fits in 64 bits"
    case .amountsAndTipsMakeTotals: "Σ amounts + Σ tips = Σ totals"
    case .sharesMakeTotals: "Σ shares = Σ totals"
    case .consumedMakesNamedTotals: "Σ consumed = Σ totals of named bills"
    case .paidByPeopleMakesPaid: "Σ paid by people = Σ paid"
    case .paidMakesPaidBillTotals: "Σ paid = Σ totals of the bills somebody paid"
    case .balancesCancel: "Σ balances = 0"
    case .sentMakesPayments: "Σ sent = Σ payments"
    case .receivedMakesPayments: "Σ received = Σ payments"
    case .openingBalancesCancel: "Σ opening balances = 0"
    case .closingBalancesCancel: "Σ closing balances = 0"
    case .absorbedMakesLeftoverUnits: "Σ absorbed = leftover units"
    case .settlementClearsBalances: "the settlement brings every balance to zero"
    case .convertedSumsFit: "every converted sum fits"
    case .convertedBalancesCancel: "Σ converted balances = 0"
    case .cashResiduesCancel: "Σ cash residues = 0"
    case .cashResiduesBelowIncrement: "every cash residue is smaller than the increment"
    case .transfersAreCashMultiples: "every transfer is a multiple of the cash increment"
    case .transfersLeaveResidues: "the transfers leave each person their residue"
    }
  }
}
