import CTesseract
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A word Tesseract read: its text, its box on the normalised page (pixels, origin top left) and
/// how sure Tesseract was (0–100).
public struct RecognizedWord: Sendable, Equatable {
  public var text: String
  public var left: Int
  public var top: Int
  public var width: Int
  public var height: Int
  public var confidence: Int
  /// The line Tesseract put the word on (its block, paragraph and line numbers as one key), when
  /// known: words it read as one line stay on one, however slanted the line is on the page.
  public var recognizedLine: Int?

  public init(
    text: String, left: Int, top: Int, width: Int, height: Int, confidence: Int, recognizedLine: Int? = nil
  ) {
    self.text = text
    self.left = left
    self.top = top
    self.width = width
    self.height = height
    self.confidence = confidence
    self.recognizedLine = recognizedLine
  }

  /// The box's right edge.
  public var right: Int { left + width }
  /// The box's vertical middle.
  public var middle: Int { top + height / 2 }
}

/// Why a photo could not be read at all.
public struct PhotoError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  /// Whether the photo was refused for its size (past ``PhotoSize/limit``), not for being unreadable.
  public var isTooLarge: Bool
  public init(message: String, isTooLarge: Bool = false) {
    self.message = message
    self.isTooLarge = isTooLarge
  }
  public var description: String { message }
}

/// A way to prepare the page before recognition; several are tried when the arithmetic of the
/// first reading does not close.
public enum RecognitionPass: Sendable, CaseIterable, Equatable {
  /// Greyscale, straightened when a degree or more askew, scaled; the page read as one block of
  /// text (Tesseract's PSM 6).
  case block
  /// The page as ``block`` reads it, read in the language of the country the first reading
  /// found (``ReceiptCountry/language``: German for a receipt with `MwSt` or `GmbH`), when that
  /// is not a language already read and its data (`tesseract-ocr-deu`) is installed.
  case countryLanguage
  /// The page scaled so its text is of the height Tesseract reads best, read as one block.
  case rescaled
  /// The same page with its background flattened (uneven light, faded thermal print), read as
  /// one column of text of varying sizes (PSM 4).
  case flattened
  /// The page made grey with coloured marks (highlighter, pen) turned pale, scaled like
  /// ``rescaled``, read as one block; only for colour photos with such marks.
  case colouredInkRemoved
  /// The page as ``block`` reads it, made black and white by Tesseract with Sauvola's local
  /// threshold instead of Otsu's global one (thermal print faded in places, a shadow across the
  /// photo), read as one block.
  case locallyThresholded

  /// The pass's name as `--verbose` and the JSON say it.
  public var name: String {
    switch self {
    case .block: "block"
    case .countryLanguage: "country-language"
    case .rescaled: "rescaled"
    case .flattened: "flattened"
    case .colouredInkRemoved: "coloured-ink-removed"
    case .locallyThresholded: "locally-thresholded"
    }
  }
}

/// A photo decoded, turned upright and made grey: Leptonica's picture, owned and freed here.
///
/// Every Leptonica and libheif call of the project is in this file and ``TextRecognizer``: a
/// picture is only ever read or replaced through these methods, so its pointer never escapes.
@safe final class PageImage {
  private var picture: ScanLibraries.Picture?

  /// The page's size in pixels.
  var width: Int { unsafe Int(libs.pixGetWidth(picture)) }
  var height: Int { unsafe Int(libs.pixGetHeight(picture)) }

  private let libs: ScanLibraries

  private init(_ picture: ScanLibraries.Picture, libs: ScanLibraries) {
    unsafe self.picture = picture
    self.libs = libs
  }

  deinit { unsafe libs.pixDestroy(&picture) }

