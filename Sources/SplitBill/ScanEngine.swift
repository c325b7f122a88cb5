import Dispatch
import Foundation
import SplitBillAdvisor
import SplitBillFiles
import SplitBillJSON
import SplitBillModel
@_exported import SplitBillScan
import SplitBillText
import SplitBillYAML

/// What `scan` is asked to do.
public struct ScanOptions: Sendable {
  /// Photos and directories of photos (a directory's JPEG, PNG, TIFF and HEIC files, by name).
  public var paths: [String]
  /// The currency of receipts that print no code or sign naming one and name no country.
  public var currency: Currency?
  /// Who shared every bill, and who paid it; `nil` leaves them for the reviewer.
  public var diners: [String]?
  public var paidBy: String?
  /// Tesseract's languages, `eng` or `eng+deu`.
  public var languages: String
  /// How many photos are read at once (one Tesseract per thread); default every core.
  public var workers: Int
  /// `true`: a date like 04/05/2026 is day first; `nil`: month first for US dollars only.
  public var dayFirst: Bool?

  public init(
    paths: [String], currency: Currency? = nil, diners: [String]? = nil, paidBy: String? = nil,
    languages: String = "eng", workers: Int = ProcessInfo.processInfo.activeProcessorCount, dayFirst: Bool? = nil
  ) {
    self.paths = paths
    self.currency = currency
    self.diners = diners
    self.paidBy = paidBy
    self.languages = languages
    self.workers = max(1, workers)
    self.dayFirst = dayFirst
  }
}

/// One photo's result: its bill, or why it could not be read.
public struct ScannedPhoto: Sendable {
  public var path: String
  /// The bill made of it, when it could be read.
  public var bill: ReceiptBill?
  /// Why it could not be read at all (not an image, a file that cannot be opened).
  public var error: String?
  /// Seconds spent on it (decoding, recognition, reading).
  public var seconds: Double
  /// Whether the vision model could not be asked about it (a network failure, a bad key).
  public var providerFailed = false
  /// Whether it was refused for its size (``PhotoSize/limit``, ``Scanner/largestPhotoFile``).
  public var tooLarge = false
}

/// What a scan gave: a result per photo, in the order the photos were named.
public struct ScanOutcome: Sendable {
  public var photos: [ScannedPhoto]
  /// Paths given that are neither a photo nor a directory holding one.
  public var missing: [String]
  /// Why answers of a vision model could not be kept in the cache, one reason per answer (the
  /// bills are whole without them; the next run asks for those photos again).
  public var cacheFailures: [String] = []

  public var verified: Int { photos.filter { $0.bill?.receipt.status == .verified }.count }
  public var needsReview: Int { photos.filter { $0.bill != nil && $0.bill?.receipt.status != .verified }.count }
  public var unreadable: Int { photos.filter { $0.error != nil }.count }
  /// Photos refused for their size (counted among ``unreadable`` too).
  public var tooLarge: Int { photos.filter(\.tooLarge).count }

