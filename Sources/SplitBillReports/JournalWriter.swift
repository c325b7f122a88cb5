@_spi(ByteWriters) import SplitBillBytes
@_spi(ByteWriters) import SplitBillCore
import SplitBillModel
import SplitBillText

/// What the journal writers are asked for.
package struct JournalOptions: Sendable {
  /// Add the suggested settlements as pending (`!`) transfers.
  package var withSettlements: Bool
  /// Write this person's own books instead of the group journal.
  package var booksOf: String?
  /// Emit account, commodity and tag declarations (leave them out for appending).
  package var declarations: Bool
  /// The first day of the report's period, if it has one: what was carried from before it is one
  /// "Opening balances" transaction on that day.
  package var periodStart: CalendarDate?
  /// Each category's expense account.
  package var categoryAccounts: CategoryAccounts
  /// How the group journal's accounts are laid out.
  package var layout: JournalLayout

  /// Creates options.
  package init(
    withSettlements: Bool = false, booksOf: String? = nil, declarations: Bool = true, periodStart: CalendarDate? = nil,
    categoryAccounts: CategoryAccounts = CategoryAccounts(), layout: JournalLayout = .expenses
  ) {
    self.withSettlements = withSettlements
    self.booksOf = booksOf
    self.declarations = declarations
    self.periodStart = periodStart
    self.categoryAccounts = categoryAccounts
    self.layout = layout
  }
}

/// A metadata key of a transaction or a posting (Ledger declares each used one as a `tag`).
private enum MetaKey: Int, CaseIterable {
  case bill, tip, subtotal, tipamount, total, leftover, leftoverTo, leftoverToTip
  case diner, weight, absorbs, payer, diners, settlement, payment
  case items, discount, service, tax, taxIncluded

  var name: StaticString {
    switch self {
    case .bill: "bill"
    case .tip: "tip"
    case .subtotal: "subtotal"
    case .tipamount: "tipamount"
    case .total: "total"
    case .leftover: "leftover"
    case .leftoverTo: "leftover-to"
    case .leftoverToTip: "leftover-to-tip"
    case .diner: "diner"
    case .weight: "weight"
    case .absorbs: "absorbs"
    case .payer: "payer"
    case .diners: "diners"
    case .settlement: "settlement"
    case .payment: "payment"
    case .items: "items"
    case .discount: "discount"
    case .service: "service"
    case .tax: "tax"
    case .taxIncluded: "tax-included"
    }
  }
}

/// An account as postings print it: its name, its length in characters (the column the amounts
/// line up on is counted in characters) and in terminal columns (what padding fills).
/// A person's account also holds the person's name as a metadata value.
private struct Account {
  let name: String
  let characters: Int
  let columns: Int
  /// The name of the person it is for, as a metadata value; empty when none.
  let person: [UInt8]

  init(_ name: String, person: [UInt8] = []) {
    self.name = name
    characters = name.count
    columns = TerminalText.width(name)
    self.person = person
  }
}

/// Where a person's account (other than their consumption's) sits in the chart of accounts.
private enum AccountBranch: Int {
  /// Others' shares in a person's own books.
  case receivables
  /// What a person paid (and, in the group journal, what was carried or converted).
  case paid
  /// A person's payments.
  case settled
  /// What a person paid for a head-count bill, which is in nobody's balance: `Equity:Paid:<Name>`
  /// in every layout.
  case paidOutside

  /// The account of the person whose account name part is `component`.
  func name(_ component: String, layout: JournalLayout) -> String {
    switch (self, layout) {
    case (.receivables, _): "Assets:Receivables:" + component
    case (.paid, .expenses), (.settled, .expenses), (.paidOutside, _): "Equity:Paid:" + component
    case (.paid, .people): "Equity:People:" + component + ":Paid"
    case (.settled, .people): "Equity:People:" + component + ":Settled"
    }
  }
}

/// What a posting says besides its account and amount. Names are as written in the flavor's
/// syntax (``JournalWriter/value(_:)``).
private enum PostingNote {
  case none
  case share(name: [UInt8], weight: Int64, absorbed: Int)
  case diners(Int)
  case payer(name: [UInt8])
  /// The posting is `original`, at the total price of its amount (`-14915 JPY @@ 92.45 EUR`):
  /// a balance converted into the transaction's currency.
  case priced(original: Money)

  /// The most bytes the note writes.
  var maximumLength: Int {
    switch self {
    case .none: 0
    case .share(let name, _, _): 3 * 48 + name.count
    case .diners: 48
    case .payer(let name): 48 + name.count
    case .priced: 64
    }
  }
}

/// One posting: account, amount in minor units, metadata.
private struct Posting {
  var account: Account
  var units: Int64
  var note: PostingNote
}

/// Writes the `key: value` metadata of one transaction or posting in a flavor's syntax, and
/// remembers which keys it wrote (at most 24 bytes a key: punctuation and the longest key).
private struct MetaLine {
  let flavor: ReportFormat
  let posting: Bool
  var count = 0
  var used: UInt32 = 0

  /// Writes what comes before `key`'s value: a line of its own (Beancount, Ledger) or the next
  /// item of a comment (hledger: the transaction's first two on its line, the rest on the next).
  mutating func key(_ key: MetaKey, into out: inout ByteCursor) {
    switch flavor {
    case .beancount:
      out.write(posting ? "\n    " : "\n  ")
      out.write(key.name)
      out.write(": ")
    case .ledger:
      out.write("\n    ; ")
      out.write(key.name)
      out.write(": ")
    default:
      if count == 0 {
        out.write("  ; ")
      } else if count == 2 && !posting {
        out.write("\n    ; ")
      } else {
        out.write(", ")
      }
      out.write(key.name)
      out.write(":")
    }
    count += 1
    used |= 1 << UInt32(key.rawValue)
  }
}

