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
}
