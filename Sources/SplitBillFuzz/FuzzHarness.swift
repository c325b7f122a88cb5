import Foundation
import SplitBill
import SplitBillCore
import SplitBillInput
import SplitBillModel
import SplitBillRates
import SplitBillReports

/// One input of the fuzzer: its bytes read as a YAML file and as a CSV file, through the same
/// stream `check` and `report` use, and the rules asserted. A violation stops the process (the
/// fuzzer keeps the input that did it):
/// - reading never crashes or traps, whatever the bytes;
/// - every bill that validates splits, and its shares add up to its total to the unit;
/// - every payment that validates is of a positive amount between two different people, and a
///   ledger of everything read reconciles;
/// - every diagnostic's position is inside the input;
/// - read as a rates file (`--rates`), the same: no crash, positions inside the input, and every
///   rate read is found again on its day (directly or inverted), with a positive price, and a
///   payment converted at it adds up to zero; all its rates into one currency, in one ledger, give
///   the same balances in fixed point (where it answers) as exactly, under every leftover policy;
/// - read as the items file of a bills file, the same as the bills;
/// - imported as a Splitwise, a Spliit and an IHateMoney export (IHateMoney also with a currency
///   for bills without one, and the bytes as its settlements export too): no crash, never the
///   importer's own check failing (a YAML file that would not read back as the export's
///   balances), positions inside;
/// - read as a configuration file: no crash, positions inside, and no text given after an
///   `ai-key` in any message;
/// - after an ECB header, as a rates file (the ECB reader's own path), the rates rules;
/// - as a recurring bill's `repeat` (CSV and YAML) in a run limited to 2,000 instances: no more
///   made, none after 9999-12-31, no id twice;
/// - behind each photo format's signature: the format told, the size and orientation read
///   without a crash, a size within limits affordable; as `--lang`, accepted only as names;
/// - as the text Tesseract read off a receipt (a line each, words at their places): read with no
///   currency and in ringgit without a crash or an overflow; a verified receipt has a total, items
///   and every check held; every line a reason names is on the page;
/// - as the values `add` is given, added to a YAML and a CSV books file: unchanged unless added,
///   and a file added to reads without an error;
/// - every person's payment details read (`people:` entries): an IBAN whose check digits hold
///   (counted again here) and that reads back from its printed form, an https link, a holder of
///   1 to 70 characters; each one's EPC payload eleven lines within 331 bytes with the IBAN on its
///   line whatever the names, and its HTML with no tag or attribute the details opened; and the
///   bytes themselves as an IBAN, accepted only when their check digits hold.
///
/// The memory of each input is bounded by scripts/fuzz.sh (`-rss_limit_mb`), its time by `-timeout`.
enum FuzzHarness {
  /// Where the inputs are written to be read (one directory per process).
  static let directory: String = {
    let path = NSTemporaryDirectory() + "splitbill-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()

  static func check(_ bytes: [UInt8]) {
    let lines = lineCount(bytes)
    for name in ["input.yaml", "input.csv"] {
      let path = directory + "/" + name
      guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        fatalError("cannot write \(path)")
      }
      var stream = BillStream(options: ReadOptions())
      stream.parsesCSVOnOwnThread = false
      var ledger = LeftoverLedger()
      var books = ReportLedger(tracksPairs: true)
      stream.read(stream.sources(for: [path])) { outcome in
        switch outcome {
        case .invalid: return
        case .payment(let record):
          let payment = record.payment
          precondition(payment.amount.minorUnits > 0 && payment.from != payment.to, "payment \(record)")
          books.add(payment)
        case .valid(let bill):
          do throws(SplitError) {
            let split = try bill.terms.split(ledger: &ledger)
            let shares = split.shares.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
            precondition(shares == split.total.minorUnits, "shares \(shares) != total \(split.total) in \(bill.id)")
            books.add(split)
          } catch {
            // A split may fail (an amount too large to add a tip to): that is a diagnostic, not a crash.
          }
        }
      }
      checkPayees(stream.payees)
      do {
        try books.reconcile()
        checkPlans(books)
      } catch {
        // Sums past 64 bits are reported as such; any other identity failing is a bug.
        precondition(error.identity == .sumsFit, "\(error)")
      }
      _ = stream.findRepeats()
      for diagnostic in stream.diagnostics {
        guard let location = diagnostic.location, !location.isWholeFile else { continue }
        precondition(
          location.line <= lines && location.column >= 1, "\(diagnostic) outside an input of \(lines) lines")
      }
      checkRates(bytes, path: path, lines: lines)
    }
    checkIBAN(bytes)
    checkItems(bytes, lines: lines)
    checkImports(bytes, lines: lines)
    checkConfiguration(bytes, lines: lines)
    checkECBRates(bytes)
    checkRecurring(bytes)
    checkPhotoHeaders(bytes)
    // Another quarter (bits 4 and 5 clear): reading receipt text is the whole reader, and in the
    // instrumented build it would halve the inputs a minute again.
    if let first = bytes.first, first >> 4 & 3 == 0 { checkReceiptText(bytes) }
    // A quarter of the inputs (bits 2 and 3 of the first byte clear): an `add` locks, writes and
    // reads back two files, and on every input it took the fuzzer from 2,217 inputs a minute to 339.
    if let first = bytes.first, first >> 2 & 3 == 0 { checkAdd(bytes) }
    // A quarter (bits 0 and 1 clear): an export reads the books and each file it writes back.
    if let first = bytes.first, first & 3 == 0 { checkExports() }
  }