  /// Decodes `bytes` (JPEG, PNG, TIFF, HEIC or WebP), applies the EXIF orientation and makes it grey.
  static func decode(_ bytes: [UInt8]) throws(PhotoError) -> PageImage {
    let libs = try ScanLibraries.load()
    _ = libs.setMsgSeverity(Int32(L_SEVERITY_NONE))
    guard let format = ImageFormat.sniff(bytes) else {
      throw PhotoError(message: "not a JPEG, PNG, TIFF, HEIC or WebP image")
    }
    guard let size = PhotoSize.read(from: bytes, format: format) else {
      throw PhotoError(message: "the \(format.rawValue.uppercased()) file states no image size in its header")
    }
    guard size.width >= 1, size.height >= 1 else {
      throw PhotoError(message: "the \(format.rawValue.uppercased()) header states an empty image (\(size))")
    }
    guard size.isWithinLimits else {
      throw PhotoError(
        message:
          "the photo is \(size), past scan's limit of \(PhotoSize.limit / 1_000_000) megapixels and "
          + "\(PhotoSize.longestSide) pixels a side; scale it down (a receipt reads well at 2,000 pixels wide)",
        isTooLarge: true)
    }
    let decoded: ScanLibraries.Picture?
    if format == .heic {
      unsafe decoded = unsafe try decodeHEIC(bytes, libs: libs)
    } else {
      unsafe decoded = unsafe bytes.withUnsafeBufferPointer { unsafe libs.pixReadMem($0.baseAddress, $0.count) }
    }
    guard let decoded = unsafe decoded else {
      throw PhotoError(message: "the \(format.rawValue.uppercased()) image cannot be decoded")
    }
    let image = unsafe PageImage(decoded, libs: libs)
    if let orientation = ExifOrientation.read(from: bytes, format: format) {
      if orientation.mirrored { unsafe image.replace(unsafe libs.pixFlipLR(nil, image.picture)) }
      if orientation.clockwiseQuarterTurns != 0 {
        unsafe image.replace(unsafe libs.pixRotateOrth(image.picture, Int32(orientation.clockwiseQuarterTurns)))
      }
    }
    image.withoutColouredInk = image.greyWithoutColouredInk()
    unsafe image.replace(unsafe libs.pixConvertTo8(image.picture, 0))
    return image
  }

  /// The same page made grey with coloured marks turned to paper (a highlighter's stroke over a
  /// total, a coloured pen's circle or tick): ``RecognitionPass/colouredInkRemoved`` reads it.
  /// Set by ``decode(_:)`` when the photo is in colour and such marks cover enough of it.
  private(set) var withoutColouredInk: PageImage?

  /// How far apart a pixel's brightest and darkest channels are when it is coloured ink, not
  /// grey print or paper (0–255).
  static let colouredInkSpread: UInt32 = 60
  /// The share of the page, in parts per ten thousand, coloured ink must cover for the page to be
  /// read again without it: specks and a logo's colour do not count, and a photo coloured all
  /// over (a table around the receipt, tinted paper) is no receipt with marks on it.
  static let colouredInkShares = 10...500

  /// A grey page in which each coloured pixel (its channels at least ``colouredInkSpread``
  /// apart) takes its brightest channel, which makes a highlighter's or a pen's colour pale,
  /// while grey and black print keep their luminance. `nil` when the picture is not a 32-bit
  /// colour one, or holds too little coloured ink or too much.
  private func greyWithoutColouredInk() -> PageImage? {
    guard unsafe libs.pixGetDepth(picture) == 32, let source = unsafe libs.pixGetData(picture) else { return nil }
    let width = self.width
    let height = self.height
    let sourceWords = Int(unsafe libs.pixGetWpl(picture))
    // Measured on every fourth pixel of every fourth row: marks are far wider than that.
    var coloured = 0
    var sampled = 0
    for row in stride(from: 0, to: height, by: 4) {
      let line = unsafe source + row * sourceWords
      for column in stride(from: 0, to: width, by: 4) {
        let pixel = unsafe line[column]
        let (red, green, blue) = (pixel >> 24, pixel >> 16 & 0xFF, pixel >> 8 & 0xFF)
        if max(red, green, blue) - min(red, green, blue) >= Self.colouredInkSpread { coloured += 1 }
        sampled += 1
      }
    }
    guard sampled > 0, Self.colouredInkShares.contains(coloured * 10_000 / sampled),
      let grey = unsafe libs.pixCreate(Int32(width), Int32(height), 8), let target = unsafe libs.pixGetData(grey)
    else { return nil }
    let targetWords = Int(unsafe libs.pixGetWpl(grey))
    for row in 0..<height {
      let line = unsafe source + row * sourceWords
      let out = unsafe target + row * targetWords
      for column in 0..<width {
        let pixel = unsafe line[column]
        let (red, green, blue) = (pixel >> 24, pixel >> 16 & 0xFF, pixel >> 8 & 0xFF)
        let brightest = max(red, green, blue)
        let value =
          brightest - min(red, green, blue) >= Self.colouredInkSpread
          ? brightest : (red * 77 + green * 150 + blue * 29) >> 8
        // Leptonica keeps an 8-bit row's bytes in 32-bit words, the first pixel in the high byte.
        unsafe out[column >> 2] |= value << (24 - 8 * UInt32(column & 3))
      }
    }
    return unsafe PageImage(grey, libs: libs)
  }

