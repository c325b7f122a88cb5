import SplitBillAdvisor
import SplitBillCore
import SplitBillInput
import SplitBillModel
import SplitBillReports

/// Splits each bill in reading order (the leftover ledger goes from bill to bill), after the
/// date filter and tip advice.
struct BillSplitter {
  /// What became of one bill.
  enum Prepared {
    /// Invalid as read.
    case invalid(InvalidBill)
    /// Valid as read but not reportable here (no date under a filter or in a journal, a split that
    /// failed, no rate with `--settle-in`).
    case refused(InvalidBill)
    /// After the period (left out and counted).
    case filteredOut
    /// Split, ready to book and write.
    case split(ReportedBill)
    /// Before the period: split (the leftover state goes through it), carried into the opening
    /// balances, not shown.
    case carried(ReportedBill)
    /// A payment in the period.
    case payment(PaymentRecord)
    /// A payment before the period, carried into the opening balances.
    case carriedPayment(PaymentRecord)
  }

  let filter: DateFilter?
  let needsDates: Bool
  let answers: [String: TipAdvice]
  let commandLineTip: Percent?
  /// With `--settle-in`: the currency, and the `--rates` tables.
  let settleIn: Currency?
  let rateTables: [RateTable]
  let advisor = OfflineAdvisor()
  var leftovers = LeftoverLedger()
  /// With `--settle-in`: every balance change booked at the rate it converts at.
  var conversion: ConversionLedger?
  /// With `--settle-in`: the period's spending by category, converted bill by bill.
  var convertedCategories: ConvertedCategoryLedger?

  /// By currency, the magnitudes of every booked record's total (a bill's total, a payment's
  /// amount) added up: no sum the ledgers keep (totals, shares, paid, balances) is larger, so
  /// while this fits in 64 bits none of them overflows; a record that would pass it is refused,
  /// located, instead of the run failing at the end. With `--settle-in`, the same for the
  /// records' converted amounts (rounded up).
  /// (A run has a few currencies: a list searched in order costs less than hashing, per record.)
  private var volumes: [(currency: Currency, units: Int64)] = []
  private var convertedVolume: Int64 = 0

  /// Days a rate may be older than the record it converts before a warning.
  let maxRateAge: Int
  /// By currency: the record converted at the oldest rate past ``maxRateAge``, and on how many
  /// record days (a day's records look their rate up once) one was.
  private var stale: [Currency: (oldest: StaleRate, recordDays: Int)] = [:]

  private struct StaleRate {
    var days: Int
    var id: String
    var kind: RecordKind
    var recordDate: CalendarDate
    var rateDate: CalendarDate
    var origin: String
    var source: SourceLocation
  }

  init(
    filter: DateFilter?, needsDates: Bool, answers: [String: TipAdvice], commandLineTip: Percent?,
    settleIn: Currency?, rateTables: [RateTable], maxRateAge: Int
  ) {
    self.maxRateAge = maxRateAge
    self.filter = filter
    self.needsDates = needsDates
    self.answers = answers
    self.commandLineTip = commandLineTip
    self.settleIn = settleIn
    self.rateTables = rateTables
    conversion = settleIn.map(ConversionLedger.init(currency:))
    convertedCategories = settleIn.map(ConvertedCategoryLedger.init(currency:))
  }

  /// How a record in `currency` on `date` converts into the settlement currency (its own rate,
  /// else its file's rates, else the `--rates` files': ``RateBook/conversion(of:into:on:own:record:)``);
  /// a located error when none can say; `nil` without `--settle-in`.
  func rateUse(
    _ currency: Currency, on date: CalendarDate?, rates: RecordRates?, id: String, kind: RecordKind,
    at source: SourceLocation
  ) -> Result<RateUse, InvalidBill>? {
    guard let target = settleIn else { return nil }
    let book = RateBook(rates.map { [$0.file] + rateTables } ?? rateTables)
    switch book.conversion(of: currency, into: target, on: date, own: rates?.own, record: id) {
    case .success(let use): return .success(use)
    case .failure(let failure):
      let problem: Problem =
        switch failure {
        case .missing(let from, let to): .missingRate(id: id, kind: kind, from: from, to: to, date: date)
        case .tooPrecise: .rateTooPrecise(id: id, from: currency, to: target)
        }
      return .failure(InvalidBill(id: id, source: source, diagnostics: [.error(problem, at: source)], kind: kind))
    }
  }

