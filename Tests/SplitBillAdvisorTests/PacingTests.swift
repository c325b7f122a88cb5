import SplitBillCore
import Testing

@testable import SplitBillAdvisor

/// A clock whose time only moves when someone sleeps: tests of minutes run in microseconds.
actor TestClock: AdvisorClock {
  private var time: Duration = .zero
  func now() async -> Duration { time }
  func sleep(for duration: Duration) async throws {
    // Every sleeper wakes at its own deadline; time never goes back.
    let deadline = time + duration
    await Task.yield()
    time = max(time, deadline)
  }
}

@Suite struct RateLimiterTests {
  @Test func noRollingWindowHoldsMoreThanTheLimitAcrossConcurrentWorkers() async throws {
    let clock = TestClock()
    let limiter = RateLimiter(limit: 5, clock: clock)
    var slots: [Duration] = []
    for _ in 0..<23 {
      _ = await limiter.reserve()
    }
    // Reservations alone: recompute what each caller was told.
    let second = RateLimiter(limit: 5, clock: clock)
    await withTaskGroup(of: Duration.self) { group in
      for _ in 0..<23 {
        group.addTask {
          let now = await clock.now()
          let wait = await second.reserve()
          return now + wait
        }
      }
      for await slot in group { slots.append(slot) }
    }
    slots.sort()
    for index in slots.indices.dropFirst(5) {
      #expect(slots[index] - slots[index - 5] >= .seconds(60), "slot \(index)")
    }
    #expect(slots.prefix(5).allSatisfy { $0 == slots[0] })
    #expect(slots.last.map { $0 - slots[0] } ?? .zero < .seconds(4 * 61))
  }

  @Test func waitsOnlyWhenTheWindowIsFull() async throws {
    let clock = TestClock()
    let limiter = RateLimiter(limit: 2, window: .seconds(10), margin: .zero, clock: clock)
    // Reserve a slot and wait for it, as the coordinator does; how long it waited.
    func acquire() async throws -> Duration {
      let wait = await limiter.reserve()
      try await clock.sleep(for: wait)
      return wait
    }
    #expect(try await acquire() == .zero)
    #expect(try await acquire() == .zero)
    #expect(try await acquire() == .seconds(10))
    try await clock.sleep(for: .seconds(30))
    #expect(try await acquire() == .zero)
  }
}

@Suite struct RetryPolicyTests {
  @Test func backoffDoublesAndIsCapped() {
    let policy = RetryPolicy()
    #expect(
      (1...8).map { policy.backoff(beforeRetry: $0) } == [1, 2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) })
  }

  @Test func jitterAddsAtMostAQuarterAndTheServerDelayWins() {
    let policy = RetryPolicy()
    #expect(policy.delay(beforeRetry: 3, serverDelay: nil, jitter: 0) == .seconds(4))
    #expect(policy.delay(beforeRetry: 3, serverDelay: nil, jitter: 1) == .seconds(5))
    #expect(policy.delay(beforeRetry: 1, serverDelay: .seconds(37), jitter: 0.5) == .seconds(37))
    #expect(RetryPolicy.retryableStatuses == [408, 429, 500, 502, 503, 504])
  }
}

@Suite struct RetryJitterTests {
  /// Published FNV-1a 64-bit test vectors (the reference's own table).
  @Test(arguments: [
    ("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8),
  ])
  func fnv1aMatchesThePublishedVectors(text: String, hash: UInt64) {
    #expect(FNV1a.hash(text) == hash)
  }

  /// The seed depends on the bill id's bytes only, so a rerun retries after the same delays (it
  /// was `hashValue`, which each process seeds afresh).
  @Test func theJitterSeedIsTheFirstBillIDsHash() throws {
    let amount = Money(minorUnits: 1_000, currency: .usd)
    let batch = ["lis-04", "tok-02"].map { AdviceRequest(billID: $0, amount: amount, diners: 2, notes: "") }
    #expect(AdviceCoordinator.jitterSeed(for: batch) == FNV1a.hash("lis-04"))
    #expect(AdviceCoordinator.jitterSeed(for: Array(batch.reversed())) == FNV1a.hash("tok-02"))
  }
}

@Suite struct ErrorMappingTests {
  func failure(_ status: Int, _ body: String, headers: [String: String] = [:]) -> ProviderFailure {
    ErrorBody(HTTPResponse(status: status, headers: headers, body: Array(body.utf8))).failure(
      status: status, model: "gemini-x", provider: "gemini")
  }

  @Test func retryInfoIsReadFromTheDetails() {
    let body =
      #"{"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "message": "quota", "details": [{"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [{"quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]}, {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}]}}"#
    #expect(failure(429, body) == .retryable(reason: "rate limited (HTTP 429)", serverDelay: .seconds(37)))
    #expect(
      failure(429, "", headers: ["retry-after": "12"])
        == .retryable(reason: "rate limited (HTTP 429)", serverDelay: .seconds(12)))
    #expect(ErrorBody.duration("1.5s") == .milliseconds(1500))
    #expect(ErrorBody.duration("53.016342224s") == .milliseconds(53016))
    #expect(ErrorBody.duration("soon") == nil)
  }

  @Test func dailyQuotaAndClientErrorsStopTheRun() {
    let daily =
      #"{"error": {"code": 429, "details": [{"violations": [{"quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}]}}"#
    guard case .fatal(let reason) = failure(429, daily) else {
      Issue.record("not fatal")
      return
    }
    #expect(reason.hasPrefix("daily quota exhausted"))
    for status in [400, 401, 403, 404] {
      guard case .fatal = failure(status, "{}") else {
        Issue.record("\(status) must not be retried")
        return
      }
    }
    guard case .fatal(let missing) = failure(404, "{}") else {
      Issue.record("404")
      return
    }
    #expect(missing.contains("model 'gemini-x' was not found") && missing.contains("--ai-model"))
    let badKey =
      #"{"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": "API key not valid.", "details": [{"reason": "API_KEY_INVALID"}]}}"#
    #expect(
      failure(400, badKey)
        == .fatal(reason: "the gemini API key was not accepted (HTTP 400) (INVALID_ARGUMENT: API key not valid.)"))
  }

  @Test func serverErrorsAreRetriedAndTheOpenAIArrayShapeIsRead() {
    for status in [500, 502, 503, 504] {
      guard case .retryable = failure(status, "{}") else {
        Issue.record("\(status) must be retried")
        return
      }
    }
    let array = #"[{"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}]"#
    #expect(
      failure(503, array) == .retryable(reason: "server error (HTTP 503) (UNAVAILABLE: overloaded)", serverDelay: nil))
  }
}
