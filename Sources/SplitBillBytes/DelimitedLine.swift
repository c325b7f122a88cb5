#if canImport(Glibc)
  import Glibc
#endif

/// What takes a line's fields from ``DelimitedLine/split(_:separator:appendingTo:fields:)``, one
/// at a time: a type rather than a closure, so that the split is specialized for it and the
/// append inlined (a closure from another module was a call per field).
@_spi(ByteWriters) public protocol DelimitedFields {
  /// Takes the next field: where its text is in the line's text, and whether it was quoted.
  mutating func append(field range: Range<Int>, quoted: Bool)
}

/// One line of delimiter-separated fields, split in place: the CSV reader's fast path, for lines
/// with nothing that needs its byte-by-byte scanner. Public only as the SPI `ByteWriters` and
/// `@inlinable`, so that the reader inlines it.
@_spi(ByteWriters) public enum DelimitedLine {
  /// Appends the fields of `line` (a line without its `\n`; a last `\r` is the line end) to
  /// `text`, quotes undone, and hands `fields` each one's range in `text` and whether it was
  /// quoted. `false`, with `text` as it was, when the line is not plain: a `\r` before its end, a
  /// quote inside an unquoted field, or a quoted field left open (a line break inside quotes) or
  /// followed by other text. (Fields already reported then are to be dropped.)
  ///
  /// The line is copied into `text` once and each field's text moved into place there (undoing
  /// quotes only ever shortens it): one copy a line rather than one a field.
  @inlinable
  public static func split<Fields: DelimitedFields>(
    _ line: Span<UInt8>, separator: UInt8, appendingTo text: inout [UInt8], fields: inout Fields
  ) -> Bool {
    let start = text.count
    guard !line.isEmpty else {
      fields.append(field: start..<start, quoted: false)
      return true
    }
    var count = line.count
    if line[count - 1] == 0x0D { count -= 1 }
    let plain = unsafe line.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress, unsafe memchr(base, 0x0D, count) == nil else { return false }
      unsafe text.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
      return true
    }
    guard plain else { return false }
    let length = unsafe text.withUnsafeMutableBufferPointer { text in
      unsafe splitInPlace(text, from: start, count: count, separator: separator, fields: &fields)
    }
    guard let length else {
      text.removeSubrange(start...)
      return false
    }
    text.removeLast(count - length)
    return true
  }

  /// The fields of the `count` bytes of `text` from `start`, moved to the front as they are read;
  /// gives the length of their text (`nil` when the line is not plain).
  @inlinable
  static func splitInPlace<Fields: DelimitedFields>(
    _ text: UnsafeMutableBufferPointer<UInt8>, from start: Int, count: Int, separator: UInt8, fields: inout Fields
  ) -> Int? {
    guard let text = unsafe text.baseAddress.map({ unsafe $0 + start }) else { return nil }
    let quote: UInt8 = 0x22
    var read = 0
    var written = 0
    // Moves text[read..<end] to `written`.
    func take(upTo end: Int) {
      if written != read { unsafe (text + written).update(from: text + read, count: end - read) }
      written += end - read
      read = end
    }
    while true {
      let fieldStart = written
      let quoted = unsafe read < count && text[read] == quote
      if quoted {
        read += 1
        while true {
          guard let found = unsafe memchr(text + read, Int32(quote), count - read) else { return nil }
          unsafe take(upTo: UnsafeMutableRawPointer(found) - UnsafeMutableRawPointer(text))
          read += 1  // the quote: a doubled one stands for itself, else it closes the field
          guard unsafe read < count && text[read] == quote else { break }
          take(upTo: read + 1)
        }
        guard unsafe read == count || text[read] == separator else { return nil }
      } else {
        // The field ends at the first separator (or the line's end); a quote before it is not plain.
        var end = read
        while true {
          if count - end >= 8 {
            let word = unsafe UnsafeRawPointer(text + end).loadUnaligned(as: UInt64.self)
            let found = ByteScan.matches(separator, in: word) | ByteScan.matches(quote, in: word)
            guard found != 0 else {
              end += 8
              continue
            }
            end += found.trailingZeroBitCount / 8
          } else {
            while unsafe end < count && text[end] != separator && text[end] != quote { end += 1 }
          }
          break
        }
        if unsafe end < count && text[end] == quote { return nil }
        take(upTo: end)
      }
      fields.append(field: start + fieldStart..<start + written, quoted: quoted)
      guard read < count else { return written }
      read += 1  // the separator
    }
  }
}
