internal import CYAML
import SplitBillCore
import SplitBillFiles
import SplitBillModel

#if canImport(Glibc)
  import Glibc
#endif

/// One libyaml parsing event, copied into Swift values.
package enum YAMLEvent: Equatable {
  case streamStart, streamEnd, documentStart, documentEnd
  case alias(anchor: String)
  /// A scalar's text; `plain` when unquoted (only plain scalars can be YAML nulls or merge keys).
  case scalar(value: String, anchor: String?, plain: Bool)
  case sequenceStart(anchor: String?)
  case sequenceEnd
  case mappingStart(anchor: String?)
  case mappingEnd

  /// Whether this is a YAML null: a plain scalar that ``isNull(_:)`` says is one.
  package var isNull: Bool {
    guard case .scalar(let text, _, true) = self else { return false }
    return Self.isNull(text.utf8)
  }

  /// The four-letter spellings of null, as bytes.
  private static let nullWords = ["null", "Null", "NULL"].map { Array($0.utf8) }

  /// Whether a plain scalar's text is a YAML null: empty, `~`, `null`, `Null` or `NULL` (YAML's
  /// core schema). The one rule for every reader of YAML here: events, nodes and flat bills.
  package static func isNull(_ text: some Collection<UInt8>) -> Bool {
    switch text.count {
    case 0: return true
    case 1: return text.first == 0x7E
    case 4: return nullWords.contains { $0.elementsEqual(text) }
    default: return false
    }
  }
}

/// A problem that stops the reading of a YAML file, and where it is.
package struct YAMLSyntaxError: Error {
  /// Where libyaml says it is.
  package enum Position {
    /// A 1-based line and column.
    case mark(line: Int, column: Int)
    /// A byte offset (libyaml's reader errors: bytes that are not text).
    case byteOffset(Int)
    /// The end of the input, or nowhere in particular.
    case unknown
  }

  package var problem: Problem
  package var position: Position
}

extension YAMLSyntaxError {
  /// Where the error is in `file` (1-based line and column, always inside it).
  package func position(in file: String, standardInput: StandardInputCopy?) -> (line: Int, column: Int) {
    var (line, column) = (1, 1)
    switch position {
    case .mark(let markLine, let markColumn):
      (line, column) = (markLine, markColumn)
      // At the end of a last line with no line break, libyaml's mark is the start of the line
      // after it, which the file does not have (found by scripts/fuzz.sh): the end instead.
      if column == 1 {
        let end = SourceLines.position(ofByteOffset: .max, in: file, standardInput: standardInput)
        if line > end.line { (line, column) = end }
      }
    case .byteOffset(let offset):
      (line, column) = SourceLines.position(ofByteOffset: offset, in: file, standardInput: standardInput)
    case .unknown: break
    }
    return (max(line, 1), max(column, 1))
  }
}

