/// The kinds of photo `scan` reads, told by their first bytes (never by the file's extension).
public enum ImageFormat: String, Sendable, Equatable {
  case jpeg, png, tiff, heic, webp

  /// The format of an image whose file starts with `head`, or `nil` when it is none of them.
  public static func sniff(_ head: some Collection<UInt8>) -> ImageFormat? {
    let bytes = Array(head.prefix(12))
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
    // RIFF, then WEBP (what messengers save photos as).
    if bytes.count >= 12, bytes[0...3].elementsEqual("RIFF".utf8), bytes[8...11].elementsEqual("WEBP".utf8) {
      return .webp
    }
    // ISO base media: a box `ftyp` whose major brand is one of HEIF's.
    if bytes.count >= 12, bytes[4...7].elementsEqual("ftyp".utf8) {
      let brand = String(decoding: bytes[8...11], as: UTF8.self)
      if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif"].contains(brand) { return .heic }
    }
    return nil
  }
}

/// How a camera says the picture must be turned to stand upright: EXIF's Orientation tag (0x0112),
/// 1 to 8. Leptonica does not apply it; `scan` does, before anything else.
public struct ExifOrientation: Sendable, Equatable {
  /// The tag's value, 1 (upright) to 8.
  public var value: Int

  /// Quarter turns clockwise that make the picture upright, after ``mirrored`` is applied.
  public var clockwiseQuarterTurns: Int {
    switch value {
    case 3, 4: 2
    case 5, 6: 1
    case 7, 8: 3
    default: 0
    }
  }

  /// Whether the picture is mirrored left to right (values 2, 4, 5 and 7).
  public var mirrored: Bool { [2, 4, 5, 7].contains(value) }

  /// The orientation a JPEG's EXIF block (APP1) or a TIFF file's first directory gives, or `nil`
  /// when there is none or it cannot be read. Reads at most the segments before the image data.
  public static func read(from bytes: [UInt8], format: ImageFormat) -> ExifOrientation? {
    switch format {
    case .tiff: return fromTIFF(bytes[...])
    case .jpeg:
      var index = 2
      while index + 4 <= bytes.count, bytes[index] == 0xFF {
        let marker = bytes[index + 1]
        // Start of scan or end of image: no more metadata segments.
        if marker == 0xDA || marker == 0xD9 { return nil }
        let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
        guard length >= 2, index + 2 + length <= bytes.count else { return nil }
        let body = bytes[(index + 4)..<(index + 2 + length)]
        if marker == 0xE1, body.starts(with: Array("Exif".utf8) + [0, 0]) {
          return fromTIFF(body.dropFirst(6))
        }
        index += 2 + length
      }
      return nil
    case .png, .heic, .webp: return nil
    }
  }

  /// Tag 0x0112 of a TIFF structure's first directory.
  static func fromTIFF(_ tiff: ArraySlice<UInt8>) -> ExifOrientation? {
    let start = tiff.startIndex
    guard tiff.count >= 8 else { return nil }
    let littleEndian = tiff[start] == 0x49
    func integer(_ offset: Int, _ width: Int) -> Int? {
      guard offset >= 0, offset + width <= tiff.count else { return nil }
      var value = 0
      for position in 0..<width {
        let byte = Int(tiff[start + offset + (littleEndian ? width - 1 - position : position)])
        value = value << 8 | byte
      }
      return value
    }
    guard let directory = integer(4, 4), let entries = integer(directory, 2) else { return nil }
    for entry in 0..<min(entries, 512) {
      let at = directory + 2 + entry * 12
      guard let tag = integer(at, 2) else { return nil }
      if tag == 0x0112, let value = integer(at + 8, 2), (1...8).contains(value) {
        return ExifOrientation(value: value)
      }
    }
    return nil
  }
}

/// A photo's size in pixels as its header states it, read before any decoding: what decoding
/// would cost in memory is known, and refused past ``PhotoSize/limit``, whatever the file's own
/// size (a small PNG may claim 30,000 × 30,000 pixels).
public struct PhotoSize: Sendable, Equatable, CustomStringConvertible {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The most pixels a photo may have: 64 megapixels, above a 48- or 50-megapixel phone camera's
  /// full-resolution picture. Decoded in colour it takes 4 bytes a pixel (256 MB at the limit),
  /// and each page `scan` makes from it is smaller, so a photo's memory is bounded by the limit.
  public static let limit = 64_000_000
  /// The longest side a photo may have, in pixels (a very long strip is refused too).
  public static let longestSide = 30_000

  /// The number of pixels.
  public var pixels: Int { width * height }

