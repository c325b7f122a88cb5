import Foundation
import Testing

/// The guide's flat story (docs/guide.md, "Everyday books for a shared flat"), run as written:
/// each `$` line through `sh` with the built binary as `splitbill`, in an empty directory, and
/// every output line the guide shows after it printed, in order.
struct FlatStoryTests {
  @Test func theGuidesFlatStoryRunsAsShown() throws {
    let guide = try String(contentsOf: packageRoot.appendingPathComponent("docs/guide.md"), encoding: .utf8)
    let start = try #require(guide.range(of: "### Everyday books for a shared flat"))
    let rest = guide[start.upperBound...]
    let section = String(rest[..<(rest.range(of: "\n### ")?.lowerBound ?? rest.endIndex)])
    let block = try #require(WeeklyStoryTests.blocks("console", in: section).first)
    // The commands and what each shows.
    var steps: [(command: String, shown: [String])] = []
    #expect(block.first == "$ mkdir ~/flat && cd ~/flat")
    for line in block.dropFirst() {
      if line.hasPrefix("$ ") {
        steps.append((String(line.dropFirst(2)), []))
      } else if line != "…" {
        steps[steps.count - 1].shown.append(line)
      }
    }
    #expect(steps.count == 8)
    #expect(steps.filter { $0.command.hasPrefix("splitbill add") }.count == 4)

    let directory = try scratchDirectory()
    let bin = directory.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: bin.appendingPathComponent("splitbill"), withDestinationURL: try builtBinary())
    let work = directory.appendingPathComponent("flat")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    for (command, shown) in steps {
      let outcome = try runProcess(
        "sh", ["-c", command + " 2>&1"], environment: ["PATH": bin.path + ":/usr/bin:/bin"], directory: work)
      let printed = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      var position = 0
      for line in shown {
        guard let found = printed[position...].firstIndex(of: line) else {
          Issue.record("'\(command)' did not print (in order): '\(line)'\n\(outcome.stdout)")
          break
        }
        position = found + 1
      }
      // The refused bill exits 1; everything else succeeds.
      #expect(outcome.code == (command.contains("Jonsa") ? 1 : 0), "\(command)\n\(outcome.stdout)")
    }
    // The file still checks, the refused bill is not in it, and the rent comes every month.
    let file = work.appendingPathComponent("flat.yaml").path
    #expect(try runBinary(["check", file]).code == 0)
    #expect(try !String(contentsOfFile: file, encoding: .utf8).contains("Jonsa"))
    let year = try runBinary(["report", file, "--format", "json"])
    let object = try JSONSerialization.jsonObject(with: Data(year.stdout.utf8)) as? [String: Any]
    let ids = (object?["bills"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    #expect(ids.filter { $0.hasPrefix("rent#") }.count == 12)
    #expect(ids.last == "groceries-2026-12-02")
  }
}
