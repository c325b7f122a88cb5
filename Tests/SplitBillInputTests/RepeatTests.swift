import Foundation
@_spi(ByteWriters) import SplitBillBytes
import SplitBillCore
import Testing

@testable import SplitBillFiles
@testable import SplitBillInput
@testable import SplitBillModel

/// Repeated ids and receipts are found exactly, in bounded memory, and reported in reading order.
@Suite struct RepeatTests {
  func entry(_ ordinal: Int) -> SplitBillModel.SourceLocation {
    SplitBillModel.SourceLocation(file: "repeats.csv", line: ordinal, column: 3)
  }

  /// Where the finder may put its files: a fresh directory, or one that does not exist (all in memory).
  enum Place: CaseIterable { case temporaryFiles, memoryOnly }

  @Test(arguments: Place.allCases)
  func findsEveryRepeatExactlyAcrossSpilledPartitions(place: Place) throws {
    // 60,000 keys fill every partition's buffer several times over, so most entries come back
    // from the temporary files. Every 997th key repeats key ordinal - 500 (a different partition's
    // neighbour, the same text).
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let finder = RepeatFinder(
      directory: place == .temporaryFiles ? directory.path : directory.appendingPathComponent("missing").path)
    var expected: [(ordinal: Int, first: Int)] = []
    for ordinal in 1...60_000 {
      if ordinal % 997 == 0 {
        finder.add(key: "key-\(ordinal - 500)", id: "bill-\(ordinal)", ordinal: ordinal, location: entry(ordinal))
        expected.append((ordinal, ordinal - 500))
      } else {
        finder.add(key: "key-\(ordinal)", id: "bill-\(ordinal)", ordinal: ordinal, location: entry(ordinal))
      }
    }
    let found = finder.repeats()
    #expect(found.map(\.entry.ordinal) == expected.map(\.ordinal))
    #expect(found.map(\.first.ordinal) == expected.map(\.first))
    #expect(found.allSatisfy { $0.entry.key == $0.first.key && $0.first.id == "bill-\($0.first.ordinal)" })
    #expect(found.allSatisfy { Int($0.first.location.line) == $0.first.ordinal })
    // The files were unlinked as soon as they were made: nothing is left to clean up.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test(
    arguments: [
      ("2026-11-20", 8450, "EUR", "Ana"), ("0987-01-02", 7, "KWD", "Émile"), ("2027-02-28", 12_345, "JPY", nil),
    ] as [(String, Int64, String, String?)])
  func receiptKeysReadAsDateAmountAndPayer(date: String, units: Int64, code: String, payer: String?) throws {
    let date = try #require(CalendarDate(iso: date))
    let amount = Money(minorUnits: units, currency: try Currency(code: code))
    var key: [UInt8] = Array("kept|".utf8)
    BillStream.appendReceiptKey(date, amount, payer, to: &key)
    #expect(String(decoding: key, as: UTF8.self) == "kept|\(date)|\(amount)|\(payer ?? "")")
  }

  /// Ids that are the same text spelt differently (precomposed or not, the Kelvin sign for K)
  /// repeat; ids that only look alike do not.
  @Test func idFingerprintsRememberEveryIDPastTheirRoom() {
    // Room for 100: the 5,000 ids fill a table, then tables twice as large, and none is forgotten.
    var fingerprints = IDFingerprints(room: 100)
    var random = SplitMix64(seed: 29)
    let hashes = (0..<5_000).map { _ in random.next() }
    var takenForEarlier = 0
    for hash in hashes where fingerprints.insert(hash) { takenForEarlier += 1 }
    #expect(takenForEarlier == 0)
    #expect(fingerprints.count == 5_000)
    var forgotten = 0
    for hash in hashes where !fingerprints.contains(hash) || !fingerprints.insert(hash) { forgotten += 1 }
    #expect(forgotten == 0)
    #expect(fingerprints.count == 5_000)
    // A hash is told apart by its slot as well as by the high half kept there: one with the same
    // high half is taken for it only when it starts at the same slot (the guess a second reading
    // mends).
    var table = IDFingerprints(room: 1_000)
    let high: UInt64 = 0xABCD_0123 << 32
    let wasThere = table.insert(high | 5)
    #expect(!wasThere)
    #expect(!table.contains(high | 700))
    #expect(table.contains(high | (5 + 2_048)))
  }

  @Test func canonicallyEquivalentIdsRepeat() {
    let finder = RepeatFinder()
    let ids = ["Caf\u{E9}-1", "Cafe\u{301}-1", "K1", "\u{212A}1", "k1", "Cafe-1"]
    for (index, id) in ids.enumerated() {
      finder.add(key: id, id: nil, ordinal: index + 1, location: entry(index + 1))
    }
    #expect(finder.repeats().map { [$0.entry.ordinal, $0.first.ordinal] } == [[2, 1], [4, 3]])
  }