  /// The remainder by 97 of an IBAN's number, counted here apart from ``IBAN``: its first four
  /// characters moved to the end, each letter as its two digits 10…35.
  static func remainder97(_ electronic: String) -> Int {
    let moved = electronic.dropFirst(4) + electronic.prefix(4)
    var digits = ""
    for character in moved {
      if let digit = character.wholeNumberValue, character.isASCII {
        digits += String(digit)
      } else if let ascii = character.asciiValue, (65...90).contains(ascii) {
        digits += String(Int(ascii) - 55)
      } else {
        return -1
      }
    }
    // Seven digits at a time after the last remainder's two: the usual way by hand.
    var remainder = 0
    for chunk in stride(from: 0, to: digits.count, by: 7) {
      guard let value = Int(String(remainder) + digits.dropFirst(chunk).prefix(7)) else { return -1 }
      remainder = value % 97
    }
    return remainder
  }

  /// The first 64 bytes as an IBAN: accepted only with the check digits right.
  static func checkIBAN(_ bytes: [UInt8]) {
    guard let iban = try? IBAN(parsing: String(decoding: bytes.prefix(64), as: UTF8.self)) else { return }
    precondition(remainder97(iban.electronic) == 1, "IBAN \(iban.electronic) accepted with wrong check digits")
    precondition((15...34).contains(iban.electronic.count), "IBAN \(iban.electronic) of a wrong length")
  }

  /// What the payment details read promise: see the type's rules.
  static func checkPayees(_ payees: [String: PaymentDetails]) {
    guard !payees.isEmpty, let eur = try? Currency(code: "EUR") else { return }
    for (name, details) in payees {
      if let iban = details.iban {
        precondition(remainder97(iban.electronic) == 1, "\(name): IBAN \(iban.electronic) with wrong check digits")
        precondition((try? IBAN(parsing: iban.grouped)) == iban, "\(name): IBAN does not read back")
        let payload = EPCPayment.payload(
          name: details.holder ?? name, iban: iban, bic: details.bic, amount: Money(minorUnits: 1_234, currency: eur),
          reference: EPCPayment.reference(title: name, from: name, to: name))
        if let payload {
          let lines = payload.split(separator: "\n", omittingEmptySubsequences: false)
          precondition(
            lines.count == 11 && lines[6] == iban.electronic, "\(name): EPC lines \(payload.debugDescription)")
          precondition(payload.utf8.count <= EPCPayment.byteLimit, "\(name): EPC payload too long")
        }
      }
      if let link = details.link { precondition(PaymentDetails.isPaymentLink(link), "\(name): link \(link)") }
      if let holder = details.holder { precondition((1...70).contains(holder.count), "\(name): holder \(holder)") }
      // In HTML, the details open no element and no attribute: every `<` is one of the writer's.
      let transfer = Transfer(from: "Ana", to: name, amount: Money(minorUnits: 500, currency: eur))
      let html = HTMLReportWriter<StringSink>.howToPay(transfer, details, title: name)
      let tags = html.split(separator: "<").dropFirst().map { String($0.prefix { $0 != " " && $0 != ">" }) }
      let allowed: Set<String> = [
        "div", "/div", "span", "/span", "a", "/a", "figure", "/figure", "svg", "/svg", "rect", "path", "figcaption",
        "/figcaption", "p", "/p",
      ]
      precondition(tags.allSatisfy(allowed.contains), "\(name): HTML tags \(tags)")
      precondition(html.components(separatedBy: "\"").count % 2 == 1, "\(name): an attribute left open")
    }
  }

