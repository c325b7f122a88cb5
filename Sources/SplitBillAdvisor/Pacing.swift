/// Time for the advisor: the real clock, or a test clock that runs instantly.
package protocol AdvisorClock: Sendable {
  /// Time since an arbitrary, fixed origin.
  func now() async -> Duration
  /// Waits `duration` (a test clock just moves its time on).
  func sleep(for duration: Duration) async throws
}

/// The process's monotonic clock.
package struct SystemClock: AdvisorClock {
  private let origin = ContinuousClock.now

  /// A clock whose origin is now.
  package init() {}

  package func now() async -> Duration { ContinuousClock.now - origin }

  package func sleep(for duration: Duration) async throws {
    if duration > .zero { try await Task.sleep(for: duration) }
  }
}

/// Paces requests so that no rolling window (60 s by default) holds more than `limit` of them,
/// across every concurrent worker: each caller reserves the earliest slot that keeps the window
/// within the limit, then sleeps until it.
///
/// A slot is at least `window + margin` after the slot `limit` places before it, so that a server
/// counting with closed windows, or with a clock a little off, still sees no more than `limit`.
package actor RateLimiter {
  /// Requests allowed per window.
  package let limit: Int
  /// The window.
  package let window: Duration
  /// Extra spacing kept on top of the window.
  package let margin: Duration
  private let clock: any AdvisorClock
  private var slots: [Duration] = []

  /// A limiter of `limit` requests per `window` on `clock`.
  package init(
    limit: Int, window: Duration = .seconds(60), margin: Duration = .milliseconds(250), clock: any AdvisorClock
  ) {
    self.limit = max(1, limit)
    self.window = window
    self.margin = margin
    self.clock = clock
  }

  /// Reserves the earliest slot that keeps every window within the limit; returns how long the
  /// caller must wait for it (zero when it may go now).
  package func reserve() async -> Duration {
    let now = await clock.now()
    var slot = now
    if slots.count >= limit { slot = max(now, slots[slots.count - limit] + window + margin) }
    slots.append(slot)
    // Keep only what later reservations can still look at.
    if slots.count > limit * 2 { slots.removeFirst(slots.count - limit) }
    return slot - now
  }
}

/// When to retry a failed request and how long to wait first.
///
/// Backoff doubles from `baseDelay` (1 s, 2 s, 4 s, 8 s …) up to `maxDelay` (60 s), plus up to a
/// quarter of random jitter; a server's requested delay (Gemini's `RetryInfo.retryDelay`, or
/// `Retry-After`) is waited at least. 429, 500, 502, 503, 504 and connection failures are retried;
/// 400, 401, 403 and 404 never are.
package struct RetryPolicy: Sendable, Equatable {
  /// Retries after the first attempt.
  package var maxRetries: Int
  /// The first backoff.
  package var baseDelay: Duration
  /// The longest backoff.
  package var maxDelay: Duration

  /// Creates a policy.
  package init(maxRetries: Int = 4, baseDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(60)) {
    self.maxRetries = maxRetries
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
  }

  /// Status codes worth another attempt.
  package static let retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

  /// The backoff before retry number `retry` (1-based), without jitter: 1 s, 2 s, 4 s … capped.
  package func backoff(beforeRetry retry: Int) -> Duration {
    let doubled = baseDelay * (1 << min(max(retry - 1, 0), 16))
    return min(doubled, maxDelay)
  }

  /// The wait before retry `retry`: the backoff plus `jitter` (a fraction from 0 to 1 of a quarter
  /// of it), and never less than what the server asked for.
  package func delay(beforeRetry retry: Int, serverDelay: Duration?, jitter: Double) -> Duration {
    let backoff = backoff(beforeRetry: retry)
    let withJitter = backoff + backoff * (min(max(jitter, 0), 1) / 4)
    return max(withJitter, serverDelay ?? .zero)
  }
}

/// The 64-bit FNV-1a hash of a string's UTF-8 bytes: stable across runs and machines.
enum FNV1a {
  static func hash(_ text: String) -> UInt64 {
    text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
  }
}
