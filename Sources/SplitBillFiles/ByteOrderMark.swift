/// The UTF-8 byte order mark some tools write before a text file: never part of the text. Every
/// reader (bill files, items files, standard input, exports, rates files) skips it through here.
package enum ByteOrderMark {
  /// `EF BB BF`.
  package static let bytes: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// Whether `text` starts with the mark.
  package static func starts(_ text: some Collection<UInt8>) -> Bool { text.starts(with: bytes) }

  /// `text` without a leading mark.
  package static func dropped<Text: Collection<UInt8>>(from text: Text) -> Text.SubSequence {
    starts(text) ? text.dropFirst(bytes.count) : text[...]
  }

  /// The encoding a text starting with `head` says it is in by its byte order mark when that is
  /// not UTF-8 (`UTF-16`, `UTF-32`), or `nil`: such a file is refused, never read as garbage.
  package static func otherEncoding(_ head: some Collection<UInt8>) -> String? {
    let bytes = Array(head.prefix(4))
    if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
      return "UTF-32"
    }
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return "UTF-16" }
    return nil
  }

  /// What to say of a file in ``otherEncoding(_:)``.
  package static func refusal(_ encoding: String) -> String {
    "it is \(encoding) text, as its byte order mark says: save it as UTF-8"
  }
}
