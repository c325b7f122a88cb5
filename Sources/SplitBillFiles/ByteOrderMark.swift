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
}