  /// libheif's decoding of the primary image, as a 32-bit Leptonica picture (libheif applies the
  /// file's own rotation and mirroring).
  private static func decodeHEIC(_ bytes: [UInt8], libs: ScanLibraries) throws(PhotoError) -> ScanLibraries.Picture? {
    guard let context = unsafe libs.heifContextAlloc() else { return nil }
    defer { unsafe libs.heifContextFree(context) }
    let read = unsafe bytes.withUnsafeBytes {
      unsafe libs.heifContextReadFromMemory(context, $0.baseAddress, $0.count, nil)
    }
    guard unsafe read.code == heif_error_Ok else {
      throw PhotoError(message: "the HEIC image cannot be read (\(unsafe String(cString: read.message)))")
    }
    var handle: OpaquePointer?
    guard unsafe libs.heifContextGetPrimaryImageHandle(context, &handle).code == heif_error_Ok,
      let handle = unsafe handle
    else {
      throw PhotoError(message: "the HEIC file has no primary image")
    }
    defer { unsafe libs.heifImageHandleRelease(handle) }
    var image: OpaquePointer?
    let decoded = unsafe libs.heifDecodeImage(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil)
    guard unsafe decoded.code == heif_error_Ok, let image = unsafe image else {
      throw PhotoError(message: "the HEIC image cannot be decoded (\(unsafe String(cString: decoded.message)))")
    }
    defer { unsafe libs.heifImageRelease(image) }
    let width = unsafe libs.heifImageGetWidth(image, heif_channel_interleaved)
    let height = unsafe libs.heifImageGetHeight(image, heif_channel_interleaved)
    var stride: Int32 = 0
    guard width > 0, height > 0,
      let plane = unsafe libs.heifImageGetPlaneReadonly(image, heif_channel_interleaved, &stride),
      let picture = unsafe libs.pixCreate(width, height, 32), let data = unsafe libs.pixGetData(picture)
    else { return nil }
    let wordsPerLine = Int(unsafe libs.pixGetWpl(picture))
    for row in 0..<Int(height) {
      let source = unsafe plane + row * Int(stride)
      let target = unsafe data + row * wordsPerLine
      for column in 0..<Int(width) {
        let red = unsafe UInt32(source[column * 3])
        let green = unsafe UInt32(source[column * 3 + 1])
        let blue = unsafe UInt32(source[column * 3 + 2])
        unsafe target[column] = red << 24 | green << 16 | blue << 8
      }
    }
    return unsafe picture
  }

  /// Replaces the picture by `next` (made from it), freeing the old one; keeps it when `next` is nil.
  private func replace(_ next: ScanLibraries.Picture?) {
    guard let next = unsafe next else { return }
    unsafe libs.pixDestroy(&picture)
    unsafe picture = next
  }

  /// Scales the page by `factor` (area-mapped when shrinking, interpolated when enlarging).
  func scale(by factor: Float) {
    guard abs(factor - 1) > 0.02 else { return }
    unsafe replace(unsafe libs.pixScale(picture, factor, factor))
  }

  /// Straightens a page photographed askew by `minimumDegrees` or more (Leptonica finds the
  /// angle); a page less askew is left as it is.
  func deskew(minimumDegrees: Float) {
    var angle: Float = 0
    guard let straightened = unsafe libs.pixFindSkewAndDeskew(picture, 0, &angle, nil) else { return }
    if abs(angle) >= minimumDegrees {
      unsafe replace(straightened)
    } else {
      var doomed: ScanLibraries.Picture? = unsafe straightened
      unsafe libs.pixDestroy(&doomed)
    }
  }

