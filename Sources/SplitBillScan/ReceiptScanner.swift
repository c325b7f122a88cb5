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

  /// Reads the receipt in `bytes`. Passes after the first (background flattened, then
  /// enlarged) run only while no reading has closed its arithmetic; the best reading wins.
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
    for pass in RecognitionPass.allCases {
      guard let image = pass == .block ? page : page.copy() else { continue }
      switch pass {
      case .block: break
      case .flattened: image.flattenBackground()
      case .enlarged: image.scale(by: 1.5)
      }
      let words = recognizer.words(on: image, pass: pass)
      let receipt = ReceiptReader.read(ReceiptLine.lines(from: words), currency: currency, dayFirst: dayFirst)
      if receipt.status == .verified { return receipt }
      if best.map({ receipt.score > $0.score }) ?? true { best = receipt }
    }
    return best ?? ScannedReceipt()
  }
}