  /// Every settle-up plan on the books read: each brings every balance to zero, each person's
  /// pairwise debts add up to their balance, and paying a plan's first transfer leaves the rest.
  static func checkPlans(_ books: ReportLedger) {
    for currency in books.currencyTotals.map(\.currency) {
      let balances = books.closingBalances(in: currency)
      let debts = books.pairwiseDebts(in: currency)
      var fromDebts: [String: Int64] = [:]
      for debt in debts {
        fromDebts[debt.from, default: 0] -= debt.amount.minorUnits
        fromDebts[debt.to, default: 0] += debt.amount.minorUnits
      }
      precondition(balances.filter { $0.value != 0 } == fromDebts.filter { $0.value != 0 }, "pairwise debts")
      let kept = Set(balances.keys.sorted().prefix(1))
      for plan in [SettlementPlan.fewest, .pairwise, .keepingOut(kept)] {
        let settlement = Settlement.settle(balances, debts: debts, plan: plan, in: currency)
        precondition(settlement.applied(to: balances).values.allSatisfy { $0 == 0 }, "\(plan) leaves a balance")
        guard let first = settlement.transfers.first else { continue }
        var paid = books
        paid.add(Payment(from: first.from, to: first.to, amount: first.amount))
        let again = Settlement.settle(
          paid.closingBalances(in: currency), debts: paid.pairwiseDebts(in: currency), plan: plan, in: currency)
        precondition(again.transfers == Array(settlement.transfers.dropFirst()), "\(plan) moved after a payment")
      }
    }
  }

  /// The inputs as books exported for every app: an export either refuses (bad books, nothing to
  /// export, several currencies) or hands over a file that reads back with the books' balances,
  /// whatever the names and text in it; a file that would not is the engine's internal error.
  static func checkExports() {
    let date = CalendarDate(daysSinceEpoch: 20_000)
    for name in ["input.yaml", "input.csv"] {
      for target in ExportTarget.allCases {
        for currency in [nil, Currency.eur] {
          do {
            let outcome = try Exporter.run(
              [directory + "/" + name], ExportOptions(target: target, date: date, currency: currency))
            if case .exported = outcome.status { precondition(outcome.bytes?.isEmpty == false, "\(target): no bytes") }
            break
          } catch {
            precondition(error.kind != .internalError, "\(target) \(name): \(error)")
          }
        }
      }
    }
  }

  /// The bytes after an ECB header (`Date,USD,JPY,`): the reader's own path, every rule of
  /// ``checkRates(_:path:lines:)``.
  static func checkECBRates(_ bytes: [UInt8]) {
    let header = Array("Date,USD,JPY,USD,\n".utf8)
    let path = directory + "/ecb.csv"
    guard FileManager.default.createFile(atPath: path, contents: Data(header + bytes)) else {
      fatalError("cannot write")
    }
    var lines = 2
    for byte in bytes where byte == 0x0A || byte == 0x0D { lines += 1 }
    checkRates(header + bytes, path: path, lines: lines)
  }

