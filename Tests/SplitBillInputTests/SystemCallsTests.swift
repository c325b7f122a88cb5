import Foundation
import Testing

@testable import SplitBillFiles
@testable import SplitBillModel

#if canImport(Glibc)
  import Glibc
#endif

/// The system calls the modules above use through SplitBillFiles, as safe functions.
@Suite struct SystemCallsTests {
  @Test func tellsADirectoryFromAFileAndNothing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("bills.yaml").path
    try Data("bills: []\n".utf8).write(to: URL(fileURLWithPath: file))
    #expect(SystemCalls.kind(of: directory.path) == .directory)
    #expect(SystemCalls.kind(of: file) == .other)
    #expect(SystemCalls.kind(of: file + ".missing") == nil)
    #expect(SystemCalls.kind(of: "/dev/null") == .other)
  }

  @Test func aFilesStatusIsItsOwnWhicheverPathNamesIt() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("bills.yaml").path
    try Data("bills: []\n".utf8).write(to: URL(fileURLWithPath: file))
    #expect(chmod(file, 0o640) == 0)
    let link = directory.appendingPathComponent("link.yaml").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
    let status = try SystemCalls.status(of: file).get()
    #expect(status.size == 10 && status.permissions == 0o640 && status.isRegularFile && !status.isDirectory)
    #expect(try SystemCalls.status(of: link).get() == status)
    #expect(try SystemCalls.permissions(of: link).get() == 0o640)
    #expect(try SystemCalls.status(of: directory.path).get().isDirectory)
    #expect(try !SystemCalls.status(of: "/dev/null").get().isRegularFile)
    #expect(throws: SystemCalls.ErrorNumber(code: ENOENT)) { try SystemCalls.status(of: file + ".missing").get() }
  }

  @Test func writesAtomicallyAndLeavesNothingBehindOnFailure() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let target = directory.appendingPathComponent("cache.json").path
    #expect(SystemCalls.writeAtomically(Array("old".utf8), to: target) == nil)
    #expect(SystemCalls.writeAtomically(Array("new".utf8), to: target) == nil)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["cache.json"])
    // Renaming over a directory fails: the reason names the target, and no new file is left.
    let blocked = directory.appendingPathComponent("blocked").path
    try FileManager.default.createDirectory(atPath: blocked + "/inside", withIntermediateDirectories: true)
    let reason = try #require(SystemCalls.writeAtomically(Array("x".utf8), to: blocked))
    #expect(reason.hasPrefix("'\(blocked)': "))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["blocked", "cache.json"])
  }

  @Test func writesEveryByteOrSaysWhyNot() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let bytes = (0..<50_000).map { UInt8(truncatingIfNeeded: $0) }
    let readEnd = ends[0]
    let received = Locked<[UInt8]?>(nil)
    let reader = Thread {
      var got: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        got += chunk[0..<count]
      }
      close(readEnd)
      received.withLock { $0 = got }
    }
    reader.start()
    #expect(SystemCalls.write(bytes, to: ends[1]) == nil)
    close(ends[1])
    while received.withLock({ $0 == nil }) { usleep(1000) }
    #expect(received.withLock { $0 } == bytes)
    #expect(SystemCalls.write([1], to: -1) == EBADF)
    #expect(SystemCalls.errorText(EBADF) == "Bad file descriptor")
  }
}

/// The temporary files a killed run left behind, found among many files.
@Suite struct StaleTemporaryFileTests {
  /// Thousands of entries fill the buffer `readdir` reads them into, so entries sit at its very
  /// end: a name must be read where it is (a `dirent` is only as long as its name), not copied
  /// out as a whole `struct dirent`, which read past the buffer and crashed 6 of 400 scans
  /// writing their bills into /tmp (a segmentation fault in `removeStale`; AddressSanitizer
  /// calls it a heap buffer overflow).
  @Test func staleFilesAreRemovedAmongThousandsAndTheRestKept() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for index in 0..<3_000 {
      let name = "receipt-\(index)-" + String(repeating: "x", count: index % 40)
      #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil))
    }
    // A process id no process has (above Linux's largest), and this process's own.
    let stale = ".trip.yaml.tmp-99999999-abc123"
    let live = PendingFiles.prefix(of: "trip.yaml") + "def456"
    for name in [stale, live] {
      #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil))
    }
    PendingFiles.removeStale(of: "trip.yaml", in: directory.path)
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
    #expect(!left.contains(stale))
    #expect(left.contains(live))
    #expect(left.count == 3_001)
  }
}