/// Plain-text-accounting journals for hledger, Ledger and Beancount: each bill a balanced
/// transaction with its id, tip, total and absorbed leftover as metadata.
///
/// Group journal (default): each share to its category's expense account per person
/// (`Expenses:Food:Dining:<Name>`, ``CategoryAccounts``; `Expenses:Dining:<Name>` without a
/// category; anonymous diners to `…:Unnamed`), the total from `Equity:Paid:<Payer>`
/// (`Equity:Unpaid` without a payer). A person's balance is then minus the sum of their accounts.
/// With the `people` layout (``JournalLayout``) every account of a person is under
/// `Equity:People:<Name>`, which then sums to minus their balance.
/// `--books-of NAME`: that person's own books, in the shape plain-text-accounting users import:
/// their share to `Expenses:Dining`, others' shares to `Assets:Receivables:<Name>` (one net account
/// each: positive means they owe NAME), what NAME paid from `Assets:Cash`, and a bill someone else
/// paid as NAME's share owed to them.
///
/// Suggested settlements go in only with `--with-settlements`, as pending (`!`) transfers dated with
/// the last bill's date, so no one's books show a debt as paid before it is. Payments are cleared
/// transactions in date order (stable: in input order on one date, ``JournalBody``); with a period,
/// what was carried from before it is one "Opening balances" transaction a currency on its first
/// day, before every other.
///
/// Each transaction is written as UTF-8 straight into the spool's buffer, through cursors into
/// room sized for the worst case (a line each, at most); every person's account name and name
/// as a value are made once. This runs once per bill, and is most of a journal's time.
package struct JournalWriter<Sink: OutputSink>: ReportWriter {
  private var sink: Sink
  private let flavor: ReportFormat
  private let options: JournalOptions
  private let body = JournalBody()
  /// The opening balances' transactions, dated the period's first day: written before the body,
  /// so a journal of inputs in date order is in date order.
  private let opening = SpoolSink()
  private var namer: AccountNamer
  /// People numbered by name (found by their bytes, cheaper than hashing a `String`).
  private var people = PersonNumbers()
  /// Each person's accounts, by branch, then by the person's number.
  private var personal: [[Account?]] = [[], [], [], []]
  /// The expense accounts met (the uncategorized one first), as the tool reads them.
  private var expenseAccounts: [String] = []
  /// Each category's place in ``expenseAccounts``.
  private var expenseNumbers: [String: Int] = [:]
  /// Each expense account's `…:Unnamed`, for head-count diners, made on first use.
  private var unnamed: [Account?] = [nil]
  /// Each person's consumption account, by expense account, then by the person's number; in the
  /// people layout, the accounts outside `Equity:People` second.
  private var consumption: [[[Account?]]] = [[], []]
  /// Accounts without a person (`Assets:Cash`…), made on first use.
  private var fixed: [String: Account] = [:]
  /// People's names as metadata values, by number.
  private var values: [[UInt8]?] = []
  private var accounts: Set<String> = []
  private var currencies: Set<Currency> = []
  /// The metadata keys used (bits by `MetaKey.rawValue`).
  private var usedKeys: UInt32 = 0
  private var firstDate: CalendarDate?
  private var lastDate: CalendarDate?
  /// The postings of the transaction being written, kept to reuse their storage.
  private var scratch: [Posting] = []
  /// What was carried from before the period, by currency and account.
  private var carried: [Currency: [String: (account: Account, units: Int64)]] = [:]
  private var carriedCurrencies: [Currency] = []

  /// Writes `flavor` (hledger, ledger or beancount) to `sink` when the report finishes.
  package init(sink: Sink, flavor: ReportFormat, options: JournalOptions) {
    self.sink = sink
    self.flavor = flavor
    self.options = options
    self.namer = AccountNamer(beancount: flavor == .beancount)
    expenseAccounts = [safeAccount(CategoryAccounts.uncategorized)]
    consumption = [[[]], [[]]]
  }

  /// `account` with each part made safe for the tool (Beancount's letters, no `;`…).
  private func safeAccount(_ account: String) -> String {
    account.split(separator: ":", omittingEmptySubsequences: false).map { part in
      flavor == .beancount ? AccountNamer.beancountComponent(String(part)) : AccountNamer.plainComponent(String(part))
    }
    .joined(separator: ":")
  }

  /// The number of `category`'s expense account in ``expenseAccounts`` (0 without a category).
  private mutating func expenseNumber(_ category: String?) -> Int {
    guard let category else { return 0 }
    if let known = expenseNumbers[category] { return known }
    let name = safeAccount(options.categoryAccounts.account(for: category))
    let number = expenseAccounts.firstIndex(of: name) ?? expenseAccounts.count
    if number == expenseAccounts.count {
      expenseAccounts.append(name)
      for index in consumption.indices { consumption[index].append([]) }
      unnamed.append(nil)
    }
    expenseNumbers[category] = number
    return number
  }

  /// The account of head-count diners' shares of bills whose expense account is number `expense`.
  private mutating func unnamedAccount(_ expense: Int) -> Account {
    if let known = unnamed[expense] { return known }
    let made = account(expenseAccounts[expense] + ":Unnamed")
    unnamed[expense] = made
    return made
  }

  /// The account of `person`'s shares of bills whose expense account is number `expense`;
  /// `inBalances` false for a bill nobody paid, which is in nobody's balance (then never under
  /// `Equity:People`).
  private mutating func consumed(_ expense: Int, _ person: String, inBalances: Bool) -> Account {
    let number = people.number(of: person)
    let table = inBalances ? 0 : 1
    if number < consumption[table][expense].count, let known = consumption[table][expense][number] { return known }
    let component = namer.component(person)
    let name: String
    switch inBalances ? options.layout : .expenses {
    case .expenses: name = expenseAccounts[expense] + ":" + component
    case .people:
      let expense = expenseAccounts[expense]
      name =
        "Equity:People:" + component + ":Consumed:"
        + (expense.hasPrefix("Expenses:") ? String(expense.dropFirst("Expenses:".count)) : expense)
    }
    let made = Account(name, person: value(person))
    while consumption[table][expense].count <= number { consumption[table][expense].append(nil) }
    consumption[table][expense][number] = made
    accounts.insert(made.name)
    return made
  }

  private mutating func account(_ branch: AccountBranch, _ person: String) -> Account {
    let number = people.number(of: person)
    if number < personal[branch.rawValue].count, let known = personal[branch.rawValue][number] { return known }
    let made = Account(branch.name(namer.component(person), layout: options.layout), person: value(person))
    while personal[branch.rawValue].count <= number { personal[branch.rawValue].append(nil) }
    personal[branch.rawValue][number] = made
    accounts.insert(made.name)
    return made
  }

  private mutating func account(_ name: String) -> Account {
    if let known = fixed[name] { return known }
    let made = Account(name)
    fixed[name] = made
    accounts.insert(name)
    return made
  }

  /// `person` as a metadata value.
  private mutating func value(_ person: String) -> [UInt8] {
    let number = people.number(of: person)
    if number < values.count, let known = values[number] { return known }
    var made: [UInt8] = []
    made.append(atMost: 2 * person.utf8.count + 2) { Self.text(flavor, person, to: &$0) }
    while values.count <= number { values.append(nil) }
    values[number] = made
    return made
  }

  private mutating func shareNote(_ share: Share) -> PostingNote {
    .share(name: value(share.person), weight: share.weight.tenThousandths, absorbed: share.absorbed)
  }

  /// The postings of `split` in these books; `false` when the bill is not in them (`--books-of`
  /// someone who neither ate nor paid).
  private mutating func postings(for split: BillSplit, category: String?, into postings: inout [Posting]) -> Bool {
    let payer = split.payer
    let expense = expenseNumber(category)
    if let me = options.booksOf, split.hasSeveralPayers {
      return severalPayersPostings(split, of: me, expense: expenseAccounts[expense], into: &postings)
    }
    if let me = options.booksOf {
      let expenses = expenseAccounts[expense]
      let mine = split.anonymousDiners ? nil : split.shares.first { $0.person == me }
      if payer == me {
        if split.anonymousDiners {
          postings.append(
            Posting(
              account: account(expenses), units: split.total.minorUnits, note: .diners(split.shares.count)))
        } else {
          for share in split.shares {
            let account = share.person == me ? account(expenses) : account(.receivables, share.person)
            postings.append(Posting(account: account, units: share.amount.minorUnits, note: shareNote(share)))
          }
        }
        postings.append(
          Posting(account: account("Assets:Cash"), units: -split.total.minorUnits, note: .payer(name: value(me))))
      } else if let mine {
        postings.append(
          Posting(account: account(expenses), units: mine.amount.minorUnits, note: shareNote(mine)))
        let other = payer.map { account(.receivables, $0) } ?? account("Liabilities:Unpaid")
        postings.append(
          Posting(account: other, units: -mine.amount.minorUnits, note: payer.map { .payer(name: value($0)) } ?? .none))
      } else {
        return false  // neither a diner nor the payer: not in these books
      }
    } else {
      let paid = split.isPaid
      for share in split.shares {
        if split.anonymousDiners {
          postings.append(
            Posting(
              account: unnamedAccount(expense), units: share.amount.minorUnits, note: shareNote(share)))
        } else {
          // The person's account holds their name as a value: one lookup for both.
          let account = consumed(expense, share.person, inBalances: paid)
          let note = PostingNote.share(
            name: account.person, weight: share.weight.tenThousandths, absorbed: share.absorbed)
          postings.append(Posting(account: account, units: share.amount.minorUnits, note: note))
        }
      }
      if paid {
        split.forEachPayer { payer, amount in
          let funding = account(split.anonymousDiners ? .paidOutside : .paid, payer)
          postings.append(Posting(account: funding, units: -amount.minorUnits, note: .payer(name: funding.person)))
        }
      } else {
        postings.append(Posting(account: account("Equity:Unpaid"), units: -split.total.minorUnits, note: .none))
      }
    }
    return true
  }

  /// A bill several people paid, in `me`'s own books: their share to `Expenses:Dining`, what they
  /// paid from `Assets:Cash`, and the difference owed to or by the others, spread over those on the
  /// other side of the bill (owed money when `me` is owed, owing it otherwise) in proportion to how
  /// far each is, split as a bill is (largest remainder); `false` when `me` neither ate nor paid.
  private mutating func severalPayersPostings(
    _ split: BillSplit, of me: String, expense: String, into postings: inout [Posting]
  ) -> Bool {
    let paid = split.payers.first { $0.person == me }?.amount.minorUnits ?? 0
    if split.anonymousDiners {
      guard paid > 0 else { return false }
      postings.append(Posting(account: account(expense), units: paid, note: .diners(split.shares.count)))
      postings.append(Posting(account: account("Assets:Cash"), units: -paid, note: .payer(name: value(me))))
      return true
    }
    let mine = split.shares.first { $0.person == me }
    guard paid > 0 || mine != nil else { return false }
    // Everyone's net on this bill: what they paid minus their share, in order of appearance.
    var nets: [(person: String, units: Int64)] = []
    func add(_ person: String, _ units: Int64) {
      if let index = nets.firstIndex(where: { $0.person == person }) {
        nets[index].units += units
      } else {
        nets.append((person, units))
      }
    }
    for part in split.payers { add(part.person, part.amount.minorUnits) }
    for share in split.shares { add(share.person, -share.amount.minorUnits) }
    let net = paid - (mine?.amount.minorUnits ?? 0)
    if let mine {
      postings.append(
        Posting(account: account(expense), units: mine.amount.minorUnits, note: shareNote(mine)))
    }
    if paid > 0 {
      postings.append(Posting(account: account("Assets:Cash"), units: -paid, note: .payer(name: value(me))))
    }
    guard net != 0 else { return true }
    // The net is spread by the split itself (Core): weights the others' nets, largest remainder.
    let others = nets.filter { $0.person != me && ($0.units > 0) != (net > 0) && $0.units != 0 }
    let spread = BillTerms(
      amount: Money(minorUnits: Int64(net.magnitude), currency: split.currency),
      tip: .percent(Percent(tenThousandths: 0)),
      diners: .named(others.map { Diner(name: $0.person, weight: Weight(tenThousandths: Int64($0.units.magnitude))) }),
      leftover: .remainder)
    var unused = LeftoverLedger()
    guard let parts = try? spread.split(ledger: &unused).shares else { return true }
    for part in parts where part.amount.minorUnits != 0 {
      let units = part.amount.minorUnits
      postings.append(
        Posting(account: account(.receivables, part.person), units: net > 0 ? units : -units, note: .none))
    }
    return true
  }

  /// The postings of a payment in these books, or none (`--books-of` someone else).
  private mutating func postings(from: String, to: String, units: Int64) -> [Posting] {
    guard let me = options.booksOf else {
      return [
        Posting(account: account(.settled, from), units: -units, note: .none),
        Posting(account: account(.settled, to), units: units, note: .none),
      ]
    }
    if from == me {
      return [
        Posting(account: account(.receivables, to), units: units, note: .none),
        Posting(account: account("Assets:Cash"), units: -units, note: .none),
      ]
    }
    if to == me {
      return [
        Posting(account: account("Assets:Cash"), units: units, note: .none),
        Posting(account: account(.receivables, from), units: -units, note: .none),
      ]
    }
    return []
  }

  /// Carries a bill from before the period: the group journal moves each person's balance into
  /// their `Equity:Paid` account (bills with named diners and a payer, as the report's balances),
  /// a person's own books their assets and liabilities (what others owe, cash, unpaid).
  package mutating func carry(_ reported: ReportedBill) {
    let split = reported.split
    if options.booksOf == nil {
      guard split.movesBalances else { return }
      for share in split.shares { carry(account(.paid, share.person), share.amount.minorUnits, split.currency) }
      split.forEachPayer { payer, amount in carry(account(.paid, payer), -amount.minorUnits, split.currency) }
      return
    }
    var postings: [Posting] = []
    guard self.postings(for: split, category: reported.bill.category, into: &postings) else { return }
    for posting in postings
    where posting.account.name.hasPrefix("Assets:") || posting.account.name.hasPrefix("Liabilities:") {
      carry(posting.account, posting.units, split.currency)
    }
  }

  /// A payment of the period, as a cleared transaction, where it comes in the inputs (so that a
  /// journal of inputs in date order stays in date order).
  package mutating func write(_ record: PaymentRecord) {
    guard let date = record.date else { return }
    let payment = record.payment
    let postings = postings(from: payment.from, to: payment.to, units: payment.amount.minorUnits)
    guard !postings.isEmpty else { return }
    firstDate = min(firstDate ?? date, date)
    lastDate = max(lastDate ?? date, date)
    transfer(
      postings, currency: payment.currency, on: date, pending: false,
      title: "Payment: \(payment.from) pays \(payment.to)",
      comment: "paid: \(payment.from) pays \(payment.to) \(payment.amount)" + (record.notes.map { " (\($0))" } ?? ""),
      meta: (.payment, record.id))
  }

  /// Carries a payment from before the period.
  package mutating func carry(_ record: PaymentRecord) {
    let payment = record.payment
    for posting in postings(from: payment.from, to: payment.to, units: payment.amount.minorUnits) {
      carry(posting.account, posting.units, payment.currency)
    }
  }

  private mutating func carry(_ account: Account, _ units: Int64, _ currency: Currency) {
    if carried[currency] == nil { carriedCurrencies.append(currency) }
    carried[currency, default: [:]][account.name, default: (account, 0)].units += units
  }

  package mutating func write(_ reported: ReportedBill) {
    let bill = reported.bill
    let split = reported.split
    guard let date = bill.date else { return }
    firstDate = min(firstDate ?? date, date)
    lastDate = max(lastDate ?? date, date)
    // Taken out (not copied: a shared buffer would be copied by `removeAll`) and put back.
    var postings: [Posting] = []
    swap(&postings, &scratch)
    postings.removeAll(keepingCapacity: true)
    defer { scratch = postings }
    guard self.postings(for: split, category: bill.category, into: &postings) else { return }
    currencies.insert(split.currency)

    // The comments, the first line and the transaction's metadata.
    let plainID = JournalSyntax.isPlainLine(bill.id)
    let summaryLine =
      plainID
      ? nil
      : JournalSyntax.oneLine(
        "\(bill.id): \(split.amount) + tip \(split.tip) = \(split.total), leftover policy \(split.leftoverPolicy.rawValue)"
      )
    let adviceLine = reported.advice.map { advice in
      JournalSyntax.oneLine(
        "tip advice (\(advice.advisor)\(advice.fallback ? ", fallback" : "")): \(advice.percent) \(advice.reason)")
    }
    let headCountLine = split.headCountPayerNote.map { JournalSyntax.oneLine("note: " + $0) }
    let title = bill.description ?? bill.id
    let absorbers = split.shares.filter { $0.absorbed > 0 }
    let absorberNames = absorbers.isEmpty ? nil : absorbers.map(\.person).joined(separator: " ")
    // Every text at most doubles (Beancount escapes), numbers are at most 32 bytes, the rest is
    // punctuation and keys.
    let room =
      1_024 + 4 * bill.id.utf8.count + 2 * title.utf8.count + (summaryLine?.utf8.count ?? 0)
      + (adviceLine?.utf8.count ?? 0) + 2 * (absorberNames?.utf8.count ?? 0) + (headCountLine?.utf8.count ?? 0)
    let flavor = flavor
    var meta = MetaLine(flavor: flavor, posting: false)
    body.append(on: date) { bytes in
      bytes.append(atMost: room) { out in
        out.write("; ")
        if let summaryLine {
          out.write(utf8: summaryLine)
        } else {
          out.write(utf8: bill.id)
          out.write(": ")
          Self.amount(split.amount.minorUnits, split.currency, to: &out)
          out.write(" + tip ")
          Self.amount(split.tip.minorUnits, split.currency, to: &out)
          out.write(" = ")
          Self.amount(split.total.minorUnits, split.currency, to: &out)
          out.write(", leftover policy ")
          out.write(utf8: split.leftoverPolicy.rawValue)
        }
        out.write(0x0A)
        if let adviceLine {
          out.write("; ")
          out.write(utf8: adviceLine)
          out.write(0x0A)
        }
        if let headCountLine {
          out.write("; ")
          out.write(utf8: headCountLine)
          out.write(0x0A)
        }
        Self.head(flavor, date: date, pending: false, title: title, link: bill.id, to: &out)
        meta.key(.bill, into: &out)
        Self.text(flavor, bill.id, to: &out)
        if let percent = split.tipPercent {
          meta.key(.tip, into: &out)
          if flavor == .beancount { out.write(0x22) }
          DecimalText.writeTrimmed(percent.tenThousandths, scale: Percent.scale, to: &out)
          out.write(flavor == .beancount ? "%\"" : "%")
        }
        meta.key(.subtotal, into: &out)
        Self.amount(split.amount.minorUnits, split.currency, to: &out)
        meta.key(.tipamount, into: &out)
        Self.amount(split.tip.minorUnits, split.currency, to: &out)
        meta.key(.total, into: &out)
        Self.amount(split.total.minorUnits, split.currency, to: &out)
        if let absorberNames {
          meta.key(.leftover, into: &out)
          Self.amount(Int64(absorbers.reduce(0) { $0 + $1.absorbed }), split.currency, to: &out)
          meta.key(.leftoverTo, into: &out)
          Self.text(flavor, absorberNames, to: &out)
        }
        if split.leftoverToTip.minorUnits > 0 {
          meta.key(.leftoverToTip, into: &out)
          Self.amount(split.leftoverToTip.minorUnits, split.currency, to: &out)
        }
        // An itemized bill: what its receipt's lines came to, and each adjustment.
        if split.isItemized, let receipt = split.receipt {
          let figures = receipt.figures
          meta.key(.items, into: &out)
          Self.amount(figures.subtotal.minorUnits, split.currency, to: &out)
          if receipt.receipt.discount != nil {
            meta.key(.discount, into: &out)
            Self.amount(figures.discount.minorUnits, split.currency, to: &out)
          }
          if receipt.receipt.service != nil {
            meta.key(.service, into: &out)
            Self.amount(figures.service.minorUnits, split.currency, to: &out)
          }
          if receipt.receipt.tax != nil {
            meta.key(figures.taxIncluded ? .taxIncluded : .tax, into: &out)
            Self.amount(figures.tax.minorUnits, split.currency, to: &out)
          }
        }
      }
    }
    usedKeys |= meta.used
    write(postings, currency: split.currency)
  }

  /// The transaction's first line, without its metadata: date, flag, payee or narration, link
  /// (at most `64 + 2 * title + link + 16` bytes).
  private static func head(
    _ flavor: ReportFormat, date: CalendarDate, pending: Bool, title: String, link: String?, to out: inout ByteCursor
  ) {
    date.writeISO(to: &out)
    out.write(pending ? " ! " : " * ")
    if flavor == .beancount {
      Self.quoted(JournalSyntax.oneLine(title), to: &out)
      if let link {
        if JournalSyntax.isPlainLink(link) {
          out.write(" ^bill-")
          out.write(utf8: link)
        } else if let safe = JournalSyntax.beancountLink(link) {
          out.write(" ^bill-")
          out.write(utf8: safe)
        }
      }
    } else {
      out.write(utf8: JournalSyntax.payee(title))
    }
  }

  /// The postings, amounts lined up, each with its metadata; then the blank line that ends the
  /// transaction.
  private mutating func write(_ postings: [Posting], currency: Currency, into spool: SpoolSink? = nil) {
    var longest = 0
    for posting in postings { longest = max(longest, posting.account.characters) }
    let width = max(36, longest + 2)
    let flavor = flavor
    var used: UInt32 = 0
    append(into: spool) { bytes in
      for posting in postings {
        let room = 128 + posting.account.name.utf8.count + width + posting.note.maximumLength
        bytes.append(atMost: room) { out in
          out.write(flavor == .beancount ? "\n  " : "\n    ")
          out.write(utf8: posting.account.name)
          out.write(spaces: width - posting.account.columns)
          out.write("  ")
          // The amount right-aligned in 16 bytes (ASCII: a column per byte).
          if case .priced(let original) = posting.note {
            out.write(spaces: 12 - DecimalText.length(original.minorUnits, scale: original.currency.exponent))
            Self.amount(original.minorUnits, original.currency, to: &out)
            out.write(" @@ ")
            Self.amount(abs(posting.units), currency, to: &out)
          } else {
            out.write(spaces: 12 - DecimalText.length(posting.units, scale: currency.exponent))
            Self.amount(posting.units, currency, to: &out)
          }
          var meta = MetaLine(flavor: flavor, posting: true)
          switch posting.note {
          case .none, .priced: break
          case .share(let name, let weight, let absorbed):
            meta.key(.diner, into: &out)
            out.write(bytes: name)
            meta.key(.weight, into: &out)
            DecimalText.writeTrimmed(weight, scale: 4, to: &out)
            if absorbed > 0 {
              meta.key(.absorbs, into: &out)
              Self.amount(Int64(absorbed), currency, to: &out)
            }
          case .diners(let count):
            meta.key(.diners, into: &out)
            DecimalText.write(Int64(count), scale: 0, to: &out)
          case .payer(let name):
            meta.key(.payer, into: &out)
            out.write(bytes: name)
          }
          used |= meta.used
        }
      }
      bytes.append(contentsOf: [0x0A, 0x0A])
    }
    usedKeys |= used
  }

  /// Lets `write` append to `spool`, or else to the transaction `body` holds last.
  private func append(into spool: SpoolSink?, _ write: (inout [UInt8]) -> Void) {
    if let spool { spool.append(write) } else { body.appendToLast(write) }
  }

  /// An amount and its currency code, `-12.30 EUR` (at most 32 bytes).
  private static func amount(_ units: Int64, _ currency: Currency, to out: inout ByteCursor) {
    DecimalText.write(units, scale: currency.exponent, to: &out)
    out.write(0x20)
    currency.writeCode(to: &out)
  }

  /// A text value of metadata, one line: a Beancount string, Ledger's text as it is, hledger's
  /// with its commas made spaces (a tag value ends at a comma). At most `2 * text + 2` bytes.
  private static func text(_ flavor: ReportFormat, _ value: String, to out: inout ByteCursor) {
    let line = JournalSyntax.oneLine(value)
    switch flavor {
    case .beancount: Self.quoted(line, to: &out)
    case .ledger: out.write(utf8: line)
    default:
      if ByteScan.contains(0x2C, in: line) {
        for byte in line.utf8 { out.write(byte == 0x2C ? 0x20 : byte) }
      } else {
        out.write(utf8: line)
      }
    }
  }

  /// A Beancount string literal: quotes and backslashes escaped (ASCII bytes, never inside a
  /// longer UTF-8 sequence). At most `2 * line + 2` bytes.
  private static func quoted(_ line: String, to out: inout ByteCursor) {
    out.write(0x22)
    if ByteScan.contains(0x22, in: line) || ByteScan.contains(0x5C, in: line) {
      for byte in line.utf8 {
        if byte == 0x22 || byte == 0x5C { out.write(0x5C) }
        out.write(byte)
      }
    } else {
      out.write(utf8: line)
    }
    out.write(0x22)
  }

  /// With `--settle-in`, in the group journal: one transaction a person on the last day that
  /// turns their balance in each other currency into the settlement currency at the report's
  /// converted value, as a total price (`@@`), so each person's accounts then hold only the
  /// settlement currency, and exactly the report's converted balance. An exchange difference (a
  /// currency whose balance is zero but whose records convert to something) has no amount to
  /// price: it goes to `Equity:ExchangeDifferences`.
  private mutating func writeConversion(_ conversion: Conversion, on date: CalendarDate) {
    let target = conversion.currency
    for person in conversion.balances {
      let parts = person.parts.filter { $0.original.currency != target && $0.original.minorUnits != 0 }
      let differences = person.parts.filter(\.isExchangeDifference)
      guard !parts.isEmpty || !differences.isEmpty else { continue }
      let account = account(.paid, person.person)
      for part in parts { currencies.insert(part.original.currency) }
      // The accounts hold minus the balance: adding the balance empties that currency.
      var postings = parts.map {
        Posting(account: account, units: $0.converted.minorUnits, note: .priced(original: $0.original))
      }
      for difference in differences {
        // Made (and declared) only for a journal that books one.
        let exchange = self.account("Equity:ExchangeDifferences")
        postings.append(Posting(account: exchange, units: difference.converted.minorUnits, note: .none))
      }
      postings.append(
        Posting(
          account: account, units: -(parts + differences).reduce(0) { $0 + $1.converted.minorUnits }, note: .none))
      transfer(
        postings, currency: target, on: date, pending: false, title: "Conversion into \(target.code): \(person.person)",
        comment: "\(person.person)'s balances converted into \(target.code) at the report's rates", meta: nil)
    }
  }

  package mutating func finish(_ summary: ReportSummary) {
    if let start = options.periodStart { writeOpening(on: start) }
    if let conversion = summary.conversion, options.booksOf == nil, let date = lastDate {
      writeConversion(conversion, on: date)
    }
    if options.withSettlements, let date = lastDate {
      for settlement in summary.settlements {
        for transfer in settlement.transfers {
          settle(transfer, on: date)
        }
      }
    }
    var head: [String] = []
    let who = options.booksOf.map { "\(JournalSyntax.oneLine($0))'s own books" } ?? "the group journal"
    switch flavor {
    case .beancount:
      head += [
        "; splitbill: \(who), for Beancount. Bills as transactions, metadata: bill, tip, total, leftover.",
        "; Suggested settlements appear only with --with-settlements, as pending (!) transactions.",
      ]
    case .ledger:
      head += [
        "; splitbill: \(who), for Ledger (ledger --pedantic). Bill metadata as '; key: value' lines.",
        "; Suggested settlements appear only with --with-settlements, as pending (!) transactions.",
      ]
    default:
      head += [
        "; splitbill: \(who), for hledger (hledger check -s). Bill metadata as tags.",
        "; Suggested settlements appear only with --with-settlements, as pending (!) transactions.",
      ]
    }
    if let stamp = summary.stamp { head.append("; generated \(stamp)") }
    // Books without some records balance, but not to the group's real figures: said at the top.
    if let incomplete = summary.coverage.note(see: "the errors on stderr") {
      head.append("; INCOMPLETE: \(JournalSyntax.oneLine(incomplete)); the balances lack them")
    }
    head.append("")
    if options.declarations {
      let sortedCurrencies = currencies.sorted()
      switch flavor {
      case .beancount:
        head.append("plugin \"beancount.plugins.check_commodity\"")
        head.append("")
        for currency in sortedCurrencies { head.append("1970-01-01 commodity \(currency.code)") }
        let opened = firstDate ?? CalendarDate(daysSinceEpoch: 0)
        let codes = sortedCurrencies.map(\.code).joined(separator: ",")
        for account in accounts.sorted() { head.append("\(opened) open \(account)  \(codes)") }
      case .ledger:
        for currency in sortedCurrencies {
          head.append("commodity \(currency.code)")
          if currency.exponent > 0 {
            head.append("    format 1000.\(String(repeating: "0", count: currency.exponent)) \(currency.code)")
          }
        }
        for account in accounts.sorted() { head.append("account \(account)") }
        let tags = MetaKey.allCases.filter { usedKeys & (1 << UInt32($0.rawValue)) != 0 }.map { "\($0.name)" }
        for tag in tags.sorted() { head.append("tag \(tag)") }
      default:
        head.append("decimal-mark .")
        for currency in sortedCurrencies {
          head.append("commodity 1000.\(String(repeating: "0", count: currency.exponent)) \(currency.code)")
        }
        for account in accounts.sorted() { head.append("account \(account)") }
      }
      head.append("")
    }
    sink.write(head.joined(separator: "\n") + "\n")
    opening.copy(to: &sink)
    body.copy(to: &sink)
  }

  private mutating func settle(_ transfer: Transfer, on date: CalendarDate) {
    let postings = postings(from: transfer.from, to: transfer.to, units: transfer.amount.minorUnits)
    guard !postings.isEmpty else { return }
    self.transfer(
      postings, currency: transfer.amount.currency, on: date, pending: true,
      title: "Settlement: \(transfer.from) pays \(transfer.to)",
      comment: "suggested, not yet paid: \(transfer.from) pays \(transfer.to) \(transfer.amount)",
      meta: (.settlement, "\(transfer.from) -> \(transfer.to)"))
  }

  /// What was carried from before the period, one transaction a currency on its first day: the
  /// accounts carried, and in a person's own books `Equity:Opening-Balances` for the rest.
  private mutating func writeOpening(on date: CalendarDate) {
    for currency in carriedCurrencies {
      var postings = (carried[currency] ?? [:]).values.filter { $0.units != 0 }.sorted {
        $0.account.name < $1.account.name
      }
      .map { Posting(account: $0.account, units: $0.units, note: .none) }
      guard !postings.isEmpty else { continue }
      let rest = postings.reduce(0) { $0 + $1.units }
      if rest != 0 { postings.append(Posting(account: account("Equity:Opening-Balances"), units: -rest, note: .none)) }
      firstDate = min(firstDate ?? date, date)
      lastDate = max(lastDate ?? date, date)
      currencies.insert(currency)
      let flavor = flavor
      let title = "Opening balances"
      let comment = "carried from every bill and payment before \(date), in \(currency.code)"
      opening.append { bytes in
        bytes.append(atMost: 256 + comment.utf8.count + 2 * title.utf8.count) { out in
          out.write("; ")
          out.write(utf8: comment)
          out.write(0x0A)
          Self.head(flavor, date: date, pending: false, title: title, link: nil, to: &out)
        }
      }
      write(postings, currency: currency, into: opening)
    }
  }

  /// A payment made (cleared) or suggested (pending, `!`), or a conversion: a comment, its first
  /// line and one metadata value, if any, then `postings` in `currency`.
  private mutating func transfer(
    _ postings: [Posting], currency: Currency, on date: CalendarDate, pending: Bool, title: String, comment: String,
    meta item: (key: MetaKey, value: String)?
  ) {
    currencies.insert(currency)
    let value = item?.value ?? ""
    let comment = JournalSyntax.oneLine(comment)
    let flavor = flavor
    var meta = MetaLine(flavor: flavor, posting: false)
    body.append(on: date) { bytes in
      bytes.append(atMost: 256 + comment.utf8.count + 2 * title.utf8.count + 2 * value.utf8.count) { out in
        out.write("; ")
        out.write(utf8: comment)
        out.write(0x0A)
        Self.head(flavor, date: date, pending: pending, title: title, link: nil, to: &out)
        if let item {
          meta.key(item.key, into: &out)
          Self.text(flavor, value, to: &out)
        }
      }
    }
    usedKeys |= meta.used
    write(postings, currency: currency)
  }
}

