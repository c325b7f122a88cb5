import CQRencode

#if canImport(Glibc)
  import Glibc
#endif

/// A QR code's modules, made by libqrencode: what the HTML report draws beside a transfer to
/// someone with an IBAN (an EPC payment code, ``EPCPayment``).
package struct QRCode: Sendable, Equatable {
  /// Modules on a side.
  package let width: Int
  /// Row by row, `true` for a dark module.
  package let modules: [Bool]

  /// Why no code was made.
  package enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
    /// libqrencode is not installed (or too old): what to install.
    case library(String)
    /// The text does not fit a QR code, or the library failed.
    case encoding

    package var description: String {
      switch self {
      case .library(let why): return why
      case .encoding: return "the text does not fit a QR code"
      }
    }
  }

  /// Whether the module at column `x`, row `y` is dark.
  package func isDark(x: Int, y: Int) -> Bool { modules[y * width + x] }

  /// `bytes` in byte mode at error-correction level M (what the EPC guidelines ask for), in the
  /// smallest version that holds them.
  package static func encode(_ bytes: [UInt8]) throws(Problem) -> QRCode {
    let library = try QRCodeLibrary.load()
    guard !bytes.isEmpty, bytes.count <= 2_000 else { throw .encoding }
    let made = unsafe bytes.withUnsafeBufferPointer { buffer in
      unsafe library.encodeData(Int32(buffer.count), buffer.baseAddress, 0, QR_ECLEVEL_M)
    }
    guard let made = unsafe made else { throw .encoding }
    defer { unsafe library.free(made) }
    let width = Int(unsafe made.pointee.width)
    guard width > 0, let data = unsafe made.pointee.data else { throw .encoding }
    let modules = (0..<width * width).map { unsafe data[$0] & 1 == 1 }
    return QRCode(width: width, modules: modules)
  }

  /// An inline SVG of the code: one path of the dark modules, row by row, black on a white square
  /// with the four-module quiet zone a reader needs, `size` CSS pixels wide, and `label` for
  /// screen readers (escaped by the caller).
  package func svg(size: Int, label: String) -> String {
    let side = width + 8
    var path = ""
    for y in 0..<width {
      var x = 0
      while x < width {
        guard isDark(x: x, y: y) else {
          x += 1
          continue
        }
        var run = 1
        while x + run < width, isDark(x: x + run, y: y) { run += 1 }
        path += "M\(x + 4) \(y + 4)h\(run)v1h-\(run)z"
        x += run
      }
    }
    return
      "<svg class=\"qr\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" width=\"\(size)\" height=\"\(size)\" shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"\(label)\"><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>"
  }
}

/// libqrencode, opened the first time a report draws a code (like `scan`'s libraries): linked,
/// every command would load it at start for nothing.
@safe struct QRCodeLibrary: @unchecked Sendable {
  let encodeData: @convention(c) (Int32, UnsafePointer<UInt8>?, Int32, QRecLevel) -> UnsafeMutablePointer<QRcode>?
  let free: @convention(c) (UnsafeMutablePointer<QRcode>?) -> Void

  /// What to install when the library is missing.
  static let install = "QR codes need libqrencode (apt-get install libqrencode4)"

  /// The library, opened once for the process; or why it cannot be.
  static let shared: Result<QRCodeLibrary, QRCode.Problem> = {
    do throws(QRCode.Problem) { return .success(try QRCodeLibrary()) } catch { return .failure(error) }
  }()

  static func load() throws(QRCode.Problem) -> QRCodeLibrary { try shared.get() }

  private init() throws(QRCode.Problem) {
    var handle: UnsafeMutableRawPointer?
    for name in ["libqrencode.so.4", "libqrencode.so"] {
      unsafe handle = unsafe dlopen(name, RTLD_NOW | RTLD_LOCAL)
      if unsafe handle != nil { break }
    }
    guard let handle = unsafe handle else { throw .library(Self.install) }
    guard let encode = unsafe dlsym(handle, "QRcode_encodeData"), let free = unsafe dlsym(handle, "QRcode_free")
    else { throw .library(Self.install + ": the one installed is too old") }
    unsafe encodeData = unsafe unsafeBitCast(
      encode,
      to: (@convention(c) (Int32, UnsafePointer<UInt8>?, Int32, QRecLevel) -> UnsafeMutablePointer<QRcode>?).self)
    unsafe self.free = unsafe unsafeBitCast(free, to: (@convention(c) (UnsafeMutablePointer<QRcode>?) -> Void).self)
  }
}
