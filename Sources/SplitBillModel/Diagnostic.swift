import SplitBillCore
import SplitBillText

/// A problem found in the input, located like a compiler's: what was wrong (``Problem``, with a
/// stable ``code``), where, and whether it makes a bill invalid.
package struct Diagnostic: Error, Hashable, Sendable {
  /// Errors make a bill invalid; warnings fail only with `--strict`; notes (an import's remarks)
  /// never fail anything.
  package enum Severity: String, Sendable, Hashable {
    case error, warning, note
  }

  /// Error or warning.
  package var severity: Severity
  /// Where, when known (an unreadable file has no line).
  package var location: SourceLocation?
  /// What was wrong, with the values the message is made of.
  package var problem: Problem
  /// How many more problems of this kind the same line has (reported once, with the count).
  package var repeats = 0

  /// The stable code of the problem (`amount.decimals`): for programs, `check --format json`.
  package var code: String { problem.code }
  /// What was wrong and what was expected, for people.
  package var message: String {
    guard repeats > 0 else { return problem.message }
    return problem.message + " (and \(repeats) more like it on this line, not listed)"
  }

  /// The importer's code, when an importer found it.
  package var importCode: ImportCode? {
    if case .imported(let code, _) = problem { return code }
    return nil
  }

  /// How many problems of one kind on one line are listed; the last one listed counts the rest.
  package static let keptPerLine = 3

  /// `diagnostics` with at most ``keptPerLine`` problems of one kind on one line, the last of
  /// them counting the rest in ``repeats`` (as ``Diagnosing`` keeps a bill's), in order.
  package static func coalesced(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    var kept: [Diagnostic] = []
    var sofar: [String: (count: Int, last: Int)] = [:]
    for diagnostic in diagnostics {
      guard let location = diagnostic.location, !location.isWholeFile else {
        kept.append(diagnostic)
        continue
      }
      let kind = "\(diagnostic.code) \(location.file):\(location.line)"
      if let seen = sofar[kind], seen.count == keptPerLine {
        kept[seen.last].repeats += 1 + diagnostic.repeats
      } else {
        sofar[kind] = ((sofar[kind]?.count ?? 0) + 1, kept.count)
        kept.append(diagnostic)
      }
    }
    return kept
  }

  /// Creates a diagnostic.
  package init(_ severity: Severity, _ problem: Problem, at location: SourceLocation?) {
    self.severity = severity
    self.location = location
    self.problem = problem
  }

  /// An error at `location`.
  package static func error(_ problem: Problem, at location: SourceLocation?) -> Diagnostic {
    Diagnostic(.error, problem, at: location)
  }

  /// A warning at `location`.
  package static func warning(_ problem: Problem, at location: SourceLocation?) -> Diagnostic {
    Diagnostic(.warning, problem, at: location)
  }
}

/// What a record of an input file is.
package enum RecordKind: String, Hashable, Sendable {
  case bill, payment
}

