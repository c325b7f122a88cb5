import Foundation
import SplitBillInput
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