  /// Records without a rate of their own, by currency, day and file: the conversion group their
  /// rate has (a run meets a few hundred rates, and looks each up once).
  private var groups: [GroupKey: Int] = [:]

  private struct GroupKey: Hashable {
    var currency: Currency
    var date: CalendarDate?
    var file: ObjectIdentifier?
  }

  /// The conversion group a record in `currency` on `date` is booked in, or the record made
  /// invalid when it has no rate. (Out of line: it runs only with `--settle-in`, in a loop every
  /// bill goes through.)
  @inline(never)
  mutating func group(
    _ currency: Currency, on date: CalendarDate?, rates: RecordRates?, id: String, kind: RecordKind,
    at source: SourceLocation
  ) -> Result<Int, InvalidBill> {
    let key = GroupKey(currency: currency, date: date, file: rates.map(ObjectIdentifier.init))
    let cacheable = rates?.own == nil
    if cacheable, let known = groups[key] { return .success(known) }
    switch rateUse(currency, on: date, rates: rates, id: id, kind: kind, at: source) {
    case .failure(let invalid)?: return .failure(invalid)
    case .success(let use)?:
      if let date { noteAge(of: use, for: currency, on: date, id: id, kind: kind, at: source) }
      guard let number = conversion?.group(for: use) else {
        let problem = Problem.rateTooPrecise(id: id, from: currency, to: use.to)
        return .failure(InvalidBill(id: id, source: source, diagnostics: [.error(problem, at: source)], kind: kind))
      }
      if cacheable { groups[key] = number }
      return .success(number)
    case nil: return .success(0)  // without --settle-in, which never asks
    }
  }

  /// Notes a conversion at a rate more than ``maxRateAge`` days older than the record's `date`
  /// (its oldest leg: a cross rate is as old as its older rate).
  private mutating func noteAge(
    of use: RateUse, for currency: Currency, on date: CalendarDate, id: String, kind: RecordKind,
    at source: SourceLocation
  ) {
    guard let oldest = use.oldestDatedLeg, let rateDate = oldest.date else { return }
    let days = date.daysSinceEpoch - rateDate.daysSinceEpoch
    guard days > maxRateAge else { return }
    let found = StaleRate(
      days: days, id: id, kind: kind, recordDate: date, rateDate: rateDate, origin: oldest.origin, source: source)
    let known = stale[currency]
    stale[currency] = (
      known.map { $0.oldest.days >= days ? $0.oldest : found } ?? found, (known?.recordDays ?? 0) + 1
    )
  }

  /// One warning a currency converted at a rate past ``maxRateAge``, by code.
  var staleRateWarnings: [Diagnostic] {
    stale.sorted { $0.key < $1.key }.map { currency, entry in
      let found = entry.oldest
      return .warning(
        .staleRate(
          currency: currency, days: found.days, limit: maxRateAge, id: found.id, kind: found.kind,
          recordDate: found.recordDate, rateDate: found.rateDate, origin: found.origin, recordDays: entry.recordDays),
        at: found.source)
    }
  }

  /// Books a split bill in conversion group `number`, and a bill of the period (`category` not
  /// `nil`, its value the bill's category) in the converted spending by category.
  @inline(never)
  mutating func book(_ split: BillSplit, group number: Int, category: String??) {
    conversion?.add(split, group: number)
    if let category, let factor = conversion?.factor(of: number) {
      convertedCategories?.add(split, category: category, factor: factor)
    }
  }

  /// Takes `amount` (a record's total) into the volumes; `false`, and nothing taken, when a
  /// volume would pass 64 bits. (Out of line: two additions a record.)
  @inline(never)
  private mutating func admit(_ amount: Money, converted group: Int?) -> Bool {
    let units = amount.minorUnits.magnitude
    guard units <= UInt64(Int64.max) else { return false }
    let index =
      volumes.firstIndex { $0.currency == amount.currency }
      ?? {
        volumes.append((amount.currency, 0))
        return volumes.count - 1
      }()
    let (sum, overflow) = volumes[index].units.addingReportingOverflow(Int64(units))
    guard !overflow else { return false }
    var converted = convertedVolume
    if let group, let factor = conversion?.factor(of: group) {
      let (product, productOverflow) = Int128(units).multipliedReportingOverflow(by: factor.numerator)
      guard !productOverflow else { return false }
      let (quotient, remainder) = product.quotientAndRemainder(dividingBy: factor.denominator)
      let rounded = quotient + (remainder == 0 ? 0 : 1)
      let (total, totalOverflow) = Int128(convertedVolume).addingReportingOverflow(rounded)
      guard !totalOverflow, total <= Int128(Int64.max) else { return false }
      converted = Int64(total)
    }
    volumes[index].units = sum
    convertedVolume = converted
    return true
  }