  /// Whether decoding it stays within the limits.
  public var isWithinLimits: Bool {
    width >= 1 && height >= 1 && width <= Self.longestSide && height <= Self.longestSide && pixels <= Self.limit
  }

  public var description: String { "\(width) × \(height) pixels" }

  /// The size the header of `bytes` (an image of `format`) states, or `nil` when it states none
  /// that can be read: PNG's IHDR, a JPEG's frame header (SOF), a TIFF's first directory, a HEIF
  /// file's image spatial extents (`ispe`; of several, a grid's and its tiles', the largest).
  public static func read(from bytes: [UInt8], format: ImageFormat) -> PhotoSize? {
    func bigEndian(_ offset: Int, _ width: Int) -> Int? {
      guard offset >= 0, offset + width <= bytes.count else { return nil }
      return bytes[offset..<(offset + width)].reduce(0) { $0 << 8 | Int($1) }
    }
    switch format {
    case .png:
      guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8),
        let width = bigEndian(16, 4), let height = bigEndian(20, 4)
      else { return nil }
      return PhotoSize(width: width, height: height)
    case .jpeg:
      var index = 2
      while index + 4 <= bytes.count {
        guard bytes[index] == 0xFF else { return nil }
        let marker = bytes[index + 1]
        // Fill bytes before a marker.
        if marker == 0xFF {
          index += 1
          continue
        }
        // Markers without a length: restart markers, TEM.
        if (0xD0...0xD7).contains(marker) || marker == 0x01 {
          index += 2
          continue
        }
        if marker == 0xDA || marker == 0xD9 { return nil }
        guard let length = bigEndian(index + 2, 2), length >= 2 else { return nil }
        // Start of frame, of every coding (not DHT C4, JPG C8, DAC CC).
        if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
          guard let height = bigEndian(index + 5, 2), let width = bigEndian(index + 7, 2) else { return nil }
          return PhotoSize(width: width, height: height)
        }
        index += 2 + length
      }
      return nil
    case .tiff:
      let littleEndian = bytes.first == 0x49
      func integer(_ offset: Int, _ width: Int) -> Int? {
        guard offset >= 0, offset + width <= bytes.count else { return nil }
        var value = 0
        for position in 0..<width {
          value = value << 8 | Int(bytes[offset + (littleEndian ? width - 1 - position : position)])
        }
        return value
      }
      guard let directory = integer(4, 4), let entries = integer(directory, 2) else { return nil }
      var width: Int?
      var height: Int?
      for entry in 0..<min(entries, 4_096) {
        let at = directory + 2 + entry * 12
        guard let tag = integer(at, 2), let type = integer(at + 2, 2) else { return nil }
        guard tag == 0x0100 || tag == 0x0101 else { continue }
        // SHORT or LONG, the value in the entry itself.
        let value = type == 3 ? integer(at + 8, 2) : type == 4 ? integer(at + 8, 4) : nil
        if tag == 0x0100 { width = value } else { height = value }
      }
      guard let width, let height else { return nil }
      return PhotoSize(width: width, height: height)
    case .webp:
      // The first chunk after `WEBP`: a lossy frame (`VP8 `), a lossless one (`VP8L`) or the
      // extended header (`VP8X`, the canvas size).
      func littleEndian(_ offset: Int, _ width: Int) -> Int? {
        guard offset + width <= bytes.count else { return nil }
        return (0..<width).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
      }
      guard bytes.count >= 30 else { return nil }
      let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
      switch chunk {
      case "VP8 ":
        guard bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A, let width = littleEndian(26, 2),
          let height = littleEndian(28, 2)
        else { return nil }
        return PhotoSize(width: width & 0x3FFF, height: height & 0x3FFF)
      case "VP8L":
        guard bytes[20] == 0x2F, let bits = littleEndian(21, 4) else { return nil }
        return PhotoSize(width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
      case "VP8X":
        guard let width = littleEndian(24, 3), let height = littleEndian(27, 3) else { return nil }
        return PhotoSize(width: width + 1, height: height + 1)
      default:
        return nil
      }
    case .heic:
      // `ispe` boxes: size, `ispe`, version and flags, width, height (32 bits each).
      var largest: PhotoSize?
      let name = Array("ispe".utf8)
      var index = 4
      while index + 16 <= bytes.count {
        if bytes[index] == name[0], bytes[index + 1] == name[1], bytes[index + 2] == name[2],
          bytes[index + 3] == name[3], bigEndian(index - 4, 4) == 20,
          let width = bigEndian(index + 8, 4), let height = bigEndian(index + 12, 4)
        {
          largest = PhotoSize(width: max(width, largest?.width ?? 0), height: max(height, largest?.height ?? 0))
        }
        index += 1
      }
      return largest
    }
  }
}
