/// Text from an input as an error message quotes it: at most ``limit`` characters, then an
/// ellipsis and how long the whole was. A 100 MiB cell must not make a 100 MiB message.
package enum EchoedText {
  /// The most characters quoted.
  package static let limit = 80

  /// `value`'s text, cut to ``limit`` characters: `aaaa… (1048576 bytes)`.
  package static func quote(_ value: some CustomStringConvertible) -> String {
    let text = value.description
    // Most texts are short: their byte count says so without walking characters.
    guard text.utf8.count > limit, let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex),
      end < text.endIndex
    else { return text }
    return String(text[..<end]) + "… (\(text.utf8.count) bytes)"
  }

  /// A list of names as a message shows it: the first ten, then how many more.
  package static func list(_ names: [String]) -> String {
    let shown = names.prefix(10).map { quote($0) }.joined(separator: ", ")
    return names.count > 10 ? shown + " and \(names.count - 10) more" : shown
  }
}