  @Test func theFirstWinsAndSkippedEntriesCountForNothing() {
    let finder = RepeatFinder()
    for (ordinal, key) in [(1, "a"), (2, "b"), (3, "a"), (4, "a"), (5, "b")] {
      finder.add(key: key, id: nil, ordinal: ordinal, location: entry(ordinal))
    }
    #expect(finder.repeats().map { [$0.entry.ordinal, $0.first.ordinal] } == [[3, 1], [4, 1], [5, 2]])
    // Without bill 1, bill 3 is the first 'a'.
    #expect(finder.repeats(skipping: [1]).map { [$0.entry.ordinal, $0.first.ordinal] } == [[4, 3], [5, 2]])
    // An id entry's id is its key.
    #expect(finder.repeats().first?.entry.id == "a")
  }

  @Test func repeatsAreReportedWhereTheReadingMetThem() throws {
    let result = try read(
      """
      bills:
        - {id: a, date: 2026-05-01, amount: 10.00, tip: 0, diners: [Ana, Ben], paid_by: Ana}
        - {id: b, amount: oops, tip: 0, diners: 2}
        - {id: a, date: 2026-05-02, amount: 11.00, tip: 0, diners: 2}
        - {id: c, date: 2026-05-01, amount: 10.00, tip: 0, diners: [Ana, Ben], paid_by: Ana}
        - {id: d, tip: 0, diners: 2}
      """)
    #expect(
      result.lines == [
        "3:21: error: amount 'oops' is not a number: expected digits with at most 2 decimals, such as 1234.50",
        "4:5: error: duplicate bill id 'a': also used at bills.yaml:2:5",
        "5:5: warning: probable duplicate receipt: 'c' has the same date, amount, currency, payer and people as 'a' (bills.yaml:2:5)",
        "6:5: error: missing required key 'amount' (the bill before tip)",
      ])
    #expect(result.bills.map(\.id) == ["a", "c"])
    #expect(result.invalid.map(\.id) == ["b", "a", "d"])
  }

  @Test func aRepeatedIDsReceiptIsNotCompared() throws {
    // The second 'a' is invalid, so the third bill's receipt matches only the first bill's.
    let result = try read(
      """
      bills:
        - {id: a, date: 2026-05-01, amount: 10.00, tip: 0, diners: 2}
        - {id: a, date: 2026-05-03, amount: 12.00, tip: 0, diners: 2}
        - {id: b, date: 2026-05-03, amount: 12.00, tip: 0, diners: 2}
      """)
    #expect(result.lines == ["3:5: error: duplicate bill id 'a': also used at bills.yaml:2:5"])
  }
}

@Suite struct SourceLinesTests {
  /// The excerpt lines match a plain split of the file, whatever lines are asked for: CRLF line
  /// ends, a last line with or without its line end, lines past the end, lines longer than the
  /// 64 KiB the reader holds at once.
  @Test(arguments: [false, true])
  func fetchesTheLinesAsWritten(finalNewline: Bool) throws {
    var random = SplitMix64(seed: finalNewline ? 11 : 12)
    var lines: [String] = []
    for number in 1...400 {
      let length = number % 97 == 0 ? 70_000 : Int(random.next() % 40)
      lines.append(String(repeating: "é", count: length / 2) + "\(number)" + (number % 3 == 0 ? "\r" : ""))
    }
    let text = lines.joined(separator: "\n") + (finalNewline ? "\n" : "")
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("lines.txt").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let wanted = [1, 2, 97, 98, 194, 250, 399, 400, 401, 402] + (0..<20).map { _ in 1 + Int(random.next() % 400) }
    let fetched =
      SourceLines.fetch(
        wanted.map { SplitBillModel.SourceLocation(file: path, line: $0, column: 1) }, standardInput: nil)[path] ?? [:]
    for line in Set(wanted) where line <= 400 {
      var expected = lines[line - 1]
      if expected.hasSuffix("\r") { expected.removeLast() }
      // A line longer than the limit is kept up to it (an excerpt shows a window of it).
      if expected.utf8.count > SourceLines.lineLimit {
        expected = String(decoding: expected.utf8.prefix(SourceLines.lineLimit), as: UTF8.self)
      }
      #expect(fetched[line] == expected, "line \(line)")
    }
    // Past the end: the empty line after a final line end, nothing after that.
    #expect(fetched[401] == (finalNewline ? "" : nil))
    #expect(fetched[402] == nil)
  }
}

extension BillStream {
  /// Appends `2026-11-20|84.50 EUR|Ana`: what two receipts share when they are probably the same one.
  static func appendReceiptKey(_ date: CalendarDate, _ amount: Money, _ payer: String?, to bytes: inout [UInt8]) {
    let payer = payer ?? ""
    bytes.append(atMost: receiptKeyRoom(payer, amount)) { writeReceiptKey(date, amount, payer, to: &$0) }
  }
}
