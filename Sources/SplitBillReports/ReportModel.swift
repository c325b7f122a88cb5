import SplitBillCore
import SplitBillModel
import SplitBillText

/// A bill as the report shows it: the bill, how it split, and any advice behind its tip.
package struct ReportedBill: Sendable {
  /// The bill as read.
  package let bill: Bill
  /// Its tip, total and shares.
  package let split: BillSplit
  /// The advice its tip came from, for `tip: ai` bills.
  package let advice: TipAdvice?

  /// Creates a reported bill. (Its properties are constants: with variables, the optimizer built
  /// the value in a local and copied it out, a retain and release of every string a bill holds.)
  package init(bill: Bill, split: BillSplit, advice: TipAdvice? = nil) {
    self.bill = bill
    self.split = split
    self.advice = advice
  }
}

/// Everything known once every bill is read: the figures the summary sections print.
package struct ReportSummary: Sendable {
  /// Per person and currency.
  package var people: [PersonTotals]
  /// Per currency.
  package var totals: [CurrencyTotals]
  /// Per currency.
  package var settlements: [Settlement]
  /// Bills that could not be used, and file-level problems (with no id): the first
  /// ``invalidListed``; the rest are counted in ``invalidNotListed``.
  package var invalid: [InvalidBill]
  /// Invalid bills and payments past the first ``invalidListed``, counted, not kept (memory stays
  /// bounded however broken the input).
  package var invalidNotListed: (bills: Int, payments: Int) = (0, 0)
  /// How many invalid records a report lists.
  package static let invalidListed = 1_000
  /// The period's payments, in reading order.
  package var payments: [PaymentRecord]
  /// Bills left out by the date filter.
  package var filteredOut: Int
  /// The date range of the filter, if any (`2026-11-23..2026-11-29`).
  package var period: String?
  /// A timestamp, only with `--stamp`.
  package var stamp: String?
  /// With `--settle-in`: the rates, the converted balances and who absorbed the rounding's units
  /// (``settlements`` is then the one settlement in that currency).
  package var conversion: Conversion?
  /// Settlements paid in cash multiples (`--cash-rounding`, `cash_rounding:`): their increments
  /// and residues, by currency (``settlements`` holds their rounded transfers).
  package var cash: [CashSettlement] = []
  /// Spending by category of the period, per currency (the bills without a category last in
  /// each); empty when no bill had a category.
  package var categories: [CategoryTotals] = []
  /// With `--settle-in` and categories: the same in the settlement currency, each bill converted
  /// at its own rate.
  package var convertedCategories: [CategoryTotals]?
  /// Each person's balance week by week, per currency (only when an HTML report is written).
  package var weeklyBalances: [WeeklyBalances] = []
  /// What the report is headed with: the first file's `title:`, else the one input's name
  /// (`trip.yaml`); `nil` for several inputs without a title.
  package var title: String?
  /// The heading: ``title``, else `splitbill report`.
  package var heading: String { title.map { $0.isEmpty ? "splitbill report" : $0 } ?? "splitbill report" }

  /// How people are paid (their `people:` entries' details), by name: shown beside the transfers
  /// to them.
  package var payees: [String: PaymentDetails] = [:]
  /// With `--explain`: the bills and payments behind each balance.
  package var explanation: BalanceExplanation?

  /// `# REVIEW` marks `scan` left in the input on bills that did not add up (`scan.review`).
  package var marksToReview = 0

  /// `2 scanned receipts still to review (# REVIEW marks; check them against their photos)`, or
  /// `nil` when none is.
  package var toReviewNote: String? {
    guard marksToReview > 0 else { return nil }
    return
      "\(plural(marksToReview, "scanned receipt line")) still to review (# REVIEW marks): check against the photos, then delete the marks"
  }

  /// Creates a summary.
  package init(
    people: [PersonTotals], totals: [CurrencyTotals], settlements: [Settlement], invalid: [InvalidBill],
    payments: [PaymentRecord] = [], filteredOut: Int = 0, period: String? = nil, stamp: String? = nil
  ) {
    self.payments = payments
    self.people = people
    self.totals = totals
    self.settlements = settlements
    self.invalid = invalid
    self.filteredOut = filteredOut
    self.period = period
    self.stamp = stamp
  }

  /// All bills split, over every currency.
  package var billCount: Int { totals.reduce(0) { $0 + $1.bills } }

  /// Bills and payments before the period, carried into the opening balances.
  package var carriedCount: Int { totals.reduce(0) { $0 + $1.carried } }

  /// `2 invalid bills`, `1 invalid payment`, `2 invalid bills and 1 invalid payment`.
  package var invalidCounts: String {
    let payments = invalid.count { $0.kind == .payment } + invalidNotListed.payments
    let bills = invalid.count + invalidNotListed.bills + invalidNotListed.payments - payments
    let parts = [
      bills > 0 ? plural(bills, "invalid bill") : nil, payments > 0 ? plural(payments, "invalid payment") : nil,
    ].compactMap { $0 }
    return parts.joined(separator: " and ")
  }

  /// Invalid records in all, listed or not.
  package var invalidCount: Int { invalid.count + invalidNotListed.bills + invalidNotListed.payments }

  /// `and 12 more invalid records not listed (the first 1000 are)`, or `nil` when all are listed.
  package var invalidNotListedNote: String? {
    let count = invalidNotListed.bills + invalidNotListed.payments
    guard count > 0 else { return nil }
    return "and \(plural(count, "more invalid record")) not listed (the first \(Self.invalidListed) are)"
  }

  /// Whether anyone carried a balance into the period.
  package var hasOpeningBalances: Bool { people.contains { $0.opening != 0 } }

  /// What the balances and the settle-up are computed from, when some records or inputs were
  /// left out (invalid bills and payments, unreadable files): ``Coverage/note`` says so wherever
  /// a balance is shown, so a partial settle-up never looks final.
  package var coverage: Coverage {
    let leftOutPayments = invalid.count { $0.kind == .payment && $0.id != nil } + invalidNotListed.payments
    let leftOutBills = invalid.count { $0.kind == .bill && $0.id != nil } + invalidNotListed.bills
    return Coverage(
      bills: billCount, payments: payments.count, leftOutBills: leftOutBills, leftOutPayments: leftOutPayments,
      inputProblems: invalid.count { $0.id == nil })
  }
}

