import SplitBillBytes
import SplitBillCore
import SplitBillText

/// How the network advisors are used.
package struct AdvisorSettings: Sendable {
  /// Bills per request.
  package var batchSize = 20
  /// Requests per rolling 60 s window.
  package var requestsPerMinute = 5
  /// Requests in flight at once.
  package var concurrency = 1
  /// Retries after the first attempt.
  package var maxRetries = 4
  /// The allowed range of suggestions; others are clamped and flagged.
  package var range = 0...30
  /// Longest reason kept, in characters.
  package var reasonLimit = 200

  /// The defaults: 20 bills a request, 5 requests a minute, one at a time, 4 retries, 0–30 %.
  package init() {}
}

/// Where a run stands, for the progress line.
package struct AdviceProgress: Sendable, Equatable {
  /// Bills answered so far (network, cache or fallback).
  package var advised: Int
  /// Bills needing advice.
  package var total: Int
  /// Requests sent.
  package var requests: Int
  /// Retries so far.
  package var retries: Int
  /// Time left waiting for the rate limit, when waiting.
  package var waiting: Duration?
}

/// Asks a network provider about many bills: cache first, then batches paced by a rate limiter,
/// retried with backoff, with the offline advisor answering whatever the network could not.
///
/// Bills come back in a dictionary by id, so the report's order never depends on timing.
package struct AdviceCoordinator: Sendable {
  let provider: any AdviceProvider
  let transport: any HTTPTransport
  let clock: any AdvisorClock
  let settings: AdvisorSettings
  let cache: AdviceCache?
  let policy: RetryPolicy
  let progress: @Sendable (AdviceProgress) -> Void
  let trace: @Sendable (String) -> Void
  let cacheFailed: @Sendable (String) -> Void

  /// Creates a coordinator; `trace` receives `--verbose` lines (secrets already redacted), and
  /// `cacheFailed` the reason each answer could not be kept in the cache.
  package init(
    provider: any AdviceProvider, transport: any HTTPTransport, clock: any AdvisorClock = SystemClock(),
    settings: AdvisorSettings = AdvisorSettings(), cache: AdviceCache? = nil,
    progress: @escaping @Sendable (AdviceProgress) -> Void = { _ in },
    trace: @escaping @Sendable (String) -> Void = { _ in },
    cacheFailed: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.provider = provider
    self.transport = transport
    self.clock = clock
    self.settings = settings
    self.cache = cache
    self.policy = RetryPolicy(maxRetries: settings.maxRetries)
    self.progress = progress
    self.trace = trace
    self.cacheFailed = cacheFailed
  }

  /// Advice for every request, by bill id: from the cache, the provider, or the offline fallback.
  package func advise(_ requests: [AdviceRequest]) async -> [String: TipAdvice] {
    let state = RunState(total: requests.count, report: progress)
    var pending: [AdviceRequest] = []
    for request in requests {
      if let cache, let cached = cache.load(key(request)) {
        await state.answer(request.billID, with: cached)
      } else {
        pending.append(request)
      }
    }
    let limiter = RateLimiter(limit: settings.requestsPerMinute, clock: clock)
    let batches = stride(from: 0, to: pending.count, by: max(1, settings.batchSize)).map {
      Array(pending[$0..<min($0 + max(1, settings.batchSize), pending.count)])
    }
    await withTaskGroup(of: Void.self) { group in
      var next = 0
      func start() {
        guard next < batches.count else { return }
        let batch = batches[next]
        next += 1
        group.addTask { await self.process(batch, splitMissing: true, limiter: limiter, state: state) }
      }
      for _ in 0..<max(1, settings.concurrency) { start() }
      while await group.next() != nil { start() }
    }
    return await state.answers
  }

  /// The seed of a batch's retry jitter: its first bill id's FNV-1a hash, the same in every run
  /// (`hashValue` is seeded afresh in each process, so retries could not be reproduced).
  static func jitterSeed(for batch: [AdviceRequest]) -> UInt64 { FNV1a.hash(batch.first?.billID ?? "") }

  /// Asks about one batch, retrying what can be retried; answers every bill in it one way or another.
  private func process(_ batch: [AdviceRequest], splitMissing: Bool, limiter: RateLimiter, state: RunState) async {
    var retry = 0
    var jitter = SplitMix64(seed: Self.jitterSeed(for: batch))
    while true {
      if let stopped = await state.stopped { return await fallback(batch, reason: stopped, state: state) }
      let wait = await limiter.reserve()
      if wait > .zero {
        await state.waited(wait)
        trace("  waiting \(wait) for the rate limit (\(settings.requestsPerMinute) requests a minute)")
        do {
          try await clock.sleep(for: wait)
        } catch {
          return await fallback(batch, reason: "cancelled", state: state)
        }
      }
      let request = provider.request(for: batch)
      await state.sent()
      trace("→ \(request.redactedDescription) (\(batch.count) bills)")
      let failure: ProviderFailure
      do {
        let response = try await transport.send(request)
        trace("← HTTP \(response.status), \(response.body.count) bytes")
        do {
          let answers = try provider.decode(response)
          var missing: [AdviceRequest] = []
          for bill in batch {
            if let suggestion = answers[bill.billID], let advice = advice(from: suggestion, for: bill) {
              if let failure = cache?.store(advice, key: key(bill)) { cacheFailed(failure) }
              await state.answer(bill.billID, with: advice)
            } else {
              missing.append(bill)
            }
          }
          guard !missing.isEmpty else { return }
          if splitMissing {
            trace("  \(missing.count) bills missing from the answer: asking again in a smaller request")
            return await process(missing, splitMissing: false, limiter: limiter, state: state)
          }
          return await fallback(missing, reason: "bad answer: no usable suggestion for this bill", state: state)
        } catch {
          failure = error
        }
      } catch {
        trace("← \(error)")
        failure = .retryable(
          reason: error.timedOut ? "timeout" : "connection failed: \(error.message)", serverDelay: nil)
      }
      switch failure {
      case .badAnswer(let reason):
        return await fallback(batch, reason: "bad answer: \(reason)", state: state)
      case .fatal(let reason):
        await state.stop(reason)
        return await fallback(batch, reason: reason, state: state)
      case .retryable(let reason, let serverDelay):
        guard retry < settings.maxRetries else {
          return await fallback(batch, reason: "\(reason), \(settings.maxRetries) retries used", state: state)
        }
        retry += 1
        await state.retried()
        let fraction = Double(jitter.next() % 1_000) / 1_000
        let delay = policy.delay(beforeRetry: retry, serverDelay: serverDelay, jitter: fraction)
        trace("  \(reason): retry \(retry) in \(delay)")
        do {
          try await clock.sleep(for: delay)
        } catch {
          return await fallback(batch, reason: "cancelled", state: state)
        }
      }
    }
  }

  private func key(_ request: AdviceRequest) -> String {
    AdviceCache.key(request, provider: provider.name, model: provider.model, range: settings.range)
  }

  /// A usable suggestion: a number, clamped to the range (and flagged), its reason made safe.
  func advice(from suggestion: Suggestion, for bill: AdviceRequest) -> TipAdvice? {
    guard
      let units = try? DecimalText.parse(
        suggestion.percentText, scale: Percent.scale, maxIntegerDigits: 6, allowNegative: true)
    else { return nil }
    let low = Int64(settings.range.lowerBound) * 10_000
    let high = Int64(settings.range.upperBound) * 10_000
    let clamped = min(max(units, low), high)
    return TipAdvice(
      percent: Percent(tenThousandths: clamped),
      reason: Self.cleanReason(suggestion.reason, limit: settings.reasonLimit),
      advisor: provider.name, model: provider.model, clamped: clamped != units)
  }

  private func fallback(_ batch: [AdviceRequest], reason: String, state: RunState) async {
    for bill in batch {
      var advice = OfflineAdvisor().suggest(notes: bill.notes, base: bill.base)
      advice.fallback = true
      advice.fallbackReason = "\(provider.name): \(reason)"
      await state.answer(bill.billID, with: advice)
    }
  }

  /// A reason without control characters or bidirectional overrides, white space folded, at most `limit` characters.
  package static func cleanReason(_ text: String, limit: Int) -> String {
    var out = ""
    var lastWasSpace = false
    for scalar in text.unicodeScalars {
      let foldsToSpace = scalar.isControlOrBidiOverride || scalar.properties.isWhitespace
      if foldsToSpace {
        if !lastWasSpace && !out.isEmpty { out += " " }
        lastWasSpace = true
      } else {
        out.unicodeScalars.append(scalar)
        lastWasSpace = false
      }
    }
    while out.last == " " { out.removeLast() }
    return out.count > limit ? String(out.prefix(limit - 1)) + "…" : out
  }
}

/// The shared state of one run: answers, counters, and whether requests were stopped.
actor RunState {
  private(set) var answers: [String: TipAdvice] = [:]
  private(set) var stopped: String?
  private var counts: AdviceProgress
  private let report: @Sendable (AdviceProgress) -> Void

  init(total: Int, report: @escaping @Sendable (AdviceProgress) -> Void) {
    self.counts = AdviceProgress(advised: 0, total: total, requests: 0, retries: 0, waiting: nil)
    self.report = report
  }

  func answer(_ id: String, with advice: TipAdvice) {
    if answers[id] == nil { counts.advised += 1 }
    answers[id] = advice
    counts.waiting = nil
    report(counts)
  }

  func stop(_ reason: String) { if stopped == nil { stopped = reason } }

  func sent() {
    counts.requests += 1
    counts.waiting = nil
    report(counts)
  }

  func retried() {
    counts.retries += 1
    report(counts)
  }

  func waited(_ duration: Duration) {
    counts.waiting = duration
    report(counts)
  }
}