  /// The bytes as a bill's `repeat` (a CSV cell, and a YAML value on one line), in a run whose
  /// limit of instances is 2,000: no more instances than that are made, none after 9999-12-31,
  /// and no two with one id.
  static func checkRecurring(_ bytes: [UInt8]) {
    let text = String(decoding: bytes.prefix(2_000), as: UTF8.self).map { $0.isNewline ? " " : $0 }
    let cell = String(text).replacingOccurrences(of: "\"", with: "\"\"")
    let yamlValue = String(text)
    let files = [
      (
        "recurring.csv",
        "id,date,amount,currency,tip,diners,paid_by,repeat\nr,2026-01-31,10,EUR,0,Ana;Ben,Ana,\"\(cell)\"\n"
          + "s,9999-12-01,10,EUR,0,Ana;Ben,Ben,\"\(cell)\"\n"
      ),
      (
        "recurring.yaml",
        "defaults: {currency: EUR, tip: 0}\nbills:\n  - id: r\n    date: 2024-02-29\n    amount: 10\n"
          + "    diners: [Ana, Ben]\n    repeat: \(yamlValue)\n"
      ),
    ]
    for (name, contents) in files {
      let path = directory + "/" + name
      guard FileManager.default.createFile(atPath: path, contents: Data(contents.utf8)) else {
        fatalError("cannot write")
      }
      var options = ReadOptions(repeatsThrough: CalendarDate(year: 2030, month: 6, day: 30))
      options.instanceLimit = 2_000
      var stream = BillStream(options: options)
      stream.parsesCSVOnOwnThread = false
      var ids: Set<String> = []
      stream.read(stream.sources(for: [path])) { outcome in
        guard case .valid(let bill) = outcome else { return }
        precondition(ids.insert(bill.id).inserted, "instance id \(bill.id) twice")
        precondition((bill.date?.year ?? 1) <= 9_999, "\(bill.id) dated \(String(describing: bill.date))")
      }
      precondition(ids.count <= 2_000 + 2, "\(ids.count) instances past the run's limit of 2,000")
    }
  }