  /// The bills as a new YAML file.
  public func yamlFile(date: CalendarDate) -> String {
    var lines = [
      "# Scanned by splitbill scan on \(date): \(photos.count) photo\(photos.count == 1 ? "" : "s"), "
        + "\(verified) verified, \(needsReview) to review\(unreadable > 0 ? ", \(unreadable) unreadable" : "").",
      "# Read every bill against its photo; lines marked REVIEW did not add up.",
      "version: 1",
      "bills:",
    ]
    for bill in photos.compactMap(\.bill) { lines += bill.yamlLines(dash: 2) }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The bills added to the YAML file `original` (its `bills:` list, made if it has none), or why
  /// they cannot be.
  /// Bills whose id the file already has get `-2`, `-3`.
  public func appended(to original: [UInt8], path: String) -> Result<[UInt8], ScanFailure> {
    let taken = original.isEmpty ? [] : Adder.context(of: path, options: ReadingOptions(allowEmpty: true)).ids
    let plan: YAMLAppendPlan
    do throws(YAMLAppendPlan.Problem) {
      plan = try YAMLAppendPlan.plan(for: original, section: "bills")
    } catch {
      return .failure(ScanFailure(message: error.message))
    }
    var lines: [String] = []
    if original.isEmpty { lines.append("version: 1") }
    if plan.writesSectionKey { lines.append("bills:") }
    var used = taken
    for var bill in photos.compactMap(\.bill) {
      var candidate = bill.id
      var number = 1
      while used.contains(candidate) {
        number += 1
        candidate = "\(bill.id)-\(number)"
      }
      used.insert(candidate)
      bill.id = candidate
      lines += bill.yamlLines(dash: plan.dashColumn)
    }
    return .success(plan.inserting(lines, into: original))
  }

  /// The JSON answer for tools (what `scan --json` prints): a summary and, per photo, what was
  /// read and checked; indented, with a line end.
  public func jsonText() -> String {
    var sink = StringSink()
    json.write(to: &sink)
    sink.write("\n")
    return sink.text
  }

  /// The JSON answer as a value.
  var json: JSON {
    func money(_ figure: ReadFigure?, _ exponent: Int) -> JSON {
      figure.map { .number(DecimalText.format($0.minorUnits, scale: exponent)) } ?? .null
    }
    let entries: [JSON] = photos.map { photo in
      guard let bill = photo.bill else {
        return .object([
          ("file", .string(photo.path)), ("status", .string("unreadable")), ("error", .string(photo.error ?? "")),
        ])
      }
      let receipt = bill.receipt
      let exponent = receipt.currency?.exponent ?? 2
      let fields: [(String, JSON)] = [
        ("file", .string(photo.path)),
        ("id", .string(bill.id)),
        ("status", .string(receipt.status.rawValue)),
        ("total", money(receipt.total, exponent)),
        ("total_worked_out", .bool(receipt.totalWorkedOut)),
        ("currency", receipt.currency.map { .string($0.code) } ?? .null),
        ("currency_from", receipt.currencySource.map(JSON.string) ?? .null),
        ("date", receipt.date.map { .string($0.description) } ?? .null),
        ("merchant", receipt.merchant.map(JSON.string) ?? .null),
        ("subtotal", money(receipt.subtotal, exponent)),
        ("net", money(receipt.net, exponent)),
        ("discount", money(receipt.discount, exponent)),
        ("service", money(receipt.service, exponent)),
        ("tax", money(receipt.tax, exponent)),
        ("tax_included", .bool(receipt.taxIncluded)),
        ("rounding", money(receipt.rounding, exponent)),
        ("rounding_inferred", .bool(receipt.rounding?.inferred == true)),
        ("tip", money(receipt.tip, exponent)),
        ("cash", money(receipt.cash, exponent)),
        ("change", money(receipt.change, exponent)),
        (
          "items",
          .array(
            receipt.items.map { item -> JSON in
              .object([
                ("name", .string(item.name)),
                ("price", .number(DecimalText.format(item.amount, scale: exponent))),
                ("quantity", .number(String(item.quantity))),
                ("unit_price", .number(DecimalText.format(item.unitPrice, scale: exponent))),
                ("line", item.line.map { .number(String($0)) } ?? .null),
              ])
            })
        ),
        (
          "checks",
          .array(
            receipt.checks.map { check -> JSON in
              .object([
                ("name", .string(check.name)), ("passed", .bool(check.passed)), ("detail", .string(check.detail)),
              ])
            })
        ),
        (
          "review",
          .array(
            receipt.reasons.map { reason -> JSON in
              .object([
                ("code", .string(reason.code)), ("message", .string(reason.message)),
                ("line", reason.line.map { .number(String($0)) } ?? .null),
              ])
            })
        ),
        (
          "readings",
          .array(
            receipt.readings.map { reading -> JSON in
              .object([
                ("pass", .string(reading.pass)), ("words", .number(String(reading.words))),
                ("total", reading.total.map { .number(DecimalText.format($0, scale: exponent)) } ?? .null),
                ("status", .string(reading.status.rawValue)),
                ("checks_held", .number(String(reading.checksHeld))),
                ("checks_made", .number(String(reading.checksMade))),
                ("review", .array(reading.reasons.map(JSON.string))), ("kept", .bool(reading.kept)),
              ])
            })
        ),
        ("seconds", .number(String(format: "%.2f", photo.seconds))),
        ("lines", .array(receipt.lines.map(JSON.string))),
      ]
      return .object(fields)
    }
    return .object([
      ("version", .number("1")),
      (
        "summary",
        .object([
          ("photos", .number(String(photos.count))), ("verified", .number(String(verified))),
          ("needs_review", .number(String(needsReview))), ("unreadable", .number(String(unreadable))),
        ])
      ),
      ("receipts", .array(entries)),
    ])
  }
}

/// Why a scan could not be done at all (no recogniser, a file that cannot be added to).
public struct ScanFailure: Error, Sendable, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}

