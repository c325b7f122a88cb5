/// Where a writer sends its text. Writers stream: a million-bill report is never one `String`.
public protocol OutputSink {
  /// Appends `text`.
  mutating func write(_ text: String)
  /// Appends UTF-8 `bytes` (writers that build their output as bytes use this).
  mutating func write(bytes: [UInt8])
}

extension OutputSink {
  /// Decodes the bytes and writes them as text.
  public mutating func write(bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }
}

/// Collects everything written into one string (tests, small outputs).
public struct StringSink: OutputSink, Sendable {
  /// Everything written so far.
  public var text = ""

  /// An empty sink.
  public init() {}

  public mutating func write(_ text: String) { self.text += text }
}
