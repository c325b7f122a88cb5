import Foundation
import SplitBillBytes
import Testing

/// Runs ended from outside while they write `-o` files: a signal removes the temporary files, a
/// SIGKILL (which nothing can catch) leaves the previous file or the complete new one, and the
/// next run removes what the killed one left.
@Suite(.serialized) struct InterruptedRunTests {
  /// A directory with `bills.csv` of `count` bills and `out.json` holding "previous".
  func setUp(bills count: Int) throws -> (directory: URL, bills: String, output: String) {
    let (directory, bills) = try WriteFailureTests.write(WriteFailureTests.trip(count: count), named: "bills.csv")
    let output = directory.appendingPathComponent("out.json").path
    try Data("previous\n".utf8).write(to: URL(fileURLWithPath: output))
    return (directory, bills, output)
  }

  func temporaryFiles(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
  }

  @Test(arguments: ["INT", "TERM", "HUP"])
  func aSignalWhileWritingRemovesTheTemporaryFiles(signal: String) throws {
    let (directory, bills, output) = try setUp(bills: 60_000)
    defer { try? FileManager.default.removeItem(at: directory) }
    let html = directory.appendingPathComponent("out.html").path
    // The signal is sent once the temporary files exist (the run is writing), at most 20 s in.
    let outcome = try WriteFailureTests.shell(
      """
      "$1" report '\(bills)' -o '\(output)' -o '\(html)' 2>/dev/null & pid=$!
      tries=0
      while [ -z "$(ls -a '\(directory.path)' | grep tmp-)" ] && [ $tries -lt 2000 ]; do sleep 0.01; tries=$((tries+1)); done
      kill -\(signal) $pid; wait $pid; echo $?
      """, binary: try builtBinary().path)
    let status = Int(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    // Ended by the signal itself (128 + its number), not by an exit of its own.
    #expect([130, 143, 129].contains(status), "status \(status): \(outcome.stderr)")
    #expect(try temporaryFiles(in: directory).isEmpty)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous\n")
    #expect(!FileManager.default.fileExists(atPath: html))
  }

  @Test func aKilledRunLeavesTheOldFileOrTheNewOneAndTheNextRunCleansUp() throws {
    let (directory, bills, output) = try setUp(bills: 20_000)
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try builtBinary().path
    // Seeded, so a failure can be run again with the same kills; the first kill comes at once (the
    // old file must be seen however slow or busy the machine), the second when the run is surely
    // done (the new one must be seen), the rest anywhere in between.
    // (`nil`: no kill, the run left to finish; a fixed wait would be a guess on a loaded machine.)
    // Under a sanitizer (`.ci/run`'s second and third runs) six random kills, not 22: the plain
    // run makes them all, and each sanitized run of the binary is several times slower.
    var random = SplitMix64(seed: 0x6B11_1ED5)
    let randomKills = underSanitizer ? 6 : 22
    let kills: [Int?] = [0, nil] + (0..<randomKills).map { _ in Int.random(in: 0...1_200, using: &random) }
    var sawOld = 0
    var sawNew = 0
    for kill in kills {
      if let milliseconds = kill {
        let delay = Double(milliseconds) / 1_000
        _ = try WriteFailureTests.shell(
          "\"$1\" report '\(bills)' -o '\(output)' 2>/dev/null & pid=$!; sleep \(delay); kill -KILL $pid; wait $pid",
          binary: binary)
      } else {
        let finished = try runProcess(binary, ["report", bills, "-o", output])
        #expect(finished.code == 0)
      }
      let text = try String(contentsOfFile: output, encoding: .utf8)
      if text == "previous\n" {
        sawOld += 1
      } else {
        // Complete: it parses, and it is the report of every bill.
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect((value?["bills"] as? [Any])?.count == 20_000)
        sawNew += 1
        try Data("previous\n".utf8).write(to: URL(fileURLWithPath: output))
      }
    }
    #expect(sawOld > 0, "every kill came after the rename: \(sawNew) new")
    #expect(sawNew > 0, "a finished run left the old file")
    // What the kills left is removed by the next run that writes the same file.
    let finished = try runProcess(binary, ["report", bills, "-o", output])
    #expect(finished.code == 0)
    #expect(try temporaryFiles(in: directory).isEmpty)
  }

  @Test func onlyTheTemporaryFilesOfRunsThatAreGoneAreRemoved() throws {
    let (directory, _, output) = try setUp(bills: 10)
    defer { try? FileManager.default.removeItem(at: directory) }
    let trip = packageRoot.appendingPathComponent("samples/trip.yaml").path
    // A process that has ended gives a pid that is gone; the shell running the script is alive.
    let outcome = try WriteFailureTests.shell(
      """
      cd '\(directory.path)'
      true & gone=$!; wait $gone
      touch ".out.json.tmp-$gone-abcdef" ".out.json.tmp-$$-abcdef" ".other.json.tmp-$gone-abcdef"
      "$1" report '\(trip)' -o '\(output)' >/dev/null 2>&1
      ls -a | grep tmp- | sed "s/$$/ALIVE/"
      """, binary: try builtBinary().path)
    let left = outcome.stdout.split(separator: "\n").map(String.init)
    #expect(left.contains(".out.json.tmp-ALIVE-abcdef"), "\(left)")
    #expect(left.contains { $0.hasPrefix(".other.json.tmp-") }, "another output's files are not touched: \(left)")
    #expect(left.count == 2, "\(left)")
  }
}
