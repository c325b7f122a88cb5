/// A tip suggestion and where it came from, as reports show it.
public struct TipAdvice: Hashable, Sendable {
  /// The suggested percentage (after clamping).
  public var percent: Percent
  /// A short reason, already stripped of control characters.
  public var reason: String
  /// `offline`, `gemini` or `openai`.
  public var advisor: String
  /// The model asked, if any.
  public var model: String?
  /// Whether the network advisor failed and the offline one answered instead.
  public var fallback: Bool
  /// Why it fell back (rate limit, daily quota, timeout, bad answer).
  public var fallbackReason: String?
  /// Whether the suggestion was outside the allowed range and clamped.
  public var clamped: Bool

  /// Creates advice.
  public init(
    percent: Percent, reason: String, advisor: String, model: String? = nil, fallback: Bool = false,
    fallbackReason: String? = nil, clamped: Bool = false
  ) {
    self.percent = percent
    self.reason = reason
    self.advisor = advisor
    self.model = model
    self.fallback = fallback
    self.fallbackReason = fallbackReason
    self.clamped = clamped
  }
}
