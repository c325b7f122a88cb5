import Foundation
import SplitBillCore
import Testing

@testable import SplitBillInput
@testable import SplitBillModel

/// What reading some inputs gave.
struct ReadResult {
  var bills: [Bill] = []
  var payments: [PaymentRecord] = []
  var invalid: [InvalidBill] = []
  var diagnostics: [Diagnostic] = []
  var unreadable = false
  /// How people are paid, from `people:` entries.
  var payees: [String: PaymentDetails] = [:]
  /// A directory left out of messages that name another place (they show the temporary one).
  var directory = ""

  /// Diagnostics as `line:column: severity: message`, the file and the directory left out.
  var lines: [String] {
    diagnostics.map { d in
      let message = directory.isEmpty ? d.message : d.message.replacingOccurrences(of: directory + "/", with: "")
      return "\(d.location.map { "\($0.line):\($0.column)" } ?? "-"): \(d.severity.rawValue): \(message)"
    }
  }
}

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("splitbill-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Writes `text` to a temporary file named `name` and reads it.
func read(
  _ text: String, name: String = "bills.yaml", options: ReadOptions = ReadOptions(), currencyGiven: Bool = true
) throws -> ReadResult {
  try read(bytes: Array(text.utf8), name: name, options: options, currencyGiven: currencyGiven)
}

/// Writes `bytes` to a temporary file named `name` and reads it.
func read(bytes: [UInt8], name: String, options: ReadOptions = ReadOptions(), currencyGiven: Bool = true) throws
  -> ReadResult
{
  let directory = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: directory) }
  let path = directory.appendingPathComponent(name).path
  try Data(bytes).write(to: URL(fileURLWithPath: path))
  var result = readPaths([path], options: options, currencyGiven: currencyGiven)
  result.directory = directory.path
  return result
}

/// Reads `paths` as `report` does: once, and again if an id repeated.
///
/// Most files here name no currency: they are read as with `--currency USD`, unless
/// `currencyGiven` is false (a bill with no currency anywhere is an error, tested on its own).
func readPaths(_ paths: [String], options given: ReadOptions = ReadOptions(), currencyGiven: Bool = true) -> ReadResult
{
  var options = given
  if currencyGiven, options.defaults.currency == nil { options.defaults.currency = .usd }
  func readOnce(_ stream: inout BillStream) -> ReadResult {
    var result = ReadResult()
    stream.read(stream.sources(for: paths)) { outcome in
      switch outcome {
      case .valid(let bill): result.bills.append(bill)
      case .payment(let payment): result.payments.append(payment)
      case .invalid(let bill): result.invalid.append(bill)
      }
    }
    return result
  }
  var stream = BillStream(options: options)
  var result = readOnce(&stream)
  let repeats = stream.findRepeats()
  if repeats.hasRepeatedIDs {
    stream = BillStream(options: options, repeats: repeats)
    result = readOnce(&stream)
  }
  result.diagnostics = stream.diagnostics
  result.unreadable = stream.unreadableInput
  result.payees = stream.payees
  return result
}

/// Expects every diagnostic to stand inside a file of `lines` lines.
func expectInside(_ diagnostics: [Diagnostic], lines: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
  for diagnostic in diagnostics {
    guard let location = diagnostic.location else { continue }
    #expect(
      (1...lines).contains(location.line) && location.column >= 1, "\(diagnostic)", sourceLocation: sourceLocation)
  }
}

/// The path of a bundled fixture.
func fixture(_ name: String) throws -> String {
  let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
  return url.path
}