/// Text rules of the three journal syntaxes.
enum JournalSyntax {

  /// Whether ``oneLine(_:)`` leaves `text` as it is, told without making anything: printable
  /// ASCII, no space or tab at either end.
  static func isPlainLine(_ text: String) -> Bool {
    guard let first = text.utf8.first, let last = text.utf8.last, first != 0x20, last != 0x20 else { return false }
    return ByteScan.isPrintableASCII(text)
  }

  /// Whether ``beancountLink(_:)`` leaves `text` as it is: `[A-Za-z0-9-_/.]` only, not all `-`.
  static func isPlainLink(_ text: String) -> Bool {
    var onlyDashes = true
    for byte in text.utf8 {
      switch byte {
      case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x5F, 0x2F, 0x2E: onlyDashes = false
      case 0x2D: break
      default: return false
      }
    }
    return !onlyDashes
  }

  /// One line, without control characters.
  static func oneLine(_ text: String) -> String {
    // Nearly always nothing to replace or trim: decided on the bytes. Control characters are
    // below 0x20 or 0x7F in one byte, C1 controls C2 80…9F, the bidi marks E2 80 AA…AE and
    // E2 81 A6…A9: any byte of 0x7F or above goes the slow way.
    if isPlainLine(text) { return text }
    // Not ASCII, but nothing to replace and nothing to trim (names and descriptions with accents).
    if let first = text.utf8.first, let last = text.utf8.last, first != 0x20, first != 0x09, last != 0x20,
      last != 0x09, !TextBytes.hasControlOrBidi(text)
    {
      return text
    }
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar.isControlOrBidiOverride {
        out += " "
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out.trimmingSpaces
  }

  /// A payee/description for hledger and Ledger: one line, no `;` (it would start a comment).
  static func payee(_ text: String) -> String {
    let line = oneLine(text).replacingAll(";", ",")
    return line.isEmpty ? "bill" : line
  }

  /// A Beancount link body: ASCII `[A-Za-z0-9-_/.]` only; `nil` when nothing is left.
  static func beancountLink(_ text: String) -> String? {
    var out = ""
    for scalar in text.unicodeScalars {
      let ok =
        scalar.isASCII
        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_/.".unicodeScalars.contains(scalar))
      out += ok ? String(scalar) : "-"
    }
    return out.allSatisfy { $0 == "-" } ? nil : out
  }
}

/// Maps people's names to account name components, the same name always to the same component and
/// two names never to one.
///
/// hledger and Ledger: the NFC name with `:` (the separator) and runs of white space made safe.
/// Beancount (its lexer wants `[A-Z0-9 or non-ASCII][A-Za-z0-9- or non-ASCII]*`): the first letter
/// upper-cased, runs of other ASCII characters (space, `'`, `.`, `_`) turned into `-`, and an `X-`
/// prefix when the first character is still not an upper-case letter or digit. A component already
/// taken by another name gets `-2`, `-3`… in order of first appearance.
struct AccountNamer {
  let beancount: Bool
  private var byName: [String: String] = [:]
  private var taken: Set<String> = []