/// How much of the input a report's balances and settle-up were computed from.
package struct Coverage: Sendable, Equatable {
  /// Bills used.
  package var bills: Int
  /// Payments used.
  package var payments: Int
  /// Invalid bills left out.
  package var leftOutBills: Int
  /// Invalid payments left out.
  package var leftOutPayments: Int
  /// Problems with no record (a file unreadable or unparsable from some line on): how many bills
  /// they hid is unknown.
  package var inputProblems: Int

  package init(bills: Int, payments: Int, leftOutBills: Int, leftOutPayments: Int, inputProblems: Int) {
    self.bills = bills
    self.payments = payments
    self.leftOutBills = leftOutBills
    self.leftOutPayments = leftOutPayments
    self.inputProblems = inputProblems
  }

  /// Whether every record of the input was used.
  package var isComplete: Bool { leftOutBills == 0 && leftOutPayments == 0 && inputProblems == 0 }

  /// `from 8 of 9 bills: 1 left out, see Invalid bills`; `nil` when complete. `see` names where
  /// the left-out records are listed.
  package func note(see: String = "Invalid bills") -> String? {
    guard !isComplete else { return nil }
    var parts: [String] = []
    if leftOutBills > 0 || payments + leftOutPayments == 0 {
      parts.append("\(bills) of \(plural(bills + leftOutBills, "bill"))")
    } else {
      parts.append(plural(bills, "bill"))
    }
    if leftOutPayments > 0 { parts.append("\(payments) of \(plural(payments + leftOutPayments, "payment"))") }
    var text = "from " + parts.joined(separator: " and ")
    let leftOut = leftOutBills + leftOutPayments
    var why: [String] = []
    if leftOut > 0 { why.append("\(leftOut) left out") }
    if inputProblems > 0 {
      why.append(inputProblems == 1 ? "an input not read in full" : "\(inputProblems) inputs not read in full")
    }
    text += ": " + why.joined(separator: ", ") + ", see " + see
    return text
  }

  /// What the reconciliation covers, before `shares add up…`: `every bill's`, or, when some
  /// records were left out, `for the 8 bills used (1 left out), every bill's`.
  package var reconciledScope: String {
    guard !isComplete else { return "every bill's" }
    let leftOut = leftOutBills + leftOutPayments
    let why = leftOut > 0 ? "\(leftOut) left out" : "some input not read"
    return "for the \(plural(bills, "bill")) used (\(why)), every bill's"
  }
}