/// Every problem the readers and the rules can find, with what its message needs. The wording is
/// here and nowhere else (``message``), but an importer's (``imported(_:_:)``), worded where the
/// export's row is understood; programs match on ``code``, which never changes once released
/// (docs/format.md and docs/import.md list them all).
package enum Problem: Hashable, Sendable {
  // MARK: Files
  /// A path that cannot be opened; `reason` is the system's.
  case cannotRead(path: String, reason: String)
  /// A path whose extension names no format.
  case unknownFormat(path: String)
  /// A file given twice (named twice, or also found in a directory given); it is read once.
  case givenTwice(path: String, first: String)
  /// Reading failed part-way; `reason` is the system's.
  case readingStopped(reason: String)
  /// Bytes that are not UTF-8 (`detail` is libyaml's words).
  case invalidUTF8(detail: String)
  /// Text libyaml refuses (control characters), in its words.
  case unreadableText(detail: String)

  // MARK: YAML structure
  /// libyaml's syntax error, in its words, and where its context started.
  case yamlSyntax(problem: String, context: String?, contextLine: Int)
  /// libyaml ran out of memory.
  case yamlOutOfMemory
  /// The stream ended inside a node.
  case unexpectedEnd
  /// More nesting than the reader takes.
  case tooDeep(limit: Int)
  /// An alias whose anchor is not defined before it.
  case unknownAlias(String)
  /// Aliases that expand past the reader's bound.
  case aliasesExpandTooFar(limit: Int)
  /// A merge key whose value is not mappings; `shape` describes it when it is a scalar.
  case mergeKeyValue(shape: String?)
  /// More after the document's node.
  case contentAfterDocument
  /// An event the reader does not expect.
  case unexpectedStructure
  /// A bill whose aliases expand to more text than a bill may hold.
  case billExpandsTooFar(mebibytes: Int)
  /// A top-level key given twice.
  case repeatedTopKey(String)
  /// `version`, `defaults` or `people` after `bills`.
  case headerAfterBills(String)
  /// A top-level key outside the format; `guess` is the key it looks like a typo of.
  case unknownTopKey(String, guess: String?)
  /// A document that is neither a mapping nor a list of bills.
  case documentShape(String)
  /// A configuration file's node of the wrong shape: what was expected, what was found.
  case configShape(String, found: String)
  /// A configuration key that is no option of any command; `guess` is the one it looks like.
  case configUnknownKey(String, guess: String?)
  /// A configuration value the option refuses, in the option's words.
  case configValue(key: String, message: String)
  /// The API key in a configuration file readable by others.
  case configKeyExposed(mode: String)
  /// The API key's text used elsewhere in a configuration file (through an alias, an anchor, a
  /// merge or a copy): under the key named, or as a key (`nil`). Nothing of it is shown.
  case configSecretElsewhere(key: String?)
  /// Standard input read as YAML failed, and its first line looks like a CSV header.
  case standardInputLooksLikeCSV(header: String)
  /// A problem or a remark of an importer, worded where the export's row is understood.
  case imported(ImportCode, String)
  /// `bills` that is not a list.
  case billsShape(String)
  /// `payments` that is not a list.
  case paymentsShape(String)
  /// `defaults` that is not a mapping.
  case defaultsShape(String)
  /// A `version` other than 1, described.
  case unsupportedVersion(String)
  /// `people` that is not a list of names, described.
  case rosterShape(String)
  /// An empty name in `people`.
  case rosterEmptyName
  /// A name given twice in `people`.
  case rosterRepeated(String, first: SourceLocation)
  /// An entry of `people` that is neither a name nor a mapping with `name`, described.
  case payeeEntry(String)
  /// A person's `iban` that is not an IBAN, and why.
  case payeeIBAN(String, IBAN.Problem)
  /// A person's `bic` that is not a BIC's shape.
  case payeeBIC(String)
  /// A person's payment `link` that is not an https address.
  case payeeLink(String)
  /// A person's `holder` (the account's name in the QR code) empty or over 70 characters.
  case payeeHolder(String)
  /// A person whose payment details differ from those given earlier (another file, the configuration).
  case payeeDetailsDiffer(String, first: SourceLocation?)

  // MARK: CSV structure
  /// A header cell that names no key.
  case unknownColumn(String, guess: String?)
  /// A column given twice.
  case repeatedColumn(String, first: SourceLocation)
  /// A header without the `amount` column.
  case noAmountColumn
  /// A header cell of a payments file that names no payment key.
  case unknownPaymentColumn(String, guess: String?)
  /// A row with more or fewer cells than the header.
  case cellCount(cells: Int, columns: Int)
  /// A quote never closed.
  case unterminatedQuote
  /// Text after a closing quote.
  case textAfterQuote
  /// A quote inside an unquoted cell.
  case strayQuote
  /// A CSV row of more cells than a row may have: the limit.
  case tooManyCells(limit: Int)
  /// A cell that is not UTF-8.
  case invalidUTF8InColumn(String)

  // MARK: Keys
  /// A bill that is not a mapping, described.
  case billShape(String)
  /// A key that is not a plain name, described.
  case keyShape(String)
  /// A key outside the format in `place` ("bill", "defaults"); `guess` is the key it looks like a
  /// typo of, else `allowed` are listed.
  case unknownKey(String, place: String, allowed: [String], guess: String?)
  /// A key given twice in `place`.
  case repeatedKey(String, place: String, first: SourceLocation)
  /// A list or mapping where a single value belongs.
  case notSingleValue(key: String, shape: String)
  /// A required key that is not there.
  case missingKey(BillKey)
  /// A default a bill needs is invalid (the default's own problem is reported where it is).
  case invalidDefault(key: String, at: SourceLocation)

  // MARK: Values
  /// An empty id.
  case emptyID
  /// A date that is not `YYYY-MM-DD` (`isoShaped` false) or not a real day (true).
  case invalidDate(String, isoShaped: Bool)
  /// An unknown currency; `guess` is the code it looks like a typo of.
  case unknownCurrency(String, guess: String?)
  /// An empty amount.
  case emptyAmount
  /// An amount or fixed tip that is refused (the field, and why).
  case invalidMoney(field: String, MoneyError)
  /// A percentage tip that is refused.
  case invalidTip(PercentError)
  /// Both `tip` and `tip_amount`.
  case bothTips
  /// No tip given and no default.
  /// No tip anywhere; `inCSV`: the bill is a CSV row (which has no file defaults to suggest).
  case noTip(inCSV: Bool)
  /// No currency anywhere (the record, its file's defaults, `--currency`): never a guess.
  case noCurrency(inCSV: Bool, kind: RecordKind)
  /// A choice (`leftover`, `rounding`) outside its values; `guess` is the one it looks like.
  case invalidChoice(key: String, text: String, choices: [String], guess: String?)

  // MARK: People
  /// A diners scalar that is not a whole number.
  case notAHeadCount(String)
  /// A head count below one.
  case tooFewDiners(Int)
  /// Diners of a shape they do not take, described.
  case dinersShape(String)
  /// An empty list of diners.
  case noDiners
  /// An empty name among the diners.
  case emptyDinerName
  /// A diner named twice.
  case repeatedDiner(String, first: SourceLocation)
  /// A weight that is refused, for the diner named as written.
  case invalidWeight(SplitError, diner: String)
  /// A person not in `people` (`role`: "diner", "paid_by"); `guess` is the name it looks like,
  /// else the roster is listed.
  /// (The suggestion is looked for when the message is worded: problems of one kind on one line
  /// are kept once, and a bill of 2,000 unknown names would otherwise compare each with the roster.)
  case notInRoster(role: String, name: String, roster: [String], guess: String?)
  /// An empty payer.
  case emptyPayer
  /// A bill paid by a person whose diners are a head count (warning): the payer's money moves no
  /// one's balance, since nobody named ate.
  case headCountPaidByPerson(payer: String, count: Int)
  /// A `# REVIEW` comment `scan` left on a bill that did not add up, not yet removed (warning):
  /// `note` is what it says.
  case receiptToReview(note: String)
  /// A `whole_units` default that is not currency codes: what was found.
  case wholeUnitsValue(String)
  /// A record of a currency kept in whole units where an earlier record of the run kept it in
  /// minor units, or the other way round.
  case currencyUnitsDiffer(code: String, wholeHere: Bool, first: SourceLocation)
  /// A name listed twice under `key` (paid_by, shares).
  case repeatedName(key: String, name: String, first: SourceLocation)
  /// A name under `key` (paid_by, shares) without its amount.
  case namedAmountMissing(key: String, name: String)
  /// A bill with both `shares` and `diners`.
  case sharesWithDiners
  /// `shares` that is not a mapping of names to amounts, described.
  case sharesShape(String)
  /// A split rule the bill breaks (too many diners, the payer policy, a split that failed).
  case split(SplitError)
  /// `items` that is not a list.
  case itemsShape(String)
  /// An item that is not a mapping, or an item key of a shape it does not take.
  case itemShape(key: String?, shape: String)
  /// An item key outside the format.
  case unknownItemKey(String, guess: String?)
  /// An item without `name` or `price`.
  case itemMissing(key: String)
  /// An item price that is not an amount.
  case itemPrice(item: String, MoneyError)
  /// A quantity that is not a positive number.
  case itemQuantity(item: String, SplitError)
  /// An item for somebody who is not a diner.
  case itemSharerNotDiner(item: String, person: String, guess: String?)
  /// A name twice in an item's `for`.
  case itemSharerRepeated(item: String, person: String)
  /// An item sharer's weight that is not a positive number.
  case itemWeight(item: String, SplitError)
  /// A discount, service or tax that is neither a percentage nor an amount.
  case adjustment(key: String, text: String)
  /// A receipt key on a bill without items.
  case adjustmentWithoutItems(key: String)
  /// A yes/no key whose value is neither.
  case notAFlag(key: String, text: String)
  /// A row of an items file for a bill its bills file does not have.
  case orphanItem(bill: String)
  /// An items file that cannot be matched with bills.
  case itemsFile(String)

  // MARK: Payments
  /// A payment that is not a mapping, described.
  case paymentShape(String)
  /// A payment without `from`, `to` or `amount` (or with it empty).
  case paymentMissing(key: String)
  /// A payment from someone to themselves.
  case paymentToSelf(String)
  /// A payment of zero.
  case paymentNotPositive(String)

  // MARK: Across bills and runs
  /// An id used before, at `first`, by a bill or a payment; `kind` is what repeats it.
  case repeatedID(String, first: SourceLocation, kind: RecordKind = .bill)
  /// A bill with the same date, amount, currency, payer and people as an earlier one.
  case probableDuplicateReceipt(id: String, firstID: String, first: SourceLocation)
  /// A name that looks like another of the run (no roster to tell): a misspelling, most likely.
  case similarNames(String, like: String, first: SourceLocation)
  /// A category spelt like another of the run (at `first`) or a common one (`first` nil).
  case similarCategories(String, like: String, first: SourceLocation?)
  /// A bill or payment without a date where the run needs one (`journal`: for a journal, else a
  /// date filter).
  case missingDate(id: String, journal: Bool, kind: RecordKind = .bill)

  // MARK: Rates and settling in one currency
  /// A rate, a rates section or a rates file that is wrong.
  case rate(RateProblem)
  /// A bill or payment in a currency with no rate into the settlement currency on its day.
  case missingRate(id: String, kind: RecordKind, from: Currency, to: Currency, date: CalendarDate?)
  /// Rates whose exact product does not fit 128 bits.
  case rateTooPrecise(id: String, from: Currency, to: Currency)
  /// A record with which the run's amounts in `currency` (converted into it, when `converted`)
  /// would pass what 64-bit sums hold.
  case runTooLarge(id: String, kind: RecordKind, currency: Currency, converted: Bool)
  /// Records in `currency` converted at a rate older than `limit` days on their day (a bill after
  /// a rates file's last day): the oldest, `days` old, `id` of `recordDate` at the rate of
  /// `rateDate` from `origin`.
  case staleRate(
    currency: Currency, days: Int, limit: Int, id: String, kind: RecordKind, recordDate: CalendarDate,
    rateDate: CalendarDate, origin: String, recordDays: Int)
  /// A recurring bill's `repeat` that is wrong.
  case recurrence(RecurrenceProblem)
  /// A `cash_rounding` default that is not a mapping of currencies to increments: its shape.
  case cashRoundingShape(String)
  /// A `cash_rounding` key that is no currency.
  case cashRoundingCurrency(String)
  /// A `cash_rounding` increment that is not a positive amount in its currency's digits: its shape.
  case cashRoundingIncrement(Currency, shape: String)

  /// What is wrong with `text`, a date that did not parse: not `YYYY-MM-DD`, or not a real day.
  package static func badDate(_ text: String) -> Problem {
    .invalidDate(text, isoShaped: text.utf8.count == 10 && text.split(separator: "-").count == 3)
  }

  /// `text`, a currency code that is not one, with the code it looks like a typo of.
  package static func badCurrency(_ text: String) -> Problem {
    .unknownCurrency(text, guess: Spelling.suggestion(for: text.uppercased(), among: Currency.allCodes))
  }

  /// The stable code, `field.problem` (`amount.decimals`, `diners.unknown-person`).
  package var code: String {
    switch self {
    case .cannotRead: return "file.unreadable"
    case .unknownFormat: return "file.format"
    case .givenTwice: return "file.twice"
    case .readingStopped: return "file.read-error"
    case .invalidUTF8: return "file.utf8"
    case .unreadableText: return "file.text"
    case .yamlSyntax: return "yaml.syntax"
    case .yamlOutOfMemory: return "yaml.memory"
    case .unexpectedEnd: return "yaml.end"
    case .tooDeep: return "yaml.depth"
    case .unknownAlias: return "yaml.alias"
    case .aliasesExpandTooFar: return "yaml.alias-expansion"
    case .mergeKeyValue: return "yaml.merge"
    case .contentAfterDocument: return "yaml.trailing-content"
    case .unexpectedStructure: return "yaml.structure"
    case .billExpandsTooFar: return "yaml.bill-expansion"
    case .repeatedTopKey: return "file.duplicate-key"
    case .headerAfterBills: return "file.key-order"
    case .unknownTopKey: return "file.unknown-key"
    case .documentShape: return "file.shape"
    case .standardInputLooksLikeCSV: return "stdin.csv"
    case .imported(let code, _): return code.rawValue
    case .configShape: return "config.shape"
    case .configUnknownKey: return "config.unknown-key"
    case .configValue: return "config.value"
    case .configKeyExposed: return "config.key-exposed"
    case .configSecretElsewhere: return "config.secret-elsewhere"
    case .billsShape: return "bills.shape"
    case .paymentsShape: return "payments.shape"
    case .defaultsShape: return "defaults.shape"
    case .unsupportedVersion: return "version.unsupported"
    case .rosterShape: return "people.shape"
    case .rosterEmptyName: return "people.empty-name"
    case .rosterRepeated: return "people.repeated"
    case .payeeEntry: return "people.entry"
    case .payeeIBAN: return "people.iban"
    case .payeeBIC: return "people.bic"
    case .payeeLink: return "people.link"
    case .payeeHolder: return "people.holder"
    case .payeeDetailsDiffer: return "people.details-differ"
    case .unknownColumn: return "csv.unknown-column"
    case .repeatedColumn: return "csv.duplicate-column"
    case .noAmountColumn: return "csv.no-amount-column"
    case .unknownPaymentColumn: return "csv.unknown-column"
    case .cellCount: return "csv.cell-count"
    case .unterminatedQuote: return "csv.unterminated-quote"
    case .textAfterQuote: return "csv.text-after-quote"
    case .tooManyCells: return "csv.too-many-cells"
    case .strayQuote: return "csv.stray-quote"
    case .invalidUTF8InColumn: return "csv.utf8"
    case .billShape: return "bill.shape"
    case .keyShape: return "bill.key-shape"
    case .unknownKey(_, let place, _, _): return "\(place).unknown-key"
    case .repeatedKey(_, let place, _): return "\(place).duplicate-key"
    case .notSingleValue(let key, _): return "\(key).shape"
    case .missingKey(let key): return "\(key.name).missing"
    case .invalidDefault(let key, _): return "\(key).invalid-default"
    case .emptyID: return "id.empty"
    case .invalidDate(_, let isoShaped): return isoShaped ? "date.calendar" : "date.syntax"
    case .unknownCurrency: return "currency.unknown"
    case .emptyAmount: return "amount.empty"
    case .invalidMoney(let field, let error): return "\(field).\(error.code)"
    case .invalidTip(let error): return "tip.\(error.code)"
    case .bothTips: return "tip.conflict"
    case .noTip: return "tip.missing"
    case .noCurrency: return "currency.missing"
    case .invalidChoice(let key, _, _, _): return "\(key).unknown"
    case .notAHeadCount: return "diners.head-count"
    case .tooFewDiners: return "diners.too-few"
    case .dinersShape: return "diners.shape"
    case .noDiners: return "diners.empty"
    case .emptyDinerName: return "diners.empty-name"
    case .repeatedDiner: return "diners.repeated"
    case .invalidWeight(let error, _): return "diners.\(error.code)"
    case .notInRoster(let role, _, _, _): return role == "diner" ? "diners.unknown-person" : "\(role).unknown-person"
    case .emptyPayer: return "paid_by.empty"
    case .headCountPaidByPerson: return "paid_by.head-count"
    case .receiptToReview: return "scan.review"
    case .wholeUnitsValue: return "whole_units.invalid"
    case .currencyUnitsDiffer: return "currency.units-differ"
    case .repeatedName(let key, _, _): return "\(key).repeated"
    case .namedAmountMissing(let key, _): return "\(key).amount"
    case .sharesWithDiners: return "shares.with-diners"
    case .sharesShape: return "shares.shape"
    case .split(let error): return error.code
    case .itemsShape, .itemShape: return "items.shape"
    case .unknownItemKey: return "items.unknown-key"
    case .itemMissing: return "items.missing"
    case .itemPrice: return "items.price"
    case .itemQuantity: return "items.quantity"
    case .itemSharerNotDiner: return "items.not-a-diner"
    case .itemSharerRepeated: return "items.for-repeated"
    case .itemWeight: return "items.weight"
    case .adjustment: return "adjustment.syntax"
    case .adjustmentWithoutItems: return "adjustment.without-items"
    case .notAFlag(let key, _): return "\(key).syntax"
    case .orphanItem: return "items.orphan"
    case .itemsFile: return "items.file"
    case .paymentShape: return "payment.shape"
    case .paymentMissing(let key): return "\(key).missing"
    case .paymentToSelf: return "payment.self"
    case .paymentNotPositive: return "amount.not-positive"
    case .repeatedID: return "id.duplicate"
    case .probableDuplicateReceipt: return "receipt.duplicate"
    case .similarNames: return "names.similar"
    case .similarCategories: return "category.similar"
    case .missingDate: return "date.missing"
    case .rate(let problem): return problem.code
    case .missingRate: return "rate.missing"
    case .runTooLarge: return "amount.run-too-large"
    case .rateTooPrecise: return "rate.too-precise"
    case .staleRate: return "rate.stale"
    case .cashRoundingShape, .cashRoundingCurrency, .cashRoundingIncrement: return "cash_rounding.invalid"
    case .recurrence(let problem): return problem.code
    }
  }

  /// What was wrong and what was expected.
  package var message: String {
    switch self {
    case .cannotRead(let path, let reason): return "cannot read '\(path)': \(reason)"
    case .givenTwice(let path, let first):
      return path == first
        ? "'\(path)' is given twice: it is read once"
        : "'\(path)' is '\(first)' given again: it is read once"
    case .unknownFormat(let path):
      return "cannot tell the format of '\(path)': name it .yaml, .yml, .csv or .tsv, or pass --input-format yaml|csv"
    case .readingStopped(let reason): return "reading stopped: \(reason)"
    case .invalidUTF8(let detail): return "invalid UTF-8 (\(detail)): the file must be UTF-8 text"
    case .unreadableText(let detail): return "cannot read the text: \(detail)"
    case .yamlSyntax(let problem, let context, let contextLine):
      let raw = context.map { "\(problem) (\($0) at line \(contextLine))" } ?? problem
      guard let said = Self.yamlSyntaxInWords(problem, contextLine: context == nil ? nil : contextLine) else {
        return "YAML syntax error: \(raw)"
      }
      return "YAML syntax error: \(said) (libyaml: \(raw))"
    case .yamlOutOfMemory: return "out of memory while parsing YAML"
    case .unexpectedEnd: return "unexpected end of the YAML stream"
    case .tooDeep(let limit): return "the YAML nests deeper than \(limit) levels"
    case .unknownAlias(let anchor):
      return
        "unknown alias '*\(EchoedText.quote(anchor))': no anchor '&\(EchoedText.quote(anchor))' before it in this document"
    case .aliasesExpandTooFar(let limit):
      return
        "aliases expand to more than \(limit) nodes (a 'billion laughs' document?); refusing to expand them"
    case .mergeKeyValue(let shape):
      guard let shape else { return "the merge key '<<' takes a mapping or a list of mappings" }
      return "the merge key '<<' takes a mapping or a list of mappings, not \(shape)"
    case .contentAfterDocument: return "unexpected content after the document"
    case .unexpectedStructure: return "unexpected YAML structure"
    case .billExpandsTooFar(let mebibytes):
      return "this bill expands to more than \(mebibytes) MiB of text through aliases"
    case .repeatedTopKey(let key): return "duplicate key '\(EchoedText.quote(key))' in the file"
    case .headerAfterBills(let key):
      return
        "'\(EchoedText.quote(key))' must come before 'bills' and 'payments' in the file, so they can be read as they stream"
    case .unknownTopKey(let key, let guess):
      guard let guess else {
        return
          "unknown key '\(EchoedText.quote(key))' at the top of the file: expected version, defaults, people, bills or payments (or an x- key for anchors)"
      }
      return "unknown key '\(EchoedText.quote(key))' at the top of the file; did you mean '\(EchoedText.quote(guess))'?"
    case .documentShape(let shape): return "expected a mapping with 'bills' or a list of bills, found \(shape)"
    case .configShape(let expected, let found): return "expected \(expected), found \(EchoedText.quote(found))"
    case .configUnknownKey(let key, let guess):
      return "'\(EchoedText.quote(key))' is no option of splitbill"
        + (guess.map { "; did you mean '\($0)'?" }
          ?? ": keys are long option names without '--', such as 'currency' or 'default-tip'")
    case .configValue(let key, let message): return "\(key): \(message)"
    case .configSecretElsewhere(let key):
      return "the text of ai-key is also "
        + (key.map { "the value of '\($0)'" } ?? "a key of the file")
        + " (an alias, a merge or a copy): an API key belongs under ai-key only, and nothing of it is shown"
    case .configKeyExposed(let mode):
      return
        "the API key is in a file others can read (mode \(mode)): chmod 600 it, or keep the key in ai-key-file or the environment"
    case .imported(_, let message): return message
    case .standardInputLooksLikeCSV(let header):
      return "standard input was read as YAML, but its first line '\(EchoedText.quote(header))' looks like a CSV "
        + "header: give --input-format csv (and check the column names)"
    case .billsShape(let shape): return "'bills' must be a list of bills, found \(shape)"
    case .paymentsShape(let shape): return "'payments' must be a list of payments, found \(shape)"
    case .defaultsShape(let shape):
      return "'defaults' must be a mapping such as {currency: EUR, tip: 18%}, found \(shape)"
    case .unsupportedVersion(let version): return "unsupported version \(version): this splitbill reads version 1"
    case .rosterShape(let shape): return "people must be a list of names such as [Ana, Ben], found \(shape)"
    case .rosterEmptyName: return "empty name in people"
    case .rosterRepeated(let name, let first):
      return "'\(EchoedText.quote(name))' is listed twice in people (first at \(first))"
    case .payeeEntry(let shape):
      return
        "a person in people is a name, or a mapping such as {name: Ben, iban: DE89 3704 0044 0532 0130 00}, found \(shape)"
    case .payeeIBAN(let name, let problem):
      return "the iban of '\(EchoedText.quote(name))' is not an IBAN: \(problem)"
    case .payeeBIC(let name):
      return
        "the bic of '\(EchoedText.quote(name))' is not a BIC: expected 8 or 11 letters and digits such as COBADEFFXXX"
    case .payeeLink(let name):
      return
        "the link of '\(EchoedText.quote(name))' is not a payment link: expected an https:// address such as https://paypal.me/ben"
    case .payeeHolder(let name):
      return
        "the holder of '\(EchoedText.quote(name))' must be the account's name as the bank has it, 1 to 70 characters"
    case .payeeDetailsDiffer(let name, let first):
      let place = first.map { " at \($0)" } ?? " in the configuration"
      return
        "the payment details of '\(EchoedText.quote(name))' differ from those given\(place): give them once (the first are kept)"
    case .unknownColumn(let name, let guess):
      guard let guess else {
        return
          "unknown column '\(EchoedText.quote(name))' in the header: expected columns among \(BillField.billKeys.joined(separator: ", "))"
      }
      return "unknown column '\(EchoedText.quote(name))' in the header; did you mean '\(EchoedText.quote(guess))'?"
    case .repeatedColumn(let name, let first):
      return "duplicate column '\(EchoedText.quote(name))' in the header (first at \(first))"
    case .noAmountColumn: return "the header has no 'amount' column"
    case .unknownPaymentColumn(let name, let guess):
      guard let guess else {
        return
          "unknown column '\(EchoedText.quote(name))' in the header of a payments file: expected columns among \(PaymentField.keys.joined(separator: ", "))"
      }
      return
        "unknown column '\(EchoedText.quote(name))' in the header of a payments file; did you mean '\(EchoedText.quote(guess))'?"
    case .cellCount(let cells, let columns): return "row has \(cells) cells but the header has \(columns) columns"
    case .unterminatedQuote: return "unterminated quoted cell: the quote opened here is never closed"
    case .tooManyCells(let limit):
      return "the row has more than \(limit) cells; this is the first past them: expected a row per record, "
        + "with as many cells as the header (the rest of the row is not read)"
    case .textAfterQuote:
      return "unexpected text after a closing quote: a quoted cell ends at the quote (write \"\" for a quote inside it)"
    case .strayQuote:
      return "a quote inside an unquoted cell: quote the whole cell and double the quote (\"a \"\"b\"\" c\")"
    case .invalidUTF8InColumn(let name):
      return "invalid UTF-8 in column '\(EchoedText.quote(name))': the file must be UTF-8 text"
    case .billShape(let shape):
      return "a bill must be a mapping with keys such as amount, tip and diners, found \(shape)"
    case .keyShape(let shape): return "a key must be a plain name, found \(shape)"
    case .unknownKey(let key, let place, let allowed, let guess):
      guard let guess else {
        return "unknown key '\(EchoedText.quote(key))' in \(place): expected one of \(allowed.joined(separator: ", "))"
      }
      return "unknown key '\(EchoedText.quote(key))' in \(place); did you mean '\(EchoedText.quote(guess))'?"
    case .repeatedKey(let key, let place, let first):
      return "duplicate key '\(EchoedText.quote(key))' in \(place) (first given at \(first))"
    case .notSingleValue(let key, let shape): return "\(key) must be a single value, not \(shape)"
    case .missingKey(let key):
      return key == .diners
        ? "missing required key 'diners': a head count (3), a list of names, or name -> weight"
        : "missing required key '\(key.name)' (the bill before tip)"
    case .invalidDefault(let key, let location):
      return "this bill takes its \(key) from defaults, which is invalid (\(location))"
    case .emptyID: return "id is empty: leave it out for the default '<file>#<n>' or give a name"
    case .invalidDate(let text, let isoShaped):
      return isoShaped
        ? "date '\(EchoedText.quote(text))' is not a real calendar date"
        : "date '\(EchoedText.quote(text))' is not an ISO date: expected YYYY-MM-DD such as 2026-11-20"
    case .unknownCurrency(let code, let guess):
      let message = MoneyError.unknownCurrency(code).message(field: "currency")
      guard let guess else { return message }
      return message + "; did you mean '\(EchoedText.quote(guess))'?"
    case .emptyAmount: return "amount is empty: expected the bill before tip, such as 84.50"
    case .invalidMoney(let field, let error): return error.message(field: field)
    case .invalidTip(let error): return error.message(field: "tip") + " (or 'ai' for advice)"
    case .bothTips:
      return "tip and tip_amount are both given: a bill has exactly one of a percentage, a fixed tip, or 'ai'"
    case .noCurrency(let inCSV, let kind):
      return inCSV
        ? "no currency for this \(kind.rawValue): fill its 'currency' cell (EUR), adding the column if need be, or give --currency CODE (the configuration's currency: for every run)"
        : "no currency for this \(kind.rawValue): add 'currency: EUR', a 'currency' in the file's defaults, or --currency CODE (the configuration's currency: for every run)"
    case .noTip(let inCSV):
      return inCSV
        ? "no tip for this bill: fill its 'tip' (18%) or 'tip_amount' (5.00) cell, adding the column if need be, or give --default-tip (the configuration's default-tip: for every run)"
        : "no tip for this bill: add 'tip: 18%' or 'tip_amount: 5.00', a 'tip' in the file's defaults, or --default-tip"
    case .invalidChoice(let key, let text, let choices, let guess):
      let message = "\(key) '\(EchoedText.quote(text))' is not one of \(choices.joined(separator: ", "))"
      guard let guess else { return message }
      return message + "; did you mean '\(EchoedText.quote(guess))'?"
    case .notAHeadCount(let text):
      return
        "diners '\(EchoedText.quote(text))' is not a head count: expected a whole number, a list of names, or name -> weight"
    case .tooFewDiners(let count): return "diners is \(count): a bill needs at least one person to split it"
    case .dinersShape(let shape):
      return "diners must be a head count, a list of names, or name -> weight, not \(shape)"
    case .noDiners: return "diners is empty: a bill needs at least one person to split it"
    case .emptyDinerName: return "empty diner name"
    case .repeatedDiner(let name, let first):
      return "diner '\(EchoedText.quote(name))' is listed twice (first at \(first))"
    case .invalidWeight(let error, let diner): return "\(error.description) (diner '\(EchoedText.quote(diner))')"
    case .notInRoster(let role, let name, let roster, let guess):
      let message = "\(role) '\(EchoedText.quote(name))' is not in people"
      guard let guess else { return message + " (\(EchoedText.list(roster)))" }
      return message + "; did you mean '\(EchoedText.quote(guess))'?"
    case .emptyPayer: return "paid_by is empty: expected a name"
    case .wholeUnitsValue(let found):
      return "whole_units is \(found): expected currency codes kept in whole units, such as whole_units: [HUF]"
    case .currencyUnitsDiffer(let code, let wholeHere, let first):
      let here = wholeHere ? "in whole units" : "in minor units"
      let there = wholeHere ? "in minor units" : "in whole units"
      return
        "\(code) is kept \(here) here but \(there) at \(first): a run keeps a currency one way; declare it once for every file (--whole-units \(code), or whole-units: \(code) in the configuration)"
    case .receiptToReview(let note):
      let said = note.isEmpty ? "" : " ('\(EchoedText.quote(note))')"
      return
        "a scanned receipt still to review: scan marked this line because its figures did not add up\(said); check the bill against its photo, then delete the # REVIEW comment"
    case .headCountPaidByPerson(let payer, let count):
      let name = EchoedText.quote(payer)
      return
        "'\(name)' paid this bill, but its diners are a head count (\(count)): it is split among \(count) unnamed people and moves no one's balance, so '\(name)' is not paid back; list the diners by name (diners: [\(name), ...]) to make it count"
    case .repeatedName(let key, let name, let first):
      return "'\(EchoedText.quote(name))' is listed twice in \(key) (first at \(first))"
    case .namedAmountMissing(let key, let name):
      return key == "paid_by"
        ? "paid_by '\(EchoedText.quote(name))' has no amount: when several paid, give each one's part of the total, such as {Ana: 60.00, Ben: 50.59}"
        : "shares '\(EchoedText.quote(name))' has no amount: give each diner's part of the amount before tip, such as {Ana: 12.50, Ben: 7.50}"
    case .sharesWithDiners:
      return "both shares and diners are given: shares name the diners (with their parts), so leave out diners"
    case .sharesShape(let shape):
      return
        "shares must be a mapping of names to their parts of the amount, such as {Ana: 12.50, Ben: 7.50}, not \(shape)"
    case .split(let error): return error.description
    case .itemsShape(let shape):
      return
        "items must be a list of items, each a mapping such as {name: Wine, price: 42.00, for: [Ana, Ben]}, not \(shape)"
    case .itemShape(let key, let shape):
      guard let key else { return "an item must be a mapping of name, price, quantity and for, not \(shape)" }
      return key == "for"
        ? "an item's for must be a name, a list of names, or name -> weight, not \(shape)"
        : "an item's \(key) must be a single value, not \(shape)"
    case .unknownItemKey(let key, let guess):
      let message = "unknown item key '\(EchoedText.quote(key))': an item takes name, price, quantity, for"
      guard let guess else { return message }
      return message + "; did you mean '\(EchoedText.quote(guess))'?"
    case .itemMissing(let key):
      return key == "name"
        ? "item has no name: expected the line as printed, such as 'name: House wine'"
        : "item has no price: expected its unit price, such as 'price: 42.00'"
    case .itemPrice(let item, let error): return error.message(field: "price") + " (item '\(EchoedText.quote(item))')"
    case .itemQuantity(let item, let error):
      return "quantity of item '\(EchoedText.quote(item))': "
        + error.description.replacingOccurrences(of: "weight", with: "quantity")
    case .itemSharerNotDiner(let item, let person, let guess):
      let message =
        "item '\(EchoedText.quote(item))' is for '\(EchoedText.quote(person))', who is not among the bill's diners"
      guard let guess else { return message }
      return message + "; did you mean '\(EchoedText.quote(guess))'?"
    case .itemSharerRepeated(let item, let person):
      return "'\(EchoedText.quote(person))' is listed twice in the for of item '\(EchoedText.quote(item))'"
    case .itemWeight(let item, let error): return "\(error.description) (item '\(EchoedText.quote(item))')"
    case .adjustment(let key, let text):
      return "\(key) '\(EchoedText.quote(text))' is neither a percentage nor an amount: expected such as 10% or 5.00"
    case .adjustmentWithoutItems(let key):
      return "\(key) is given but the bill has no items: it applies to itemized bills (add items)"
    case .notAFlag(let key, let text): return "\(key) '\(EchoedText.quote(text))' is not true or false"
    case .orphanItem(let bill):
      return "item row for bill '\(EchoedText.quote(bill))', which its bills file does not have"
    case .itemsFile(let message): return message
    case .paymentShape(let shape):
      return "a payment must be a mapping with keys such as from, to and amount, found \(shape)"
    case .paymentMissing(let key):
      switch key {
      case "from": return "payment has no 'from': expected who paid"
      case "to": return "payment has no 'to': expected who received the money"
      default: return "payment has no 'amount': expected how much was paid, such as 20.00"
      }
    case .paymentToSelf(let name):
      return "payment from '\(EchoedText.quote(name))' to '\(EchoedText.quote(name))': a payment is between two people"
    case .paymentNotPositive(let text):
      return "payment amount '\(EchoedText.quote(text))' is not more than zero: expected an amount such as 20.00"
    case .repeatedID(let id, let first, let kind):
      return "duplicate \(kind.rawValue) id '\(EchoedText.quote(id))': also used at \(first)"
    case .probableDuplicateReceipt(let id, let firstID, let first):
      return
        "probable duplicate receipt: '\(EchoedText.quote(id))' has the same date, amount, currency, payer and people as '\(EchoedText.quote(firstID))' (\(first))"
    case .similarNames(let name, let like, let first):
      return
        "'\(EchoedText.quote(name))' looks like '\(EchoedText.quote(like))' (\(first)): one person misspelt? A roster makes a name outside it an error: 'people:' in a YAML file, '--people' or the configuration's 'people:' for every file"
    case .similarCategories(let name, let like, let first):
      let place = first.map { " (\($0))" } ?? ", a common category"
      return
        "category '\(EchoedText.quote(name))' looks like '\(EchoedText.quote(like))'\(place): did you mean '\(EchoedText.quote(like))'? Categories compare exactly, so these are counted apart"
    case .missingDate(let id, let journal, let kind):
      return
        "\(kind.rawValue) '\(EchoedText.quote(id))' has no date, but \(journal ? "journal formats date every transaction" : "a date filter is in use")"
    case .rate(let problem): return problem.message
    case .missingRate(let id, let kind, let from, let to, let date):
      let day = date.map { "on or before \($0)" } ?? "for a record without a date (only undated rates apply)"
      return "no \(from.code)→\(to.code) rate \(day) for \(kind.rawValue) '\(EchoedText.quote(id))': "
        + "add one to the file's rates: or to a --rates file\(kind == .bill ? ", or give the bill its own rate" : "")"
    case .runTooLarge(let id, let kind, let currency, let converted):
      return
        "\(kind.rawValue) '\(EchoedText.quote(id))': with it the run's amounts\(converted ? " converted into" : " in") "
        + "\(currency.code) add up to more than 64-bit sums hold (\(Int64.max) minor units): "
        + (converted
          ? "settle in another currency, or report its files in smaller runs" : "report its files in smaller runs")
    case .rateTooPrecise(let id, let from, let to):
      return "the \(from.code)→\(to.code) rates for '\(EchoedText.quote(id))' have too many digits to combine "
        + "exactly: give fewer decimals, or a direct rate"
    case .staleRate(
      let currency, let days, let limit, let id, let kind, let recordDate, let rateDate, let origin, let recordDays):
      let others = recordDays > 1 ? " (records of \(recordDays) days did; this is the oldest rate)" : ""
      return "\(currency.code) converted at a rate \(days) days old: \(kind.rawValue) '\(EchoedText.quote(id))' of "
        + "\(recordDate) took the rate of \(rateDate) (\(EchoedText.quote(origin))), the latest on or before its day"
        + "\(others); rates older than \(limit) days are flagged (--max-rate-age): is a rates file out of date?"
    case .recurrence(let problem): return problem.message
    case .cashRoundingShape(let shape):
      return "cash_rounding is \(shape): \(Self.cashRoundingExpected)"
    case .cashRoundingCurrency(let code):
      return "cash_rounding names '\(EchoedText.quote(code))', not a currency: \(Self.cashRoundingExpected)"
    case .cashRoundingIncrement(let currency, let shape):
      let example = Money(minorUnits: 5 * max(1, currency.minorUnitsPerMajor / 100), currency: currency)
      return "cash_rounding for \(currency.code) is \(shape): expected a positive amount in \(currency.code)'s digits, "
        + "such as \(example.decimalString)"
    }
  }

  /// libyaml's commonest syntax errors (indentation, nearly always) said in this tool's words,
  /// with the likely fix; `nil` for the others, which stay in libyaml's words.
  static func yamlSyntaxInWords(_ problem: String, contextLine: Int?) -> String? {
    let started = contextLine.map { " (the one started at line \($0))" } ?? ""
    switch problem {
    case "mapping values are not allowed in this context":
      return
        "a 'key: value' where none can start: this line is indented deeper than the keys above it, "
        + "or a value holds ': ' (line the keys of one mapping up, or quote the value: \"Dinner: good\")"
    case "did not find expected key":
      return
        "this line is not indented like the mapping it belongs to\(started): line the keys of one bill up "
        + "under each other, and start each list item with '- ' under the others"
    case "did not find expected '-' indicator":
      return "a list item is not indented like its list\(started): start each '- ' under the others"
    case "found character that cannot start any token":
      return
        "a character that cannot start a YAML value here: a tab (YAML indents with spaces only), "
        + "or a value starting with @ or ` (quote it)"
    case "did not find expected ',' or '}'":
      return "a '{...}' mapping is not closed\(started): end it with '}', with ',' between its 'key: value' pairs"
    case "did not find expected ',' or ']'":
      return "a '[...]' list is not closed\(started): end it with ']', with ',' between its items"
    case "could not find expected ':'":
      return "a key without its ':'\(started): write 'key: value'"
    case "found unexpected end of stream":
      return "the file ends inside a quoted value\(started): close the quote"
    default:
      return nil
    }
  }

  private static let cashRoundingExpected = "expected currency -> increment, such as cash_rounding: {CHF: 0.05}"

  /// Every code, with what it means: the table docs/format.md shows (a test compares them).
  /// Codes with a field in them are listed for each field that can have them.
  package static let documentedCodes: [(code: String, meaning: String)] = [
    ("file.unreadable", "an input path cannot be opened"),
    ("file.format", "a path whose extension names no format"),
    ("file.twice", "a file given twice (or also inside a directory given); read once"),
    ("file.read-error", "reading failed part-way"),
    ("file.utf8", "the bytes are not UTF-8"),
    ("file.text", "text libyaml refuses (control characters)"),
    ("yaml.syntax", "a YAML syntax error"),
    ("yaml.memory", "libyaml ran out of memory"),
    ("yaml.end", "the stream ends inside a node"),
    ("yaml.depth", "more than 64 levels of nesting"),
    ("yaml.alias", "an alias without an anchor before it"),
    ("yaml.alias-expansion", "aliases expand past the bound"),
    ("yaml.merge", "a merge key whose value is not mappings"),
    ("yaml.trailing-content", "more after the document"),
    ("yaml.structure", "an event the reader does not expect"),
    ("yaml.bill-expansion", "a bill whose aliases expand past the text a bill may hold"),
    ("file.duplicate-key", "a top-level key given twice"),
    ("file.key-order", "version, defaults or people after bills"),
    ("file.unknown-key", "a top-level key outside the format"),
    ("file.shape", "a document that is neither a mapping nor a list of bills"),
    ("stdin.csv", "standard input read as YAML failed and its first line looks like a CSV header"),
    ("config.shape", "a configuration file that is not a mapping of option names to single values"),
    ("config.unknown-key", "a configuration key that is no option"),
    ("config.value", "a configuration value its option refuses"),
    ("config.key-exposed", "an API key in a configuration file that others can read"),
    ("config.secret-elsewhere", "the API key's text used under another key, or as a key (an alias, a merge, a copy)"),
    ("bills.shape", "bills that is not a list"),
    ("payments.shape", "payments that is not a list"),
    ("defaults.shape", "defaults that is not a mapping"),
    ("version.unsupported", "a version other than 1"),
    ("people.shape", "people that is not a list of names"),
    ("people.empty-name", "an empty name in people"),
    ("people.repeated", "a name listed twice in people"),
    ("people.entry", "a person in people that is neither a name nor a mapping with name"),
    ("people.unknown-key", "a key a person's entry does not take (name, iban, bic, link, holder)"),
    ("people.iban", "an iban that is not an IBAN: a bad character, length or check digits"),
    ("people.bic", "a bic that is not 8 or 11 letters and digits"),
    ("people.link", "a payment link that is not an https:// address"),
    ("people.holder", "an account holder's name that is empty or over 70 characters"),
    ("people.details-differ", "a person's payment details given twice, differently"),
    ("csv.unknown-column", "a header cell that names no key"),
    ("csv.duplicate-column", "a column given twice"),
    ("csv.no-amount-column", "a header without amount"),
    ("csv.cell-count", "a row with more or fewer cells than the header"),
    ("csv.unterminated-quote", "a quote never closed (the rest of the file is not read)"),
    ("csv.text-after-quote", "text after a closing quote"),
    ("csv.too-many-cells", "a CSV row of more than 10,000 cells (the rest of the row is not read)"),
    ("csv.stray-quote", "a quote inside an unquoted cell"),
    ("csv.utf8", "a cell that is not UTF-8 (the field counts as not given)"),
    ("bill.shape", "a bill that is not a mapping"),
    ("bill.key-shape", "a key that is not a plain name"),
    ("bill.unknown-key", "a key outside the format (with a did-you-mean)"),
    ("defaults.unknown-key", "a key defaults do not take"),
    ("bill.duplicate-key", "a key given twice in a bill"),
    ("defaults.duplicate-key", "a key given twice in defaults"),
    ("KEY.shape", "a list or mapping where a single value belongs (KEY: id, date, amount, ...)"),
    ("amount.missing", "no amount"),
    ("diners.missing", "no diners and no people roster"),
    ("currency.invalid-default", "the bill takes its currency from defaults, which are invalid"),
    ("tip.invalid-default", "the bill takes its tip from defaults, which are invalid"),
    ("leftover.invalid-default", "the bill takes its leftover policy from defaults, which are invalid"),
    ("rounding.invalid-default", "the bill takes its rounding from defaults, which are invalid"),
    ("id.empty", "an empty id"),
    ("id.duplicate", "an id used before in the run"),
    ("date.syntax", "a date that is not YYYY-MM-DD"),
    ("date.calendar", "a date that is not a real day"),
    ("date.missing", "no date where the run needs one (a date filter, a journal)"),
    ("currency.unknown", "a code outside ISO 4217"),
    ("amount.empty", "an empty amount"),
    ("amount.syntax", "an amount that is not a number"),
    ("amount.decimals", "more decimals than the currency has"),
    ("amount.negative", "a negative amount"),
    ("amount.exponent", "exponent notation (1e3)"),
    ("amount.thousands-separator", "a thousands separator (1,234.00)"),
    ("amount.too-large", "an amount past the exact range"),
    ("tip_amount.syntax", "a fixed tip that is not a number"),
    ("tip_amount.decimals", "more decimals than the currency has"),
    ("tip_amount.negative", "a negative fixed tip"),
    ("tip_amount.exponent", "exponent notation"),
    ("tip_amount.thousands-separator", "a thousands separator"),
    ("tip_amount.too-large", "a fixed tip past the exact range"),
    ("tip.syntax", "a tip that is not a percentage or ai"),
    ("tip.decimals", "a percentage with more than 4 decimals"),
    ("tip.range", "a percentage below 0 or above 100"),
    ("tip.conflict", "both tip and tip_amount"),
    ("tip.missing", "no tip and no default tip"),
    ("leftover.unknown", "a leftover policy outside its values"),
    ("rounding.unknown", "a rounding mode outside its values"),
    ("diners.head-count", "a diners value that is not a whole number"),
    ("diners.too-few", "a head count below one"),
    ("diners.too-many", "more than 100,000 diners"),
    ("diners.shape", "diners of a shape they do not take"),
    ("diners.empty", "an empty list of diners"),
    ("diners.empty-name", "an empty diner name"),
    ("diners.repeated", "a diner listed twice"),
    ("diners.weight-syntax", "a weight that is not a number"),
    ("diners.weight-not-positive", "a weight of zero or less"),
    ("diners.weight-too-large", "a weight above 1,000,000"),
    ("diners.unknown-person", "a diner not in people, or not in `--people` (with a did-you-mean)"),
    ("paid_by.unknown-person", "a payer not in people (with a did-you-mean)"),
    ("paid_by.empty", "an empty payer"),
    (
      "paid_by.head-count",
      "warning: a bill paid by a person whose diners are a head count: it moves no one's balance, so the payer is not paid back"
    ),
    ("paid_by.not-a-diner", "the payer leftover policy with a payer who is not a diner"),
    ("leftover.payer-missing", "the payer leftover policy without paid_by"),
    ("leftover.several-payers", "the payer leftover policy on a bill several people paid"),
    ("paid_by.sum", "several payers' amounts that do not add up to the total, tip included"),
    ("paid_by.amount", "a payer among several without an amount"),
    ("paid_by.repeated", "a payer named twice"),
    ("paid_by.syntax", "a payer's amount that is not a number"),
    ("paid_by.decimals", "a payer's amount with more decimals than the currency has"),
    ("paid_by.negative", "a negative payer's amount"),
    ("shares.sum", "exact shares that do not add up to the amount"),
    ("shares.amount", "a name in shares without its part"),
    ("shares.with-diners", "both shares and diners: shares give the diners"),
    ("shares.shape", "shares that is not a mapping of names to amounts"),
    ("shares.repeated", "a name listed twice in shares"),
    ("shares.unknown-person", "a name in shares not in people (with a did-you-mean)"),
    ("shares.syntax", "a part that is not a number"),
    ("shares.decimals", "a part with more decimals than the currency has"),
    ("shares.negative", "a negative part"),
    ("items.shape", "items that is not a list of mappings, or an item of a shape it does not take"),
    ("items.unknown-key", "an item key outside name, price, quantity, for (with a did-you-mean)"),
    ("items.missing", "an item without its name or price"),
    ("items.price", "an item price that is not an amount (syntax, decimals, negative, ...)"),
    ("items.quantity", "a quantity that is not a positive number"),
    ("items.inexact-total", "price × quantity that is not a whole number of minor units"),
    ("items.not-a-diner", "an item for somebody not among the bill's diners (with a did-you-mean)"),
    ("items.for-empty", "an item for nobody"),
    ("items.for-repeated", "a name listed twice in an item's for"),
    ("items.weight", "an item's weight that is not a positive number"),
    ("items.anonymous-diners", "an item naming who shares it on a bill of a head count"),
    ("items.with-shares", "both items and exact shares"),
    ("items.empty", "an empty items list"),
    ("items.orphan", "a row of an items file whose bill is not in its bills file"),
    ("items.file", "an items file without its bills file, or a bills file without ids"),
    ("adjustment.syntax", "a discount, service or tax that is neither a percentage (10%) nor an amount"),
    ("adjustment.without-items", "discount, service, tax, tip_on or receipt_total on a bill without items"),
    ("discount_items.unknown", "discount_items naming no item of the bill"),
    ("discount.too-large", "a discount larger than what it is on"),
    ("tax.too-large", "included tax larger than the prices"),
    ("tax_included.syntax", "tax_included that is not true or false"),
    ("tip_on.unknown", "a tip base outside subtotal, pretax, total"),
    ("amount.items-sum", "an amount given with items that is not what they come to before tip"),
    (
      "receipt_total.mismatch",
      "a receipt_total that is neither the computed total before tip, nor with the tip, nor with a `to-tip` round-up"
    ),
    ("receipt_total.syntax", "a receipt_total that is not a number"),
    ("receipt_total.decimals", "a receipt_total with more decimals than the currency has"),
    ("receipt_total.negative", "a negative receipt_total"),
    ("split.failed", "a bill that cannot be split (a total past the exact range)"),
    ("receipt.duplicate", "warning: the same date, amount, currency, payer and people as an earlier bill"),
    ("currency.missing", "no currency for the record, in its file's defaults, or from --currency"),
    (
      "names.similar",
      "warning: a name that looks like an earlier one (case, accents, one or two edits), without a roster"
    ),
    ("scan.review", "warning: a `# REVIEW` comment `scan` left on a bill that did not add up, not yet removed"),
    ("whole_units.invalid", "a whole_units default that is not a list of currency codes"),
    ("currency.units-differ", "a currency kept in whole units in one file and in minor units in another of the run"),
    ("payment.shape", "a payment that is not a mapping"),
    ("payment.unknown-key", "a key outside the payment format (with a did-you-mean)"),
    ("payment.duplicate-key", "a key given twice in a payment"),
    ("from.missing", "a payment without from"),
    ("to.missing", "a payment without to"),
    ("from.unknown-person", "a payer of a payment not in people (with a did-you-mean)"),
    ("to.unknown-person", "a receiver of a payment not in people (with a did-you-mean)"),
    ("payment.self", "a payment from someone to themselves"),
    ("amount.not-positive", "a payment of zero"),
    ("rates.shape", "rates that is not a list"),
    ("rates.entry-shape", "a rate that is not a mapping"),
    ("rates.missing-key", "a rate without base, quote or rate"),
    ("rates.unknown-key", "a key rates do not have (with a did-you-mean)"),
    ("rates.value", "a rate that is not an exact positive decimal"),
    ("rates.currency", "a rate's currency that is not an ISO 4217 code"),
    ("rates.date", "a rate's date that is not a real YYYY-MM-DD day"),
    ("rates.same-currency", "a rate from a currency to itself"),
    ("rates.conflict", "the same pair and day given again with another rate (an ECB column named twice too)"),
    ("rates.inverse", "a warning: a rate and the opposite direction's for one day more than 0.5% from inverse"),
    ("rates.header", "a rates CSV whose header is neither the ECB's nor date,base,quote,rate"),
    ("rates.cells", "a rates CSV row with more cells than its header"),
    ("rates.empty", "a rates file with no rate"),
    ("rate.syntax", "a bill's rate that is not a price and a currency (0.0058 EUR)"),
    ("rate.same-currency", "a bill's rate priced in its own currency"),
    ("rate.missing", "with --settle-in: no rate for a bill's or payment's currency on or before its date"),
    (
      "rate.stale",
      "(warning) with --settle-in: records of a currency converted at a rate more than `--max-rate-age` days "
        + "(default 7) older than their day; one a currency, naming the oldest"
    ),
    ("rate.too-precise", "rates whose exact product has too many digits"),
    ("cash_rounding.invalid", "a cash_rounding default that is not currency -> increment"),
    ("repeat.syntax", "a repeat that is not every: week, month or year, with until: DATE or count: N (and skip:)"),
    ("repeat.needs-date", "a repeating bill without a date: its first instance's"),
    ("repeat.end", "a repeat with both until and count, an until before the date, or a count below one"),
    ("repeat.skip", "a skipped instance that is not one of the bill's instances"),
    ("repeat.too-many", "a repeat of more than 10,000 instances"),
    ("repeat.duplicate-key", "a key given twice in a bill's `repeat`"),
    ("repeat.run-limit", "recurring bills past the run's limit of instances (`--max-instances`, 100,000 by default)"),
  ]
}