  /// Stretches the page's grey levels so that the darkest `darkShare` (in parts per ten
  /// thousand) of its pixels turn black and the rest spread over the whole range up to white. A
  /// page of faint print with a few black specks on it (a hole punch, a pen's dot, a dark edge)
  /// has its global threshold fall between the specks and everything else, and reads as blank;
  /// stretched, the print is the darkest part that counts. A page whose darkest pixels are
  /// already near black is left as it is.
  func stretchContrast(darkShare: Int) {
    guard unsafe libs.pixGetDepth(picture) == 8, let data = unsafe libs.pixGetData(picture) else { return }
    let width = self.width
    let height = self.height
    let wordsPerLine = Int(unsafe libs.pixGetWpl(picture))
    // Leptonica keeps an 8-bit row's bytes in 32-bit words, the first pixel in the high byte.
    var histogram = [Int](repeating: 0, count: 256)
    for row in 0..<height {
      let line = unsafe data + row * wordsPerLine
      for column in 0..<width { histogram[Int(unsafe line[column >> 2] >> (24 - 8 * UInt32(column & 3)) & 0xFF)] += 1 }
    }
    var darkest = 0
    var below = 0
    while darkest < 255, (below + histogram[darkest]) * 10_000 <= width * height * darkShare {
      below += histogram[darkest]
      darkest += 1
    }
    guard darkest >= Self.blackEnough, darkest <= 255 - Self.blackEnough else { return }
    let levels = (0..<256).map { UInt32(max(0, $0 - darkest) * 255 / (255 - darkest)) }
    for row in 0..<height {
      let line = unsafe data + row * wordsPerLine
      for index in 0..<wordsPerLine {
        let word = unsafe line[index]
        unsafe line[index] =
          levels[Int(word >> 24)] << 24 | levels[Int(word >> 16 & 0xFF)] << 16 | levels[Int(word >> 8 & 0xFF)] << 8
          | levels[Int(word & 0xFF)]
      }
    }
  }

  /// A grey level this dark or darker is black enough to need no stretching.
  static let blackEnough = 32

  /// Flattens uneven lighting and faded print: the background normalised to white.
  func flattenBackground() { unsafe replace(unsafe libs.pixBackgroundNormSimple(picture, nil, nil)) }

  /// The page as a JPEG (for a vision model: upright, grey, small), or `nil` if it cannot be encoded.
  func jpeg(quality: Int32 = 85) -> [UInt8]? {
    var data: UnsafeMutablePointer<UInt8>?
    var size = 0
    guard unsafe libs.pixWriteMemJpeg(&data, &size, picture, quality, 0) == 0, let data = unsafe data else {
      return nil
    }
    defer { unsafe libs.leptFree(data) }
    return unsafe Array(UnsafeBufferPointer(start: data, count: size))
  }

  /// A copy, for a pass that changes the page (`nil` when there is no memory for it).
  func copy() -> PageImage? {
    guard let copied = unsafe libs.pixCopy(nil, picture) else { return nil }
    return unsafe PageImage(copied, libs: libs)
  }

  /// Hands the picture to Tesseract for the duration of `body`.
  fileprivate func withPicture<T>(_ body: (ScanLibraries.Picture?) -> T) -> T { unsafe body(picture) }
}

/// Tesseract, once per thread: initialised with the languages asked for, reused for every photo
/// that thread reads.
@safe final class TextRecognizer {
  private let api: OpaquePointer?
  private let libs: ScanLibraries

  /// A recogniser for `languages` (Tesseract's names joined by `+`, `eng+deu`), with the data in
  /// `dataPath` (`nil`: Tesseract's default, Debian's /usr/share/tesseract-ocr/5/tessdata).
  init(languages: String, dataPath: String?) throws(PhotoError) {
    libs = try ScanLibraries.load()
    // One recogniser per core already uses every core: Tesseract's own OpenMP threads would
    // only compete with them (and spin, waiting for work).
    libs.ompSetMaxActiveLevels(0)
    // Tesseract prints its own complaints and then cannot be used: the data is looked for first.
    try Self.requireLanguageData(languages, dataPath: dataPath)
    // The handle is kept only once it is initialised: a throw before then must not run `deinit`,
    // which ends and deletes it (ending a handle whose initialisation failed crashes Tesseract).
    let created = unsafe libs.tessCreate()
    guard unsafe libs.tessInit3(created, dataPath, languages) == 0 else {
      unsafe libs.tessDelete(created)
      throw PhotoError(
        message:
          "Tesseract cannot load the language data for \(languages) (install tesseract-ocr-eng, or the "
          + "tesseract-ocr-<language> package for each language asked for)")
    }
    unsafe api = created
    _ = unsafe libs.tessSetVariable(api, "preserve_interword_spaces", "1")
    _ = unsafe libs.tessSetVariable(api, "debug_file", "/dev/null")
    // Receipts are dark print on light paper: no second reading of each line inverted.
    _ = unsafe libs.tessSetVariable(api, "tessedit_do_invert", "0")
  }

