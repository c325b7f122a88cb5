/// Where a value came from: a file and a 1-based line and column.
///
/// For CSV, the line is the physical line (a quoted cell can span several) and the column is the
/// cell's first character; ``field`` names the CSV column.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The path as the user gave it (`-` for standard input).
  public var file: String
  /// 1-based line.
  public var line: Int
  /// 1-based column, in characters.
  public var column: Int

  /// Creates a location.
  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `trip.yaml:9:13`.
  public var description: String { "\(file):\(line):\(column)" }

  public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
  }
}

/// A problem found in the input, located like a compiler's.
public struct Diagnostic: Hashable, Sendable {
  /// Errors make a bill invalid; warnings fail only with `--strict`.
  public enum Severity: String, Sendable, Hashable {
    case error, warning
  }

  /// Error or warning.
  public var severity: Severity
  /// Where, when known (an unreadable file has no line).
  public var location: SourceLocation?
  /// What was wrong and what was expected.
  public var message: String

  /// Creates a diagnostic.
  public init(_ severity: Severity, _ message: String, at location: SourceLocation?) {
    self.severity = severity
    self.location = location
    self.message = message
  }

  /// An error at `location`.
  public static func error(_ message: String, at location: SourceLocation?) -> Diagnostic {
    Diagnostic(.error, message, at: location)
  }

  /// A warning at `location`.
  public static func warning(_ message: String, at location: SourceLocation?) -> Diagnostic {
    Diagnostic(.warning, message, at: location)
  }
}
