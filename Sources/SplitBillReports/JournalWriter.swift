import SplitBillCore

/// What the journal writers are asked for.
package struct JournalOptions: Sendable {
  /// Add the suggested settlements as pending (`!`) transfers.
  package var withSettlements: Bool
  /// Write this person's own books instead of the group journal.
  package var booksOf: String?
  /// Emit account, commodity and tag declarations (leave them out for appending).
  package var declarations: Bool

  /// Creates options.
  package init(withSettlements: Bool = false, booksOf: String? = nil, declarations: Bool = true) {
    self.withSettlements = withSettlements
    self.booksOf = booksOf
    self.declarations = declarations
  }
}

/// Plain-text-accounting journals for hledger, Ledger and Beancount: each bill a balanced
/// transaction with its id, tip, total and absorbed leftover as metadata.
///
/// Group journal (default): each share to `Expenses:Dining:<Name>` (anonymous diners to
/// `Expenses:Dining:Unnamed`), the total from `Equity:Paid:<Payer>` (`Equity:Unpaid` without a
/// payer). A person's balance is then minus the sum of their two accounts.
/// `--books-of NAME`: that person's own books, in the shape plain-text-accounting users import:
/// their share to `Expenses:Dining`, others' shares to `Assets:Receivables:<Name>` (one net account
/// each: positive means they owe NAME), what NAME paid from `Assets:Cash`, and a bill someone else
/// paid as NAME's share owed to them.
/// One posting: account, amount, metadata. (Outside the generic writer: a type nested in it is
/// generic too, and its arrays' metadata was looked up at run time for every bill.)
private struct Posting {
  var account: String
  var amount: Money
  var meta: [(String, MetaValue)]
}

/// A metadata value of a transaction or posting.
private enum MetaValue {
  case text(String)
  case number(String)
  case money(Money)
}