  /// Where Tesseract looks for its data: `dataPath`, else `TESSDATA_PREFIX`, else Debian's.
  static func dataDirectory(_ dataPath: String?) -> String {
    if let dataPath, !dataPath.isEmpty { return dataPath }
    if let prefix = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], !prefix.isEmpty { return prefix }
    return "/usr/share/tesseract-ocr/5/tessdata"
  }

  /// Why `languages` is not Tesseract's names joined by `+` (`eng`, `eng+deu`, `chi_sim`,
  /// `script/Latin`), or `nil` when it is.
  static func malformedLanguages(_ languages: String) -> String? {
    let names = languages.split(separator: "+", omittingEmptySubsequences: false)
    let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-" || c == "/") }
    guard languages.utf8.count <= 256,
      names.allSatisfy({ !$0.isEmpty && $0.allSatisfy(allowed) && !$0.hasPrefix("/") && !$0.contains("..") })
    else {
      // Echoed only when it is short printable ASCII (the message reaches a terminal).
      let shown = languages.utf8.count <= 64 && languages.utf8.allSatisfy { (0x20..<0x7F).contains($0) }
      return (shown ? "'\(languages)' is not" : "it is not") + " a list of Tesseract languages: "
        + "expected names joined by +, as eng or eng+deu"
    }
    return nil
  }

  /// Refuses a language list that is not names joined by `+` (`eng`, `eng+deu`, `chi_sim`,
  /// `script/Latin`), or one whose `NAME.traineddata` is not in the data directory, naming the
  /// Debian package that has it.
  static func requireLanguageData(_ languages: String, dataPath: String?) throws(PhotoError) {
    if let problem = malformedLanguages(languages) { throw PhotoError(message: problem) }
    let names = languages.split(separator: "+")
    let directory = dataDirectory(dataPath)
    let missing = names.filter { !FileManager.default.fileExists(atPath: directory + "/" + $0 + ".traineddata") }
    guard missing.isEmpty else {
      let packages = missing.map { "tesseract-ocr-" + $0.lowercased().replacingOccurrences(of: "_", with: "-") }
      throw PhotoError(
        message:
          "Tesseract has no data for \(missing.joined(separator: ", ")) in \(directory) (apt-get install "
          + "\(packages.joined(separator: " ")), or set TESSDATA_PREFIX to the directory holding "
          + "\(missing[0]).traineddata)")
    }
  }

  deinit {
    unsafe libs.tessEnd(api)
    unsafe libs.tessDelete(api)
  }

  /// The words on `page`, read with the page segmentation the pass uses.
  func words(on page: PageImage, pass: RecognitionPass) -> [RecognizedWord] {
    let mode = pass == .flattened ? PSM_SINGLE_COLUMN : PSM_SINGLE_BLOCK
    unsafe libs.tessSetPageSegMode(api, mode)
    // Tesseract's thresholding_method: 0 Otsu (its default), 2 Sauvola.
    let local = pass == .locallyThresholded
    if local { _ = unsafe libs.tessSetVariable(api, "thresholding_method", "2") }
    defer { if local { _ = unsafe libs.tessSetVariable(api, "thresholding_method", "0") } }
    unsafe page.withPicture { unsafe libs.tessSetImage2(api, $0) }
    unsafe libs.tessSetSourceResolution(api, 300)
    guard unsafe libs.tessRecognize(api, nil) == 0, let text = unsafe libs.tessGetTsvText(api, 0) else {
      unsafe libs.tessClear(api)
      return []
    }
    let tsv = unsafe String(cString: text)
    unsafe libs.tessDeleteText(text)
    unsafe libs.tessClear(api)
    return Self.parseTSV(tsv)
  }

  /// Tesseract's TSV: `level page block paragraph line word left top width height confidence text`,
  /// a row per element; the words are level 5.
  static func parseTSV(_ tsv: String) -> [RecognizedWord] {
    var words: [RecognizedWord] = []
    for row in tsv.split(separator: "\n") {
      let fields = row.split(separator: "\t", maxSplits: 11, omittingEmptySubsequences: false)
      guard fields.count == 12, fields[0] == "5",
        let left = Int(fields[6]), let top = Int(fields[7]), let width = Int(fields[8]), let height = Int(fields[9])
      else { continue }
      let line = Int(fields[2]).flatMap { block in
        Int(fields[3]).flatMap { paragraph in Int(fields[4]).map { (block * 1_000 + paragraph) * 1_000 + $0 } }
      }
      let text = fields[11].trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty else { continue }
      let confidence = Int(fields[10].split(separator: ".").first ?? "0") ?? 0
      words.append(
        RecognizedWord(
          text: text, left: left, top: top, width: width, height: height, confidence: confidence, recognizedLine: line))
    }
    return words
  }
}