  /// The located refusal of a record that would make the run's sums pass 64 bits.
  private func tooLarge(_ id: String, _ kind: RecordKind, _ currency: Currency, at source: SourceLocation)
    -> InvalidBill
  {
    let problem = Diagnostic.error(
      .runTooLarge(id: id, kind: kind, currency: settleIn ?? currency, converted: settleIn != nil), at: source)
    return InvalidBill(id: id, source: source, diagnostics: [problem], kind: kind)
  }

  /// What becomes of `outcome`: its bill is moved into the result, not copied.
  @inline(__always)
  mutating func prepare(_ outcome: consuming BillOutcome) -> Prepared {
    var bill: Bill
    switch consume outcome {
    case .invalid(let invalid): return .invalid(invalid)
    case .valid(let valid): bill = consume valid
    case .payment(let payment):
      if filter != nil || needsDates, payment.date == nil {
        let problem = Diagnostic.error(
          .missingDate(id: payment.id, journal: filter == nil, kind: .payment), at: payment.source)
        return .refused(InvalidBill(id: payment.id, source: payment.source, diagnostics: [problem], kind: .payment))
      }
      var before = false
      if let filter, let date = payment.date, !filter.contains(date) {
        guard filter.since.map({ date < $0 }) == true else { return .filteredOut }
        before = true
      }
      var paymentGroup: Int?
      if conversion != nil {
        switch group(
          payment.payment.currency, on: payment.date, rates: payment.rates, id: payment.id, kind: .payment,
          at: payment.source)
        {
        case .success(let number): paymentGroup = number
        case .failure(let invalid): return .refused(invalid)
        }
      }
      guard admit(payment.payment.amount, converted: paymentGroup) else {
        return .refused(tooLarge(payment.id, .payment, payment.payment.currency, at: payment.source))
      }
      if let paymentGroup { conversion?.add(payment.payment, group: paymentGroup) }
      return before ? .carriedPayment(payment) : .payment(payment)
    }
    if filter != nil || needsDates, bill.date == nil {
      let problem = Diagnostic.error(.missingDate(id: bill.id, journal: filter == nil), at: bill.source)
      return .refused(InvalidBill(id: bill.id, source: bill.source, diagnostics: [problem]))
    }
    // Bills after the period are left out before they are split: the leftover state comes from
    // every bill up to the period's end, in input order. Bills before it are split and carried.
    var before = false
    if let filter, let date = bill.date, !filter.contains(date) {
      guard filter.since.map({ date < $0 }) == true else { return .filteredOut }
      before = true
    }
    var advice: TipAdvice?
    if bill.terms.tip == .advisor {
      let suggestion =
        answers[bill.id] ?? advisor.suggest(notes: bill.notes, base: bill.defaultTip ?? commandLineTip)
      bill.terms.tip = .percent(suggestion.percent)
      advice = suggestion
    }
    // With --settle-in, a bill with no rate is refused before it is split (it then leaves the
    // leftover state as it was) or booked.
    var group: Int?
    if conversion != nil {
      switch self.group(
        bill.terms.amount.currency, on: bill.date, rates: bill.rates, id: bill.id, kind: .bill, at: bill.source)
      {
      case .success(let number): group = number
      case .failure(let invalid): return .refused(invalid)
      }
    }
    do throws(SplitError) {
      let split = try bill.terms.split(ledger: &leftovers)
      // (Its leftover units are allotted by now: a run this large is refused anyway.)
      guard admit(split.total, converted: group) else {
        return .refused(tooLarge(bill.id, .bill, bill.terms.amount.currency, at: bill.source))
      }
      if let group { book(split, group: group, category: before ? nil : .some(bill.category)) }
      let reported = ReportedBill(bill: consume bill, split: split, advice: advice)
      return before ? .carried(reported) : .split(reported)
    } catch {
      let problem = Diagnostic.error(.split(error), at: bill.source)
      return .refused(InvalidBill(id: bill.id, source: bill.source, diagnostics: [problem]))
    }
  }
}
