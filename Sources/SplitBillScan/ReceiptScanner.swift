import SplitBillCore

/// Reads receipts from photos offline: decodes and normalises each photo, recognises its text
/// with Tesseract and reads it with ``ReceiptReader``. One scanner per thread (Tesseract's state
/// is not shared); a scanner reads any number of photos.
public final class ReceiptScanner {
  private let recognizer: TextRecognizer

  /// A scanner for `languages` (Tesseract's names, `eng+deu`); `dataPath` is Tesseract's data
  /// directory (`nil`: the system's).
  public init(languages: String = "eng", dataPath: String? = nil) throws(PhotoError) {
    recognizer = try TextRecognizer(languages: languages, dataPath: dataPath)
  }

  /// The widest a page is read at: larger photos are scaled down (time and memory grow with
  /// pixels, recognition does not get better past it).
  static let widestPage = 1800
  /// The narrowest: smaller photos (a crop of a receipt) are scaled up to it.
  static let narrowestPage = 1000

  /// The photo in `bytes` as a vision model gets it: upright (EXIF applied), grey, at most
  /// ``widestPage`` pixels wide, as a JPEG (HEIC and TIFF converted; a 12-megapixel photo sent
  /// as a few hundred kilobytes, far under the providers' request limits).
  public static func uploadJPEG(_ bytes: [UInt8]) throws(PhotoError) -> [UInt8] {
    let page = try PageImage.decode(bytes)
    if page.width > widestPage { page.scale(by: Float(widestPage) / Float(page.width)) }
    guard let jpeg = page.jpeg() else { throw PhotoError(message: "the photo cannot be encoded for the model") }
    return jpeg
  }

  /// The height of a word's box Tesseract reads best at, in pixels; a page whose text is much
  /// smaller or larger is read again scaled to it.
  static let bestTextHeight = 48

  /// Reads the receipt in `bytes`. Passes after the first run only while no reading has closed
  /// its arithmetic: the page scaled so its text is of ``bestTextHeight`` (when it is far from
  /// it), then with its background flattened; the best reading wins.
  public func scan(_ bytes: [UInt8], currency: Currency?, dayFirst: Bool? = nil) throws(PhotoError) -> ScannedReceipt {
    let page = try PageImage.decode(bytes)
    let width = page.width
    if width > Self.widestPage {
      page.scale(by: Float(Self.widestPage) / Float(width))
    } else if width < Self.narrowestPage {
      page.scale(by: Float(Self.narrowestPage) / Float(width))
    }
    page.deskew()
    var best: ScannedReceipt?
    var textHeight: Int?
    for pass in RecognitionPass.allCases {
      let image: PageImage
      switch pass {
      case .block: image = page
      case .rescaled:
        // Larger text reads better up to a point: enlarged by half, small print up to three
        // times; very large print scaled down.
        guard let height = textHeight, let copy = page.copy() else { continue }
        let wanted = Float(Self.bestTextHeight) / Float(height)
        let factor =
          height > 80 ? wanted : min(height < 20 ? min(wanted, 3) : 1.5, Float(3_600) / Float(page.width))
        guard abs(factor - 1) > 0.15 else { continue }
        copy.scale(by: factor)
        image = copy
      case .flattened:
        guard let copy = page.copy() else { continue }
        copy.flattenBackground()
        image = copy
      }
      let words = recognizer.words(on: image, pass: pass)
      if pass == .block { textHeight = Self.medianTextHeight(words) }
      var receipt = ReceiptReader.read(ReceiptLine.lines(from: words), currency: currency, dayFirst: dayFirst)
      receipt.confidence = words.isEmpty ? 0 : words.reduce(0) { $0 + $1.confidence } / words.count
      if receipt.status == .verified { return receipt }
      if best.map({ receipt.score > $0.score }) ?? true { best = receipt }
    }
    return best ?? ScannedReceipt()
  }

  /// The median box height of the words with three letters or digits or more (not specks).
  static func medianTextHeight(_ words: [RecognizedWord]) -> Int? {
    let heights = words.filter { $0.text.filter { $0.isLetter || $0.isNumber }.count >= 3 }.map(\.height).sorted()
    return heights.isEmpty ? nil : heights[heights.count / 2]
  }
}