/// `scan`: receipts read from photos, offline, every core at work, one photo in memory per core.
public enum Scanner {
  /// The photos `paths` name: files as given, a directory's image files sorted by name (not its
  /// subdirectories'); and the paths that name neither.
  public static func photos(in paths: [String]) -> (photos: [String], missing: [String]) {
    var photos: [String] = []
    var missing: [String] = []
    let extensions: Set<String> = ["jpg", "jpeg", "png", "tif", "tiff", "heic", "heif", "webp"]
    for path in paths {
      guard let kind = SystemCalls.kind(of: path) else {
        missing.append(path)
        continue
      }
      if kind == .directory {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let found = names.filter { extensions.contains(($0.split(separator: ".").last ?? "").lowercased()) }.sorted()
        if found.isEmpty { missing.append(path) }
        photos += found.map { (path.hasSuffix("/") ? path : path + "/") + $0 }
      } else {
        photos.append(path)
      }
    }
    return (photos, missing)
  }

  /// The blocking `run(_:progress:)`, for a caller on Swift's cooperative pool: the recognisers block
  /// threads of their own, and the task awaits them.
  public static func run(_ options: ScanOptions, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in })
    async throws(ScanFailure) -> ScanOutcome
  {
    try await DedicatedThread.run { () throws(ScanFailure) in try run(options, progress: progress) }
  }

  /// Scans every photo `options.paths` names. `progress` is called (from any thread) with the
  /// number of photos done after each.
  public static func run(_ options: ScanOptions, progress: @Sendable (Int, Int) -> Void = { _, _ in })
    throws(ScanFailure) -> ScanOutcome
  {
    let (paths, missing) = photos(in: options.paths)
    // Fail before any work when Tesseract or its language data is missing. The scanner made to
    // find out is the first worker's (loading a language's model takes about 0.2 s).
    let checked: ReceiptScanner
    do { checked = try ReceiptScanner(languages: options.languages) } catch {
      throw ScanFailure(message: error.message)
    }
    let spare = Locked<ReceiptScanner?>(checked)
    // Behind the project's one lock type: each worker takes the next photo, then files its result.
    let work = Locked((next: 0, done: 0, results: [ScannedPhoto?](repeating: nil, count: paths.count)))
    let workers = min(options.workers, max(paths.count, 1))
    let ids = uniqueIDs(paths)
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      // Each worker owns one recogniser and reads one photo at a time.
      let handed = spare.withLock { spare in
        defer { spare = nil }
        return spare
      }
      guard let scanner = handed ?? (try? ReceiptScanner(languages: options.languages)) else { return }
      while true {
        let index = work.withLock { work in
          defer { work.next += 1 }
          return work.next
        }
        guard index < paths.count else { return }
        let path = paths[index]
        let started = DispatchTime.now().uptimeNanoseconds
        var photo = ScannedPhoto(path: path, bill: nil, error: nil, seconds: 0)
        switch readPhoto(path) {
        case .success(let bytes):
          do throws(PhotoError) {
            let receipt = try scanner.scan(bytes, currency: options.currency, dayFirst: options.dayFirst)
            photo.bill = ReceiptBill(
              id: ids[index], photo: path, receipt: receipt, diners: options.diners, paidBy: options.paidBy)
          } catch {
            photo.error = error.message
            photo.tooLarge = error.isTooLarge
          }
        case .failure(let error):
          photo.error = error.message
          photo.tooLarge = error.isTooLarge
        }
        photo.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let done = work.withLock { work in
          work.results[index] = photo
          work.done += 1
          return work.done
        }
        progress(done, paths.count)
      }
    }
    let photos = work.withLock { $0.results }.enumerated().map { index, photo in
      photo ?? ScannedPhoto(path: paths[index], bill: nil, error: "not scanned", seconds: 0)
    }
    return ScanOutcome(photos: photos, missing: missing)
  }

  /// The largest photo file `scan` reads: 256 MB (an uncompressed 48-megapixel TIFF is 144 MB).
  public static let largestPhotoFile = 256 << 20

  /// The bytes of the photo at `path`, or why they cannot be had (the system's reason, or a file
  /// past ``largestPhotoFile``, told from its size before reading).
  static func readPhoto(_ path: String) -> Result<[UInt8], PhotoError> {
    SystemCalls.readWholeFile(path, limit: largestPhotoFile).mapError { failure in
      switch failure {
      case .system(let reason): PhotoError(message: "cannot be read: \(reason)")
      case .tooLarge(let bytes):
        PhotoError(
          message: "the file is \(bytes >> 20) MB, past scan's limit of \(largestPhotoFile >> 20) MB a photo",
          isTooLarge: true)
      }
    }
  }

  /// An id per photo, from its file name; a name seen before gets `-2`, `-3`.
  static func uniqueIDs(_ paths: [String]) -> [String] {
    var seen: [String: Int] = [:]
    return paths.map { path in
      let id = ReceiptBill.id(forPhoto: path)
      let count = (seen[id] ?? 0) + 1
      seen[id] = count
      return count == 1 ? id : "\(id)-\(count)"
    }
  }
}

