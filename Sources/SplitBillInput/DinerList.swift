@_spi(ByteWriters) import SplitBillBytes
import SplitBillCore
import SplitBillModel

/// The one grammar of a list of diners written as text, for a CSV diners cell, `calc --people`
/// and the terminal screen's Names row: names separated by `;` or `,`, each with an optional
/// weight after `:` or `=` (`Ana;Ben;Chloé`, `Ana:2,Ben:1`, `Ana=2, Ben`); a name without a weight
/// has weight 1. With `--decimal-comma` a comma is a decimal point (`Ana:1,5`), so only `;`
/// separates names. A single item that is a number is a head count (`3`). Names are compared in
/// NFC without the white space around them (``PersonName/normalized(_:)``), as everywhere.
package enum DinerList {
  /// Whether `byte` separates two names: `;`, or `,` unless commas are decimal points.
  @inline(__always)
  static func isSeparator(_ byte: UInt8, decimalComma: Bool) -> Bool {
    byte == 0x3B || (byte == 0x2C && !decimalComma)
  }

  /// Whether `byte` comes before a weight: `:` or `=`.
  @inline(__always)
  static func isWeightMark(_ byte: UInt8) -> Bool { byte == 0x3A || byte == 0x3D }

  /// The index of the first separator (or, with `weights`, weight mark) in `text` from `start`.
  @inline(__always)
  private static func firstMark(
    in text: Span<UInt8>, from start: Int, weights: Bool, decimalComma: Bool
  ) -> Int? {
    var index = start
    while index < text.count {
      let byte = text[index]
      if isSeparator(byte, decimalComma: decimalComma) || (weights && isWeightMark(byte)) { return index }
      index += 1
    }
    return nil
  }

  /// Where the head count lies in `text`, if the text is one: a single item, without a separator
  /// or a weight, that is a number (digits, a sign, or any Unicode digits, which are then refused
  /// as a count).
  static func headCount(in text: Span<UInt8>, decimalComma: Bool) -> Range<Int>? {
    guard firstMark(in: text, from: 0, weights: true, decimalComma: decimalComma) == nil else { return nil }
    var start = 0
    var end = text.count
    while start < end, text[start] == 0x20 || text[start] == 0x09 { start += 1 }
    while end > start, text[end - 1] == 0x20 || text[end - 1] == 0x09 { end -= 1 }
    guard start < end else { return nil }
    var digitsOnly = true
    for index in start..<end where !(0x30...0x39).contains(text[index]) {
      digitsOnly = false
      break
    }
    if digitsOnly { return start..<end }
    let trimmed = text.extracting(start..<end)
    let string = ByteScan.string(trimmed)
    let isCount = (!ByteScan.isASCII(trimmed) && string.allSatisfy(\.isNumber)) || Int(string) != nil
    return isCount ? start..<end : nil
  }

  /// The item after `cursor` (0 for the first; the cursor is then moved past it): its name and,
  /// after a weight mark, its weight (the text without the spaces and tabs around it, and the
  /// place right after the mark), as ranges of `text`; `nil` after the last.
  static func item(in text: Span<UInt8>, after cursor: inout Int, decimalComma: Bool) -> (
    name: Range<Int>, weight: (text: Range<Int>, at: Int)?
  )? {
    // The cursor is one past the start of the next item, so that 0 means none read yet.
    guard cursor <= text.count + 1 else { return nil }
    let start = cursor == 0 ? 0 : cursor - 1
    let found = firstMark(in: text, from: start, weights: true, decimalComma: decimalComma)
    guard let mark = found, isWeightMark(text[mark]) else {
      let end = found ?? text.count
      cursor = end + 2
      return (start..<end, nil)
    }
    let end = firstMark(in: text, from: mark + 1, weights: false, decimalComma: decimalComma) ?? text.count
    cursor = end + 2
    var weightStart = mark + 1
    var weightEnd = end
    while weightStart < weightEnd, text[weightStart] == 0x20 || text[weightStart] == 0x09 { weightStart += 1 }
    while weightEnd > weightStart, text[weightEnd - 1] == 0x20 || text[weightEnd - 1] == 0x09 { weightEnd -= 1 }
    return (start..<mark, (weightStart..<weightEnd, mark + 1))
  }

  /// Why a list of names was refused.
  package enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
    /// An empty name where one belongs (`Ana,,Ben`).
    case emptyName
    /// A weight that is refused, for the diner named as written.
    case weight(SplitError, diner: String)
    /// A rule of the diners themselves (a name twice, too many).
    case diners(SplitError)

    /// Worded as the same problem in a bill file is.
    package var description: String {
      switch self {
      case .emptyName: return SplitBillModel.Problem.emptyDinerName.message
      case .weight(let error, let diner): return SplitBillModel.Problem.invalidWeight(error, diner: diner).message
      case .diners(let error): return SplitBillModel.Problem.split(error).message
      }
    }
  }

  /// The items `text` lists, each name and weight text as written.
  package static func entries(in text: String, decimalComma: Bool) -> [(name: String, weight: String?)] {
    let bytes = text.utf8.span
    var items: [(name: String, weight: String?)] = []
    var cursor = 0
    while let (name, weight) = item(in: bytes, after: &cursor, decimalComma: decimalComma) {
      items.append(
        (
          ByteScan.string(bytes.extracting(name)),
          weight.map { ByteScan.string(bytes.extracting($0.text)) }
        ))
    }
    return items
  }

  /// Whether `text` names anyone: a name that is not empty, whatever its weight says.
  package static func namesAnyone(_ text: String, decimalComma: Bool = false) -> Bool {
    entries(in: text, decimalComma: decimalComma).contains { !PersonName.normalized($0.name).isEmpty }
  }

  /// The named diners `text` lists (a flag's value, the screen's Names row), normalised; with
  /// `skippingEmpty`, empty items are left out rather than refused (a row being typed, `Ana,`).
  package static func diners(in text: String, decimalComma: Bool = false, skippingEmpty: Bool = false) throws(Problem)
    -> [Diner]
  {
    var diners: [Diner] = []
    for (written, weightText) in entries(in: text, decimalComma: decimalComma) {
      let name = PersonName.normalized(written)
      guard !name.isEmpty else {
        if skippingEmpty { continue }
        throw .emptyName
      }
      var weight = Weight.one
      if let weightText, !weightText.isEmpty {
        do {
          weight = try Weight(parsing: weightText, decimalComma: decimalComma)
        } catch {
          throw .weight(error, diner: written)
        }
      }
      diners.append(Diner(name: name, weight: weight))
    }
    do {
      if !diners.isEmpty { try Diners.named(diners).validate() }
    } catch {
      throw .diners(error)
    }
    return diners
  }
}
