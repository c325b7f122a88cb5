import Foundation
import SplitBillCore

/// One input to read: a file in a known format, or standard input.
public struct InputSource: Hashable, Sendable {
  /// The path as given or found (`-` for standard input).
  public var path: String
  /// How to read it.
  public var format: InputFormat
  /// For CSV: tab for `.tsv`, else detected (or `--delimiter`).
  public var isTabSeparated: Bool
}

/// What the reading of one bill gave.
public enum BillOutcome: Sendable {
  /// A bill ready to be split.
  case valid(Bill)
  /// A bill with errors.
  case invalid(InvalidBill)
}

/// Reads every input in processing order and hands each bill on as it is read.
///
/// Inputs are taken in the order given; directories are walked recursively for `*.yaml`, `*.yml`,
/// `*.csv` and `*.tsv`, sorted by path (hidden entries, symbolic links to directories, and
/// subdirectories holding a `.splitbill-ignore` file are skipped). Across all inputs it checks that
/// bill ids are unique and warns about probable duplicate receipts (same date, amount, currency and
/// payer under different ids). Only ids and receipt keys are kept, never the bills themselves.
public struct BillStream {
  /// How to read.
  public let options: ReadOptions
  /// Every diagnostic so far, in reading order.
  public private(set) var diagnostics: [Diagnostic] = []
  /// The errors that belong to no bill: unreadable files, syntax errors, bad headers and defaults.
  public var fileErrors: [Diagnostic] { fileProblems.filter { $0.severity == .error } }
  private var fileProblems: [Diagnostic] = []
  /// Files read (or attempted).
  public private(set) var fileCount = 0
  /// Bills read, valid or not.
  public private(set) var billCount = 0
  /// Whether some input could not be read at all (exit 66).
  public private(set) var unreadableInput = false
  /// Standard input, once read (kept for excerpts in diagnostics).
  public private(set) var standardInput: [UInt8]?

  // Every explicit id and every receipt key of the run: 128-bit digests and compact locations, not
  // the strings, so a million bills cost tens of megabytes, not hundreds.
  private var seenIDs: [Digest128: CompactLocation] = [:]
  private var seenReceipts: [Digest128: (id: String, location: CompactLocation)] = [:]
  private var fileNames: [String] = []
  private var fileIndex: [String: UInt32] = [:]
  private let validator: BillValidator

  /// A stream with these options.
  public init(options: ReadOptions) {
    self.options = options
    self.validator = BillValidator(options: options)
  }

