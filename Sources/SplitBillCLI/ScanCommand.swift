import Foundation
import SplitBill
import SplitBillAdvisor
import SplitBillCore
import SplitBillFiles
import SplitBillInput
import SplitBillJSON
import SplitBillModel
import SplitBillReports
import SplitBillText

/// `splitbill scan PHOTO|DIR...`: receipts read from photos into bills ready for review.
enum ScanCommand {
  static let command = Command(
    name: "scan",
    summary: "read receipts from photos (offline, checked by their arithmetic) into itemized bills",
    usage:
      "splitbill scan PHOTO|DIR... [-o bills.yaml | --append FILE] [--format yaml|json] [--diners NAMES] "
      + "[--paid-by NAME] [--currency CODE] [--lang LANGS]",
    options: [
      .value(
        "--output", short: "-o", "OUT", "Write the bills to OUT (atomically) instead of standard output.", files: [""]),
      .flag("--force", "With -o: replace OUT if it exists."),
      .value(
        "--append", "FILE", "Add the bills to the YAML bills file FILE (atomically; made if missing).",
        files: ["yaml", "yml"]),
      .value(
        "--format", "FORMAT", "yaml (default: the bills) or json (what was read and checked, per photo).",
        choices: ["yaml", "json"]),
      .value("--diners", "NAMES", "Who shared every bill: 'Ana, Ben, Chloé'. Without it each bill says it is missing."),
      .value("--paid-by", "NAME", "Who paid every bill."),
      .value(
        "--currency", "CODE",
        "The currency of receipts that print no code or sign naming one and no country (a bare $ is USD without it)."),
      .value(
        "--lang", "LANGS",
        "Tesseract's languages, joined by +: eng (default), deu, fra, spa, ita, por, nld, msa, ind (each needs its tesseract-ocr-<lang> package). A receipt that does not add up is also read in its country's language when that package is installed."
      ),
      .value(
        "--dates", "ORDER", "day-first or month-first for dates like 04/05/2026 (default: month first for USD only).",
        choices: ["day-first", "month-first"]),
      .value("--jobs", "N", "Photos read at once (default: one per core)."),
      .value(
        "--engine", "NAME",
        "Who reads the photos: tesseract (default: offline), gemini or openai (a vision model: Ollama, llama.cpp, vLLM; the photo is sent).",
        choices: ["tesseract", "gemini", "openai"]),
      .flag("--quiet", "No progress line and no summary on stderr."),
      .flag(
        "--verbose",
        "Say on stderr how each photo was read: every reading tried, what it found, which was kept (with --engine: every request, keys redacted)."
      ),
    ]
      + AdvisorOptions.specs.filter { visionOptions.contains($0.name) }.map {
        $0.under("With --engine gemini or openai (the advisor's options)")
      },
    details: """
      Reads each photo (JPEG, PNG, TIFF, HEIC or WebP; EXIF orientation honoured) with Tesseract, offline,
      and writes one itemized bill per photo: id from the file name, date, merchant, currency,
      items, discount, service, tax, a printed tip, and receipt_total, the printed total. What is
      read is checked, never trusted: the items must add up to the subtotal, the subtotal less the
      discount plus service, tax and rounding to the total, cash less change to the total. A
      receipt is verified only when that arithmetic ties its total to its items; otherwise it needs
      review, and its bill carries a REVIEW comment on the line that does not add up. Exit 0 when
      every receipt is verified, 1 when some need review (the bills are still written), 66 when a
      photo cannot be read or none is found, 65 when a photo is refused for its size (past 64
      megapixels, 30,000 pixels a side or 256 MB, told from its header before decoding). docs/scan.md says what is read and checked.
      """,
    examples: [
      "splitbill scan receipts/ --diners 'Ana, Ben, Chloé' --paid-by Ana -o trip.yaml",
      "splitbill scan IMG_0412.HEIC --append trip.yaml --currency EUR",
      "splitbill scan receipts/ --format json | jq '.receipts[] | {file, status, total}'",
    ],
    run: run, operands: ["jpg", "jpeg", "png", "tif", "tiff", "heic", "webp"])

  /// The advisor's options a vision engine takes.
  static let visionOptions: Set<String> = [
    "--ai-base-url", "--ai-model", "--ai-api-version", "--ai-key-file", "--ai-rpm", "--ai-concurrency", "--ai-timeout",
    "--ai-max-retries", "--no-cache",
  ]

  /// What `--verbose` says of a photo read offline: each reading, what it found, the one kept.
  static func readingsTrace(_ bill: ReceiptBill, path: String) -> String {
    let exponent = bill.receipt.currency?.exponent ?? 2
    let readings = bill.receipt.readings.map { reading in
      var text = "\(reading.pass) reading, \(reading.words) words: "
      text += reading.total.map { "total \(DecimalText.format($0, scale: exponent))" } ?? "no total"
      text += ", \(reading.checksHeld) of \(reading.checksMade) checks held, \(reading.status.rawValue)"
      if !reading.reasons.isEmpty { text += " (" + reading.reasons.joined(separator: ", ") + ")" }
      return text + (reading.kept ? " [kept]" : "")
    }
    return "scan: \(TerminalText.sanitize(path)): " + readings.joined(separator: "; ")
  }

