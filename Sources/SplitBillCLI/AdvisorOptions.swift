import Foundation
import SplitBillAdvisor
import SplitBillCore
import SplitBillFiles
import SplitBillModel
import SplitBillReports

/// The options of the commands that ask for tip advice, and the advisor they configure.
enum AdvisorOptions {
  enum Kind: String, CaseIterable {
    case offline, gemini, openai
  }

  /// The options, listed in help under `section`.
  static func specs(section: String) -> [OptionSpec] { specs.map { $0.under(section) } }

  static let specs: [OptionSpec] = [
    .value(
      "--advisor", "NAME", "Who advises 'tip: ai' bills: offline (default, no network), gemini or openai.",
      choices: Kind.allCases.map(\.rawValue)),
    .value(
      "--ai-base-url", "URL", "The provider's base URL (Gemini's by default; http://localhost:11434/v1 for Ollama)."),
    .value(
      "--ai-model", "MODEL",
      "The model (gemini: \(GeminiProvider.defaultModel); openai: \(OpenAIProvider.defaultModel))."),
    .value("--ai-api-version", "VERSION", "Gemini API version: v1beta (default) or v1.", choices: ["v1beta", "v1"]),
    .value(
      "--ai-key-file", "PATH", "Read the API key from PATH (must not be readable by group or others).", files: [""]),
    .value("--ai-batch-size", "N", "Bills per request (default 20)."),
    .value("--ai-rpm", "N", "Requests per rolling minute (default 5)."),
    .value("--ai-concurrency", "N", "Requests in flight at once (default 1)."),
    .value("--ai-timeout", "SECONDS", "Give up on one request after SECONDS (default 60)."),
    .value("--ai-max-retries", "N", "Retries of a failed request (default 4)."),
    .value("--ai-min", "PERCENT", "Lowest suggestion accepted; lower ones are clamped and flagged (default 0)."),
    .value("--ai-max", "PERCENT", "Highest suggestion accepted; higher ones are clamped and flagged (default 30)."),
    .flag("--require-ai", "Exit 69 instead of falling back to the offline advisor when the network fails."),
    .flag("--no-cache", "Neither read nor write the advice cache."),
    .flag("--quiet", "No progress line, no advisor fallback warning, no 'wrote FILE' lines."),
    .flag("--verbose", "Trace every request on stderr (keys redacted)."),
  ]

  /// What the arguments configure: nil for the offline advisor.
  struct Network {
    var provider: any AdviceProvider
    var settings: AdvisorSettings
    var timeout: Duration
    var requireAI: Bool
    var cache: AdviceCache?
    var quiet: Bool
    var verbose: Bool
    var secret: String?
  }

  static func kind(_ arguments: ParsedArguments) throws(UsageError) -> Kind {
    try arguments.choice("--advisor", Kind.self) ?? .offline
  }

  /// The configured network advisor, or `nil` for offline. A missing key is exit 69.
  static func network(_ arguments: ParsedArguments, environment: [String: String]) throws -> Network? {
    let kind = try kind(arguments)
    guard kind != .offline else { return nil }
    func number(_ name: String, default value: Int, range: ClosedRange<Int>) throws(UsageError) -> Int {
      try arguments.wholeNumber(name, default: value, range: range)
    }
    var settings = AdvisorSettings()
    settings.batchSize = try number("--ai-batch-size", default: 20, range: 1...500)
    settings.requestsPerMinute = try number("--ai-rpm", default: 5, range: 1...10_000)
    settings.concurrency = try number("--ai-concurrency", default: 1, range: 1...64)
    settings.maxRetries = try number("--ai-max-retries", default: 4, range: 0...20)
    let minimum = try number("--ai-min", default: 0, range: 0...100)
    let maximum = try number("--ai-max", default: 30, range: 0...100)
    guard minimum <= maximum else { throw UsageError("--ai-min \(minimum) is above --ai-max \(maximum)") }
    settings.range = minimum...maximum
    let timeout = Duration.seconds(try number("--ai-timeout", default: 60, range: 1...3_600))
    let key = try apiKey(arguments, kind: kind, environment: environment)
    let model = arguments.value("--ai-model")
    let base = arguments.value("--ai-base-url")
    if let base, !(base.hasPrefix("http://") || base.hasPrefix("https://")) {
      throw UsageError("--ai-base-url: '\(base)' is not an http:// or https:// URL")
    }
    if let base, base.contains("key=") {
      throw UsageError("--ai-base-url: keys never go in URLs; use GEMINI_API_KEY, OPENAI_API_KEY or --ai-key-file")
    }
    let provider: any AdviceProvider
    switch kind {
    case .gemini:
      guard let key else {
        throw CommandFailure(
          message:
            "--advisor gemini needs an API key: set GEMINI_API_KEY or pass --ai-key-file PATH (a file only you can read); or use --advisor offline",
          code: .unavailable)
      }
      provider = GeminiProvider(
        apiKey: key, model: model ?? GeminiProvider.defaultModel, baseURL: base ?? GeminiProvider.defaultBaseURL,
        version: arguments.value("--ai-api-version") ?? GeminiProvider.defaultVersion, minimum: minimum,
        maximum: maximum)
    default:
      provider = OpenAIProvider(
        apiKey: key, model: model ?? OpenAIProvider.defaultModel, baseURL: base ?? OpenAIProvider.defaultBaseURL,
        minimum: minimum, maximum: maximum)
    }
    let cacheDirectory = arguments.flag("--no-cache") ? nil : AdviceCache.defaultDirectory(environment: environment)
    return Network(
      provider: provider, settings: settings, timeout: timeout, requireAI: arguments.flag("--require-ai"),
      cache: cacheDirectory.map(AdviceCache.init(directory:)), quiet: arguments.flag("--quiet"),
      verbose: arguments.flag("--verbose"), secret: key)
  }

