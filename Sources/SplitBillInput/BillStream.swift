import Foundation
@_spi(ByteWriters) import SplitBillBytes
@_spi(ByteWriters) import SplitBillCore
import SplitBillFiles
import SplitBillModel
import SplitBillYAML

/// One input to read: a file in a known format, or standard input.
package struct InputSource: Hashable, Sendable {
  /// The path as given or found (`-` for standard input).
  package var path: String
  /// How to read it.
  package var format: InputFormat
  /// For CSV: tab for `.tsv`, else detected (or `--delimiter`).
  package var isTabSeparated: Bool
}

/// What the reading of one bill gave.
package enum BillOutcome: Sendable {
  /// A bill ready to be split.
  case valid(Bill)
  /// A payment, ready to be booked.
  case payment(PaymentRecord)
  /// A bill or a payment with errors.
  case invalid(InvalidBill)
}

/// A currency's cash rule from a file's `defaults: cash_rounding:`: settlements in it are paid in
/// multiples of `increment`.
package struct CashRule: Hashable, Sendable {
  /// The currency.
  package var currency: Currency
  /// The smallest amount paid in cash, such as 0.05 CHF.
  package var increment: Money
  /// Where it was given.
  package var location: SourceLocation
}

/// Reads every input in processing order and hands each bill on as it is read.
///
/// Inputs are taken in the order given; directories are walked recursively for `*.yaml`, `*.yml`,
/// `*.csv` and `*.tsv`, sorted by path (hidden entries, symbolic links to directories, and
/// subdirectories holding a `.splitbill-ignore` file are skipped). Across all inputs it checks that
/// bill ids are unique and warns about probable duplicate receipts (same date, amount, currency,
/// payer and people under different ids). Only ids and receipt keys are kept, never the bills themselves, and
/// those in temporary files (``RepeatFinder``), so memory does not grow with the number of bills.
///
/// Repeats are found after the reading: ``findRepeats()`` adds their diagnostics in reading order.
/// A record whose explicit id an earlier one had is handed on as invalid as it comes, its
/// diagnostic (naming the first) completed once the reading ends: bills are read once. Only if
/// two different ids hash alike does a caller that keeps bills read again, with
/// ``init(options:repeats:)`` (``repeatsNeedingAnotherReading()``).
package struct BillStream {
  /// How to read.
  package let options: ReadOptions
  /// Every diagnostic so far, in reading order: the first ``ProblemTally/keptPerKind`` errors and warnings of
  /// each kind (code).
  package private(set) var diagnostics: [Diagnostic] = []
  /// Which diagnostics are kept (the first ``ProblemTally/keptPerKind`` of each kind), and the
  /// counts of the others.
  private var tally = ProblemTally()
  /// Warnings counted but not kept, by code.
  package var omittedWarnings: [String: Int] { tally.omitted(.warning) }
  /// Errors counted but not kept, by code.
  package var omittedErrors: [String: Int] { tally.omitted(.error) }
  /// Errors and warnings in all, kept or not.
  package var counts: (errors: Int, warnings: Int) {
    let errors = diagnostics.count { $0.severity == .error }
    return (
      errors + omittedErrors.values.reduce(0, +),
      diagnostics.count - errors + omittedWarnings.values.reduce(0, +)
    )
  }
  /// The errors that belong to no bill: unreadable files, syntax errors, bad headers and defaults.
  ///
  /// (Unreadable inputs among them make ``unreadableInput`` true.)
  package var fileErrors: [Diagnostic] { fileProblems.filter { $0.severity == .error } }
  private var fileProblems: [Diagnostic] = []
  /// Files read (or attempted).
  package private(set) var fileCount = 0
  /// Bills read, valid or not.
  package private(set) var billCount = 0
  /// Payments read, valid or not.
  package private(set) var paymentCount = 0
  /// Instances the recurring bills read so far expanded to (``ReadOptions/instanceLimit``).
  private var instancesMade = 0
  /// Bills and payments read: a record's ordinal, which repeats are found by.
  private var recordCount = 0
  /// Every file's `defaults: cash_rounding:` rules, in reading order.
  package private(set) var cashRules: [CashRule] = []
  /// Whether some input could not be read at all (exit 66).
  package private(set) var unreadableInput = false
  /// Nodes aliases may still reach in this run (``YAMLNodeBuilder``).
  private var aliasBudget = YAMLNodeBuilder.baseExpansionLimit
  /// Directories named as inputs that hold no bill file.
  package private(set) var directoriesWithoutBills: [String] = []
  /// Standard input, once read (kept for excerpts in diagnostics).
  package private(set) var standardInput: StandardInputCopy?

  // Every explicit id and every receipt key of the run, or (on a second reading) what was found.
  private let ids = RepeatFinder()
  private let receipts = RepeatFinder()
  private let knownRepeats: Repeats?
  /// Fingerprints of the explicit ids read (``IDFingerprints``): a record whose id's fingerprint
  /// is here is taken for a repeat as it comes (``BillOutcome/invalid(_:)``, its diagnostic
  /// completed after the reading), so a caller that keeps bills need not read again. The guess is
  /// checked against ``RepeatFinder``'s exact answer at the end (``repeatsNeedingAnotherReading()``).
  private var idFingerprints = IDFingerprints(room: 1024)
  /// Ids past which none is remembered or looked up, so memory stays bounded (1 MB): a run longer
  /// than that with a repeat past it is read again.
  package static let predictedIDLimit = 229_376
  /// The ordinals of the records taken for repeats as they came.
  private var predictedRepeats: Set<Int> = []
  /// The repeats the reading's end found, when they were the ones predicted.
  private var settledRepeats: Repeats?
  /// The bits of an id's hash that predict repeats: all of them. Tests narrow it to make unequal
  /// ids look repeated, the case only a second reading can mend.
  package var repeatPredictionMask: UInt64 = .max
  /// The ordinals of payments with an explicit id (a repeat names what repeated).
  private var paymentOrdinals: Set<Int> = []
  /// For each diagnostic, when it was found: 2 × the bill's ordinal for a bill's own, one more for
  /// those between bills. Repeats found at the end are slotted in by it.
  private var diagnosticTimes: [Int] = []
  /// The first ``BillRules/spellingsNoted`` names met in the run, with where, and the set of them.
  private var spellings: [(name: String, location: SourceLocation)] = []
  private var spelled: Set<String> = []
  /// The first ``categoriesNoted`` categories met in the run, with where, and the set of them.
  private var categories: [(name: String, location: SourceLocation)] = []
  private var categorySet: Set<String> = []
  /// How many distinct categories are compared for look-alikes (a run has a few dozen).
  static let categoriesNoted = 1_000
  /// Whether a roster applied somewhere (`--people`, a file's `people:`): names were checked
  /// against it, and look-alikes are not warned of.
  private var rosterInEffect: Bool
  /// The `people:` roster of the last document read that has one.
  package private(set) var roster: [String]?
  /// Each currency the run met, as its first record kept it (its exponent: whole units or the
  /// ISO one) and where: a record that keeps it the other way is refused (``unitsDiffer``).
  private var keptCurrencies: [Currency] = []
  /// Where each of ``keptCurrencies`` was first met (apart: the scan reads only the currencies).
  private var keptAt: [SourceLocation] = []
  /// The first `title:` of the documents read: what reports are headed with.
  package private(set) var title: String?
  /// How people are paid, by NFC name: the options' (the configuration's), then each file's
  /// `people:` entries with details. The same person given other details later is an error
  /// there (`people.details-differ`), and the first are kept.
  package private(set) var payees: [String: PaymentDetails]
  /// Where each of ``payees`` was given (`nil`: the configuration).
  private var payeeLocations: [String: SourceLocation] = [:]
  /// The currency the last document read gives its bills (its `defaults:`, else the command
  /// line's), if any: what `add` asks no currency for.
  package private(set) var documentCurrency: Currency?
  /// The rules YAML bills are read through, on this thread (CSV rows are read through a copy on
  /// the CSV reading thread).
  private var rules: BillRules
  /// Whether CSV files are parsed on a thread of their own while the calling thread checks and
  /// hands on bills (the default: `check` then keeps two cores busy). A caller that reads the
  /// stream on a thread of its own and does more with the bills on another (`report`) turns it
  /// off: two threads share two cores better than three.
  package var parsesCSVOnOwnThread = true

  /// A stream with these options.
  package init(options: ReadOptions) {
    self.options = options
    self.rules = BillRules(options: options)
    self.knownRepeats = nil
    self.rosterInEffect = options.people != nil
    self.payees = options.payees
  }

  /// A second reading of the same inputs, after ``findRepeats()`` found repeated ids on the first:
  /// repeated bills are invalid as they come, and diagnostics arrive in order.
  package init(options: ReadOptions, repeats: Repeats) {
    self.options = options
    self.rules = BillRules(options: options)
    self.rosterInEffect = options.people != nil
    self.payees = options.payees
    self.knownRepeats = repeats
    tally.count(.warning, code: Self.receiptCode, kept: 0, omitted: repeats.omittedReceipts)
  }

  /// Takes a document's payment details into ``payees``; the problems of a person given other
  /// details before.
  private mutating func notePayees(_ entries: [PeopleEntry]) -> [Diagnostic] {
    var problems: [Diagnostic] = []
    for entry in entries {
      guard let details = entry.details else { continue }
      let name = PersonName.normalized(entry.name)
      if let known = payees[name] {
        if known != details {
          problems.append(.error(.payeeDetailsDiffer(name, first: payeeLocations[name]), at: entry.location))
        }
      } else {
        payees[name] = details
        payeeLocations[name] = entry.location
      }
    }
    return problems
  }

  /// The code of a probable duplicate receipt.
  private static let receiptCode = Problem.probableDuplicateReceipt(
    id: "", firstID: "", first: SourceLocation(wholeFile: "")
  ).code

  /// Repeated ids and receipts of a reading, by bill ordinal.
  package struct Repeats: Sendable {
    fileprivate var diagnostics: [Int: Diagnostic] = [:]
    /// Probable duplicate receipts past the ones kept.
    fileprivate var omittedReceipts = 0
    /// Whether some id repeated: the bills handed on included invalid ones.
    package fileprivate(set) var hasRepeatedIDs = false
  }

  /// After reading: finds the repeats (``findRepeats()``) and tells whether the records handed on
  /// were right. `nil` when they were (every repeated id was handed on as invalid as it came; its
  /// diagnostic is then in ``completingRepeat(_:)``); otherwise the repeats a second reading marks
  /// (``init(options:repeats:)``): two ids whose hashes are equal but whose texts are not, which
  /// at 64 bits is expected once in about 10^8 runs of a million ids.
  package mutating func repeatsNeedingAnotherReading() -> Repeats? {
    let found = findRepeats()
    let exact = Set(found.diagnostics.compactMap { $0.value.severity == .error ? $0.key : nil })
    guard exact == predictedRepeats else { return found }
    settledRepeats = found
    return nil
  }

  /// `invalid` with its diagnostic, when it is a record whose id repeated, handed on before the
  /// reading's end knew which record it repeated (after ``repeatsNeedingAnotherReading()``).
  package func completingRepeat(_ invalid: InvalidBill) -> InvalidBill {
    guard let ordinal = invalid.repeatOrdinal, let diagnostic = settledRepeats?.diagnostics[ordinal] else {
      return invalid
    }
    var complete = invalid
    complete.diagnostics = [diagnostic]
    complete.repeatOrdinal = nil
    return complete
  }

  /// Notes the names a file's rules met first, each with where.
  private mutating func note(_ found: [(name: String, location: SourceLocation)]) {
    for (name, location) in found where spellings.count < BillRules.spellingsNoted && spelled.insert(name).inserted {
      spellings.append((name, location))
    }
  }

  /// Notes a category the first time the run meets it.
  private mutating func note(category: (name: String, source: SourceLocation)) {
    guard categories.count < Self.categoriesNoted, categorySet.insert(category.name).inserted else { return }
    categories.append((category.name, category.source))
  }

  /// Warns of each category spelt like another of the run, or like a common one
  /// (``CommonCategory``), but not the same: categories compare exactly, so `Grocries` is a
  /// category of its own, silently, unless told.
  private mutating func warnOfSimilarCategories() {
    let names = categories.map(\.name)
    var warned: Set<Int> = []
    for (name, like) in PersonName.lookalikes(names) {
      warned.insert(name)
      record(
        .warning(
          .similarCategories(names[name], like: names[like], first: categories[like].location),
          at: categories[name].location),
        ofBill: false)
    }
    for (index, name) in names.enumerated() where !warned.contains(index) {
      if let common = CommonCategory.nearMiss(name), !categorySet.contains(common) {
        record(
          .warning(.similarCategories(name, like: common, first: nil), at: categories[index].location), ofBill: false)
      }
    }
    categories = []
  }

  /// Without a roster anywhere in the run, warns of each name that looks like another
  /// (``PersonName/lookalikes(_:)``): a misspelt name is otherwise a new person, silently.
  private mutating func warnOfLookalikeNames() {
    guard !rosterInEffect else { return }
    for (name, like) in PersonName.lookalikes(spellings.map(\.name), prefixes: true) {
      record(
        .warning(
          .similarNames(spellings[name].name, like: spellings[like].name, first: spellings[like].location),
          at: spellings[name].location),
        ofBill: false)
    }
    spellings = []
  }

  /// After reading: finds repeated ids (errors) and receipts (warnings) and adds their diagnostics
  /// where the reading met them, and warns of names that look alike. On a second reading there is
  /// no repeat left to find.
  package mutating func findRepeats() -> Repeats {
    warnOfLookalikeNames()
    warnOfSimilarCategories()
    if knownRepeats != nil { return Repeats() }
    // The guesses are made: their table is not held through the search's own.
    idFingerprints = IDFingerprints(room: 0)
    var found = Repeats()
    var repeatedIDs: Set<Int> = []
    for repeated in ids.repeats() {
      repeatedIDs.insert(repeated.entry.ordinal)
      let kind: RecordKind = paymentOrdinals.contains(repeated.entry.ordinal) ? .payment : .bill
      found.diagnostics[repeated.entry.ordinal] = .error(
        .repeatedID(repeated.entry.id, first: repeated.first.location, kind: kind), at: repeated.entry.location)
    }
    found.hasRepeatedIDs = !repeatedIDs.isEmpty
    // A bill with a repeated id was never valid, so its receipt is not compared.
    let kept = tally.room(for: .warning, code: Self.receiptCode)
    let receiptRepeats = receipts.repeats(skipping: repeatedIDs, limit: max(kept, 0))
    for repeated in receiptRepeats.first {
      found.diagnostics[repeated.entry.ordinal] = .warning(
        .probableDuplicateReceipt(id: repeated.entry.id, firstID: repeated.first.id, first: repeated.first.location),
        at: repeated.entry.location)
    }
    found.omittedReceipts = receiptRepeats.count - receiptRepeats.first.count
    tally.count(.warning, code: Self.receiptCode, kept: receiptRepeats.first.count, omitted: found.omittedReceipts)
    guard !found.diagnostics.isEmpty else { return found }
    var merged: [Diagnostic] = []
    var times: [Int] = []
    // Repeated ids are kept and shown up to ``ProblemTally/keptPerKind``, in reading order, like any error (the
    // receipts' warnings were limited as they were found).
    var pending = found.diagnostics.sorted { $0.key < $1.key }.filter { _, diagnostic in
      diagnostic.severity == .warning || keeps(diagnostic)
    }[...]
    for (diagnostic, time) in zip(diagnostics, diagnosticTimes) {
      while let next = pending.first, 2 * next.key < time {
        merged.append(next.value)
        times.append(2 * next.key)
        pending.removeFirst()
      }
      merged.append(diagnostic)
      times.append(time)
    }
    for (ordinal, diagnostic) in pending {
      merged.append(diagnostic)
      times.append(2 * ordinal)
    }
    diagnostics = merged
    diagnosticTimes = times
    return found
  }

  private mutating func record(_ diagnostic: Diagnostic, ofBill: Bool) {
    guard keeps(diagnostic) else { return }
    diagnostics.append(diagnostic)
    diagnosticTimes.append(2 * recordCount + (ofBill ? 0 : 1))
  }

  private mutating func keeps(_ diagnostic: Diagnostic) -> Bool { tally.keeps(diagnostic) }

  /// The inputs `paths` name, in processing order; unreadable paths become diagnostics.
  package mutating func sources(for paths: [String]) -> [InputSource] {
    var result: [InputSource] = []
    /// Files already taken, by device and inode (so through links and other spellings too).
    var taken: [FileIdentity: String] = [:]
    /// Whether `source` is a file not taken yet; a file met again is said once and left out.
    func isNew(_ source: InputSource) -> Bool {
      let identity = source.path == "-" ? FileIdentity.standardInput : FileIdentity(path: source.path)
      guard let identity else { return true }
      if let first = taken[identity] {
        let diagnostic = Diagnostic.warning(
          .givenTwice(path: source.path, first: first), at: SourceLocation(wholeFile: source.path))
        record(diagnostic, ofBill: false)
        return false
      }
      taken[identity] = source.path
      return true
    }
    for path in paths {
      if path == "-" {
        // Without --input-format, standard input is CSV when its first line is a header of the
        // format's column names, else YAML.
        let format = options.inputFormat ?? (readStandardInput().looksLikeCSV ? .csv : .yaml)
        let source = InputSource(path: "-", format: format, isTabSeparated: false)
        if isNew(source) { result.append(source) }
        continue
      }
      guard let kind = SystemCalls.kind(of: path) else {
        fail(.cannotRead(path: path, reason: "no such file or directory"), file: path)
        continue
      }
      if kind == .directory {
        let files = Self.walk(path).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let found = files.compactMap { Self.source(for: $0, override: nil) }
        if found.isEmpty { directoriesWithoutBills.append(path) }
        result += found.filter(isNew)
      } else if let source = Self.source(for: path, override: options.inputFormat) {
        if isNew(source) { result.append(source) }
      } else {
        fail(.unknownFormat(path: path), file: path)
      }
    }
    return result
  }

  /// Reads every source in order, calling `handle` for each bill.
  package mutating func read(_ sources: [InputSource], _ handle: (consuming BillOutcome) -> Void) {
    // The table of id fingerprints made once at the size the inputs may need (a record takes 40
    // bytes or more), so that one table holds them all.
    if knownRepeats == nil, idFingerprints.count == 0 {
      let bytes = sources.reduce(0) { $0 + ($1.path == "-" ? (standardInput?.count ?? 0) : Self.size(of: $1.path)) }
      idFingerprints = IDFingerprints(room: min(bytes / 40, Self.predictedIDLimit))
    }
    for source in sources { read(source, handle) }
  }

  /// Reads one source, calling `handle` for each bill.
  package mutating func read(_ source: InputSource, _ handle: (consuming BillOutcome) -> Void) {
    fileCount += 1
    var context = rules.context(for: DocumentHeader(file: source.path)).0
    // Events, bills and outcomes are moved from the reader to `handle`, never copied: a copy of a
    // bill is a reference count changed for each of its strings and arrays.
    func process(_ event: consuming ReaderEvent) {
      switch consume event {
      case .document(let header):
        var found: [Diagnostic]
        (context, found) = self.rules.context(for: header)
        found += self.notePayees(header.payees)
        // A header's problems said like a bill's: at most three of a kind on a line, counting the
        // rest (a one-line `people: [...]` of thousands of bad entries).
        found = Diagnostic.coalesced(found)
        if let roster = context.roster {
          self.rosterInEffect = true
          self.roster = roster
        }
        if case .value(let currency) = context.currency { self.documentCurrency = currency }
        if self.title == nil, let title = header.title { self.title = title }
        self.cashRules += context.cashRules
        for diagnostic in found { self.record(diagnostic, ofBill: false) }
        self.fileProblems += found
      case .failure(let diagnostic):
        self.record(diagnostic, ofBill: false)
        self.fileProblems.append(diagnostic)
      case .bill(let outcome, let givesID):
        self.billCount += 1
        self.recordCount += 1
        // Nearly no bill repeats: the test borrows the outcome, and only a rule is taken apart.
        if let recurrence = outcome.recurrence {
          if case .success(let rule) = consume outcome { self.expand(rule, recurrence, explicitID: givesID, handle) }
        } else {
          handle(self.check(consume outcome, explicitID: givesID))
        }
      case .payment(let raw):
        self.paymentCount += 1
        self.recordCount += 1
        handle(self.check(PaymentRules.read(raw, context: context, options: self.options), raw: raw))
      }
    }

    // UTF-16 and UTF-32 files are said to be so, not read as text with a zero byte between letters.
    if source.path != "-", let encoding = ByteOrderMark.otherEncoding(SystemCalls.head(of: source.path, count: 4)) {
      return fail(.invalidUTF8(detail: ByteOrderMark.refusal(encoding)), file: source.path)
    }
    switch source.format {
    case .yaml:
      let reader: YAMLEventReader
      if source.path == "-", let opened = readStandardInput().yamlReader() {
        reader = opened
      } else if source.path != "-", let opened = YAMLEventReader(path: source.path) {
        reader = opened
      } else {
        return fail(.cannotRead(path: source.path, reason: SystemCalls.errorText(errno)), file: source.path)
      }
      // Aliases may reach, over the whole run, 100,000 nodes plus one per byte of input read:
      // ample for anchors a file means, and a bound that 300 documents cannot multiply.
      aliasBudget += source.path == "-" ? (standardInput?.count ?? 0) : Self.size(of: source.path)
      let errorsBefore = fileProblems.count
      defer {
        // Piped CSV with a misspelt column is not CSV to the sniffer: say what it looks like.
        if source.path == "-", options.inputFormat == nil, fileProblems.count > errorsBefore,
          let header = standardInput?.csvLikeHeader
        {
          let diagnostic = Diagnostic.error(
            .standardInputLooksLikeCSV(header: header), at: SourceLocation(file: "-", line: 1, column: 1))
          record(diagnostic, ofBill: false)
          fileProblems.append(diagnostic)
        }
      }
      var yaml = YAMLBillReader(file: source.path, reader: reader, expansionLimit: aliasBudget)
      defer { aliasBudget -= yaml.aliasNodes }
      yaml.standardInput = standardInput
      // libyaml on one thread, bills copied flat; the rules on this one.
      let file = SourceFile(source.path)
      let recycler = yaml.recycler
      Pipeline.run(
        handing: &yaml, produce: { yaml, emit in yaml.read(emit) },
        consume: { item in
          switch item {
          case .event(let event): process(event)
          case .bill(let flat, let index):
            let (outcome, givesID) = YAMLBillFields.read(
              flat, index: index, file: file, context: context, rules: &self.rules)
            process(.bill(outcome, givesID: givesID))
            recycler.recycle(flat)
          }
        })
      note(rules.spellings)
      rules.spellings = []
      warnOfReviewMarks(reader.reviewMarkOffsets, in: source)
    case .csv:
      let input: ByteReader
      if source.path == "-", let opened = readStandardInput().byteReader() {
        input = opened
      } else if source.path != "-", let opened = ByteReader(path: source.path) {
        input = opened
      } else {
        return fail(.cannotRead(path: source.path, reason: SystemCalls.errorText(errno)), file: source.path)
      }
      let delimiter = options.delimiter ?? (source.isTabSeparated ? 0x09 : nil)
      // A CSV file has no header of defaults: its context is already known, and its rows are read
      // through the rules on the thread that splits them.
      var csv = CSVBillReader(
        file: source.path, input: input, delimiter: delimiter, rules: BillRules(options: options), context: context)
      if let itemsPath = ItemTable.path(besides: source.path) {
        guard let itemsInput = ByteReader(path: itemsPath) else {
          return fail(.cannotRead(path: itemsPath, reason: SystemCalls.errorText(errno)), file: itemsPath)
        }
        if let encoding = ByteOrderMark.otherEncoding(itemsInput.buffered) {
          return fail(.invalidUTF8(detail: ByteOrderMark.refusal(encoding)), file: itemsPath)
        }
        var itemsReader = CSVBillReader(
          file: itemsPath, input: itemsInput, delimiter: delimiter, rules: BillRules(options: options),
          context: context)
        let (table, problems) = itemsReader.readItems()
        for problem in problems {
          record(problem, ofBill: false)
          fileProblems.append(problem)
        }
        csv.itemTable = table
      }
      if parsesCSVOnOwnThread {
        Pipeline.run(handing: &csv, produce: { csv, emit in csv.read(emit) }, consume: process)
      } else {
        csv.read(process)
      }
      for orphan in csv.itemTable?.orphans() ?? [] {
        record(orphan, ofBill: false)
        fileProblems.append(orphan)
      }
      note(csv.rules.spellings)
    }
  }

  /// Cross-file checks: unique ids, probable duplicate receipts (noted now, found in
  /// ``findRepeats()``; on a second reading, applied as the bills come).
  ///
  /// Default ids (`<file>#<n>`) are unique by construction and not remembered.
  private mutating func check(_ result: consuming Result<Bill, InvalidBill>, explicitID: Bool) -> BillOutcome {
    switch consume result {
    case .failure(let invalid):
      for diagnostic in invalid.diagnostics { record(diagnostic, ofBill: true) }
      return .invalid(consume invalid)
    case .success(let bill):
      if let differ = unitsDiffer(bill.terms.amount.currency, at: bill.source) {
        record(differ, ofBill: true)
        return .invalid(InvalidBill(id: bill.id, source: bill.source, diagnostics: [differ]))
      }
      if knownRepeats == nil, let category = bill.category { note(category: (category, bill.source)) }
      if case .anonymous = bill.terms.diners {
        warnOfHeadCountPayer(bill)
      } else if case .itemized = bill.terms.diners {
        if bill.terms.diners.isAnonymous { warnOfHeadCountPayer(bill) }
      }
      if let knownRepeats {
        guard let diagnostic = knownRepeats.diagnostics[recordCount] else { return .valid(consume bill) }
        record(diagnostic, ofBill: true)
        if diagnostic.severity == .error {
          return .invalid(InvalidBill(id: bill.id, source: bill.source, diagnostics: [diagnostic]))
        }
        return .valid(consume bill)
      }
      guard explicitID || bill.date != nil else { return .valid(consume bill) }
      if noteIDAndReceipt(of: bill, explicitID: explicitID) {
        return .invalid(InvalidBill(id: bill.id, source: bill.source, repeatOrdinal: recordCount))
      }
      return .valid(consume bill)
    }
  }

  /// Warns at each `# REVIEW` mark `scan` left in a YAML file (found by the reader at these byte
  /// offsets): a receipt that did not add up passes for checked until the mark is removed. The
  /// file is read again only when it has marks, for their lines and columns.
  private mutating func warnOfReviewMarks(_ offsets: [Int], in source: InputSource) {
    guard !offsets.isEmpty else { return }
    let input = source.path == "-" ? readStandardInput().byteReader() : ByteReader(path: source.path)
    guard let input else { return }
    let file = SourceFile(source.path)
    var line = 1
    var lineBytes: [UInt8] = []
    var offset = 0
    var pending = offsets[...]
    func noteLine() {
      // The marks on this line: each with its column (in characters) and what it says.
      let start = offset - lineBytes.count
      while let next = pending.first, next < offset || (next == offset && lineBytes.isEmpty) {
        pending.removeFirst()
        let at = next - start
        guard at >= 0, at <= lineBytes.count else { continue }
        let column = String(decoding: lineBytes[..<at], as: UTF8.self).count + 1
        var said = String(decoding: lineBytes[at...], as: UTF8.self)
        said = String(said.drop { $0 == "#" || $0 == " " }.dropFirst("REVIEW".count).drop { $0 == ":" || $0 == " " })
        let note = String(said.prefix(200)).trimmingCharacters(in: .whitespaces)
        record(
          .warning(.receiptToReview(note: note), at: SourceLocation(in: file, line: line, column: column)),
          ofBill: false)
      }
    }
    while !pending.isEmpty, let byte = input.next() {
      offset += 1
      if byte == 0x0A {
        offset -= 1
        noteLine()
        offset += 1
        line += 1
        lineBytes.removeAll(keepingCapacity: true)
      } else {
        lineBytes.append(byte)
      }
    }
    if !pending.isEmpty { noteLine() }
  }

  /// The error of a record whose currency is kept in other units than the run's first record of
  /// it kept it (a file's `whole_units:` that another file lacks): amounts of one code in two
  /// exponents would be added as if alike. `nil` when it agrees (or is the first).
  @inline(__always)
  private mutating func unitsDiffer(_ currency: Currency, at source: SourceLocation) -> Diagnostic? {
    // A run has a currency or two: the last one met is nearly always the one.
    if let last = keptCurrencies.last, last == currency, last.exponent == currency.exponent { return nil }
    return unitsDifferSlowly(currency, at: source)
  }

  @inline(never)
  private mutating func unitsDifferSlowly(_ currency: Currency, at source: SourceLocation) -> Diagnostic? {
    guard let index = keptCurrencies.firstIndex(of: currency) else {
      keptCurrencies.append(currency)
      keptAt.append(source)
      return nil
    }
    let first = keptCurrencies[index]
    guard first.exponent != currency.exponent else {
      // Met again: moved last, where the next record of it looks first.
      keptCurrencies.swapAt(index, keptCurrencies.count - 1)
      keptAt.swapAt(index, keptAt.count - 1)
      return nil
    }
    return .error(
      .currencyUnitsDiffer(code: currency.code, wholeHere: currency.exponent == 0, first: keptAt[index]), at: source)
  }

  /// Warns of a bill a person paid whose diners are a head count: nobody named ate, so the
  /// payer's money moves no one's balance (the reports say so on the bill too).
  @inline(never)
  private mutating func warnOfHeadCountPayer(_ bill: borrowing Bill) {
    let payer = bill.terms.payer ?? bill.terms.payers.first?.person
    guard let payer else { return }
    let count = bill.terms.diners.count
    record(.warning(.headCountPaidByPerson(payer: payer, count: count), at: bill.source), ofBill: true)
  }

  /// Notes a bill's explicit id and its receipt for the cross-file checks; whether the id repeats
  /// one read before (a prediction, settled by ``repeatsNeedingAnotherReading()``).
  @inline(__always)
  private mutating func noteIDAndReceipt(of bill: borrowing Bill, explicitID: Bool) -> Bool {
    let repeated = explicitID && isRepeat(ids.add(key: bill.id, id: nil, ordinal: recordCount, location: bill.source))
    // A repeat's receipt is added too: if the prediction was wrong, it counts as any other's.
    if let date = bill.date {
      // Several payers: their names, in the order given.
      let payer =
        bill.terms.payers.count > 1 ? bill.terms.payers.map(\.person).joined(separator: ";") : bill.terms.payer ?? ""
      // Written on the stack; bytes suffice as the key: the payer's name is in NFC, the rest is ASCII.
      // The people and their parts too: two bills of one day, amount and payer for other people
      // (an import's `David buzios airbnb` and `Joe buzios airbnb`) are two bills.
      let people = Self.peopleFingerprint(bill.terms.diners)
      withScratchBytes(atMost: Self.receiptKeyRoom(payer, bill.terms.amount) + 9) { key in
        Self.writeReceiptKey(date, bill.terms.amount, payer, to: &key)
        key.write(0x7C)
        for shift in stride(from: 56, through: 0, by: -8) {
          key.write(UInt8(truncatingIfNeeded: people >> UInt64(shift)))
        }
      } read: { key in
        receipts.add(utf8: key, id: bill.id, ordinal: recordCount, location: bill.source)
      }
    }
    return repeated
  }

  /// Hands on a recurring bill's instances (``Recurrence``), each a bill of its own dated on its
  /// day and identified `<id>#<period>` (`rent#2026-11`); they count as bills. The instances'
  /// ids are checked like any explicit id: a bill elsewhere written with an instance's id is a
  /// repeat (skip the instance to write it by hand). An instance whose id repeats makes the rule
  /// invalid as a whole.
  private mutating func expand(
    _ rule: Bill, _ recurrence: Recurrence, explicitID: Bool, _ handle: (consuming BillOutcome) -> Void
  ) {
    guard let first = rule.date else { return }
    if let differ = unitsDiffer(rule.terms.amount.currency, at: rule.source) {
      record(differ, ofBill: true)
      return handle(.invalid(InvalidBill(id: rule.id, source: rule.source, diagnostics: [differ])))
    }
    if knownRepeats == nil, let category = rule.category { note(category: (category, rule.source)) }
    if rule.terms.diners.isAnonymous { warnOfHeadCountPayer(rule) }
    // Measured before any instance is made: the run's work is bounded by its limit, not by what
    // the rules ask for.
    let wanted = recurrence.instanceCount(from: first, through: options.repeatsThrough)
    if instancesMade + wanted > options.instanceLimit {
      let problem = Diagnostic.error(
        .recurrence(.runLimit(limit: options.instanceLimit, made: instancesMade, wanted: wanted)), at: rule.source)
      record(problem, ofBill: true)
      return handle(.invalid(InvalidBill(id: rule.id, source: rule.source, diagnostics: [problem])))
    }
    instancesMade += wanted
    let dates = recurrence.dates(from: first, through: options.repeatsThrough) ?? []
    billCount += dates.count - 1
    var template = rule
    template.recurrence = nil
    let instances = dates.map { date in
      var instance = template
      instance.id = "\(rule.id)#\(recurrence.instanceKey(of: date))"
      instance.date = date
      return instance
    }
    if let knownRepeats, let diagnostic = knownRepeats.diagnostics[recordCount] {
      record(diagnostic, ofBill: true)
      if diagnostic.severity == .error {
        return handle(.invalid(InvalidBill(id: rule.id, source: rule.source, diagnostics: [diagnostic])))
      }
    } else if knownRepeats == nil {
      var repeated = false
      for instance in instances where noteIDAndReceipt(of: instance, explicitID: true) { repeated = true }
      if repeated {
        return handle(.invalid(InvalidBill(id: rule.id, source: rule.source, repeatOrdinal: recordCount)))
      }
    }
    for instance in instances { handle(.valid(instance)) }
  }

  /// Whether an explicit id with this hash was read before; notes it for the record read now.
  private mutating func isRepeat(_ hash: UInt64) -> Bool {
    // Past the limit an id is not looked up either: the table is as full as it gets there, and a
    // look-up would pass ~30 slots, each a 2⁻³² chance of a wrong guess.
    guard idFingerprints.count < Self.predictedIDLimit, idFingerprints.insert(hash & repeatPredictionMask) else {
      return false
    }
    predictedRepeats.insert(recordCount)
    return true
  }

  /// A payment's cross-file check: its explicit id is unique among bills and payments.
  private mutating func check(_ result: Result<PaymentRecord, InvalidBill>, raw: RawRecord) -> BillOutcome {
    switch result {
    case .failure(let invalid):
      for diagnostic in invalid.diagnostics { record(diagnostic, ofBill: true) }
      return .invalid(invalid)
    case .success(let payment):
      if let differ = unitsDiffer(payment.payment.currency, at: payment.source) {
        record(differ, ofBill: true)
        return .invalid(InvalidBill(id: payment.id, source: payment.source, diagnostics: [differ], kind: .payment))
      }
      // A payment's names are compared for look-alikes too (`Om` for `Omar`), located at the payment.
      if knownRepeats == nil, !rosterInEffect {
        note([(payment.payment.from, payment.source), (payment.payment.to, payment.source)])
      }
      if let knownRepeats {
        guard let diagnostic = knownRepeats.diagnostics[recordCount] else { return .payment(payment) }
        record(diagnostic, ofBill: true)
        return .invalid(InvalidBill(id: payment.id, source: payment.source, diagnostics: [diagnostic], kind: .payment))
      }
      if raw.entries.contains(where: { $0.key == "id" }) {
        paymentOrdinals.insert(recordCount)
        if isRepeat(ids.add(key: payment.id, id: nil, ordinal: recordCount, location: payment.source)) {
          return .invalid(
            InvalidBill(id: payment.id, source: payment.source, kind: .payment, repeatOrdinal: recordCount))
        }
      }
      return .payment(payment)
    }
  }

  /// 64 bits that tell one bill's people and parts from another's (FNV-1a over the names' UTF-8,
  /// NFC as read, the weights or parts, and the count): a receipt key holds them so that a bill of
  /// the same day, amount and payer for other people is no duplicate, in 8 bytes however many
  /// people there are. (Bytes read through spans: no string is copied or hashed as a `String`.)
  @inline(__always)
  static func peopleFingerprint(_ diners: borrowing Diners) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ word: UInt64) { hash = (hash ^ word) &* 0x100_0000_01b3 }
    func mix(_ name: String) {
      let bytes = name.utf8.span
      for index in bytes.indices { mix(UInt64(bytes[index])) }
      mix(0x1F)
    }
    mix(UInt64(diners.count))
    switch diners {
    case .named(let list), .exact(let list):
      for index in list.indices {
        mix(list[index].name)
        mix(UInt64(bitPattern: list[index].weight.tenThousandths))
      }
    case .itemized(let receipt):
      if case .named(let list) = receipt.diners {
        for index in list.indices { mix(list[index].name) }
      }
    case .anonymous: break
    }
    return hash
  }

  /// The most bytes a receipt key with this payer and amount takes.
  static func receiptKeyRoom(_ payer: String, _ amount: Money) -> Int {
    CalendarDate.maximumISOLength + DecimalText.maximumLength(scale: amount.currency.exponent) + 16 + payer.utf8.count
  }

  static func writeReceiptKey(
    _ date: CalendarDate, _ amount: Money, _ payer: String, to key: inout ByteCursor
  ) {
    date.writeISO(to: &key)
    key.write(0x7C)
    DecimalText.write(amount.minorUnits, scale: amount.currency.exponent, to: &key)
    key.write(0x20)
    amount.currency.writeCode(to: &key)
    key.write(0x7C)
    key.write(utf8: payer)
  }

  /// Reads `copy` wherever this stream reads `-`, instead of standard input.
  package mutating func read(standardInput copy: StandardInputCopy) {
    standardInput = copy
  }

  /// Gives this stream standard input already read by another (a first pass), since it can be read once.
  package mutating func reuseStandardInput(from other: BillStream) {
    if let copy = other.standardInput { standardInput = copy }
  }

  private mutating func readStandardInput() -> StandardInputCopy {
    if let standardInput { return standardInput }
    let copy = StandardInputCopy()
    standardInput = copy
    if let failure = copy.failure {
      let diagnostic = Diagnostic.error(
        .readingStopped(reason: failure), at: SourceLocation(wholeFile: "-"))
      record(diagnostic, ofBill: false)
      fileProblems.append(diagnostic)
    }
    return copy
  }

  /// The size of the file at `path` in bytes; 0 if it cannot be told.
  static func size(of path: String) -> Int {
    guard case .success(let status) = SystemCalls.status(of: path) else { return 0 }
    return Int(status.size)
  }

  private mutating func fail(_ problem: Problem, file: String) {
    unreadableInput = true
    let diagnostic = Diagnostic.error(problem, at: SourceLocation(wholeFile: file))
    record(diagnostic, ofBill: false)
    fileProblems.append(diagnostic)
  }

  package static func source(for path: String, override: InputFormat?) -> InputSource? {
    let lowered = path.lowercased()
    let isTSV = lowered.hasSuffix(".tsv")
    if let override { return InputSource(path: path, format: override, isTabSeparated: isTSV) }
    if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") {
      return InputSource(path: path, format: .yaml, isTabSeparated: false)
    }
    if lowered.hasSuffix(".csv") || isTSV { return InputSource(path: path, format: .csv, isTabSeparated: isTSV) }
    return nil
  }

  /// The bill files' extensions a directory is searched for, as messages name them.
  package static let billExtensions = "*.yaml, *.yml, *.csv, *.tsv"

  /// Bill files below `directory`, unsorted.
  static func walk(_ directory: String) -> [String] {
    let manager = FileManager.default
    guard let entries = try? manager.contentsOfDirectory(atPath: directory) else { return [] }
    var files: [String] = []
    // `splitbill.yaml` is a directory's configuration (the command line's defaults), not bills.
    for entry in entries where !entry.hasPrefix(".") && entry != "splitbill.yaml" {
      let path = directory.hasSuffix("/") ? directory + entry : directory + "/" + entry
      guard let attributes = try? manager.attributesOfItem(atPath: path) else { continue }
      let type = attributes[.type] as? FileAttributeType
      if type == .typeDirectory {
        if !manager.fileExists(atPath: path + "/.splitbill-ignore") { files += walk(path) }
      } else if type == .typeRegular || type == .typeSymbolicLink, source(for: path, override: nil) != nil,
        !ItemTable.isItemsFile(path)
      {
        files.append(path)
      }
    }
    return files
  }
}

