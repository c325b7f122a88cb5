/// Where a writer sends its text. Writers stream: a million-bill report is never one `String`.
package protocol OutputSink {
  /// Appends `text`.
  mutating func write(_ text: String)
  /// Appends UTF-8 `bytes` (writers that build their output as bytes use this).
  mutating func write(bytes: [UInt8])
  /// Lets `body` append UTF-8 bytes to the sink's own buffer, where it has one: a writer that
  /// produces bytes skips a buffer of its own and a copy (the JSON report, once per bill).
  mutating func append(_ body: (inout [UInt8]) -> Void)
  /// Marks the output as failed with `errorNumber` (an `errno`): something that should have come
  /// out through this sink could not be written, so what it holds is not the whole output.
  /// `place` names where the write failed when it was not this sink's own file (a spool's
  /// temporary file), so the message does not send the user to the wrong disk.
  mutating func recordFailure(_ errorNumber: Int32, in place: String?)
}

extension OutputSink {
  /// Decodes the bytes and writes them as text.
  package mutating func write(bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }

  /// Sinks that cannot fail take no note of failures.
  package mutating func recordFailure(_ errorNumber: Int32, in place: String?) {}

  /// Marks the output as failed by a write of its own.
  package mutating func recordFailure(_ errorNumber: Int32) { recordFailure(errorNumber, in: nil) }

  /// Collects the bytes, then writes them.
  package mutating func append(_ body: (inout [UInt8]) -> Void) {
    var bytes: [UInt8] = []
    body(&bytes)
    write(bytes: bytes)
  }
}

/// Collects everything written into one string (tests, small outputs).
package struct StringSink: OutputSink, Sendable {
  /// Everything written so far.
  package var text = ""

  /// An empty sink.
  package init() {}

  package mutating func write(_ text: String) { self.text += text }
}