  /// An output is never an input: `-o` or `--append` naming one of the photos, directly, as a
  /// member of a folder scanned, through a link or another name (told by device and inode).
  static func refuseWritingOverPhotos(_ arguments: ParsedArguments) throws(UsageError) {
    for option in ["--output", "--append"] {
      guard let output = arguments.value(option), output != "-", let written = FileIdentity(path: output) else {
        continue
      }
      for photo in Scanner.photos(in: arguments.positionals).photos where FileIdentity(path: photo) == written {
        throw UsageError(
          "\(option == "--output" ? "-o" : option) \(TerminalText.sanitize(output)) is the photo "
            + "\(TerminalText.sanitize(photo)): scan never writes over what it reads")
      }
      for path in arguments.positionals where FileIdentity(path: path) == written {
        throw UsageError(
          "\(option == "--output" ? "-o" : option) \(TerminalText.sanitize(output)) is \(TerminalText.sanitize(path)), "
            + "which scan reads: scan never writes over what it reads")
      }
    }
  }

  /// The vision model the arguments ask for, or `nil` for Tesseract.
  static func vision(_ arguments: ParsedArguments, environment: [String: String]) throws -> VisionSettings? {
    guard let engine = arguments.value("--engine"), engine != "tesseract",
      let provider = VisionSettings.Provider(rawValue: engine)
    else {
      if let used = visionOptions.first(where: { arguments.value($0) != nil || arguments.flag($0) }) {
        throw UsageError("\(used) goes with --engine gemini or openai")
      }
      return nil
    }
    func number(_ name: String, default value: Int, range: ClosedRange<Int>) throws(UsageError) -> Int {
      try arguments.wholeNumber(name, default: value, range: range)
    }
    var settings = VisionSettings(
      provider: provider,
      apiKey: try AdvisorOptions.apiKey(
        arguments, kind: provider == .gemini ? .gemini : .openai, environment: environment))
    if provider == .gemini, settings.apiKey == nil {
      throw CommandFailure(
        message:
          "--engine gemini needs an API key: set GEMINI_API_KEY or pass --ai-key-file PATH (a file only you can read)",
        code: .unavailable)
    }
    if let base = arguments.value("--ai-base-url") {
      guard base.hasPrefix("http://") || base.hasPrefix("https://") else {
        throw UsageError("--ai-base-url: '\(base)' is not an http:// or https:// URL")
      }
      guard !base.contains("key=") else {
        throw UsageError("--ai-base-url: keys never go in URLs; use GEMINI_API_KEY, OPENAI_API_KEY or --ai-key-file")
      }
      settings.baseURL = base
    }
    settings.model = arguments.value("--ai-model")
    settings.apiVersion = arguments.value("--ai-api-version")
    settings.requestsPerMinute = try number("--ai-rpm", default: 5, range: 1...10_000)
    settings.concurrency = try number("--ai-concurrency", default: 1, range: 1...64)
    settings.maxRetries = try number("--ai-max-retries", default: 4, range: 0...20)
    settings.timeout = .seconds(try number("--ai-timeout", default: 60, range: 1...3_600))
    settings.cacheDirectory =
      arguments.flag("--no-cache") ? nil : VisionSettings.defaultCacheDirectory(environment: environment)
    return settings
  }

  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) async throws -> ExitCode {
    guard !arguments.positionals.isEmpty else {
      throw UsageError("name the photos or directories to scan: splitbill scan receipts/")
    }
    if arguments.value("--output") != nil, arguments.value("--append") != nil {
      throw UsageError("-o and --append both say where the bills go: give one")
    }
    if arguments.flag("--force"), arguments.value("--output") == nil { throw UsageError("--force goes with -o OUT") }
    let json = arguments.value("--format") == "json"
    if json, arguments.value("--append") != nil { throw UsageError("--append adds bills: it goes with --format yaml") }
    try refuseWritingOverPhotos(arguments)
    var options = ScanOptions(paths: arguments.positionals)
    if let code = arguments.value("--currency") {
      do { options.currency = try Currency(code: code.uppercased()) } catch {
        throw UsageError("--currency \(code): \(error)")
      }
    }
    if let diners = arguments.value("--diners") {
      let names = diners.split(separator: ",").map { PersonName.normalized(String($0)) }.filter { !$0.isEmpty }
      guard !names.isEmpty else { throw UsageError("--diners names nobody: give names separated by commas") }
      options.diners = names
    }
    options.paidBy = arguments.value("--paid-by").map(PersonName.normalized)
    if let languages = arguments.value("--lang") {
      if let problem = ReceiptScanner.malformedLanguages(languages) { throw UsageError("--lang: \(problem)") }
      options.languages = languages
    }
    if let order = arguments.value("--dates") { options.dayFirst = order == "day-first" }
    if let jobs = arguments.value("--jobs") {
      guard let count = Int(jobs), count >= 1 else { throw UsageError("--jobs \(jobs): expected a whole number ≥ 1") }
      options.workers = count
    }
    let quiet = arguments.flag("--quiet")
    let showProgress = context.stderrIsTerminal && !quiet
    let line = ProgressLine(enabled: showProgress)
    let outcome: ScanOutcome
    let vision = try Self.vision(arguments, environment: context.environment)
    do throws(ScanFailure) {
      let scanOptions = options
      if let vision {
        let traces = Locked<[String]>([])
        let verbose = arguments.flag("--verbose")
        let redactor = Redactor(secret: vision.apiKey)
        outcome = try await Scanner.run(
          scanOptions, vision: vision, progress: { line.show(text: "scanning: \($0)/\($1) photos") },
          trace: { text in if verbose { traces.withLock { $0.append(redactor.redact(text)) } } })
        for text in traces.withLock({ $0 }) { context.message("scan: " + text) }
      } else {
        outcome = try await Scanner.run(scanOptions) { done, total in
          line.show(text: "scanning: \(done)/\(total) photos")
        }
      }
    } catch {
      throw CommandFailure(message: error.message, code: .unavailable)
    }
    line.finish()
    if !quiet, let warning = cacheWarning(outcome.cacheFailures, cache: "receipt cache") { context.message(warning) }
    for path in outcome.missing {
      context.message(
        "error: \(TerminalText.sanitize(path)): no such photo, or a directory with no JPEG, PNG, TIFF, HEIC or WebP file"
      )
    }
    if arguments.flag("--verbose") {
      for photo in outcome.photos {
        if let bill = photo.bill, !bill.receipt.readings.isEmpty {
          context.message(Self.readingsTrace(bill, path: photo.path))
        }
      }
    }
    for photo in outcome.photos {
      if let error = photo.error {
        context.message("error: \(TerminalText.sanitize(photo.path)): \(error)")
      } else if let bill = photo.bill, bill.receipt.status != .verified, !quiet {
        for reason in bill.receipt.reasons {
          context.message(
            "review: \(TerminalText.sanitize(photo.path))\(reason.line.map { " (line \($0))" } ?? ""): \(TerminalText.sanitize(reason.message))"
          )
        }
      }
    }
    guard !outcome.photos.isEmpty else {
      throw CommandFailure(message: "no photo to scan", code: .noInput)
    }

    let text: [UInt8]
    // Appending to books: locked from the reading to the rename (``BooksLock``), so a concurrent
    // `add` or `scan --append` is not lost.
    var lock: BooksLock?
    if !json, let path = arguments.value("--append") {
      do {
        lock = try BooksLock(books: path, command: "splitbill scan --append")
      } catch {
        throw CommandFailure(message: "\(error)", code: .cannotCreate)
      }
    }
    defer { lock?.release() }
    if json {
      text = Array(outcome.jsonText().utf8)
    } else if let path = arguments.value("--append") {
      let original = FileManager.default.contents(atPath: path).map(Array.init) ?? []
      switch outcome.appended(to: original, path: path) {
      case .success(let bytes): text = bytes
      case .failure(let failure):
        throw CommandFailure(message: "cannot add to \(path): \(failure.message)", code: .cannotCreate)
      }
    } else {
      text = Array(outcome.yamlFile(date: ReportCommand.localToday()).utf8)
    }
    let destination = arguments.value("--append") ?? arguments.value("--output")
    if let destination, destination != "-" {
      do {
        try AtomicFile.write(
          to: destination, overwrite: arguments.flag("--force") || arguments.value("--append") != nil
        ) {
          $0.write(bytes: text)
        }
      } catch {
        throw CommandFailure(message: "\(error)", code: .cannotCreate)
      }
    } else {
      context.stdout.write(bytes: text)
    }
    if !quiet {
      context.message(
        "scanned \(outcome.photos.count) photo\(outcome.photos.count == 1 ? "" : "s"): \(outcome.verified) verified, "
          + "\(outcome.needsReview) to review" + (outcome.unreadable > 0 ? ", \(outcome.unreadable) unreadable" : "")
          + (destination.map { "; wrote \(TerminalText.sanitize($0))" } ?? ""))
    }
    if outcome.photos.contains(where: \.providerFailed) { return .unavailable }
    if outcome.unreadable > outcome.tooLarge || !outcome.missing.isEmpty { return .noInput }
    if outcome.tooLarge > 0 { return .dataError }
    return outcome.needsReview > 0 ? .invalidBills : .success
  }
}