/// Writes one report format. Bills arrive one at a time in processing order; the summary last.
package protocol ReportWriter {
  /// One bill.
  mutating func write(_ bill: ReportedBill)
  /// A payment of the period, as it comes: the journals write it in place; the other writers
  /// show the summary's payments.
  mutating func write(_ payment: PaymentRecord)
  /// A bill from before the period, for writers that carry balances themselves (the journals'
  /// opening transaction); the others show the summary's opening balances.
  mutating func carry(_ bill: ReportedBill)
  /// A payment from before the period, likewise.
  mutating func carry(_ payment: PaymentRecord)
  /// The summary, after the last bill; the writer finishes its output.
  mutating func finish(_ summary: ReportSummary)
}

extension ReportWriter {
  package mutating func write(_ payment: PaymentRecord) {}
  package mutating func carry(_ bill: ReportedBill) {}
  package mutating func carry(_ payment: PaymentRecord) {}
}

/// The report formats.
public enum ReportFormat: String, CaseIterable, Sendable {
  case text, json, csv, markdown, html, hledger, ledger, beancount
  /// One message a person, to paste into a chat: who pays whom in plain words, and their transfers.
  case messages

  /// The format a file name implies: `.txt .json .csv .md .html .hledger .journal .ledger .beancount`.
  public init?(fileName: String) {
    let lowered = fileName.lowercased()
    let table: [(String, ReportFormat)] = [
      (".txt", .text), (".json", .json), (".csv", .csv), (".md", .markdown), (".markdown", .markdown),
      (".html", .html), (".htm", .html), (".hledger", .hledger), (".journal", .hledger), (".ledger", .ledger),
      (".beancount", .beancount),
    ]
    guard let match = table.first(where: { lowered.hasSuffix($0.0) }) else { return nil }
    self = match.1
  }

  /// Whether the format is a plain-text-accounting journal (needs a date on every bill).
  public var isJournal: Bool { self == .hledger || self == .ledger || self == .beancount }
}

/// The writer of each report format.
package enum ReportWriters {
  /// A writer of `format` into `sink`.
  package static func make(
    _ format: ReportFormat, sink: some OutputSink, color: Bool, journal: JournalOptions, period: String? = nil
  ) -> any ReportWriter {
    switch format {
    case .text: return TextReportWriter(sink: sink, color: color, period: period)
    case .json: return JSONReportWriter(sink: sink)
    case .csv: return CSVReportWriter(sink: sink)
    case .markdown: return MarkdownReportWriter(sink: sink)
    case .html: return HTMLReportWriter(sink: sink)
    case .hledger, .ledger, .beancount: return JournalWriter(sink: sink, flavor: format, options: journal)
    case .messages: return MessagesReportWriter(sink: sink)
    }
  }
}

extension BillSplit {
  /// Whether several people paid: then ``BillSplit/payer`` is `nil` and ``BillSplit/payers`` says
  /// who paid what.
  package var hasSeveralPayers: Bool { payers.count > 1 }

  /// Who paid, as reports print it: the payer's name, or `Ana 60.00, Ben 50.59` when several
  /// paid; `nil` when nobody did.
  package var paidByText: String? {
    guard hasSeveralPayers else { return payer }
    return payers.map { "\($0.person) \($0.amount.decimalString)" }.joined(separator: ", ")
  }

  /// What every report says on a bill a person paid whose diners are a head count: nobody named
  /// ate, so the bill is in no one's balance and its payer is not paid back (`check` warns of it,
  /// `paid_by.head-count`); `nil` for every other bill.
  package var headCountPayerNote: String? {
    guard anonymousDiners, isPaid else { return nil }
    let who = hasSeveralPayers ? "its payers are" : "\(payer ?? "its payer") is"
    return "a head count: in no one's balance, so \(who) not paid back (name the diners to make it count)"
  }

  /// Who paid in the input files' syntax (a CSV cell): `Ana`, or `Ana:60.00;Ben:50.59`.
  package var paidByCell: String? {
    guard hasSeveralPayers else { return payer }
    return payers.map { "\($0.person):\($0.amount.decimalString)" }.joined(separator: ";")
  }
}
