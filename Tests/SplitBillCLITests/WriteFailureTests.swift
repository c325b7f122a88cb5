import Foundation
import Testing

/// Runs that cannot write what they produce: a full disk (`/dev/full`) and a file-size limit
/// (`prlimit --fsize`, which makes every write past the limit fail with EFBIG). A failed write is
/// never a success, and the checks that spill to temporary files lose nothing.
@Suite(.serialized) struct WriteFailureTests {
  /// A CSV trip of `count` bills with ids `b1`…; the first `repeated` ids are used again at the end.
  static func trip(count: Int, repeated: Int = 0) -> Data {
    var text = "id,amount,currency,tip,diners,paid_by,notes\n"
    for number in 1...count {
      text += "b\(number),\(10 + number % 90).\(number % 100 < 10 ? "0" : "")\(number % 100),USD,15,Ana;Ben;Chloé,Ana,"
      text += "a note long enough to make the spools and partitions grow quickly \(number)\n"
    }
    for number in 1...max(repeated, 1) where repeated > 0 { text += "b\(number),5.00,USD,10,Ana;Ben,Ben,\n" }
    return Data(text.utf8)
  }

  static func write(_ data: Data, named name: String) throws -> (directory: URL, path: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("splitbill-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    try data.write(to: URL(fileURLWithPath: path))
    return (directory, path)
  }

  /// Runs `splitbill` through `sh -c`, so that the script can redirect and limit it.
  static func shell(_ script: String, binary: String) throws -> Outcome {
    try runProcess("sh", ["-c", script, "sh", binary])
  }

  @Test(arguments: [
    ["report", "samples/trip.yaml"], ["report", "--format", "json", "samples/trip.yaml"],
    ["check", "samples/trip.yaml"],
    ["calc", "84.50", "--tip", "18", "--split", "3"], ["schema"], ["--help"],
  ])
  func aFullStandardOutputIsAnIOError(arguments: [String]) throws {
    let binary = try builtBinary().path
    let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
    let outcome = try Self.shell("\"$1\" \(quoted) > /dev/full", binary: binary)
    #expect(outcome.code == 74, "\(arguments): \(outcome.stderr)")
    #expect(outcome.stderr.contains("cannot write standard output: No space left on device"))
  }

  @Test(
    .enabled(if: needing(toolExists("prlimit")), "needs prlimit (util-linux)"),
    .disabled(if: underThreadSanitizer, "ThreadSanitizer's runtime dies of SIGBUS under a small RLIMIT_FSIZE"))
  func aSpoolPastTheFileSizeLimitFailsTheRunInsteadOfTruncatingIt() throws {
    let binary = try builtBinary().path
    let (directory, path) = try Self.write(Self.trip(count: 3_000), named: "trip.csv")
    defer { try? FileManager.default.removeItem(at: directory) }
    // Standard output is a pipe (no limit); the spools behind the Markdown report are files.
    let limited = try Self.shell(
      "prlimit --fsize=65536 -- \"$1\" report --format markdown '\(path)' | wc -c", binary: binary)
    let whole = try Self.shell("\"$1\" report --format markdown '\(path)' | wc -c", binary: binary)
    #expect(Int(whole.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 65_536)
    let sizeUnderLimit = Int(limited.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    // Nothing, or at least not a truncated report passed off as whole: the run failed loudly.
    #expect(sizeUnderLimit == 0, "printed \(sizeUnderLimit) bytes")
    let status = try Self.shell(
      "prlimit --fsize=65536 -- \"$1\" report --format markdown '\(path)' > /dev/null; echo $?", binary: binary)
    #expect(status.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "74")
    // The message sends the user to the disk that failed: the spool's, not standard output's.
    #expect(status.stderr.contains("File too large (writing a temporary file in "), "\(status.stderr)")
  }

  @Test(
    .enabled(if: needing(toolExists("prlimit")), "needs prlimit (util-linux)"),
    .disabled(if: underThreadSanitizer, "ThreadSanitizer's runtime dies of SIGBUS under a small RLIMIT_FSIZE"))
  func aSecondOutputPastTheLimitLeavesTheFirstAsItWas() throws {
    let binary = try builtBinary().path
    let (directory, path) = try Self.write(Self.trip(count: 3_000), named: "trip.csv")
    defer { try? FileManager.default.removeItem(at: directory) }
    let small = directory.appendingPathComponent("report.md").path
    let large = directory.appendingPathComponent("report.json").path
    // Sized first, without a limit: a limit between the two sizes lets the first through only.
    _ = try Self.shell("\"$1\" report -o '\(small)' -o '\(large)' '\(path)'", binary: binary)
    let sizes = try [small, large].map { try #require(FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) }
    #expect(sizes[0] * 2 < sizes[1])
    for output in [small, large] { try Data("last week's report\n".utf8).write(to: URL(fileURLWithPath: output)) }
    let outcome = try Self.shell(
      "prlimit --fsize=\((sizes[0] + sizes[1]) / 2) -- \"$1\" report -o '\(small)' -o '\(large)' '\(path)'",
      binary: binary)
    #expect(outcome.code == 73, "\(outcome.stderr)")
    for output in [small, large] {
      #expect(try String(contentsOfFile: output, encoding: .utf8) == "last week's report\n", "\(output)")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp") }
    #expect(left.isEmpty, "temporary files left: \(left)")
  }

  @Test(
    .enabled(if: needing(toolExists("prlimit")), "needs prlimit (util-linux)"),
    .disabled(if: underThreadSanitizer, "ThreadSanitizer's runtime dies of SIGBUS under a small RLIMIT_FSIZE"))
  func anOutputFilePastTheLimitIsNotCommitted() throws {
    let binary = try builtBinary().path
    let (directory, path) = try Self.write(Self.trip(count: 3_000), named: "trip.csv")
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("report.md").path
    try Data("last week's report\n".utf8).write(to: URL(fileURLWithPath: output))
    let outcome = try Self.shell(
      "prlimit --fsize=65536 -- \"$1\" report --format markdown -o '\(output)' '\(path)'", binary: binary)
    #expect(outcome.code == 73, "\(outcome.stderr)")
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "last week's report\n")
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp") }
    #expect(left.isEmpty, "temporary files left: \(left)")
  }

  /// The repeat finder spills ids to temporary files; when the disk fills in the middle of a
  /// write it keeps every entry in memory instead (it dropped the part a short write had put in
  /// the file: 4 of 60 repeats were found).
  @Test(
    .enabled(if: needing(toolExists("prlimit")), "needs prlimit (util-linux)"),
    .disabled(if: underThreadSanitizer, "ThreadSanitizer's runtime dies of SIGBUS under a small RLIMIT_FSIZE"))
  func repeatedIDsAreAllFoundWhenTheSpillFilesHitTheLimit() throws {
    let binary = try builtBinary().path
    let (directory, path) = try Self.write(Self.trip(count: 8_000, repeated: 60), named: "trip.csv")
    defer { try? FileManager.default.removeItem(at: directory) }
    for limit in [12_000, 20_000, 30_000] {
      let outcome = try Self.shell("prlimit --fsize=\(limit) -- \"$1\" check '\(path)'", binary: binary)
      let duplicates = outcome.stdout.components(separatedBy: "error: duplicate bill id").count - 1
      #expect(duplicates == 60, "limit \(limit): \(duplicates) of 60 repeats found")
      #expect(outcome.code == 1)
    }
  }
}

/// Whether the tests run on a ThreadSanitizer build (`.ci/run` sets `SPLITBILL_SANITIZER`).
let underThreadSanitizer = ProcessInfo.processInfo.environment["SPLITBILL_SANITIZER"] == "thread"
/// Whether the tests run under AddressSanitizer (.ci/run's second run).
let underAddressSanitizer = ProcessInfo.processInfo.environment["SPLITBILL_SANITIZER"] == "address"
/// Whether the tests run under either sanitizer: the built binary is several times slower there.
let underSanitizer = ProcessInfo.processInfo.environment["SPLITBILL_SANITIZER"] != nil
