@_spi(ByteWriters) import SplitBillBytes
import SplitBillModel
import SplitBillText
import Testing

@_spi(ByteWriters) @testable import SplitBillCore
@_spi(ByteWriters) @testable import SplitBillReports

/// The writers escape and lay out text on its bytes; each is held to the text rule it stands for.
@Suite struct ReportByteWriterTests {
  /// Pieces that every escape treats differently: ASCII punctuation, C0 and C1 controls, DEL,
  /// bidi marks and isolates (and their neighbours, which stay), combining marks, wide
  /// characters, spaces and tabs at either end.
  static let pieces = [
    "Ana", " ", "\t", "\n", "\r", ",", ";", ":", "\"", "\\", "'", "&", "<", ">", "=", "+", "-", "@", "*", "|",
    "\u{1}", "\u{1B}[2J", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "\u{202A}", "\u{202E}", "\u{202F}",
    "\u{2029}", "\u{2066}", "\u{2069}", "\u{206A}", "e\u{301}", "\u{301}", "é", "東京", "🍕", "×",
  ]

  static func randomText(_ random: inout SplitMix64) -> String {
    (0..<Int(random.next() % 7)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
  }

  static func bytes(_ room: Int, _ body: (inout ByteCursor) -> Void) -> String {
    var out: [UInt8] = []
    out.append(atMost: room, body)
    return String(decoding: out, as: UTF8.self)
  }

  @Test func byteEscapesMatchTheTextRules() {
    var random = SplitMix64(seed: 14)
    for _ in 0..<3_000 {
      let text = Self.randomText(&random)
      let room = 6 * text.utf8.count + 3
      #expect(MarkdownReportWriter<StringSink>.escape(text) == Self.markdown(text))
      #expect(HTMLReportWriter<StringSink>.escape(text) == Self.html(text))
      #expect(
        Self.bytes(room) { CSVReportWriter<StringSink>.writeCell(text, to: &$0) }
          == CSVReportWriter<StringSink>.cell(text))
      #expect(TextBytes.hasControlOrBidi(text) == text.unicodeScalars.contains(where: \.isControlOrBidiOverride))
      var visible: [UInt8] = []
      TextBytes.forEachVisible(text) { visible.append($0) }
      #expect(
        String(decoding: visible, as: UTF8.self)
          == String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.isASCII || !$0.isControlOrBidiOverride })))
      #expect(TerminalText.sanitize(text) == Self.sanitized(text))
      #expect(JournalSyntax.oneLine(text) == Self.oneLine(text))
      #expect(JournalSyntax.isPlainLink(text) == (JournalSyntax.beancountLink(text) == text))
    }
  }

  /// What the Markdown writer promises, scalar by scalar: line breaks and tabs made spaces,
  /// other controls and bidi marks dropped, GitHub Flavored Markdown's active ASCII characters
  /// backslash-escaped.
  static func markdown(_ text: String) -> String {
    text.unicodeScalars.map { scalar in
      if scalar == "\n" || scalar == "\r" || scalar == "\t" { return " " }
      if scalar.isControlOrBidiOverride { return "" }
      return "\\`*_[]<>&|~$@".unicodeScalars.contains(scalar) ? "\\" + String(scalar) : String(scalar)
    }.joined()
  }

  /// What the HTML writer promises, scalar by scalar: the five characters HTML gives a meaning
  /// as entities, line breaks and tabs kept, other controls and bidi marks dropped.
  static func html(_ text: String) -> String {
    let entities: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]
    return text.unicodeScalars.map { scalar in
      if let entity = entities[scalar] { return entity }
      if scalar != "\n" && scalar != "\t" && scalar.isControlOrBidiOverride { return "" }
      return String(scalar)
    }.joined()
  }

  /// What `TerminalText.sanitize` promises, scalar by scalar.
  static func sanitized(_ text: String) -> String {
    text.unicodeScalars.map { scalar in
      scalar.isControlOrBidiOverride ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : String(scalar)
    }.joined()
  }

  /// What `JournalSyntax.oneLine` promises: controls and bidi marks made spaces, then spaces and
  /// tabs trimmed (characters: a space that carries a combining mark stays).
  static func oneLine(_ text: String) -> String {
    var out = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.isControlOrBidiOverride ? " " : $0 }))
    while out.first == " " || out.first == "\t" { out.removeFirst() }
    while out.last == " " || out.last == "\t" { out.removeLast() }
    return out
  }

  /// The text report lays out each bill's shares as a `TextTable` would: names of any width,
  /// weights or none, amounts right-aligned, absorbed marks.
  @Test func textReportSharesAreLaidOutAsATable() throws {
    var random = SplitMix64(seed: 15)
    var ledger = LeftoverLedger()
    let names = ["Ana", "李雷", "e\u{301}mile", "Bo", "🍕 fan", "x\u{1B}y", String(repeating: "w", count: 30)]
    let currencies = [Currency(unchecked: "EUR", exponent: 2), Currency(unchecked: "JPY", exponent: 0)]
    for index in 0..<300 {
      let count = 1 + Int(random.next() % 5)
      var used: Set<String> = []
      var diners: [Diner] = []
      for _ in 0..<count {
        let name = names[Int(random.next() % UInt64(names.count))]
        if used.insert(name).inserted {
          let weight = random.next() % 3 == 0 ? Weight(tenThousandths: Int64(5_000 * (1 + random.next() % 5))) : .one
          diners.append(Diner(name: name, weight: weight))
        }
      }
      let currency = currencies[index % 2]
      let terms = BillTerms(
        amount: Money(minorUnits: Int64(random.next() % 1_000_000), currency: currency),
        tip: .percent(Percent(tenThousandths: Int64(random.next() % 300_000))), diners: .named(diners),
        payer: index % 3 == 0 ? nil : diners[0].name, leftover: .balanced)
      let bill = Bill(
        id: "b\(index)", source: SourceLocation(file: "t.yaml", line: index + 1, column: 3),
        date: CalendarDate(year: 2026, month: 11, day: 1 + index % 28), description: nil, terms: terms,
        tipSource: .default)
      let reported = ReportedBill(bill: bill, split: try terms.split(ledger: &ledger), advice: nil)
      for color in [false, true] {
        let sink = CollectingSink()
        var writer = TextReportWriter(sink: sink, color: color)
        writer.write(reported)
        // The bills come out at the end, after who pays whom (none here: nobody in the summary).
        writer.finish(ReportSummary(people: [], totals: [], settlements: [], invalid: []))
        let lines = sink.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
        #expect(Array(lines.prefix(reported.split.shares.count)).map(String.init) == Self.table(reported, color: color))
      }
    }
  }

  /// The shares as `TextTable` lays them out.
  static func table(_ reported: ReportedBill, color: Bool) -> [String] {
    let split = reported.split
    var table = TextTable(alignments: [.left, .left, .right, .left])
    let weighted = split.shares.contains { $0.weight != .one }
    for share in split.shares {
      var mark = ""
      if share.absorbed > 0 {
        mark = "◀ +" + Money(minorUnits: Int64(share.absorbed), currency: split.currency).groupedString + " absorbed"
        if color { mark = "\u{1B}[33m" + mark + "\u{1B}[0m" }
      }
      table.rows.append([
        TerminalText.sanitize(share.person), weighted ? "×\(share.weight)" : "", share.amount.groupedString, mark,
      ])
    }
    return table.lines(indent: "    ", trimmed: true)
  }
}

/// A sink the test keeps hold of while a writer writes to it.
final class CollectingSink: OutputSink {
  var text = ""
  func write(_ text: String) { self.text += text }
}
