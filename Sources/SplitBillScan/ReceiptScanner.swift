import SplitBillCore

/// Reads receipts from photos offline: decodes and normalises each photo, recognises its text
/// with Tesseract and reads it with ``ReceiptReader``. One scanner per thread (Tesseract's state
/// is not shared); a scanner reads any number of photos.
public final class ReceiptScanner {
  private let recognizer: TextRecognizer
  private let languages: Set<Substring>
  private let dataPath: String?
  /// Recognisers for the languages of the countries receipts were printed in, made when first
  /// needed; `nil` where the language's data is not installed.
  private var countryRecognizers: [String: TextRecognizer?] = [:]

  /// A scanner for `languages` (Tesseract's names, `eng+deu`); `dataPath` is Tesseract's data
  /// directory (`nil`: the system's).
  public init(languages: String = "eng", dataPath: String? = nil) throws(PhotoError) {
    recognizer = try TextRecognizer(languages: languages, dataPath: dataPath)
    self.languages = Set(languages.split(separator: "+"))
    self.dataPath = dataPath
  }

  /// A recogniser for the language of the country `reading` points to
  /// (``ReceiptCountry/language``), when it is not one the scanner reads already and its data is
  /// installed; else `nil`. Each is made once per scanner (a worker) and kept: a model of a few
  /// megabytes, for the next receipt from that country.
  private func countryRecognizer(for reading: ScannedReceipt?) -> TextRecognizer? {
    guard let language = reading?.country?.language, !languages.contains(Substring(language)) else { return nil }
    if let made = countryRecognizers[language] { return made }
    let made = try? TextRecognizer(languages: language, dataPath: dataPath)
    countryRecognizers[language] = made
    return made
  }

  /// Why `languages` is not a list of Tesseract's language names joined by `+`, or `nil`.
  public static func malformedLanguages(_ languages: String) -> String? {
    TextRecognizer.malformedLanguages(languages)
  }

  /// The widest a page is read at: larger photos are scaled down (time and memory grow with
  /// pixels, recognition does not get better past it).
  static let widestPage = 1800
  /// A page narrower than this whose first reading found no word to measure is read again
  /// enlarged to it (a small crop of a receipt).
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

  /// The most ``RecognitionPass/colouredInkRemoved`` enlarges a page by (its text toward
  /// ``bestTextHeight``): a pass that only runs when the others did not close, so it reads the
  /// page differently from them, and at a cost in time kept under twice a pass at its size.
  static let inkPassEnlargement: Float = 1.5

  /// The least slant, in degrees, a page is straightened for. Tesseract finds lines a degree
  /// askew as well as level ones, and turning a page resamples every pixel, which costs thin
  /// print more than so small a slant does: straightening every page found askew (0.1° and more,
  /// Leptonica's own rule) verified 26 receipts of the tuned part, straightening from 0.5°, 1° or
  /// 1.5° 28, from 3° 28 with a total fewer (docs/scan.md).
  static let smallestSkewStraightened: Float = 1

  /// Fewer words than this in the first reading of a page means it was read as nearly blank: a
  /// receipt has its merchant, items and total. Such a page is read again with its contrast
  /// stretched (``PageImage/stretchContrast(darkShare:)``).
  static let fewestWordsOnAPage = 10
  /// The share of a nearly blank page's pixels, in parts per ten thousand, stretched to black:
  /// thin faint print covers a few percent of a receipt, specks far less.
  static let darkestShareStretched = 100

  /// The height of a word's box Tesseract reads best at, in pixels: small print is enlarged
  /// toward it.
  static let bestTextHeight = 48
  /// Word boxes between these heights are read at their size: Tesseract reads them about as
  /// well as at ``bestTextHeight`` (checked on real receipts, docs/scan.md), and an enlarged
  /// page costs time in proportion to its pixels.
  static let readableTextHeights = 20...80