  /// The bytes behind each photo format's signature: telling the format, reading the size its
  /// header states and its EXIF orientation never crash, and a size within the limits is one
  /// decoding can afford. The bytes as `--lang` too: accepted only as names joined by `+`.
  static func checkPhotoHeaders(_ bytes: [UInt8]) {
    let signatures: [(ImageFormat, [UInt8])] = [
      (.png, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)),
      (.jpeg, [0xFF, 0xD8, 0xFF]), (.tiff, [0x49, 0x49, 0x2A, 0x00]), (.tiff, [0x4D, 0x4D, 0x00, 0x2A]),
      (.heic, [0, 0, 0, 24] + Array("ftypheic".utf8)), (.webp, Array("RIFF\0\0\0\0WEBP".utf8)),
    ]
    for (format, signature) in signatures {
      let photo = signature + bytes
      precondition(ImageFormat.sniff(photo) == format, "\(format) not told")
      if let size = PhotoSize.read(from: photo, format: format), size.isWithinLimits {
        precondition(size.pixels <= PhotoSize.limit && size.width >= 1 && size.height >= 1, "\(size)")
      }
      if let orientation = ExifOrientation.read(from: photo, format: format) {
        precondition((1...8).contains(orientation.value), "\(orientation)")
      }
    }
    let languages = String(decoding: bytes.prefix(300), as: UTF8.self)
    if ReceiptScanner.malformedLanguages(languages) == nil {
      let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-/+".unicodeScalars)
      precondition(
        !languages.isEmpty && languages.unicodeScalars.allSatisfy(allowed.contains) && !languages.hasPrefix("/")
          && !languages.contains("+/"),
        "'\(languages)' taken as languages")
    }
  }

  /// The bytes as the lines Tesseract read off a receipt, each word placed as on a page (the
  /// last word of a line with a digit at the price column): reading never traps (amounts of 15
  /// digits, sums and rates included), a verified receipt has its total, its items and every check
  /// held, every line a review names is one of the page's, and the country's language it would be
  /// read again in is one of Tesseract's names. At most 400 lines, more than the
  /// longest real receipt prints; a line may be as long as the input.
  static func checkReceiptText(_ bytes: [UInt8]) {
    var words: [RecognizedWord] = []
    let rows = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(400)
    for (row, line) in rows.enumerated() {
      let parts = String(decoding: line, as: UTF8.self).split(separator: " ").map(String.init)
      var left = 20
      for (index, part) in parts.enumerated() {
        let width = min(part.count, 200) * 14
        let last = index == parts.count - 1 && parts.count > 1 && part.contains(where: \.isNumber)
        words.append(
          RecognizedWord(
            text: part, left: last ? 3_000 - width : left, top: 20 + row * 40, width: width, height: 24,
            confidence: 90))
        left += width + 12
      }
    }
    let lines = ReceiptLine.lines(from: words)
    for currency in [nil, try? Currency(code: "MYR")] {
      let receipt = ReceiptReader.read(lines, currency: currency)
      if receipt.status == .verified {
        precondition(receipt.total != nil && !receipt.items.isEmpty, "verified without a total or items")
        precondition(receipt.checks.allSatisfy(\.passed), "verified with a check failed: \(receipt.checks)")
      }
      for reason in receipt.reasons {
        if let line = reason.line { precondition((1...max(lines.count, 1)).contains(line), "\(reason)") }
      }
    }
    // The language a receipt is read again in comes from the table, never from its text: a name
    // Tesseract's data could be looked up by, and not English, which is read already.
    if let language = ReceiptCountry.of(lines: lines.map(\.text))?.language {
      precondition(
        ReceiptScanner.malformedLanguages(language) == nil && language != "eng", "'\(language)' as a language")
    }
  }

  /// The bytes as the values `add` is given (a line each: amount, diners, paid_by, tip, date,
  /// description, currency, repeat, category; a payment's from, to, amount, date), added to a
  /// YAML and a CSV books file: a record refused or failed leaves the file as it was, byte for
  /// byte; a record added leaves a file that reads without an error.
  static func checkAdd(_ bytes: [UInt8]) {
    let fields = bytes.split(separator: 0x0A, maxSplits: 9, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    let payment = (bytes.first ?? 0) & 1 == 1
    let keys =
      payment
      ? ["from", "to", "amount", "date", "description"]
      : ["amount", "diners", "paid_by", "tip", "date", "description", "currency", "repeat", "category"]
    var values: [String: String] = [:]
    for (key, value) in zip(keys, fields) { values[key] = value }
    let books = [
      (
        "books.yaml",
        "defaults: {currency: EUR, tip: 0}\npeople: [Ana, Ben]\nbills:\n"
          + "  - {id: a, date: 2026-01-02, amount: 10, diners: [Ana, Ben], paid_by: Ana}\n"
      ),
      ("books.csv", "id,date,amount,currency,tip,diners,paid_by\na,2026-01-02,10,EUR,0,Ana;Ben,Ana\n"),
    ]
    let today = CalendarDate(year: 2026, month: 3, day: 1) ?? CalendarDate(daysSinceEpoch: 20_000)
    for (name, contents) in books {
      let path = directory + "/" + name
      guard FileManager.default.createFile(atPath: path, contents: Data(contents.utf8)) else {
        fatalError("cannot write")
      }
      var options = ReadOptions(repeatsThrough: today)
      options.defaults.currency = try? Currency(code: "EUR")
      options.instanceLimit = 2_000
      let outcome = Adder.add(
        NewRecord(kind: payment ? .payment : .bill, values: values), to: path,
        options: ReadingOptions(currency: options.defaults.currency, instanceLimit: options.instanceLimit), today: today
      )
      let after = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
      guard outcome.status == .added else {
        precondition(after == Array(contents.utf8), "\(outcome.status): \(name) changed")
        continue
      }
      var stream = BillStream(options: options)
      stream.parsesCSVOnOwnThread = false
      var records = 0
      stream.read(stream.sources(for: [path])) { _ in records += 1 }
      precondition(
        stream.counts.errors == 0 && records >= 2,
        "\(name) added to reads with \(stream.counts.errors) errors: \(stream.diagnostics.prefix(2))")
    }
  }

  /// `precondition`s that each located diagnostic is inside an input of `lines` lines.
  static func requireInside(_ diagnostics: [Diagnostic], lines: Int, file: String? = nil) {
    for diagnostic in diagnostics {
      guard let location = diagnostic.location, !location.isWholeFile else { continue }
      if let file, location.file != file { continue }
      precondition(
        location.line <= lines && location.column >= 1, "\(diagnostic) outside an input of \(lines) lines")
    }
  }

  /// The bytes as the items file of a bills file with three itemized bills.
  static func checkItems(_ bytes: [UInt8], lines: Int) {
    let bills = directory + "/bills.csv"
    let items = directory + "/bills.items.csv"
    guard
      FileManager.default.createFile(
        atPath: bills,
        contents: Data(
          "id,currency,tip,diners,paid_by\nb1,EUR,10,Ana;Ben,Ana\nb2,JPY,0,Ana;Ben;Cy,Cy\nb3,EUR,0,Ana,Ana\n".utf8)),
      FileManager.default.createFile(atPath: items, contents: Data(bytes))
    else { fatalError("cannot write \(items)") }
    var stream = BillStream(options: ReadOptions())
    stream.parsesCSVOnOwnThread = false
    var ledger = LeftoverLedger()
    stream.read(stream.sources(for: [bills])) { outcome in
      guard case .valid(let bill) = outcome else { return }
      guard let split = try? bill.terms.split(ledger: &ledger) else { return }
      let shares = split.shares.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
      precondition(shares == split.total.minorUnits, "shares \(shares) != total \(split.total) in \(bill.id)")
    }
    requireInside(stream.diagnostics, lines: lines, file: items)
    try? FileManager.default.removeItem(atPath: items)
  }

  /// The bytes imported as each app's export, and as a bank statement and its rules.
  static func checkImports(_ bytes: [UInt8], lines: Int) {
    let date = CalendarDate(daysSinceEpoch: 20_000)
    var runs = ImportSource.allCases.map {
      (bytes, ImportOptions(source: $0, path: "export", date: date, skipInvalid: true))
    }
    runs.append(
      (
        bytes,
        ImportOptions(
          source: .ihatemoney, path: "export", date: date, currency: try? Currency(code: "EUR"), skipInvalid: true,
          settlements: ImportCompanion(path: "export", bytes: bytes))
      ))
    // A statement: the bytes by fixed rules, fixed rows by the bytes as rules, and the bytes by the
    // rules proposed for them (who paid and shares added).
    let rules = """
      skip 1
      fields date, description, amount
      date-format DD.MM.YYYY
      decimal-mark ,
      currency EUR
      paid-by A
      diners A, B
      if x
        skip
      """
    let proposed = Importer.proposeRules(for: bytes, path: "export") + "paid-by A\ndiners A, B\ncurrency EUR\n"
    let statement = Array("Date,Text,Amount\n01.02.2026,x,-1,00\n02.02.2026,y,\"-2,50\"\n".utf8)
    for (input, rulesBytes) in [(bytes, Array(rules.utf8)), (statement, bytes), (bytes, Array(proposed.utf8))] {
      runs.append(
        (
          input,
          ImportOptions(
            source: .csv, path: "export", date: date, skipInvalid: true,
            rules: ImportCompanion(path: "rules", bytes: rulesBytes))
        ))
    }
    for (input, options) in runs {
      let source = options.source
      let limit = [("export", lineCount(input)), ("rules", lineCount(options.rules?.bytes ?? []))]
      do {
        let outcome = try Importer.run(input, options)
        for issue in outcome.errors + outcome.remarks {
          guard let line = issue.line else { continue }
          let most =
            issue.file == "rules" ? limit[1].1 : issue.file == "export" || issue.file == nil ? limit[0].1 : lines
          precondition(line >= 1 && line <= most, "\(source): \(issue) outside an input of \(most) lines")
        }
      } catch {
        precondition(!error.isInternal, "\(source): \(error)")
      }
    }
  }

  /// Lines as both formats count them: LF, CRLF, and a CR alone each end one.
  static func lineCount(_ bytes: [UInt8]) -> Int {
    var lines = 1
    for (index, byte) in bytes.enumerated() where byte == 0x0A || byte == 0x0D {
      if byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A { continue }
      lines += 1
    }
    return lines
  }

  /// The bytes as a configuration file: whatever is wrong, no text after an `ai-key` is echoed.
  static func checkConfiguration(_ bytes: [UInt8], lines: Int) {
    let path = directory + "/config.yaml"
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { fatalError("cannot write") }
    let secrets = String(decoding: bytes, as: UTF8.self).components(separatedBy: "ai-key").dropFirst().compactMap {
      $0.split(whereSeparator: { " \t\r\n:\"'[]{},".contains($0) }).first.map(String.init)
    }.filter { $0.count >= 6 }
    do throws(ConfigProblem) {
      _ = try ConfigFile.read(path)
    } catch {
      requireInside([error.diagnostic], lines: lines)
      for secret in secrets {
        precondition(!error.diagnostic.message.contains(secret), "a configuration problem echoes \(secret)")
      }
    }
  }

  static func checkRates(_ bytes: [UInt8], path: String, lines: Int) {
    let (rates, problems) = RateReader.read(bytes, path: path)
    for diagnostic in problems {
      guard let location = diagnostic.location, !location.isWholeFile else { continue }
      precondition(
        location.line <= lines && location.column >= 1, "\(diagnostic) outside an input of \(lines) lines")
    }
    let table = RateTable(rates)
    for rate in rates.prefix(50) {
      guard let use = table.rate(from: rate.base, to: rate.quote, on: rate.date) else {
        preconditionFailure("\(rate) not found on its own day")
      }
      precondition(use.price.numerator > 0 && use.price.denominator > 0, "\(use)")
      var ledger = ConversionLedger(currency: rate.quote)
      let amount = Money(minorUnits: 1_234_567, currency: rate.base)
      guard ledger.add(Payment(from: "A", to: "B", amount: amount), at: use) else { continue }
      guard let conversion = try? ledger.convert(policy: .balanced, absorbed: { _ in 0 }) else { continue }
      precondition(conversion.balances.reduce(0) { $0 + $1.balance.minorUnits } == 0, "\(conversion)")
    }
    checkFixedPoint(rates, table: table, bytes: bytes)
  }

  /// Every rate into the most quoted currency, in one ledger: payments among four people, of
  /// amounts taken from the input's bytes. Where the fixed-point conversion answers, it is the
  /// exact one's, under every leftover policy.
  static func checkFixedPoint(_ rates: [ExchangeRate], table: RateTable, bytes: [UInt8]) {
    guard let quote = Dictionary(grouping: rates, by: \.quote).max(by: { $0.value.count < $1.value.count })?.key
    else { return }
    var ledger = ConversionLedger(currency: quote)
    let people = ["A", "B", "C", "D"]
    for (index, rate) in rates.prefix(200).enumerated() where rate.quote == quote {
      guard let use = table.rate(from: rate.base, to: quote, on: rate.date) else { continue }
      let byte = Int64(bytes.isEmpty ? 7 : bytes[index % bytes.count])
      let amount = Money(minorUnits: 1 + byte * byte * (Int64(index) + 1), currency: rate.base)
      let payment = Payment(from: people[index % 4], to: people[(index + 1 + Int(byte) % 3) % 4], amount: amount)
      guard payment.from != payment.to else { continue }
      ledger.add(payment, at: use)
    }
    let absorbed = { (name: String) in Int(name.utf8.first ?? 0) % 3 }
    for policy in LeftoverPolicy.allCases {
      guard
        let fixedPoint = try? ledger.fixedPointBalances(
          currencies: ledger.sourceCurrencies, policy: policy, absorbed: absorbed)
      else { continue }
      let exact = try? ledger.exactBalances(currencies: ledger.sourceCurrencies, policy: policy, absorbed: absorbed)
      precondition(fixedPoint == exact, "fixed point \(fixedPoint) but exactly \(String(describing: exact))")
    }
  }
}

