import Dispatch
import Testing

@testable import SplitBillModel

@Suite struct SourceLocationTests {
  /// A location keeps the path it was given, and equal paths are one file, wherever they came from.
  @Test func pathsSurviveInterning() {
    let paths = ["trip.yaml", "dir/\"q\".csv", "", "-", "a/very/long/path/beyond/fifteen/bytes/é.yaml"]
    for path in paths {
      let location = SourceLocation(file: path, line: 3, column: 7)
      #expect(location.file == path)
      #expect(location.description == "\(path):3:7")
      // Built from a copy with storage of its own: still the same file.
      let copy = String(decoding: Array(path.utf8), as: UTF8.self)
      #expect(SourceFile(copy) == location.sourceFile)
      #expect(SourceLocation(in: SourceFile(copy), line: 3, column: 7) == location)
    }
    #expect(SourceFile("trip.yaml") != SourceFile("trip.yml"))
    var moved = SourceLocation(file: "a.csv", line: 1, column: 1)
    moved.file = "b.csv"
    #expect(moved.file == "b.csv")
    #expect(moved.sourceFile == SourceFile("b.csv"))
  }

  /// Locations order by path, then line, then column, whatever order the paths were first seen in.
  @Test func orderIsByPathNotByNumber() {
    let later = SourceLocation(file: "zz-order.yaml", line: 1, column: 1)
    let earlier = SourceLocation(file: "aa-order.yaml", line: 9, column: 9)
    #expect(earlier < later)
    #expect(SourceLocation(file: "aa-order.yaml", line: 9, column: 8) < earlier)
  }

  /// Threads interning the same paths at once agree on every number.
  @Test func concurrentInterningAgrees() {
    let paths = (0..<200).map { "concurrent/\($0).csv" }
    // Locked (an NSLock), not Synchronization.Mutex: ThreadSanitizer does not follow the latter's
    // futex on Linux and reported the results' array as raced (CI, once in three runs).
    let results = Locked([[SourceFile]](repeating: [], count: 4))
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      let order = worker.isMultiple(of: 2) ? paths : paths.reversed()
      var files = order.map { SourceFile($0) }
      if !worker.isMultiple(of: 2) { files.reverse() }
      results.withLock { $0[worker] = files }
    }
    let all = results.withLock { $0 }
    for files in all { #expect(files == all[0]) }
    #expect(Set(all[0]).count == paths.count)
    #expect(all[0].map(\.path) == paths)
  }
}