  /// Reads the receipt in `bytes`. The page is read at its own size (photos wider than
  /// ``widestPage`` scaled down). Passes after the first run only while no reading has closed
  /// its arithmetic: the page scaled so its text nears ``bestTextHeight`` (only when its text is
  /// outside ``readableTextHeights``), then with its background flattened, then with coloured
  /// marks made paper; the best reading wins, mended by the others where one line they read
  /// differently closes its arithmetic (``ScannedReceipt/mended(by:)``).
  public func scan(_ bytes: [UInt8], currency: Currency?, dayFirst: Bool? = nil) throws(PhotoError) -> ScannedReceipt {
    let page = try PageImage.decode(bytes)
    if page.width > Self.widestPage { page.scale(by: Float(Self.widestPage) / Float(page.width)) }
    page.deskew(minimumDegrees: Self.smallestSkewStraightened)
    var readings: [ScannedReceipt] = []
    var lineSets: [[ReceiptLine]] = []
    var summaries: [ReadingSummary] = []
    var textHeight: Int?
    for pass in RecognitionPass.allCases {
      let image: PageImage
      var reader = recognizer
      switch pass {
      case .block, .locallyThresholded: image = page
      case .countryLanguage:
        guard let inLanguage = countryRecognizer(for: readings.first) else { continue }
        reader = inLanguage
        image = page
      case .rescaled:
        guard let factor = Self.rescaling(textHeight: textHeight, pageWidth: page.width), let copy = page.copy()
        else { continue }
        copy.scale(by: factor)
        image = copy
      case .flattened:
        guard let copy = page.copy() else { continue }
        copy.flattenBackground()
        image = copy
      case .colouredInkRemoved:
        guard let ink = page.withoutColouredInk else { continue }
        if ink.width > Self.widestPage { ink.scale(by: Float(Self.widestPage) / Float(ink.width)) }
        ink.deskew(minimumDegrees: Self.smallestSkewStraightened)
        if let height = textHeight {
          ink.scale(by: min(Float(Self.bestTextHeight) / Float(height), Self.inkPassEnlargement))
        }
        image = ink
      }
      var words = reader.words(on: image, pass: pass)
      if pass == .block, words.count < Self.fewestWordsOnAPage {
        // Faint print whose threshold a few black specks took: the page is stretched, for this
        // reading and the passes after it.
        page.stretchContrast(darkShare: Self.darkestShareStretched)
        words = recognizer.words(on: page, pass: pass)
      }
      if pass == .block { textHeight = Self.medianTextHeight(words) }
      let lines = ReceiptLine.lines(from: words)
      lineSets.append(lines)
      var receipt = ReceiptReader.read(lines, currency: currency, dayFirst: dayFirst)
      receipt.confidence = words.isEmpty ? 0 : words.reduce(0) { $0 + $1.confidence } / words.count
      summaries.append(
        ReadingSummary(pass: pass.name, words: words.count, receipt: receipt))
      readings.append(receipt)
      if receipt.status == .verified { break }
    }
    guard !readings.isEmpty else { return ScannedReceipt() }
    // The verified reading (the last made), else the best scored (the first of equals).
    var kept = readings.count - 1
    if readings[kept].status != .verified {
      kept = 0
      for index in readings.indices where readings[index].score > readings[kept].score { kept = index }
    }
    // The kept reading found no currency where another did (a sign or a country one pass read and
    // this one did not): its lines are read again in that currency, which is said to come from
    // another reading.
    if currency == nil,
      let again = Self.inCurrencyOfAnotherReading(readings[kept], lines: lineSets[kept], readings, dayFirst: dayFirst)
    {
      readings[kept] = again
      summaries[kept] = ReadingSummary(pass: summaries[kept].pass, words: summaries[kept].words, receipt: again)
    }
    summaries[kept].kept = true
    var receipt = readings[kept]
    if receipt.status != .verified {
      receipt = receipt.mended(by: readings.indices.filter { $0 != kept }.map { readings[$0] }) ?? receipt
    }
    receipt.readings = summaries
    return receipt
  }

  /// `kept`, read again from its `lines` in the currency another of the `readings` found, when it
  /// found none itself; its source says so (`printed (in another reading)`). `nil` when `kept` has
  /// a currency or no other reading does.
  static func inCurrencyOfAnotherReading(
    _ kept: ScannedReceipt, lines: [ReceiptLine], _ readings: [ScannedReceipt], dayFirst: Bool?
  ) -> ScannedReceipt? {
    guard kept.currency == nil, let other = readings.first(where: { $0.currency != nil }), let found = other.currency
    else { return nil }
    var again = ReceiptReader.read(lines, currency: found, dayFirst: dayFirst)
    again.currencySource = (other.currencySource ?? "printed") + " (in another reading)"
    again.confidence = kept.confidence
    return again
  }

  /// How much the rescaled pass scales a page `pageWidth` pixels wide whose words' median height
  /// is `textHeight`, or `nil` when it is not worth a pass: small print enlarged toward
  /// ``bestTextHeight`` (up to three times, at most 3,600 pixels wide), very large print shrunk to
  /// it; with no word measured, a page under ``narrowestPage`` enlarged to it.
  static func rescaling(textHeight: Int?, pageWidth: Int) -> Float? {
    let factor: Float
    if let height = textHeight {
      guard !readableTextHeights.contains(height) else { return nil }
      let wanted = Float(bestTextHeight) / Float(height)
      factor = height > readableTextHeights.upperBound ? wanted : min(wanted, 3, Float(3_600) / Float(pageWidth))
    } else {
      guard pageWidth < narrowestPage else { return nil }
      factor = Float(narrowestPage) / Float(pageWidth)
    }
    return abs(factor - 1) > 0.15 ? factor : nil
  }

  /// The median box height of the words with three letters or digits or more (not specks).
  static func medianTextHeight(_ words: [RecognizedWord]) -> Int? {
    let heights = words.filter { $0.text.filter { $0.isLetter || $0.isNumber }.count >= 3 }.map(\.height).sorted()
    return heights.isEmpty ? nil : heights[heights.count / 2]
  }
}
