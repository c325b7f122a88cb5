/// Text written into the YAML files splitbill makes (recorded settlements, imported histories).
package enum YAMLText {
  /// `text` as a YAML double-quoted scalar: `"` and `\` escaped, and every control, line-break
  /// and bidi character written as an escape, so a name reads back exactly and shows safely.
  package static func quoted(_ text: String) -> String {
    // Most text (names, ids, descriptions) is printable ASCII with nothing to escape.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) { return "\"" + text + "\"" }
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where unsafeInText(scalar):
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// `text` as a YAML scalar that reads back as the same text, inside flow collections too:
  /// plain when it is letters, digits and a few marks (`Ana`, `84.50`, `2026-11-20`, `18%`,
  /// `Dinner at Zé's`), else ``quoted(_:)``. Words YAML 1.1 reads as booleans or null are quoted.
  package static func scalar(_ text: String) -> String {
    guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
      first.properties.isAlphabetic || ("0"..."9").contains(first), last != " ",
      text.unicodeScalars.allSatisfy({
        $0.properties.isAlphabetic || ("0"..."9").contains($0) || " .-_'()/%+".unicodeScalars.contains($0)
      }),
      !plainWords.contains(text.lowercased())
    else { return quoted(text) }
    return text
  }

  private static let plainWords: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n"]

  /// `text` made safe for a `#` comment: one line, control and bidi characters shown as `?`.
  package static func comment(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if unsafeInText(scalar) {
        out += "?"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Control, line-break and bidi characters: escaped in a quoted scalar, replaced in a comment.
  private static func unsafeInText(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
      || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.isControlOrBidiOverride
  }
}
