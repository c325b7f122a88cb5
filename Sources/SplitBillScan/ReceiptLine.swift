/// A printed line of the receipt, rebuilt from the words' boxes: words whose vertical middles
/// meet, left to right. Tesseract's own lines break where a price sits a little higher than its
/// name (a photo not quite straight) and join two columns; the boxes tell.
public struct ReceiptLine: Sendable, Equatable {
  /// The line's number on the page, from 1 at the top: what a review reason points at.
  public var number: Int
  /// The line's words, left to right.
  public var words: [RecognizedWord]

  public init(number: Int, words: [RecognizedWord]) {
    self.number = number
    self.words = words
  }

  /// The words joined by single spaces.
  public var text: String { words.map(\.text).joined(separator: " ") }

  /// Groups `words` into lines, top to bottom, and repairs numbers split in two (`14 .00`).
  public static func lines(from words: [RecognizedWord]) -> [ReceiptLine] {
    var rows: [[RecognizedWord]] = []
    var middles: [Int] = []
    var heights: [Int] = []
    for word in words.sorted(by: { ($0.middle, $0.left) < ($1.middle, $1.left) }) {
      // The row whose middle is nearest, if the word's middle is within half a line of it and it
      // has no word where this one is.
      var best: Int?
      for row in rows.indices.reversed().prefix(4) {
        let tolerance = max(min(heights[row], word.height), 4) / 2
        guard abs(middles[row] - word.middle) <= tolerance,
          !rows[row].contains(where: { $0.left < word.right - 2 && word.left < $0.right - 2 })
        else { continue }
        if best.map({ abs(middles[$0] - word.middle) > abs(middles[row] - word.middle) }) ?? true { best = row }
      }
      if let row = best {
        rows[row].append(word)
        middles[row] = (middles[row] * (rows[row].count - 1) + word.middle) / rows[row].count
        heights[row] = max(heights[row], word.height)
      } else {
        rows.append([word])
        middles.append(word.middle)
        heights.append(word.height)
      }
    }
    let ordered = joinSlantedLines(zip(rows, middles).sorted { $0.1 < $1.1 }.map(\.0))
    return ordered.enumerated().map { index, row in
      ReceiptLine(number: index + 1, words: joinSplitNumbers(row.sorted { $0.left < $1.left }))
    }
  }

  /// Joins rows near each other that Tesseract read as one line: a line printed slanted
  /// (`Total Sales (Inclusive GST) RM 169.78`, its price a line higher than its first word) is
  /// one row again. Rows whose words overlap, or whose words are of very different heights (a
  /// note written beside the print, which Tesseract may put on its line), stay apart.
  static func joinSlantedLines(_ rows: [[RecognizedWord]]) -> [[RecognizedWord]] {
    var joined: [[RecognizedWord]] = []
    for row in rows {
      let lines = Set(row.compactMap(\.recognizedLine))
      // One of the last three rows: a slanted line's rows may have another line's between them.
      let partner = joined.indices.suffix(3).last { index in
        let previous = joined[index]
        guard previous.contains(where: { $0.recognizedLine.map(lines.contains) ?? false }),
          !previous.contains(where: { old in row.contains { old.left < $0.right - 2 && $0.left < old.right - 2 } })
        else { return false }
        let heights = (previous + row).map(\.height)
        guard let low = heights.min(), let high = heights.max() else { return false }
        return high * 2 <= low * 3
      }
      if let partner { joined[partner] += row } else { joined.append(row) }
    }
    return joined
  }

  /// Joins a number Tesseract read as two words (`14` `.00`, `14.` `00`, `1` `4.00` close together).
  /// Decimals alone after a point may be a whole space away, as a till's fixed-width print puts
  /// them when Tesseract reads the point as the end of a word (`RM1. 38`).
  static func joinSplitNumbers(_ words: [RecognizedWord]) -> [RecognizedWord] {
    var result: [RecognizedWord] = []
    for word in words {
      if let previous = result.last {
        let gap = word.left - previous.right
        let height = max(previous.height, word.height)
        let decimalsAfterPoint =
          (previous.text.last == "." || previous.text.last == ",") && (2...3).contains(word.text.count)
          && word.text.allSatisfy { $0.isASCII && $0.isNumber }
        let close = gap <= height * 2 / 3 || (decimalsAfterPoint && gap <= height)
        let left = previous.text
        // A tax code printed against the price (`108R`) is no part of the number.
        let right = String(word.text.reversed().drop(while: \.isLetter).reversed())
        let leftNumber = PrintedAmount.stripCurrencyMarks(Substring(left))
        let leftIsDigits =
          !leftNumber.isEmpty && leftNumber.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
        let rightIsDigits =
          !right.isEmpty && right.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
        let separatorBetween =
          left.last == "." || left.last == "," || right.first == "." || right.first == ","
        if close, leftIsDigits, rightIsDigits, separatorBetween,
          PrintedAmount.parse(ReceiptReader.cleanNumber(left + word.text)) != nil
        {
          var joined = previous
          joined.text = left + word.text
          joined.width = word.right - previous.left
          joined.confidence = min(previous.confidence, word.confidence)
          result[result.count - 1] = joined
          continue
        }
      }
      result.append(word)
    }
    return result
  }
}