/// A vision model to read receipts with instead of Tesseract (`scan --engine gemini|openai`):
/// the photo is sent (upright, grey, downscaled) and the model's answer checked like a reading.
public struct VisionSettings: Sendable {
  public enum Provider: String, Sendable, CaseIterable {
    case gemini, openai
  }

  public var provider: Provider
  /// The API key (a request header, never a URL); `nil` for a local server that needs none.
  public var apiKey: String?
  /// The model; `nil`, the provider's default.
  public var model: String?
  /// The server; `nil`, Google's for Gemini, Ollama's (`http://localhost:11434/v1`) for OpenAI.
  public var baseURL: String?
  /// Gemini's API version (`v1beta`).
  public var apiVersion: String?
  /// Requests per rolling minute, requests in flight, retries of a failed request.
  public var requestsPerMinute = 5
  public var concurrency = 1
  public var maxRetries = 4
  /// Give up on one request after this long.
  public var timeout: Duration = .seconds(60)
  /// Where answers are kept, by the photo's hash (`nil`: no cache).
  public var cacheDirectory: String?

  public init(provider: Provider, apiKey: String? = nil) {
    self.provider = provider
    self.apiKey = apiKey
  }

  /// The default cache directory for `environment` (`$XDG_CACHE_HOME/splitbill/receipts`).
  public static func defaultCacheDirectory(environment: [String: String]) -> String? {
    AdviceCache.defaultDirectory(environment: environment).map { $0.replacing("/advice", with: "/receipts") }
  }
}