/// Suggested settlements go in only with `--with-settlements`, as pending (`!`) transfers dated with
/// the last bill's date, so no one's books show a debt as paid before it is.
package struct JournalWriter<Sink: OutputSink>: ReportWriter {
  private var sink: Sink
  private let flavor: ReportFormat
  private let options: JournalOptions
  private let body = SpoolSink()
  private var namer: AccountNamer
  private var accounts: Set<String> = []
  private var currencies: Set<Currency> = []
  private var tags: Set<String> = []
  private var firstDate: CalendarDate?
  private var lastDate: CalendarDate?

  /// Writes `flavor` (hledger, ledger or beancount) to `sink` when the report finishes.
  package init(sink: Sink, flavor: ReportFormat, options: JournalOptions) {
    self.sink = sink
    self.flavor = flavor
    self.options = options
    self.namer = AccountNamer(beancount: flavor == .beancount)
  }

  package mutating func write(_ reported: ReportedBill) {
    let bill = reported.bill
    let split = reported.split
    guard let date = bill.date else { return }
    firstDate = min(firstDate ?? date, date)
    lastDate = max(lastDate ?? date, date)
    var postings: [Posting] = []
    let payer = split.payer
    func shareMeta(_ share: Share) -> [(String, MetaValue)] {
      var meta: [(String, MetaValue)] = [("diner", .text(share.person)), ("weight", .number(share.weight.description))]
      if share.absorbed > 0 {
        meta.append(("absorbs", .money(Money(minorUnits: Int64(share.absorbed), currency: split.currency))))
      }
      return meta
    }
    if let me = options.booksOf {
      let mine = split.anonymousDiners ? nil : split.shares.first { $0.person == me }
      if payer == me {
        if split.anonymousDiners {
          postings.append(
            Posting(
              account: "Expenses:Dining", amount: split.total, meta: [("diners", .number("\(split.shares.count)"))]))
        } else {
          for share in split.shares {
            let account = share.person == me ? "Expenses:Dining" : "Assets:Receivables:" + namer.component(share.person)
            postings.append(Posting(account: account, amount: share.amount, meta: shareMeta(share)))
          }
        }
        postings.append(Posting(account: "Assets:Cash", amount: negate(split.total), meta: [("payer", .text(me))]))
      } else if let mine {
        postings.append(Posting(account: "Expenses:Dining", amount: mine.amount, meta: shareMeta(mine)))
        let other = payer.map { "Assets:Receivables:" + namer.component($0) } ?? "Liabilities:Unpaid"
        postings.append(
          Posting(account: other, amount: negate(mine.amount), meta: payer.map { [("payer", .text($0))] } ?? []))
      } else {
        return  // neither a diner nor the payer: not in these books
      }
    } else {
      for share in split.shares {
        let account = "Expenses:Dining:" + (split.anonymousDiners ? "Unnamed" : namer.component(share.person))
        postings.append(Posting(account: account, amount: share.amount, meta: shareMeta(share)))
      }
      let funding = payer.map { "Equity:Paid:" + namer.component($0) } ?? "Equity:Unpaid"
      postings.append(
        Posting(account: funding, amount: negate(split.total), meta: payer.map { [("payer", .text($0))] } ?? []))
    }

    var meta: [(String, MetaValue)] = [("bill", .text(bill.id))]
    if let percent = split.tipPercent { meta.append(("tip", .text(percent.description))) }
    meta += [("subtotal", .money(split.amount)), ("tipamount", .money(split.tip)), ("total", .money(split.total))]
    let absorbers = split.shares.filter { $0.absorbed > 0 }
    if !absorbers.isEmpty {
      let units = absorbers.reduce(0) { $0 + $1.absorbed }
      meta.append(("leftover", .money(Money(minorUnits: Int64(units), currency: split.currency))))
      meta.append(("leftover-to", .text(absorbers.map(\.person).joined(separator: " "))))
    }
    if split.leftoverToTip.minorUnits > 0 { meta.append(("leftover-to-tip", .money(split.leftoverToTip))) }
    var comments = [
      "\(bill.id): \(split.amount) + tip \(split.tip) = \(split.total), leftover policy \(split.leftoverPolicy.rawValue)"
    ]
    if let advice = reported.advice {
      comments.append(
        "tip advice (\(advice.advisor)\(advice.fallback ? ", fallback" : "")): \(advice.percent) \(advice.reason)")
    }
    transaction(
      date: date, pending: false, title: bill.description ?? bill.id, link: bill.id, meta: meta, postings: postings,
      comments: comments)
  }

  private func negate(_ money: Money) -> Money { Money(minorUnits: -money.minorUnits, currency: money.currency) }

  private mutating func transaction(
    date: CalendarDate, pending: Bool, title: String, link: String?, meta: [(String, MetaValue)], postings: [Posting],
    comments: [String]
  ) {
    for posting in postings {
      accounts.insert(posting.account)
      currencies.insert(posting.amount.currency)
    }
    var lines = comments.map { "; " + JournalSyntax.oneLine($0) }
    let flag = pending ? "!" : "*"
    let width = max(36, (postings.map { $0.account.count }.max() ?? 0) + 2)
    switch flavor {
    case .beancount:
      let safeLink = link.flatMap(JournalSyntax.beancountLink)
      lines.append(
        "\(date) \(flag) \(JournalSyntax.quoted(JournalSyntax.oneLine(title)))"
          + (safeLink.map { " ^bill-" + $0 } ?? ""))
      for (key, value) in meta { lines.append("  \(key): \(render(value))") }
      for posting in postings {
        lines.append(
          "  " + TerminalText.pad(posting.account, to: width, alignment: .left) + "  " + amount(posting.amount))
        for (key, value) in posting.meta { lines.append("    \(key): \(render(value))") }
      }
    case .ledger:
      lines.append("\(date) \(flag) \(JournalSyntax.payee(title))")
      for (key, value) in meta {
        tags.insert(key)
        lines.append("    ; \(key): \(render(value))")
      }
      for posting in postings {
        lines.append(
          "    " + TerminalText.pad(posting.account, to: width, alignment: .left) + "  " + amount(posting.amount))
        for (key, value) in posting.meta {
          tags.insert(key)
          lines.append("    ; \(key): \(render(value))")
        }
      }
    default:
      let head = meta.prefix(2).map { "\($0.0):\(render($0.1))" }.joined(separator: ", ")
      lines.append("\(date) \(flag) \(JournalSyntax.payee(title))  ; \(head)")
      if meta.count > 2 {
        lines.append("    ; " + meta.dropFirst(2).map { "\($0.0):\(render($0.1))" }.joined(separator: ", "))
      }
      for posting in postings {
        var line =
          "    " + TerminalText.pad(posting.account, to: width, alignment: .left) + "  " + amount(posting.amount)
        if !posting.meta.isEmpty {
          line += "  ; " + posting.meta.map { "\($0.0):\(render($0.1))" }.joined(separator: ", ")
        }
        lines.append(line)
      }
    }
    body.write(lines.joined(separator: "\n") + "\n\n")
  }

  private func amount(_ money: Money) -> String {
    let text = money.decimalString + " " + money.currency.code
    // ASCII: a column per byte.
    return TerminalText.spaces(16 - text.utf8.count) + text
  }

  private func render(_ value: MetaValue) -> String {
    switch value {
    case .money(let money): return money.decimalString + " " + money.currency.code
    case .number(let text): return text
    case .text(let text):
      switch flavor {
      case .beancount: return JournalSyntax.quoted(JournalSyntax.oneLine(text))
      case .ledger: return JournalSyntax.oneLine(text)
      default: return JournalSyntax.oneLine(text).replacingAll(",", " ")  // hledger tag values end at a comma
      }
    }
  }

  package mutating func finish(_ summary: ReportSummary) {
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
    body.copy(to: &sink)
  }

  private mutating func settle(_ transfer: Transfer, on date: CalendarDate) {
    let title = "Settlement: \(transfer.from) pays \(transfer.to)"
    let meta: [(String, MetaValue)] = [("settlement", .text("\(transfer.from) -> \(transfer.to)"))]
    var postings: [Posting] = []
    if let me = options.booksOf {
      if transfer.from == me {
        postings = [
          Posting(account: "Assets:Receivables:" + namer.component(transfer.to), amount: transfer.amount, meta: []),
          Posting(account: "Assets:Cash", amount: negate(transfer.amount), meta: []),
        ]
      } else if transfer.to == me {
        postings = [
          Posting(account: "Assets:Cash", amount: transfer.amount, meta: []),
          Posting(
            account: "Assets:Receivables:" + namer.component(transfer.from), amount: negate(transfer.amount), meta: []),
        ]
      } else {
        return
      }
    } else {
      postings = [
        Posting(account: "Equity:Paid:" + namer.component(transfer.from), amount: negate(transfer.amount), meta: []),
        Posting(account: "Equity:Paid:" + namer.component(transfer.to), amount: transfer.amount, meta: []),
      ]
    }
    transaction(
      date: date, pending: true, title: title, link: nil, meta: meta, postings: postings,
      comments: ["suggested, not yet paid: \(transfer.from) pays \(transfer.to) \(transfer.amount)"])
  }
}

/// Text rules of the three journal syntaxes.
enum JournalSyntax {

  /// One line, without control characters.
  static func oneLine(_ text: String) -> String {
    // Nearly always nothing to replace or trim: decided on the bytes. Control characters are
    // below 0x20 or 0x7F in one byte, C1 controls C2 80…9F, the bidi marks E2 80 AA…AE and
    // E2 81 A6…A9: any byte of 0x7F or above goes the slow way.
    if let first = text.utf8.first, let last = text.utf8.last, first != 0x20, first != 0x09, last != 0x20,
      last != 0x09, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
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

  /// A Beancount string literal.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      if scalar == "\"" || scalar == "\\" { out += "\\" }
      out.unicodeScalars.append(scalar)
    }
    return out + "\""
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