  /// The key: `--ai-key-file`, else `GEMINI_API_KEY` / `OPENAI_API_KEY`.
  static func apiKey(_ arguments: ParsedArguments, kind: Kind, environment: [String: String]) throws -> String? {
    if let path = arguments.value("--ai-key-file") {
      let permissions: UInt32
      switch SystemCalls.permissions(of: path) {
      case .success(let bits): permissions = bits
      case .failure(let error):
        throw CommandFailure(
          message: "cannot read the key file '\(path)': \(SystemCalls.errorText(error.code))", code: .unavailable)
      }
      guard permissions & 0o077 == 0 else {
        throw CommandFailure(
          message: "refusing the key file '\(path)': it is readable by group or others (chmod 600 '\(path)')",
          code: .unavailable)
      }
      guard let data = FileManager.default.contents(atPath: path) else {
        throw CommandFailure(message: "cannot read the key file '\(path)'", code: .unavailable)
      }
      let key = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      guard !key.isEmpty else { throw CommandFailure(message: "the key file '\(path)' is empty", code: .unavailable) }
      return key
    }
    let variable = kind == .gemini ? "GEMINI_API_KEY" : "OPENAI_API_KEY"
    return environment[variable].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// Advice for `requests` from the network advisor, with progress and traces as asked.
  static func advise(_ requests: [AdviceRequest], network: Network, context: inout CommandContext) async -> [String:
    TipAdvice]
  {
    guard !requests.isEmpty else { return [:] }
    let traces = Locked<[String]>([])
    let cacheFailures = Locked<[String]>([])
    let showProgress = context.stderrIsTerminal && !network.quiet
    let line = ProgressLine(enabled: showProgress)
    let redactor = Redactor(secret: network.secret)
    let coordinator = AdviceCoordinator(
      provider: network.provider, transport: URLSessionTransport(timeout: network.timeout),
      settings: network.settings, cache: network.cache,
      progress: { line.show($0) },
      trace: { text in if network.verbose { traces.withLock { $0.append(redactor.redact(text)) } } },
      cacheFailed: { reason in cacheFailures.withLock { $0.append(reason) } })
    let answers = await coordinator.advise(requests)
    line.finish()
    for text in traces.withLock({ $0 }) { context.message("advisor: " + text) }
    if !network.quiet, let warning = cacheWarning(cacheFailures.withLock { $0 }, cache: "advice cache") {
      context.message(warning)
    }
    return answers.mapValues { advice in
      var clean = advice
      clean.reason = redactor.redact(advice.reason)
      clean.fallbackReason = advice.fallbackReason.map(redactor.redact)
      return clean
    }
  }
}

/// The one warning for answers a cache (`advice cache`, `receipt cache`) could not keep, one
/// reason each, or `nil` when it kept them all: the output is whole without them, but the next
/// run pays for them again.
func cacheWarning(_ failures: [String], cache: String) -> String? {
  guard let first = failures.first else { return nil }
  let one = failures.count == 1
  return "warning: \(one ? "1 answer was" : "\(failures.count) answers were") not kept in the \(cache) "
    + "(\(TerminalText.sanitize(first))); the next run asks for \(one ? "it" : "them") again"
}

/// Removes a secret from any text before it is shown or stored.
struct Redactor: Sendable {
  let secret: String?

  func redact(_ text: String) -> String {
    guard let secret, secret.count >= 4, text.contains(secret) else { return text }
    return text.replacingOccurrences(of: secret, with: "<redacted>")
  }
}

/// The progress line on a terminal's stderr: advised / total, requests, rate-limit waits, retries
/// (or photos scanned).
final class ProgressLine: Sendable {
  private let enabled: Bool
  /// Whether a line is on the screen (writes come from the advisor's and the scan's threads).
  private let shown = Locked(false)

  init(enabled: Bool) { self.enabled = enabled }

  func show(_ progress: AdviceProgress) {
    guard enabled else { return }
    var text =
      "advice: \(progress.advised)/\(progress.total) bills, \(progress.requests) request\(progress.requests == 1 ? "" : "s")"
    if let waiting = progress.waiting { text += ", waiting \(waiting.components.seconds + 1) s for the rate limit" }
    if progress.retries > 0 { text += ", \(progress.retries) retr\(progress.retries == 1 ? "y" : "ies")" }
    show(text: text)
  }

  /// Shows `text` (one line) in place of the line shown before.
  func show(text: String) {
    guard enabled else { return }
    write("\r\u{1B}[2K" + text)
  }

  func finish() {
    guard enabled, shown.withLock({ $0 }) else { return }
    write("\r\u{1B}[2K")
  }

  private func write(_ text: String) {
    let bytes = Array(text.utf8)
    shown.withLock { shown in
      shown = true
      _ = SystemCalls.write(bytes, to: 2)
    }
  }
}

extension ParsedArguments {
  /// The whole number option `name` gives, within `range`; `value` when it is not given.
  func wholeNumber(_ name: String, default value: Int, range: ClosedRange<Int>) throws(UsageError) -> Int {
    try parse(name) { text in
      guard let number = Int(text), range.contains(number) else {
        throw UsageError("'\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return number
    } ?? value
  }
}