  /// The inputs `paths` name, in processing order; unreadable paths become diagnostics.
  public mutating func sources(for paths: [String]) -> [InputSource] {
    var result: [InputSource] = []
    for path in paths {
      if path == "-" {
        result.append(InputSource(path: "-", format: options.inputFormat ?? .yaml, isTabSeparated: false))
        continue
      }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        fail("cannot read '\(path)': no such file or directory", file: path)
        continue
      }
      if isDirectory.boolValue {
        let files = Self.walk(path).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        result += files.compactMap { Self.source(for: $0, override: nil) }
      } else if let source = Self.source(for: path, override: options.inputFormat) {
        result.append(source)
      } else {
        fail(
          "cannot tell the format of '\(path)': name it .yaml, .yml, .csv or .tsv, or pass --input-format yaml|csv",
          file: path)
      }
    }
    return result
  }

  /// Reads every source in order, calling `handle` for each bill.
  public mutating func read(_ sources: [InputSource], _ handle: (BillOutcome) -> Void) {
    for source in sources { read(source, handle) }
  }

  /// Reads one source, calling `handle` for each bill.
  public mutating func read(_ source: InputSource, _ handle: (BillOutcome) -> Void) {
    fileCount += 1
    var unused: [Diagnostic] = []
    var context = validator.context(for: DocumentHeader(file: source.path), diagnostics: &unused)
    let process: (ReaderEvent) -> Void = { event in
      switch event {
      case .document(let header):
        var found: [Diagnostic] = []
        context = self.validator.context(for: header, diagnostics: &found)
        self.diagnostics += found
        self.fileProblems += found
      case .failure(let diagnostic):
        self.diagnostics.append(diagnostic)
        self.fileProblems.append(diagnostic)
      case .bill(let raw):
        self.billCount += 1
        let explicitID = raw.fields["id"] != nil
        handle(self.check(self.validator.validate(raw, context: context), explicitID: explicitID))
      }
    }
    switch source.format {
    case .yaml:
      let reader: YAMLEventReader
      if source.path == "-" {
        reader = YAMLEventReader(bytes: readStandardInput())
      } else if let opened = YAMLEventReader(path: source.path) {
        reader = opened
      } else {
        return fail("cannot read '\(source.path)': \(String(cString: strerror(errno)))", file: source.path)
      }
      var yaml = YAMLBillReader(file: source.path, reader: reader)
      yaml.standardInput = standardInput
      yaml.read(process)
    case .csv:
      let input: ByteReader
      if source.path == "-" {
        input = ByteReader(bytes: readStandardInput())
      } else if let opened = ByteReader(path: source.path) {
        input = opened
      } else {
        return fail("cannot read '\(source.path)': \(String(cString: strerror(errno)))", file: source.path)
      }
      let delimiter = options.delimiter ?? (source.isTabSeparated ? 0x09 : nil)
      var csv = CSVBillReader(file: source.path, input: input, delimiter: delimiter)
      csv.read(process)
    }
  }

  /// Cross-file checks: unique ids, probable duplicate receipts.
  ///
  /// Default ids (`<file>#<n>`) are unique by construction and not remembered.
  private mutating func check(_ result: Result<Bill, InvalidBill>, explicitID: Bool) -> BillOutcome {
    switch result {
    case .failure(let invalid):
      diagnostics += invalid.diagnostics
      return .invalid(invalid)
    case .success(let bill):
      if explicitID {
        let key = Digest128(bill.id)
        if let first = seenIDs[key] {
          let diagnostic = Diagnostic.error(
            "duplicate bill id '\(bill.id)': also used at \(location(first))", at: bill.source)
          diagnostics.append(diagnostic)
          return .invalid(InvalidBill(id: bill.id, source: bill.source, diagnostics: [diagnostic]))
        }
        seenIDs[key] = compact(bill.source)
      }
      if let date = bill.date {
        let key = Digest128("\(date)|\(bill.terms.amount)|\(bill.terms.payer ?? "")")
        if let first = seenReceipts[key] {
          diagnostics.append(
            .warning(
              "probable duplicate receipt: '\(bill.id)' has the same date, amount, currency and payer as '\(first.id)' (\(location(first.location)))",
              at: bill.source))
        } else {
          seenReceipts[key] = (bill.id, compact(bill.source))
        }
      }
      return .valid(bill)
    }
  }

  private mutating func compact(_ location: SourceLocation) -> CompactLocation {
    let index: UInt32
    if let known = fileIndex[location.file] {
      index = known
    } else {
      index = UInt32(fileNames.count)
      fileNames.append(location.file)
      fileIndex[location.file] = index
    }
    return CompactLocation(
      file: index, line: UInt32(clamping: location.line), column: UInt32(clamping: location.column))
  }

  private func location(_ compact: CompactLocation) -> SourceLocation {
    SourceLocation(file: fileNames[Int(compact.file)], line: Int(compact.line), column: Int(compact.column))
  }

  /// Gives this stream standard input already read by another (a first pass), since it can be read once.
  public mutating func reuseStandardInput(from other: BillStream) {
    if let bytes = other.standardInput { standardInput = bytes }
  }

  private mutating func readStandardInput() -> [UInt8] {
    if let standardInput { return standardInput }
    let bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    standardInput = bytes
    return bytes
  }

  private mutating func fail(_ message: String, file: String) {
    unreadableInput = true
    let diagnostic = Diagnostic.error(message, at: SourceLocation(file: file, line: 0, column: 0))
    diagnostics.append(diagnostic)
    fileProblems.append(diagnostic)
  }

  static func source(for path: String, override: InputFormat?) -> InputSource? {
    let lowered = path.lowercased()
    let isTSV = lowered.hasSuffix(".tsv")
    if let override { return InputSource(path: path, format: override, isTabSeparated: isTSV) }
    if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") {
      return InputSource(path: path, format: .yaml, isTabSeparated: false)
    }
    if lowered.hasSuffix(".csv") || isTSV { return InputSource(path: path, format: .csv, isTabSeparated: isTSV) }
    return nil
  }

  /// Bill files below `directory`, unsorted.
  static func walk(_ directory: String) -> [String] {
    let manager = FileManager.default
    guard let entries = try? manager.contentsOfDirectory(atPath: directory) else { return [] }
    var files: [String] = []
    for entry in entries where !entry.hasPrefix(".") {
      let path = directory.hasSuffix("/") ? directory + entry : directory + "/" + entry
      guard let attributes = try? manager.attributesOfItem(atPath: path) else { continue }
      let type = attributes[.type] as? FileAttributeType
      if type == .typeDirectory {
        if !manager.fileExists(atPath: path + "/.splitbill-ignore") { files += walk(path) }
      } else if type == .typeRegular || type == .typeSymbolicLink, source(for: path, override: nil) != nil {
        files.append(path)
      }
    }
    return files
  }
}

/// A location in 12 bytes: an index into the run's file names, a line and a column.
struct CompactLocation: Hashable, Sendable {
  var file: UInt32
  var line: UInt32
  var column: UInt32
}

/// A 128-bit digest of a string, for membership sets that must not hold the strings themselves.
///
/// Two SipHash passes (Swift's `Hasher`, seeded once per process) with different prefixes; two
/// different strings share a digest with a probability of about 2^-128 per pair.
struct Digest128: Hashable, Sendable {
  var high: Int
  var low: Int

  init(_ text: String) {
    var first = Hasher()
    first.combine(0x5A)
    first.combine(text)
    var second = Hasher()
    second.combine(0xA5)
    second.combine(text)
    high = first.finalize()
    low = second.finalize()
  }
}
