import Foundation
import Testing

@testable import SplitBillCLI

/// Configuration files: the defaults a cron job repeats, nearest file first, the command line
/// over both, validated like bill files.
struct ConfigurationTests {
  /// Runs the built binary in `directory` with `XDG_CONFIG_HOME` set to `xdg`.
  func run(_ arguments: [String], in directory: URL, xdg: URL) throws -> Outcome {
    try runProcess(
      try builtBinary().path, arguments, environment: ["PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": xdg.path],
      directory: directory)
  }

  func setUp() throws -> (directory: URL, xdg: URL) {
    let root = try scratchDirectory()
    let directory = root.appendingPathComponent("work")
    let xdg = root.appendingPathComponent("xdg")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: xdg.appendingPathComponent("splitbill"), withIntermediateDirectories: true)
    try "id,amount,diners,paid_by\nb1,30.00,Ana;Ben,Ana\n".write(
      to: directory.appendingPathComponent("bills.csv"), atomically: true, encoding: .utf8)
    return (directory, xdg)
  }

  /// `people:` is a list, as every bill file writes it, or the command line's comma-separated text.
  @Test(arguments: ["people: [Ana, Ben]", "people:\n  - Ana\n  - Ben", "people: Ana, Ben"])
  func peopleIsAListOrText(people: String) throws {
    let (directory, xdg) = try setUp()
    try "\(people)\ncurrency: EUR\ndefault-tip: 0\n".write(
      to: directory.appendingPathComponent("splitbill.yaml"), atomically: true, encoding: .utf8)
    let clean = try run(["check", "bills.csv"], in: directory, xdg: xdg)
    #expect(clean.code == 0, "\(clean.stdout)\(clean.stderr)")
    try "id,amount,diners,paid_by\nb1,30.00,Ana;Bne,Ana\n".write(
      to: directory.appendingPathComponent("bills.csv"), atomically: true, encoding: .utf8)
    let misspelt = try run(["check", "bills.csv"], in: directory, xdg: xdg)
    #expect(misspelt.code == 1)
    #expect(misspelt.stdout.contains("diner 'Bne' is not in people; did you mean 'Ben'?"), "\(misspelt.stdout)")
  }

  /// A list for an option of one value is refused where it is, as before.
  @Test func aListForAnOptionOfOneValueIsRefused() throws {
    let (directory, xdg) = try setUp()
    try "currency: [EUR, USD]\n".write(
      to: directory.appendingPathComponent("splitbill.yaml"), atomically: true, encoding: .utf8)
    let outcome = try run(["check", "bills.csv"], in: directory, xdg: xdg)
    #expect(outcome.code != 0)
    #expect(outcome.stderr.contains("splitbill.yaml:1:11"), "\(outcome.stderr)")
  }

  /// A configuration's bill defaults (`currency`, `people`) are defaults: `suggest` without a
  /// bill does not take them for options given in vain, as it does the command line's.
  @Test func suggestWithoutABillIgnoresTheConfigurationsBillDefaults() throws {
    let (directory, xdg) = try setUp()
    try "currency: EUR\npeople: Maya, Jonas\n".write(
      to: directory.appendingPathComponent("splitbill.yaml"), atomically: true, encoding: .utf8)
    let suggested = try run(["suggest", "great food"], in: directory, xdg: xdg)
    #expect(suggested.code == 0, "\(suggested.stderr)")
    #expect(suggested.stdout.contains("Advisor: offline"))
    let given = try run(["suggest", "great food", "--currency", "EUR"], in: directory, xdg: xdg)
    #expect(given.code == 64 && given.stderr.contains("--currency needs --amount"))
  }

  @Test func theNearestFileWinsAndTheCommandLineOverBoth() throws {
    let (directory, xdg) = try setUp()
    try "currency: JPY\ndefault-tip: 10\n".write(
      to: xdg.appendingPathComponent("splitbill/config.yaml"), atomically: true, encoding: .utf8)
    // Without the local file: the user's config (JPY has no decimals, so 30.00 is refused: use EUR there).
    try "currency: EUR\n".write(
      to: directory.appendingPathComponent("splitbill.yaml"), atomically: true, encoding: .utf8)
    let both = try run(["report", "bills.csv", "--format", "json", "--verbose"], in: directory, xdg: xdg)
    #expect(both.code == 0, "\(both.stderr)")
    #expect(both.stdout.contains("\"currency\": \"EUR\"") && both.stdout.contains("\"tip\": \"3.00\""))
    #expect(both.stderr.contains("config: read \(xdg.path)/splitbill/config.yaml (2 settings), "))
    let overridden = try run(
      ["report", "bills.csv", "--format", "json", "--default-tip", "20"], in: directory, xdg: xdg)
    #expect(overridden.stdout.contains("\"tip\": \"6.00\""))
    let none = try run(["report", "bills.csv", "--no-config", "--currency", "EUR"], in: directory, xdg: xdg)
    #expect(none.code == 1)
    #expect(none.stderr.contains("no tip for this bill"))
    // The local file is configuration, not bills, when the directory is read.
    let walked = try run(["check", "."], in: directory, xdg: xdg)
    #expect(walked.stdout.contains("checked 1 file"), "\(walked.stdout)")
  }

  @Test(arguments: [
    ("ammount: 3\n", "splitbill.yaml:1:1: error: 'ammount' is no option of splitbill; did you mean 'amount'?"),
    ("leftover: sometimes\n", "splitbill.yaml:1:11: error: leftover: 'sometimes' is not one of balanced"),
    ("currency: XYZ\n", "splitbill.yaml:1:11: error: currency: unknown currency 'XYZ'"),
    ("- currency\n", "splitbill.yaml:1:1: error: expected a mapping of option names to values"),
    ("currency: [EUR]\n", "splitbill.yaml:1:11: error: expected one value for 'currency', found a list"),
  ])
  func badSettingsAreLocated(text: String, message: String) throws {
    let (directory, xdg) = try setUp()
    try text.write(to: directory.appendingPathComponent("splitbill.yaml"), atomically: true, encoding: .utf8)
    let outcome = try run(["report", "bills.csv", "--default-tip", "10"], in: directory, xdg: xdg)
    #expect(outcome.code == 64)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  @Test func theAPIKeyOnlyInAFileOnlyItsOwnerCanRead() throws {
    let (directory, xdg) = try setUp()
    let file = directory.appendingPathComponent("splitbill.yaml")
    try "ai-key: not-a-real-key\ndefault-tip: 10\ncurrency: EUR\n".write(to: file, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    let exposed = try run(["report", "bills.csv"], in: directory, xdg: xdg)
    #expect(exposed.code == 64)
    #expect(exposed.stderr.contains("the API key is in a file others can read (mode 644)"))
    #expect(!exposed.stderr.contains("not-a-real-key"))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    #expect(try run(["report", "bills.csv"], in: directory, xdg: xdg).code == 0)
  }

  /// Whatever is wrong around the key (given twice, as a list or a mapping, a quote left open, the
  /// whole file one value, a key pasted in the wrong place), no message shows it: in the user's
  /// configuration or the directory's, for `report` and `calc`.
  @Test(arguments: [
    "ai-key: sk-SECRET-1234\nai-key: sk-SECRET-1234\n",
    "ai-key: [sk-SECRET-1234]\n",
    "ai-key:\n  value: sk-SECRET-1234\n",
    "ai-key: \"sk-SECRET-1234\ncurrency: EUR\n",
    "\"sk-SECRET-1234\n",
    "ai-key sk-SECRET-1234\n",
    "sk-SECRET-1234: true\n",
    "{currency: EURO, ai-key: sk-SECRET-1234}\n",
  ])
  func theKeyIsNeverEchoed(text: String) throws {
    let (directory, xdg) = try setUp()
    for file in [
      directory.appendingPathComponent("splitbill.yaml"), xdg.appendingPathComponent("splitbill/config.yaml"),
    ] {
      try text.write(to: file, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
      for arguments in [["report", "bills.csv", "--default-tip", "10"], ["calc", "10.00", "--tip", "10"]] {
        let outcome = try run(arguments, in: directory, xdg: xdg)
        #expect(outcome.code == 64, "\(arguments) \(text): \(outcome.stderr)")
        #expect(!outcome.stderr.contains("SECRET") && !outcome.stdout.contains("SECRET"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(file.lastPathComponent + ":"), "\(outcome.stderr)")
      }
      try FileManager.default.removeItem(at: file)
    }
  }
}