/// A file as the file system knows it: device and inode. Two spellings of one file (a link, `./`)
/// are one identity: inputs given twice, and outputs that would replace an input, are told by it.
package struct FileIdentity: Hashable, Sendable {
  package let device: UInt64
  package let inode: UInt64

  /// Standard input, which can be read once.
  static let standardInput = FileIdentity(device: .max, inode: .max)

  init(device: UInt64, inode: UInt64) {
    self.device = device
    self.inode = inode
  }

  /// The file at `path`; `nil` if there is none (its reading will say so).
  package init?(path: String) {
    guard case .success(let status) = SystemCalls.status(of: path) else { return nil }
    device = status.device
    inode = status.inode
  }

  /// The regular file at `path`; `nil` when there is none (or it is a FIFO, a device).
  package init?(regularFile path: String) {
    guard case .success(let status) = SystemCalls.status(of: path), status.isRegularFile else { return nil }
    device = status.device
    inode = status.inode
  }

  /// `path` made absolute and tidied (`./a/../b` is `b`), for files that do not exist yet.
  package static func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }
}

extension Result where Success == Bill, Failure == InvalidBill {
  /// A valid bill's repeat rule, read without copying the bill.
  var recurrence: Recurrence? {
    switch self {
    case .success(let bill): bill.recurrence
    case .failure: nil
    }
  }
}