extension MoneyError {
  /// The part of a diagnostic code that says what was wrong with an amount.
  package var code: String {
    switch self {
    case .unknownCurrency: return "currency"
    case .invalidAmount(_, let reason, _):
      switch reason {
      case .empty: return "empty"
      case .exponentNotation: return "exponent"
      case .thousandsSeparator: return "thousands-separator"
      case .negative: return "negative"
      case .notANumber: return "syntax"
      case .tooManyDecimals: return "decimals"
      case .tooLarge: return "too-large"
      }
    case .currencyMismatch: return "currency-mismatch"
    case .overflow: return "too-large"
    }
  }
}

extension PercentError {
  /// The part of a diagnostic code that says what was wrong with a percentage.
  package var code: String {
    switch problem {
    case .notANumber: return "syntax"
    case .tooManyDecimals: return "decimals"
    case .outOfRange: return "range"
    }
  }
}

extension SplitError {
  /// The diagnostic code of a split rule a bill breaks.
  package var code: String {
    switch self {
    case .tooManyDiners: return "diners.too-many"
    case .nonPositiveWeight: return "weight-not-positive"
    case .invalidWeight: return "weight-syntax"
    case .weightTooLarge: return "weight-too-large"
    case .payerPolicyWithoutPayer: return "leftover.payer-missing"
    case .payerNotDiner: return "paid_by.not-a-diner"
    case .payerPolicyWithSeveralPayers: return "leftover.several-payers"
    case .payersDoNotAddUp: return "paid_by.sum"
    case .sharesDoNotAddUp: return "shares.sum"
    case .inexactLineTotal: return "items.inexact-total"
    case .itemSharerNotDiner: return "items.not-a-diner"
    case .noItemSharers: return "items.for-empty"
    case .itemsNeedNamedDiners: return "items.anonymous-diners"
    case .itemsWithShares: return "items.with-shares"
    case .noItems: return "items.empty"
    case .unknownDiscountItem: return "discount_items.unknown"
    case .discountTooLarge: return "discount.too-large"
    case .includedTaxTooLarge: return "tax.too-large"
    case .amountDoesNotMatchItems: return "amount.items-sum"
    case .receiptTotalMismatch: return "receipt_total.mismatch"
    case .noDiners, .duplicateDiner, .conflictingTips, .tipNotResolved, .tipCurrencyMismatch, .totalTooLarge,
      .receiptTooComplex:
      return "split.failed"
    }
  }
}

