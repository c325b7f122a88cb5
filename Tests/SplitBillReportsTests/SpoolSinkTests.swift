import Foundation
import SplitBillCore
import SplitBillFiles
import Testing

@testable import SplitBillReports

@Suite struct SpoolSinkTests {
  /// The files this process has open whose path starts with `prefix` (unlinked ones end in "(deleted)").
  static func openFiles(startingWith prefix: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { descriptor in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"))
    }.filter { $0.hasPrefix(prefix) }
  }

  @Test func tmpdirIsWhereSpoolsGo() {
    #expect(TemporaryFile.directory(tmpdir: "/var/spool/x") == "/var/spool/x")
    #expect(TemporaryFile.directory(tmpdir: "") == "/tmp")
    #expect(TemporaryFile.directory(tmpdir: nil) == "/tmp")
  }

  @Test func theSpoolIsAnUnlinkedFileInItsDirectoryAndGivesBackEverything() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let spool = SpoolSink(directory: directory.path)
    // Past one buffer, with multi-byte characters across its edges.
    let lines = (0..<5_000).map { "bill \($0): Chloé pays 12,34 €\n" }
    for line in lines { spool.write(line) }
    let open = try Self.openFiles(startingWith: directory.path + "/splitbill-spool-")
    #expect(open.count == 1 && open.allSatisfy { $0.hasSuffix("(deleted)") }, "\(open)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    var copy = StringSink()
    spool.copy(to: &copy)
    #expect(copy.text == lines.joined())
  }

  @Test func withoutADirectoryTheSpoolKeepsItsTextInMemory() {
    let spool = SpoolSink(directory: "/nonexistent/splitbill")
    spool.write("all of it\n")
    var copy = StringSink()
    spool.copy(to: &copy)
    #expect(copy.text == "all of it\n")
  }
}

/// Date order for journals: transactions spooled by date come out in date order, and in input
/// order on one date, whether they fit in the buffers or not.
@Suite(
  .disabled(
    if: ProcessInfo.processInfo.environment["SPLITBILL_SANITIZER"] == "thread",
    "single-threaded; the plain and AddressSanitizer runs check it"))
struct DatedSpoolTests {
  /// `ordered` transactions in date order come first (a file of bills), then `count` in any.
  @Test(arguments: [(0, 0, 1), (0, 1, 40), (5, 3, 40), (0, 4_000, 40), (3_000, 30_000, 365), (2_000, 0, 30)])
  func transactionsComeOutInDateOrderAndStably(ordered: Int, count: Int, days: Int) {
    let spool = JournalBody()
    var written: [(date: Int, number: Int)] = []
    var state: UInt64 = 7
    for number in 0..<(ordered + count) {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let day = number < ordered ? number * days / max(ordered, 1) : Int(state >> 40) % days
      let date = CalendarDate(year: 2026, month: 1, day: 1)!.adding(days: day)
      // Now and then a transaction longer than a piece.
      let note = number % 997 == 5 ? String(repeating: "x", count: DatedSpool.pieceSize + 10) : "n"
      spool.append(on: date) { bytes in
        bytes.append(contentsOf: "; comment \(number)\n\(date) * t  ; note:\(note)\n".utf8)
      }
      spool.appendToLast { bytes in bytes.append(contentsOf: "    a  1\n    b  -1\n\n".utf8) }
      written.append((date.year * 10_000 + date.month * 100 + date.day, number))
    }
    var out: any OutputSink = StringSink()
    spool.copy(to: &out)
    let text = (out as? StringSink)?.text ?? ""
    let numbers = text.split(separator: "\n").filter { $0.hasPrefix("; comment ") }.map { Int($0.dropFirst(10)) ?? -1 }
    let expected = written.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
      .map(\.element.number)
    #expect(numbers == expected)
  }
}
