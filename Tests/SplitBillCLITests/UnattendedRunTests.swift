import Foundation
import Testing

/// Runs nobody watches (cron, CI): inputs that cannot be read, or hold nothing, never give a
/// report or a success.
@Suite final class UnattendedRunTests {
  /// A directory of the test's own, removed with it.
  let directory: URL

  init() throws {
    directory = try FileManager.default.url(
      for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: URL(fileURLWithPath: "/tmp"), create: true)
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  @Test func aMissingInputWritesNothing() async throws {
    let report = path("weekly.html")
    try "last week's report".write(toFile: report, atomically: true, encoding: .utf8)
    let trip = packageRoot.appendingPathComponent("samples/trip.yaml").path
    for arguments in [
      ["report", path("nonexistent.yaml"), trip, "-o", report], ["report", trip, path("nonexistent")],
    ] {
      let outcome = await runCLI(arguments)
      #expect(outcome.code == 66)
      #expect(outcome.stdout.isEmpty)
      #expect(outcome.stderr.contains("cannot read") && outcome.stderr.contains("nothing was written"))
      #expect(try String(contentsOfFile: report, encoding: .utf8) == "last week's report")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["weekly.html"])
  }

  @Test func findingNoBillsIsAnErrorUnlessAllowed() async throws {
    try FileManager.default.createDirectory(atPath: path("empty"), withIntermediateDirectories: false)
    try FileManager.default.createDirectory(atPath: path("notes"), withIntermediateDirectories: false)
    try "not a bill".write(toFile: path("notes/readme.txt"), atomically: true, encoding: .utf8)
    try "".write(toFile: path("empty.yaml"), atomically: true, encoding: .utf8)
    try "id,date,amount,currency,tip,diners,paid_by\n".write(
      toFile: path("header.csv"), atomically: true, encoding: .utf8)
    let report = path("out.json")
    for input in ["empty", "notes", "empty.yaml", "header.csv"] {
      for command in [["report", path(input), "-o", report], ["check", path(input)]] {
        try "previous".write(toFile: report, atomically: true, encoding: .utf8)
        let outcome = await runCLI(command)
        #expect(outcome.code == 66, "\(command)")
        #expect(outcome.stderr.contains("no bill"), "\(command): \(outcome.stderr)")
        #expect(outcome.stderr.contains("--allow-empty"))
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "previous")
        let allowed = await runCLI(command + ["--allow-empty"])
        #expect(allowed.code == 0, "\(command) --allow-empty: \(allowed.stderr)")
      }
    }
    let directoryMessage = await runCLI(["check", path("empty")])
    #expect(directoryMessage.stderr.contains("*.yaml, *.yml, *.csv, *.tsv"))
  }

  @Test func aReplacedReportKeepsItsPermissionsAndItsLink() async throws {
    let trip = packageRoot.appendingPathComponent("samples/trip.yaml").path
    let privateReport = path("private.json")
    try "old".write(toFile: privateReport, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: privateReport)
    #expect(await runCLI(["report", trip, "-o", privateReport]).code == 0)
    let attributes = try FileManager.default.attributesOfItem(atPath: privateReport)
    #expect(attributes[.posixPermissions] as? Int == 0o600)
    #expect(try String(contentsOfFile: privateReport, encoding: .utf8).hasPrefix("{"))

    // Through a link to an existing file, and through a dangling one: the link stays a link.
    try FileManager.default.createDirectory(atPath: path("real"), withIntermediateDirectories: false)
    try "old".write(toFile: path("real/target.json"), atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: path("link.json"), withDestinationPath: "real/target.json")
    try FileManager.default.createSymbolicLink(atPath: path("dangling.json"), withDestinationPath: "real/new.json")
    for (link, target) in [("link.json", "real/target.json"), ("dangling.json", "real/new.json")] {
      #expect(await runCLI(["report", trip, "-o", path(link)]).code == 0)
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path(link)) == target)
      #expect(try String(contentsOfFile: path(target), encoding: .utf8).hasPrefix("{"))
    }
  }

  @Test func aReportIsNeverWrittenOverItsInput() async throws {
    let bills = path("bills.csv")
    let original = try String(
      contentsOfFile: packageRoot.appendingPathComponent("samples/csv/trip.csv").path, encoding: .utf8)
    try original.write(toFile: bills, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: path("alias.csv"), withDestinationPath: bills)
    for output in [bills, path("alias.csv")] {
      let outcome = await runCLI(["report", bills, "--default-tip", "10", "-o", output])
      #expect(outcome.code == 64)
      #expect(outcome.stderr.contains("-o \(output) is the input \(bills): the report would replace its own bills"))
      #expect(try String(contentsOfFile: bills, encoding: .utf8) == original)
    }
    // The message names the option that was given.
    let recording = await runCLI(["report", bills, "--default-tip", "10", "--record-settlements", bills, "--force"])
    #expect(recording.code == 64)
    #expect(recording.stderr.contains("--record-settlements \(bills) is the input \(bills)"), "\(recording.stderr)")
    #expect(try String(contentsOfFile: bills, encoding: .utf8) == original)
  }

  /// A recorded file must read back: a transfer of more than 15 digits (three bills of the largest
  /// amount, half of it owed) is not recorded, and the run says so and exits 1; the report is
  /// still written.
  @Test func settlementsThatWouldNotReadBackAreNotRecorded() async throws {
    var bills = "defaults: {currency: EUR, tip: 0}\nbills:\n"
    for index in 1...3 { bills += "  - {id: b\(index), amount: 9999999999999.99, diners: [Ana, Ben], paid_by: Ana}\n" }
    try bills.write(toFile: path("big.yaml"), atomically: true, encoding: .utf8)
    let outcome = await runCLI([
      "report", path("big.yaml"), "--record-settlements", path("paid.yaml"), "-o", path("report.json"),
    ])
    #expect(outcome.code == 1)
    #expect(
      outcome.stderr.contains(
        "the settlements were not recorded in \(path("paid.yaml")): Ben pays Ana 14999999999999.9"
      ), "\(outcome.stderr)")
    #expect(!FileManager.default.fileExists(atPath: path("paid.yaml")))
    #expect(FileManager.default.fileExists(atPath: path("report.json")))
    #expect(outcome.stderr.contains("EUR, more than the 15 digits a bill file holds"))
    // A bill fewer: 9,999,999,999,999.99 fits, is recorded, and reads back.
    bills = bills.components(separatedBy: "\n").dropLast(2).joined(separator: "\n") + "\n"
    try bills.write(toFile: path("big.yaml"), atomically: true, encoding: .utf8)
    #expect(await runCLI(["report", path("big.yaml"), "--record-settlements", path("paid.yaml")]).code == 0)
    #expect(await runCLI(["check", path("paid.yaml")]).code == 0)
  }

  /// Nor over what it reads beside or for the bills (an items file, a rates file), nor two outputs
  /// into one file; `import` never over its export.
  @Test func noOutputReplacesAnotherInputOrOutput() async throws {
    let samples = packageRoot.appendingPathComponent("samples").path
    for name in ["brasserie.csv", "brasserie.items.csv"] {
      try FileManager.default.copyItem(atPath: samples + "/receipts/" + name, toPath: path(name))
    }
    try FileManager.default.copyItem(atPath: samples + "/rates/eurofxref-hist.csv", toPath: path("rates.csv"))
    try FileManager.default.copyItem(atPath: samples + "/import/splitwise-trip.csv", toPath: path("export.csv"))
    let kept = try ["brasserie.items.csv", "rates.csv", "export.csv"].map {
      try String(contentsOfFile: path($0), encoding: .utf8)
    }
    let cases: [([String], String)] = [
      (
        ["report", path("brasserie.csv"), "-o", path("brasserie.items.csv"), "--format", "csv"],
        "-o \(path("brasserie.items.csv")) is the items file \(path("brasserie.items.csv"))"
      ),
      (
        ["report", path("brasserie.csv"), "--record-settlements", path("brasserie.items.csv"), "--force"],
        "--record-settlements \(path("brasserie.items.csv")) is the items file"
      ),
      (
        [
          "report", path("brasserie.csv"), "--settle-in", "EUR", "--rates", path("rates.csv"), "-o", path("rates.csv"),
          "--format", "csv",
        ],
        "-o \(path("rates.csv")) is the rates file \(path("rates.csv")): the report would replace its own rates"
      ),
      (
        ["report", path("brasserie.csv"), "-o", path("out.json"), "--record-settlements", path("out.json")],
        "-o \(path("out.json")) and --record-settlements \(path("out.json")) are one file"
      ),
      (
        ["import", "splitwise", path("export.csv"), "-o", path("export.csv"), "--force"],
        "-o \(path("export.csv")) is the export \(path("export.csv")): the import would replace what it reads"
      ),
    ]
    for (arguments, message) in cases {
      let outcome = await runCLI(arguments)
      #expect(outcome.code == 64, "\(arguments): \(outcome.stderr)")
      #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: path("out.json")))
    #expect(
      try ["brasserie.items.csv", "rates.csv", "export.csv"].map {
        try String(contentsOfFile: path($0), encoding: .utf8)
      }
        == kept)
  }

  /// A file its owner made read-only is refused, as `cp` refuses it (as root, run as nobody).
  @Test(
    .enabled(
      if: needing(getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")),
      "needs setpriv (util-linux) to run as an ordinary user"))
  func aReadOnlyReportIsNotReplaced() throws {
    // A directory anyone may write to: renaming over the file would be allowed, only the file's
    // own bits say no. (The test's own directory is not reachable by another user.)
    let shared = URL(fileURLWithPath: "/tmp/splitbill-read-only-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: shared) }
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: shared.path)
    let readOnly = shared.appendingPathComponent("read-only.json").path
    try "kept".write(toFile: readOnly, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly)
    // The other user reads what it runs from there too: the clone may sit in a directory only
    // its owner can enter (as `mktemp -d` makes them).
    let trip = shared.appendingPathComponent("trip.yaml").path
    try FileManager.default.copyItem(atPath: packageRoot.appendingPathComponent("samples/trip.yaml").path, toPath: trip)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: trip)
    // Copied by `install`, another process: a file this process had open for writing could be
    // inherited by a child another test forks meanwhile, and exec would then fail (text file busy).
    let binary = shared.appendingPathComponent("splitbill").path
    let copied = try runProcess("/usr/bin/install", ["-m", "755", try builtBinary().path, binary])
    #expect(copied.code == 0, "\(copied.stderr)")
    let outcome =
      getuid() == 0
      ? try runProcess(
        "/usr/bin/setpriv",
        ["--reuid=65534", "--regid=65534", "--clear-groups", binary, "report", trip, "-o", readOnly])
      : try runProcess(binary, ["report", trip, "-o", readOnly])
    #expect(outcome.code == 73, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("Permission denied"))
    #expect(try String(contentsOfFile: readOnly, encoding: .utf8) == "kept")
  }

  @Test func aFileGivenTwiceIsReadOnceAndSaidOnce() async throws {
    try FileManager.default.createDirectory(atPath: path("bills"), withIntermediateDirectories: false)
    let trip = path("bills/trip.yaml")
    try FileManager.default.copyItem(atPath: packageRoot.appendingPathComponent("samples/trip.yaml").path, toPath: trip)
    try FileManager.default.createSymbolicLink(atPath: path("alias.yaml"), withDestinationPath: trip)
    let once = await runCLI(["check", "--format", "json", trip])
    let onceValue = try #require(try JSONSerialization.jsonObject(with: Data(once.stdout.utf8)) as? [String: Any])
    for inputs in [[trip, trip], [trip, path("bills")], [path("bills"), path("alias.yaml")]] {
      let outcome = await runCLI(["check", "--format", "json"] + inputs)
      let value = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
      let codes = (value["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
      #expect(codes == ["file.twice"], "\(inputs): \(codes)")
      #expect(value["bills"] as? Int == onceValue["bills"] as? Int)
      #expect(value["errors"] as? Int == 0)
      let report = await runCLI(["report", "--format", "json"] + inputs)
      #expect(report.code == 0)
      #expect(report.stderr.contains("given") && report.stderr.contains("read once"))
    }
  }
}
