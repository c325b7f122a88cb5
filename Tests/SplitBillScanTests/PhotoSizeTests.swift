import Testing

@testable import SplitBillScan

/// A photo's size read from its header, before decoding, in each format `scan` reads.
@Suite struct PhotoSizeTests {
  func bigEndian(_ value: Int, _ width: Int) -> [UInt8] {
    (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - $0))) }
  }

  @Test func pngStatesItsSizeInIHDR() {
    let bytes: [UInt8] =
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13, 4) + Array("IHDR".utf8)
      + bigEndian(30_000, 4) + bigEndian(20_000, 4) + [8, 0, 0, 0, 0]
    #expect(PhotoSize.read(from: bytes, format: .png) == PhotoSize(width: 30_000, height: 20_000))
    #expect(PhotoSize(width: 30_000, height: 20_000).isWithinLimits == false)
    #expect(PhotoSize(width: 8_064, height: 6_048).isWithinLimits)
    #expect(PhotoSize.read(from: Array(bytes.prefix(20)), format: .png) == nil)
  }

  @Test func jpegStatesItsSizeInItsFrameHeader() {
    // SOI, an APP0 segment, fill bytes, then SOF2 (progressive).
    let bytes: [UInt8] =
      [0xFF, 0xD8, 0xFF, 0xE0] + bigEndian(16, 2) + [UInt8](repeating: 0, count: 14) + [0xFF, 0xFF, 0xFF, 0xC2]
      + bigEndian(17, 2) + [8] + bigEndian(4_032, 2) + bigEndian(3_024, 2) + [3]
    #expect(PhotoSize.read(from: bytes, format: .jpeg) == PhotoSize(width: 3_024, height: 4_032))
    // A Huffman table (C4) is no frame header; scan data before any frame states nothing.
    let noFrame: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC4] + bigEndian(4, 2) + [0, 0] + [0xFF, 0xDA, 0, 2]
    #expect(PhotoSize.read(from: noFrame, format: .jpeg) == nil)
  }

  @Test func tiffStatesItsSizeInItsFirstDirectory() {
    // Little-endian: width as a LONG, height as a SHORT.
    var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 2, 0]
    bytes += [0x00, 0x01, 4, 0, 1, 0, 0, 0] + [0x40, 0x9C, 0, 0]
    bytes += [0x01, 0x01, 3, 0, 1, 0, 0, 0] + [0x10, 0x27, 0, 0]
    #expect(PhotoSize.read(from: bytes, format: .tiff) == PhotoSize(width: 40_000, height: 10_000))
    #expect(PhotoSize.read(from: Array(bytes.prefix(24)), format: .tiff) == nil)
  }

  @Test func heifStatesItsSizeInItsLargestSpatialExtent() {
    func ispe(_ width: Int, _ height: Int) -> [UInt8] {
      bigEndian(20, 4) + Array("ispe".utf8) + [0, 0, 0, 0] + bigEndian(width, 4) + bigEndian(height, 4)
    }
    let bytes: [UInt8] =
      bigEndian(24, 4) + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 12) + ispe(512, 512) + ispe(4_032, 3_024)
    #expect(ImageFormat.sniff(bytes) == .heic)
    #expect(PhotoSize.read(from: bytes, format: .heic) == PhotoSize(width: 4_032, height: 3_024))
  }

  @Test func webpStatesItsSizeInItsFirstChunk() {
    func riff(_ chunk: String, _ body: [UInt8]) -> [UInt8] {
      Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + Array(chunk.utf8) + [0, 0, 0, 0] + body
    }
    let lossy = riff("VP8 ", [0, 0, 0, 0x9D, 0x01, 0x2A, 0x20, 0x03, 0x58, 0x02])
    let lossless = riff("VP8L", [0x2F] + [UInt8](repeating: 0, count: 9))
    let extended = riff("VP8X", [0, 0, 0, 0, 0xFF, 0x0F, 0x00, 0xBF, 0x0B, 0x00])
    #expect(ImageFormat.sniff(lossy) == .webp)
    #expect(PhotoSize.read(from: lossy, format: .webp) == PhotoSize(width: 800, height: 600))
    #expect(PhotoSize.read(from: lossless, format: .webp) == PhotoSize(width: 1, height: 1))
    #expect(PhotoSize.read(from: extended, format: .webp) == PhotoSize(width: 4_096, height: 3_008))
    #expect(PhotoSize.read(from: Array(lossy.prefix(24)), format: .webp) == nil)
  }
}