extension Scanner {
  /// Scans every photo `options.paths` names with the vision model `vision`: photos prepared on
  /// every core, then sent under the rate limit (cached answers first), each answer checked.
  /// `progress` is called with the photos answered; `trace` with each request (key redacted).
  public static func run(
    _ options: ScanOptions, vision: VisionSettings, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
    trace: @escaping @Sendable (String) -> Void = { _ in }
  ) async throws(ScanFailure) -> ScanOutcome {
    let provider: VisionProvider
    switch vision.provider {
    case .gemini:
      guard let key = vision.apiKey else {
        throw ScanFailure(message: "the Gemini vision model needs an API key: VisionSettings.apiKey is nil")
      }
      provider = .gemini(
        GeminiProvider(
          apiKey: key, model: vision.model ?? GeminiProvider.defaultModel,
          baseURL: vision.baseURL ?? GeminiProvider.defaultBaseURL,
          version: vision.apiVersion ?? GeminiProvider.defaultVersion))
    case .openai:
      provider = .openai(
        OpenAIProvider(
          apiKey: vision.apiKey, model: vision.model ?? OpenAIProvider.defaultModel,
          baseURL: vision.baseURL ?? OpenAIProvider.defaultBaseURL))
    }
    let (paths, missing) = photos(in: options.paths)
    let ids = uniqueIDs(paths)
    // Decoding and downscaling on every core, one photo at a time per core.
    let prepared = Locked([Result<VisionPhoto, PhotoError>?](repeating: nil, count: paths.count))
    DispatchQueue.concurrentPerform(iterations: paths.count) { index in
      let result: Result<VisionPhoto, PhotoError>
      switch Scanner.readPhoto(paths[index]) {
      case .success(let bytes):
        do throws(PhotoError) {
          let jpeg = try ReceiptScanner.uploadJPEG(bytes)
          result = .success(
            VisionPhoto(
              id: String(index), image: jpeg, mimeType: "image/jpeg",
              digest: SHA256.digest(bytes).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()))
        } catch {
          result = .failure(error)
        }
      case .failure(let error):
        result = .failure(error)
      }
      prepared.withLock { $0[index] = result }
    }
    let ready = prepared.withLock { $0 }
    var settings = AdvisorSettings()
    settings.requestsPerMinute = vision.requestsPerMinute
    settings.concurrency = vision.concurrency
    settings.maxRetries = vision.maxRetries
    let cacheFailures = Locked<[String]>([])
    let coordinator = ReceiptVisionCoordinator(
      provider: provider, transport: URLSessionTransport(timeout: vision.timeout), settings: settings,
      cacheDirectory: vision.cacheDirectory, progress: progress, trace: trace,
      cacheFailed: { reason in cacheFailures.withLock { $0.append(reason) } })
    let answers = await coordinator.read(ready.compactMap { try? $0?.get() })
    var scanned: [ScannedPhoto] = []
    for (index, path) in paths.enumerated() {
      var photo = ScannedPhoto(path: path, bill: nil, error: nil, seconds: 0)
      switch ready[index] {
      case .failure(let error):
        photo.error = error.message
        photo.tooLarge = error.isTooLarge
      case .none: photo.error = "not scanned"
      case .success:
        switch answers[String(index)] {
        case .success(let answer):
          let receipt = ReceiptReader.read(modelAnswer: answer, currency: options.currency)
          photo.bill = ReceiptBill(
            id: ids[index], photo: path, receipt: receipt, diners: options.diners, paidBy: options.paidBy)
        case .failure(let failure):
          photo.error = "\(provider.name): \(failure.reason)"
          photo.providerFailed = true
        case .none:
          photo.error = "\(provider.name): no answer"
          photo.providerFailed = true
        }
      }
      scanned.append(photo)
    }
    var outcome = ScanOutcome(photos: scanned, missing: missing)
    outcome.cacheFailures = cacheFailures.withLock { $0 }
    return outcome
  }
}