#if FUZZING
  /// libFuzzer's driver (linked by `-sanitize=fuzzer`), run from this target's own `main`.
  @_silgen_name("LLVMFuzzerRunDriver")
  func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  /// One input, as libFuzzer calls it.
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    FuzzHarness.check(Array(unsafe UnsafeBufferPointer(start: data, count: size)))
    return 0
  }

  /// `scripts/fuzz.sh` builds this with `-sanitize=fuzzer,address -DFUZZING`: libFuzzer's options
  /// and corpus directories on the command line, each input through ``FuzzHarness/check(_:)``.
  /// (The package's executables name their own `main`, so this one starts libFuzzer's driver.)
  @main
  enum FuzzMain {
    static func main() {
      var argc = CommandLine.argc
      var argv = unsafe CommandLine.unsafeArgv
      exit(unsafe runFuzzerDriver(&argc, &argv) { data, size in unsafe fuzzOneInput(data, size) })
    }
  }
#else
  /// Without libFuzzer: replays the files named on the command line through the harness (a
  /// crashing input the fuzzer saved, or a corpus), and says how many passed.
  @main
  enum FuzzReplay {
    static func main() {
      let paths = CommandLine.arguments.dropFirst()
      for path in paths {
        guard let data = FileManager.default.contents(atPath: path) else {
          print("cannot read \(path)")
          exit(66)
        }
        FuzzHarness.check([UInt8](data))
      }
      print("fuzz replay: \(paths.count) inputs, every rule held")
    }
  }
#endif
