import SplitBillCore
import SplitBillModel

#if canImport(Glibc)
  import Glibc
#endif

/// Fetches source lines for diagnostics' excerpts, reading each file once, only for the lines needed.
package enum SourceLines {
  /// How many lines `bytes` has (a last line without a line end counts).
  package static func count(in bytes: [UInt8]) -> Int {
    let newlines = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    return newlines + (bytes.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)
  }

  /// The line end `bytes` uses, by its first line: `\r\n` or `\n`.
  package static func lineEnd(of bytes: [UInt8]) -> String {
    guard let first = bytes.firstIndex(of: 0x0A), first > 0, bytes[first - 1] == 0x0D else { return "\n" }
    return "\r\n"
  }

  /// The most bytes of a line kept for an excerpt.
  package static let lineLimit = 1 << 16

  /// The text of each requested line, by file and 1-based line number.
  ///
  /// `standardInput` serves the file `-`. Files that cannot be read give no lines.
  package static func fetch(_ locations: [SourceLocation], standardInput: StandardInputCopy?) -> [String: [Int: String]]
  {
    var wanted: [String: Set<Int>] = [:]
    for location in locations where !location.isWholeFile { wanted[location.file, default: []].insert(location.line) }
    var result: [String: [Int: String]] = [:]
    for (file, lines) in wanted {
      guard let reader = reader(file, standardInput: standardInput) else { continue }
      // Lines before a wanted one are skipped whole (`memchr`); wanted ones are copied.
      var pending = lines.sorted()[...]
      var number = 1
      var current: [UInt8] = []
      var found: [Int: String] = [:]
      reading: while let next = pending.first {
        while number < next {
          guard reader.skipLine() else { break reading }
          number += 1
        }
        let ended = readLine(reader, into: &current)
        found[number] = String(decoding: current, as: UTF8.self)
        pending.removeFirst()
        if !ended {
          guard current.count == lineLimit, reader.skipLine() else { break }  // the rest, or the end
        }
        number += 1
      }
      result[file] = found
    }
    return result
  }

  /// A reader of `file` again, for excerpts: standard input's copy, or the file if it is a regular
  /// one. A FIFO or a device was read once and cannot be again (opening it would wait for a writer
  /// that is gone): its problems are shown without their lines.
  private static func reader(_ file: String, standardInput: StandardInputCopy?) -> ByteReader? {
    if file == "-" { return standardInput?.byteReader() }
    var status = stat()
    guard unsafe stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    return ByteReader(path: file)
  }

  /// Reads the next line into `line` (at most ``lineLimit`` bytes of it: an excerpt shows a window
  /// of it), without its line end; `false` when it did not end with `\n` (the end, or the limit).
  private static func readLine(_ reader: ByteReader, into line: inout [UInt8]) -> Bool {
    line.removeAll(keepingCapacity: true)
    var ended = false
    while line.count < lineLimit, let byte = reader.next() {
      if byte == 0x0A {
        ended = true
        break
      }
      line.append(byte)
    }
    if line.last == 0x0D { line.removeLast() }
    return ended
  }

  /// The last line before `line` of `file` that is not blank, and its text: where a syntax error
  /// at the end of a file is shown (libyaml places it past the last line).
  package static func lastNonBlankLine(in file: String, before line: Int) -> (line: Int, text: String)? {
    guard file != "-", let reader = reader(file, standardInput: nil) else { return nil }
    var number = 1
    var current: [UInt8] = []
    var last: (Int, String)?
    while number < line {
      let ended = readLine(reader, into: &current)
      if current.contains(where: { $0 != 0x20 && $0 != 0x09 }) {
        last = (number, String(decoding: current, as: UTF8.self))
      }
      if !ended { break }
      number += 1
    }
    return last
  }

  /// The 1-based line and column of byte `offset` in `file` (columns count Unicode scalars).
  package static func position(ofByteOffset offset: Int, in file: String, standardInput: StandardInputCopy?) -> (
    line: Int, column: Int
  ) {
    guard let reader = reader(file, standardInput: standardInput) else { return (1, 1) }
    var line = 1
    var column = 1
    var index = 0
    while index < offset, let byte = reader.next() {
      ByteReader.move(line: &line, column: &column, past: byte)
      index += 1
    }
    return (line, column)
  }
}
