@_spi(ByteWriters) import SplitBillBytes
@_spi(ByteWriters) import SplitBillCore
import SplitBillModel

/// A bill's source as a writer shows it, `PATH:LINE:COLUMN`, with the path made safe for the
/// format once per file (a report's bills nearly all share one).
struct ShownSource {
  private let escape: (String) -> String
  private var last: (file: SourceFile, path: String)?

  /// Shows paths through `escape` (the format's escaping of untrusted text).
  init(escape: @escaping (String) -> String) { self.escape = escape }

  /// The escaped path of `location`'s file.
  mutating func path(of location: SourceLocation) -> String {
    if let last, last.file == location.sourceFile { return last.path }
    let path = escape(location.file)
    last = (location.sourceFile, path)
    return path
  }

  /// Writes `path:line:column` (at most `path` and 42 bytes).
  static func write(_ location: SourceLocation, path: String, to out: inout ByteCursor) {
    out.write(utf8: path)
    out.write(0x3A)
    DecimalText.write(Int64(location.line), scale: 0, to: &out)
    out.write(0x3A)
    DecimalText.write(Int64(location.column), scale: 0, to: &out)
  }
}