/// Pulls events one at a time from libyaml (never a document tree), with 1-based positions.
///
/// Owns the `yaml_parser_t` (at a fixed address, so each event costs no exclusivity check); reads
/// a file through a `FILE*` in libyaml's own buffer, or a copy of a byte array.
///
/// Safe to use: it owns the parser, the file and the input copy (made in `init`, released in
/// `deinit`), lends libyaml's event only for the call that reads it, and copies what it keeps.
@safe package final class YAMLEventReader {
  private let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
  private let file: UnsafeMutablePointer<FILE>?
  /// The bytes libyaml reads when there is no file; freed with the reader.
  private let input: UnsafeMutableBufferPointer<UInt8>?
  private var finished = false
  /// Room for one node's events and scalar bytes while ``capture(into:)`` takes it: raw memory,
  /// written without an array append's checks per event (a tenth of this thread's work, beside
  /// libyaml's), moved into the flat bill in one append each.
  private let capturedEvents = UnsafeMutablePointer<YAMLFlatBill.Event>.allocate(
    capacity: YAMLFlatBill.maximumEvents)
  private var capturedText = UnsafeMutablePointer<UInt8>.allocate(capacity: 4_096)
  private var capturedTextCapacity = 4_096

  /// Where the `# REVIEW` marks `scan` leaves on a bill that did not add up were met, as the
  /// bytes passed to libyaml (``ReviewMarks``): a comment libyaml's events do not show.
  private let marks = ReviewMarks()
  /// The byte offsets of every `# REVIEW` mark read so far (all of them once the stream ends).
  package var reviewMarkOffsets: [Int] { marks.offsets }

  /// Reads the file at `path`; `nil` when it cannot be opened (`errno` says why).
  package init?(path: String) {
    unsafe file = unsafe fopen(path, "rb")
    unsafe input = nil
    unsafe parser.initialize(to: yaml_parser_t())
    // On failure `deinit` still runs (every property is set): it closes the file.
    guard let file = unsafe self.file, unsafe yaml_parser_initialize(parser) == 1 else { return nil }
    unsafe marks.file = unsafe file
    // libyaml reads through this handler, which looks for review marks in each chunk as it passes.
    unsafe yaml_parser_set_input(
      parser,
      { data, buffer, size, read in
        guard let data = unsafe data, let buffer = unsafe buffer, let read = unsafe read else { return 0 }
        let marks = unsafe Unmanaged<ReviewMarks>.fromOpaque(data).takeUnretainedValue()
        guard let file = unsafe marks.file else { return 0 }
        let count = unsafe fread(buffer, 1, size, file)
        unsafe read.pointee = count
        let failed = unsafe ferror(file) != 0
        if count < size && failed { return 0 }
        unsafe marks.scan(UnsafeBufferPointer(start: buffer, count: count))
        return 1
      }, unsafe Unmanaged.passUnretained(marks).toOpaque())
  }

  /// Reads a copy of `bytes` (standard input, tests).
  package init(bytes: [UInt8]) {
    unsafe file = nil
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
    _ = unsafe copy.initialize(from: bytes)
    unsafe input = unsafe copy
    unsafe parser.initialize(to: yaml_parser_t())
    unsafe yaml_parser_initialize(parser)
    unsafe yaml_parser_set_input_string(parser, copy.baseAddress, bytes.count)
    unsafe marks.scan(UnsafeBufferPointer(copy))
  }

  deinit {
    // Safe on a parser whose initialisation failed: libyaml leaves it empty.
    unsafe yaml_parser_delete(parser)
    unsafe parser.deallocate()
    unsafe input?.deallocate()
    unsafe capturedEvents.deallocate()
    unsafe capturedText.deallocate()
    if let file = unsafe file { unsafe fclose(file) }
  }

  /// The next event and its 1-based line and column; `nil` after the stream ends.
  package func next() throws(YAMLSyntaxError) -> (YAMLEvent, line: Int, column: Int)? {
    guard !finished else { return nil }
    var event = unsafe yaml_event_t()
    guard unsafe yaml_parser_parse(parser, &event) == 1 else { throw syntaxError() }
    defer { unsafe yaml_event_delete(&event) }
    return unsafe convert(&event)
  }

  /// The next event with where it starts and ends (1-based lines and columns, in characters)
  /// and whether it opens a flow collection (`[`, `{`): the outline `add` edits a file by.
  package func nextOutlined() throws(YAMLSyntaxError) -> (
    event: YAMLEvent, start: (line: Int, column: Int), end: (line: Int, column: Int), flow: Bool
  )? {
    guard !finished else { return nil }
    var event = unsafe yaml_event_t()
    guard unsafe yaml_parser_parse(parser, &event) == 1 else { throw syntaxError() }
    defer { unsafe yaml_event_delete(&event) }
    let end = unsafe (Int(event.end_mark.line) + 1, Int(event.end_mark.column) + 1)
    let flow =
      switch unsafe event.type {
      case YAML_SEQUENCE_START_EVENT: unsafe event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
      case YAML_MAPPING_START_EVENT: unsafe event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
      default: false
      }
    let (converted, line, column) = unsafe convert(&event)
    return (converted, (line, column), end, flow)
  }

  /// What ``capture(into:)`` did.
  package enum Capture {
    /// The whole node is in the flat bill.
    case complete
    /// This event could not be taken flat (an anchor, an alias, a merge key, too deep or too
    /// long, or no node at all): the events before it are in the flat bill, and the node must be
    /// built from them, this one, and the rest of the stream.
    case stopped(YAMLEvent, line: Int, column: Int)
  }

  /// Copies the events of the next node into `flat`, bytes and positions only: no string, no
  /// tree, nothing else on the parsing thread (``YAMLFlatBill``). Takes nodes of at most
  /// ``YAMLFlatBill/maximumDepth`` levels, ``YAMLFlatBill/maximumEvents`` events and 2 GiB of
  /// text, without anchors, aliases or merge keys: those are the builder's. (On a stop, the
  /// stopping scalar's bytes may remain at the end of the text, where no event refers to them.)
  package func capture(into flat: inout YAMLFlatBill) throws(YAMLSyntaxError) -> Capture {
    var depth = 0
    var eventCount = 0
    var textCount = 0
    let textBase = flat.text.count
    // What was taken goes into the flat bill however this returns.
    defer {
      unsafe flat.events.append(contentsOf: UnsafeBufferPointer(start: capturedEvents, count: eventCount))
      unsafe flat.text.append(contentsOf: UnsafeBufferPointer(start: capturedText, count: textCount))
      // A bill with megabytes of text does not keep its room.
      if capturedTextCapacity > 1 << 20 {
        unsafe capturedText.deallocate()
        unsafe capturedText = .allocate(capacity: 4_096)
        capturedTextCapacity = 4_096
      }
    }
    while !finished {
      var event = unsafe yaml_event_t()
      guard unsafe yaml_parser_parse(parser, &event) == 1 else { throw syntaxError() }
      defer { unsafe yaml_event_delete(&event) }
      let line = unsafe Int32(clamping: Int(event.start_mark.line) + 1)
      let column = unsafe Int32(clamping: Int(event.start_mark.column) + 1)
      var kind: YAMLFlatBill.Kind?
      var anchor: UnsafeMutablePointer<yaml_char_t>?
      switch unsafe event.type {
      case YAML_SCALAR_EVENT:
        let scalar = unsafe event.data.scalar
        unsafe anchor = unsafe scalar.anchor
        let plain = unsafe scalar.style == YAML_PLAIN_SCALAR_STYLE
        // `<<` is a merge key only as a plain scalar; as a value it would be text, but rare.
        let isMerge = unsafe plain && scalar.length == 2 && scalar.value?[0] == 0x3C && scalar.value?[1] == 0x3C
        if !isMerge, depth > 0 {
          kind = plain ? .plainScalar : .scalar
          if let value = unsafe scalar.value, unsafe scalar.length > 0 {
            if unsafe capturedTextCapacity - textCount < scalar.length {
              unsafe growCapturedText(toHold: textCount + scalar.length, keeping: textCount)
            }
            unsafe (capturedText + textCount).initialize(from: value, count: scalar.length)
            unsafe textCount += scalar.length
          }
        }
      case YAML_SEQUENCE_START_EVENT:
        unsafe anchor = unsafe event.data.sequence_start.anchor
        kind = .sequenceStart
      case YAML_MAPPING_START_EVENT:
        unsafe anchor = unsafe event.data.mapping_start.anchor
        kind = .mappingStart
      case YAML_SEQUENCE_END_EVENT where depth > 0: kind = .sequenceEnd
      case YAML_MAPPING_END_EVENT where depth > 0: kind = .mappingEnd
      default: break
      }
      let opens = kind == .sequenceStart || kind == .mappingStart
      guard let kind, unsafe anchor == nil, flat.events.count + eventCount < YAMLFlatBill.maximumEvents,
        textBase + textCount < Int32.max,
        !opens || depth < YAMLFlatBill.maximumDepth
      else {
        let (converted, line, column) = unsafe convert(&event)
        return .stopped(converted, line: line, column: column)
      }
      unsafe (capturedEvents + eventCount).initialize(
        to: YAMLFlatBill.Event(kind: kind, line: line, column: column, end: Int32(clamping: textBase + textCount)))
      eventCount += 1
      if opens { depth += 1 }
      if kind == .sequenceEnd || kind == .mappingEnd { depth -= 1 }
      if depth == 0 { return .complete }
    }
    // As the node builder says it.
    throw YAMLSyntaxError(problem: .unexpectedEnd, position: .unknown)
  }

  /// Makes the captured text's room at least `count` bytes, keeping its first `kept`.
  private func growCapturedText(toHold count: Int, keeping kept: Int) {
    var capacity = capturedTextCapacity
    while capacity < count { capacity *= 2 }
    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    unsafe larger.initialize(from: capturedText, count: kept)
    unsafe capturedText.deallocate()
    unsafe capturedText = unsafe larger
    capturedTextCapacity = capacity
  }

  private func convert(_ event: inout yaml_event_t) -> (YAMLEvent, line: Int, column: Int) {
    let line = unsafe Int(event.start_mark.line) + 1
    let column = unsafe Int(event.start_mark.column) + 1
    let converted: YAMLEvent
    switch unsafe event.type {
    case YAML_STREAM_START_EVENT: converted = .streamStart
    case YAML_STREAM_END_EVENT:
      finished = true
      converted = .streamEnd
    case YAML_DOCUMENT_START_EVENT: converted = .documentStart
    case YAML_DOCUMENT_END_EVENT: converted = .documentEnd
    case YAML_ALIAS_EVENT: converted = unsafe .alias(anchor: Self.string(event.data.alias.anchor) ?? "")
    case YAML_SCALAR_EVENT:
      let scalar = unsafe event.data.scalar
      let value = unsafe scalar.value.map {
        unsafe String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self)
      }
      converted = unsafe .scalar(
        value: value ?? "", anchor: Self.string(scalar.anchor), plain: scalar.style == YAML_PLAIN_SCALAR_STYLE)
    case YAML_SEQUENCE_START_EVENT:
      converted = unsafe .sequenceStart(anchor: Self.string(event.data.sequence_start.anchor))
    case YAML_SEQUENCE_END_EVENT: converted = .sequenceEnd
    case YAML_MAPPING_START_EVENT:
      converted = unsafe .mappingStart(anchor: Self.string(event.data.mapping_start.anchor))
    case YAML_MAPPING_END_EVENT: converted = .mappingEnd
    default: converted = .streamEnd
    }
    return (converted, line, column)
  }

  private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    unsafe pointer.map { unsafe String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
  }

  /// The reader errors libyaml 0.2 gives for bytes that are not valid UTF-8 (or UTF-16), word for
  /// word from its `reader.c`: the one way it says what kind of reader error it met. The others
  /// (control characters, an input too long) are text it refuses.
  private static let encodingProblems: Set<String> = [
    "invalid leading UTF-8 octet", "incomplete UTF-8 octet sequence", "invalid trailing UTF-8 octet",
    "invalid length of a UTF-8 sequence", "invalid Unicode character", "incomplete UTF-16 character",
    "unexpected low surrogate area", "incomplete UTF-16 surrogate pair", "expected low surrogate area",
    "invalid input encoding",
  ]

  /// libyaml's problem, located.
  private func syntaxError() -> YAMLSyntaxError {
    let parser = unsafe self.parser.pointee
    let problem = unsafe parser.problem.map { unsafe String(cString: $0) } ?? "unknown problem"
    let context = unsafe parser.context.map { unsafe String(cString: $0) }
    switch unsafe parser.error {
    case YAML_READER_ERROR:
      // Reader errors (bytes that are not UTF-8, control characters) carry a byte offset, not a mark.
      let offset = unsafe YAMLSyntaxError.Position.byteOffset(Int(parser.problem_offset))
      if Self.encodingProblems.contains(problem) {
        return YAMLSyntaxError(problem: .invalidUTF8(detail: problem), position: offset)
      }
      return YAMLSyntaxError(problem: .unreadableText(detail: problem), position: offset)
    case YAML_MEMORY_ERROR:
      return YAMLSyntaxError(problem: .yamlOutOfMemory, position: .unknown)
    default:
      let mark = unsafe parser.problem_mark
      return unsafe YAMLSyntaxError(
        problem: .yamlSyntax(problem: problem, context: context, contextLine: Int(parser.context_mark.line) + 1),
        position: .mark(line: Int(mark.line) + 1, column: Int(mark.column) + 1))
    }
  }
}