/// What is wrong with a recurring bill's `repeat`.
package enum RecurrenceProblem: Hashable, Sendable {
  /// A shape or key the rule does not take, or a value it cannot read: what was found.
  case syntax(String)
  /// No `date:` to start from.
  case needsDate
  /// Both `until` and `count`.
  case untilAndCount
  /// `until` before the bill's date.
  case untilBeforeDate(until: CalendarDate, date: CalendarDate)
  /// `count` that is not a whole number from 1.
  case badCount(String)
  /// A skip entry that is not one of the instances: the text, and the instance keys nearest it.
  case skipNotInstance(String, unit: Recurrence.Unit, example: String?)
  /// More instances than ``Recurrence/instanceLimit``.
  case tooMany
  /// The rule's instances would take the run past its limit of instances of all recurring bills
  /// (`--max-instances`): the limit, and how many the rules before it made.
  case runLimit(limit: Int, made: Int, wanted: Int)

  package var code: String {
    switch self {
    case .syntax: return "repeat.syntax"
    case .needsDate: return "repeat.needs-date"
    case .untilAndCount, .untilBeforeDate, .badCount: return "repeat.end"
    case .skipNotInstance: return "repeat.skip"
    case .tooMany: return "repeat.too-many"
    case .runLimit: return "repeat.run-limit"
    }
  }

  package static let expected =
    "expected every: week, month or year, then until: YYYY-MM-DD or count: N, optionally skip: instances"

  package var message: String {
    switch self {
    case .syntax(let found): return "repeat \(found); \(Self.expected)"
    case .needsDate: return "a repeating bill needs a date: the day of its first instance"
    case .untilAndCount: return "repeat gives both until and count: give one (the last date, or how many times)"
    case .untilBeforeDate(let until, let date):
      return "repeat until \(until) is before the bill's date \(date): expected the last day instances may fall on"
    case .badCount(let text):
      return
        "repeat count '\(EchoedText.quote(text))' is not a whole number from 1: expected how many times the bill comes"
    case .skipNotInstance(let text, let unit, let example):
      let form =
        switch unit {
        case .week: "an instance's date"
        case .month: "an instance's month (YYYY-MM) or date"
        case .year: "an instance's year (YYYY) or date"
        }
      var message = "skip '\(EchoedText.quote(text))' is not one of the bill's instances: expected \(form)"
      if let example { message += ", such as \(example)" }
      return message
    case .tooMany:
      return "repeat makes more than \(Recurrence.instanceLimit) instances: expected a nearer until or a smaller count"
    case .runLimit(let limit, let made, let wanted):
      return
        "repeat's \(wanted) instances would take the run past its limit of \(limit) instances of recurring bills "
        + "(\(made) made before it): expected fewer or shorter rules, or --max-instances N to raise the limit"
    }
  }
}

