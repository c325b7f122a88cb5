/// Where a writer sends its text. Writers stream: a million-bill report is never one `String`.
public protocol OutputSink {
  /// Appends `text`.
  mutating func write(_ text: String)
}

/// Collects everything written into one string (tests, small outputs).
public struct StringSink: OutputSink, Sendable {
  /// Everything written so far.
  public var text = ""

  /// An empty sink.
  public init() {}

  public mutating func write(_ text: String) { self.text += text }
}
