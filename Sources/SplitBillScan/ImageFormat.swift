/// The kinds of photo `scan` reads, told by their first bytes (never by the file's extension).
public enum ImageFormat: String, Sendable, Equatable {
  case jpeg, png, tiff, heic

  /// The format of an image whose file starts with `head`, or `nil` when it is none of them.
  public static func sniff(_ head: some Collection<UInt8>) -> ImageFormat? {
    let bytes = Array(head.prefix(12))
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
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
    case .png, .heic: return nil
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
