/// The process exit codes, as documented in the README and `--help` (BSD `sysexits` values).
package enum ExitCode: Int32, Sendable {
  /// Success.
  case success = 0
  /// Invalid bills were found (the valid ones were still processed).
  case invalidBills = 1
  /// The command was called wrongly.
  case usage = 64
  /// An input is refused whole for what it states (a photo past scan's size limit).
  case dataError = 65
  /// An input could not be read.
  case noInput = 66
  /// A required AI provider is unavailable.
  case unavailable = 69
  /// Internal error: a reconciliation identity failed, which must never happen.
  case internalError = 70
  /// An output could not be written.
  case cannotCreate = 73
  /// Standard output or standard error could not be written (a full disk, a file-size limit).
  case ioError = 74
}