  init(beancount: Bool) { self.beancount = beancount }

  mutating func component(_ name: String) -> String {
    if let known = byName[name] { return known }
    let base = beancount ? Self.beancountComponent(name) : Self.plainComponent(name)
    var candidate = base
    var suffix = 2
    while taken.contains(candidate) {
      candidate = "\(base)-\(suffix)"
      suffix += 1
    }
    taken.insert(candidate)
    byName[name] = candidate
    return candidate
  }

  static func plainComponent(_ name: String) -> String {
    var out = ""
    var lastWasSpace = false
    for scalar in name.unicodeScalars {
      if scalar == ":" {
        out += "-"
        lastWasSpace = false
      } else if scalar.properties.isWhitespace || scalar.value < 0x20 || scalar == ";" {
        if !lastWasSpace && !out.isEmpty { out += " " }
        lastWasSpace = true
      } else {
        out.unicodeScalars.append(scalar)
        lastWasSpace = false
      }
    }
    out = out.trimmingSpaces
    return out.isEmpty ? "Unknown" : out
  }

  static func beancountComponent(_ name: String) -> String {
    var out = ""
    var lastWasDash = false
    for scalar in name.unicodeScalars {
      let allowed =
        !scalar.isASCII
        ? !scalar.properties.isWhitespace && scalar.value >= 0xA0
        : (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
      if allowed {
        out.unicodeScalars.append(scalar)
        lastWasDash = false
      } else if !lastWasDash && !out.isEmpty {
        out += "-"
        lastWasDash = true
      }
    }
    while out.hasSuffix("-") { out.removeLast() }
    if let first = out.first {
      out = String(first).uppercased() + out.dropFirst()
    }
    let firstScalar = out.unicodeScalars.first
    let startsWell = firstScalar.map { $0.properties.isUppercase || ("0"..."9").contains($0) } ?? false
    return startsWell ? out : "X-" + out
  }
}
