import SplitBill
import Testing

/// The checking example of docs/library.md, compiled against `import SplitBill` alone.
@Suite struct CheckerExampleTests {
  /// The package's own invalid samples: every problem located, with its stable code.
  @Test func aProgramChecksBillFiles() throws {
    let samples = String(#filePath.dropLast("Tests/SplitBillLibraryTests/CheckerExampleTests.swift".count))
    let outcome = Checker.run([samples + "samples/invalid"], options: ReadingOptions())
    #expect(outcome.status == .checked)
    #expect(outcome.errors > 0)
    #expect(outcome.problems.count >= outcome.errors)
    let located = outcome.problems.filter { $0.line != nil }
    #expect(!located.isEmpty)
    #expect(located.allSatisfy { $0.file?.hasPrefix(samples + "samples/invalid/") == true && !$0.code.isEmpty })
    // The valid samples: no error, and bills read.
    let valid = Checker.run([samples + "samples/trip.yaml"], options: ReadingOptions(currency: nil))
    #expect(valid.status == .checked)
    #expect(valid.errors == 0 && valid.bills > 0)
  }

  /// Awaited from `async` code (the reading on a thread of its own, not the cooperative pool's),
  /// listed as `check` lists them, as GitHub annotations and as JSON.
  @Test func aProgramAwaitsTheCheckAndListsTheProblems() async throws {
    let samples = String(#filePath.dropLast("Tests/SplitBillLibraryTests/CheckerExampleTests.swift".count))
    let outcome = await Checker.run([samples + "samples/invalid"], options: ReadingOptions())
    #expect(outcome.errors > 0)
    let listing = outcome.listing()
    let first = try #require(outcome.problems.first { $0.line != nil && $0.file != nil })
    #expect(listing.contains("\(first.file ?? ""):\(first.line ?? 0):"))
    #expect(listing.contains("^"))
    #expect(!listing.contains("\u{1B}["), "no colour unless asked")
    #expect(outcome.listing(color: true).contains("\u{1B}["))
    #expect(outcome.annotations().split(separator: "\n").count == outcome.problems.count)
    #expect(outcome.annotations().hasPrefix("::"))
    let json = outcome.json()
    #expect(json.contains("\"errors\": \(outcome.errors)") || json.contains("\"errors\":\(outcome.errors)"))
  }

  /// An input that cannot be read is no pass: the status says so, and the problem names it.
  @Test func anUnreadableInputIsAStatus() throws {
    let samples = String(#filePath.dropLast("CheckerExampleTests.swift".count))
    let none = Checker.run([samples + "NoSuchDirectory.yaml"], options: ReadingOptions())
    #expect(none.status == .unreadable)
    #expect(none.problems.first?.code == "file.unreadable")
  }
}