/// A bill that could not be used, with every problem found in it.
package struct InvalidBill: Error, Sendable, Hashable {
  /// Creates an invalid bill (or, with `kind`, payment).
  package init(id: String?, source: SourceLocation?, diagnostics: [Diagnostic], kind: RecordKind = .bill) {
    self.id = id
    self.source = source
    self.diagnostics = diagnostics
    self.kind = kind
  }

  /// A record whose id an earlier record had, met while reading: its diagnostic comes later.
  package init(id: String, source: SourceLocation, kind: RecordKind = .bill, repeatOrdinal: Int) {
    self.init(id: id, source: source, diagnostics: [], kind: kind)
    self.repeatOrdinal = repeatOrdinal
  }

  /// Whether it is a bill or a payment (file-level problems count as bills).
  package var kind: RecordKind

  /// Its id (explicit or default), when one could be determined.
  package var id: String?
  /// Where it starts: a place in a file, a whole file (a file-level problem), or `nil` for a
  /// problem of the run that no file holds.
  package var source: SourceLocation?
  /// Where it starts as a report shows it: `trip.yaml:9:3`, a path alone, or `-` for no file.
  package var shownSource: String { source?.description ?? "-" }
  /// Its problems, errors first in file order.
  package var diagnostics: [Diagnostic]
  /// For a record whose id an earlier one had, when the reading met it: its ordinal in the run.
  /// Its diagnostic (naming the first) is known once the reading ends
  /// (``BillStream/completingRepeat(_:)``); until then ``diagnostics`` is empty.
  package var repeatOrdinal: Int?
}
