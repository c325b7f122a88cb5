import SplitBill

/// The engine's options as the command line names them: its messages name options as a program
/// sees them (`tipAmount`); the command line shows its flags (`--tip-amount`).
extension EngineOption {
  /// The flag (or operand) that sets the option.
  var flag: String {
    switch self {
    case .amount: "AMOUNT"
    case .currency: "--currency"
    case .tip: "--tip"
    case .tipAmount: "--tip-amount"
    case .split: "--split"
    case .people: "--people"
    case .decimalComma: "--decimal-comma"
    case .items: "--item"
    case .discount: "--discount"
    case .discountItems: "--discount-items"
    case .service: "--service"
    case .tax: "--tax"
    case .taxIncluded: "--tax-included"
    case .tipOn: "--tip-on"
    case .receiptTotal: "--receipt-total"
    case .rateFiles: "--rates"
    case .settleIn: "--settle-in"
    case .cashRounding: "--cash-rounding"
    case .booksOf: "--books-of"
    case .journalLayout: "--journal-layout"
    case .recordSettlementsTo: "--record-settlements"
    case .allowEmpty: "--allow-empty"
    case .outputs: "-o"
    case .plan: "--plan"
    case .keepOut: "--keep-out"
    }
  }
}

extension EngineText {
  /// The message as the command line says it: options as flags.
  var commandLine: String { worded(\.flag) }
}