extension StandardInputCopy {
  /// A YAML event reader from the start of standard input's copy.
  package func yamlReader() -> YAMLEventReader? {
    switch source {
    case .path(let path): YAMLEventReader(path: path)
    case .bytes(let bytes): YAMLEventReader(bytes: bytes)
    }
  }
}

/// The `# REVIEW` marks of a YAML text, found in the chunks libyaml reads: a `#` that starts a
/// line or follows a space or tab, then ` REVIEW`. Offsets are in bytes from the text's start.
///
/// Safe to use: it holds the reader's `FILE*` only while the reader owns it (the reader sets it
/// and closes the file in its `deinit`, after libyaml's last read).
@safe package final class ReviewMarks {
  nonisolated(unsafe) var file: UnsafeMutablePointer<FILE>?
  /// Where each mark's `#` is, the first ``noted`` of them.
  package private(set) var offsets: [Int] = []
  /// Bytes passed before the current chunk.
  private var passed = 0
  /// The last byte of the chunk before (`nil` at the text's start, which a mark may begin).
  private var lastByte: UInt8?
  /// Marks begun at the end of the chunk before: where, and how many bytes of ` REVIEW` matched.
  private var pending: [(offset: Int, matched: Int)] = []
  private static let mark = Array(" REVIEW".utf8)
  /// Marks past this many are not noted (a warning a mark; the first ones say it).
  package static let noted = 1_000

  package init() {}

  /// Notes the marks in `chunk`, the text's next bytes.
  package func scan(_ chunk: UnsafeBufferPointer<UInt8>) {
    let count = chunk.count
    let previous = pending
    pending = []
    for begun in previous {
      let (matched, whole) = unsafe Self.match(chunk, from: 0, matched: begun.matched)
      if whole { note(begun.offset) } else if let matched { pending.append((begun.offset, matched)) }
    }
    var index = 0
    while index < count, let found = unsafe Self.find(0x23, in: chunk, from: index) {
      index = found + 1
      let before = found > 0 ? unsafe chunk[found - 1] : lastByte
      guard before.map({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) ?? (passed == 0) else { continue }
      let (matched, whole) = unsafe Self.match(chunk, from: found + 1, matched: 0)
      if whole { note(passed + found) } else if let matched { pending.append((passed + found, matched)) }
    }
    if count > 0 { lastByte = unsafe chunk[count - 1] }
    passed += count
  }

  private func note(_ offset: Int) {
    if offsets.count < Self.noted { offsets.append(offset) }
  }

  /// Matches ` REVIEW` from its byte `matched` against `chunk` from `start`: whether it is whole
  /// there, else how far it matched to the chunk's end (`nil`: it does not match).
  private static func match(_ chunk: UnsafeBufferPointer<UInt8>, from start: Int, matched: Int) -> (Int?, Bool) {
    var matched = matched
    var index = start
    while matched < mark.count {
      guard index < chunk.count else { return (matched, false) }
      guard unsafe chunk[index] == mark[matched] else { return (nil, false) }
      matched += 1
      index += 1
    }
    return (matched, true)
  }

  /// The index of the first `byte` in `chunk` at or after `start` (`memchr`).
  private static func find(_ byte: UInt8, in chunk: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let base = chunk.baseAddress, start < chunk.count else { return nil }
    guard let hit = unsafe memchr(base + start, Int32(byte), chunk.count - start) else { return nil }
    return unsafe UnsafeRawPointer(hit) - UnsafeRawPointer(base)
  }
}
