import CTesseract

#if canImport(Glibc)
  import Glibc
#endif

/// Tesseract, Leptonica and libheif, opened the first time `scan` needs them.
///
/// The `CTesseract` target declares the few types and constants used (in the project: no
/// development package is needed to build) and links nothing: linked, every command (`report`, `check`, `--version`) would load them and
/// their 25 dependencies at start, 7 MB of memory and 10 ms for nothing. They are opened with
/// `dlopen` here instead, and each function used is looked up once, its type written to match
/// its C declaration.
@safe struct ScanLibraries: @unchecked Sendable {
  /// Leptonica's `PIX *`: opaque, only ever passed to its functions.
  typealias Picture = OpaquePointer

  // Leptonica.
  let setMsgSeverity: @convention(c) (Int32) -> Int32
  let pixReadMem: @convention(c) (UnsafePointer<UInt8>?, Int) -> Picture?
  let pixFlipLR: @convention(c) (Picture?, Picture?) -> Picture?
  let pixRotateOrth: @convention(c) (Picture?, Int32) -> Picture?
  let pixConvertTo8: @convention(c) (Picture?, Int32) -> Picture?
  let pixDestroy: @convention(c) (UnsafeMutablePointer<Picture?>?) -> Void
  let pixGetWidth: @convention(c) (Picture?) -> Int32
  let pixGetHeight: @convention(c) (Picture?) -> Int32
  let pixGetWpl: @convention(c) (Picture?) -> Int32
  let pixGetDepth: @convention(c) (Picture?) -> Int32
  let pixGetData: @convention(c) (Picture?) -> UnsafeMutablePointer<UInt32>?
  let pixCreate: @convention(c) (Int32, Int32, Int32) -> Picture?
  let pixScale: @convention(c) (Picture?, Float, Float) -> Picture?
  let pixFindSkewAndDeskew:
    @convention(c) (Picture?, Int32, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?) -> Picture?
  let pixBackgroundNormSimple: @convention(c) (Picture?, Picture?, Picture?) -> Picture?
  let pixCopy: @convention(c) (Picture?, Picture?) -> Picture?
  let pixWriteMemJpeg:
    @convention(c) (
      UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, UnsafeMutablePointer<Int>?, Picture?, Int32, Int32
    )
      -> Int32
  let leptFree: @convention(c) (UnsafeMutableRawPointer?) -> Void

  // libheif.
  let heifContextAlloc: @convention(c) () -> OpaquePointer?
  let heifContextFree: @convention(c) (OpaquePointer?) -> Void
  let heifContextReadFromMemory: @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int, OpaquePointer?) -> heif_error
  let heifContextGetPrimaryImageHandle:
    @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> heif_error
  let heifImageHandleRelease: @convention(c) (OpaquePointer?) -> Void
  let heifDecodeImage:
    @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, heif_colorspace, heif_chroma, OpaquePointer?)
      -> heif_error
  let heifImageRelease: @convention(c) (OpaquePointer?) -> Void
  let heifImageGetWidth: @convention(c) (OpaquePointer?, heif_channel) -> Int32
  let heifImageGetHeight: @convention(c) (OpaquePointer?, heif_channel) -> Int32
  let heifImageGetPlaneReadonly:
    @convention(c) (OpaquePointer?, heif_channel, UnsafeMutablePointer<Int32>?) -> UnsafePointer<UInt8>?

  // Tesseract, and the OpenMP runtime it uses.
  let tessCreate: @convention(c) () -> OpaquePointer?
  let tessInit3: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
  let tessDelete: @convention(c) (OpaquePointer?) -> Void
  let tessEnd: @convention(c) (OpaquePointer?) -> Void
  let tessClear: @convention(c) (OpaquePointer?) -> Void
  let tessSetVariable: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
  let tessSetPageSegMode: @convention(c) (OpaquePointer?, TessPageSegMode) -> Void
  let tessSetImage2: @convention(c) (OpaquePointer?, Picture?) -> Void
  let tessSetSourceResolution: @convention(c) (OpaquePointer?, Int32) -> Void
  let tessRecognize: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
  let tessGetTsvText: @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
  let tessDeleteText: @convention(c) (UnsafePointer<CChar>?) -> Void
  let ompSetMaxActiveLevels: @convention(c) (Int32) -> Void

  /// The libraries, opened once for the process; or why they cannot be.
  static let shared: Result<ScanLibraries, PhotoError> = {
    do throws(PhotoError) { return .success(try ScanLibraries()) } catch { return .failure(error) }
  }()

  /// The opened libraries, or the reason `scan` cannot read photos here.
  static func load() throws(PhotoError) -> ScanLibraries { try shared.get() }

  private init() throws(PhotoError) {
    func open(_ names: [String]) throws(PhotoError) -> UnsafeMutableRawPointer {
      for name in names {
        if let handle = unsafe dlopen(name, RTLD_NOW | RTLD_LOCAL) { return unsafe handle }
      }
      throw PhotoError(
        message:
          "scan needs \(names[0]) (apt-get install libtesseract5 liblept5 libheif1 tesseract-ocr-eng): "
          + (unsafe dlerror().map { unsafe String(cString: $0) } ?? "it cannot be opened"))
    }
    let tesseract = unsafe try open(["libtesseract.so.5", "libtesseract.so"])
    let leptonica = unsafe try open(["liblept.so.5", "libleptonica.so.6", "liblept.so"])
    let heif = unsafe try open(["libheif.so.1", "libheif.so"])
    let gomp = unsafe try open(["libgomp.so.1"])
    func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String) throws(PhotoError) -> T {
      guard let address = unsafe dlsym(handle, name) else {
        throw PhotoError(message: "scan cannot find \(name) in the installed libraries (a version too old?)")
      }
      return unsafe unsafeBitCast(address, to: T.self)
    }
    setMsgSeverity = unsafe try symbol(leptonica, "setMsgSeverity")
    unsafe pixReadMem = unsafe try symbol(leptonica, "pixReadMem")
    unsafe pixFlipLR = unsafe try symbol(leptonica, "pixFlipLR")
    unsafe pixRotateOrth = unsafe try symbol(leptonica, "pixRotateOrth")
    unsafe pixConvertTo8 = unsafe try symbol(leptonica, "pixConvertTo8")
    unsafe pixDestroy = unsafe try symbol(leptonica, "pixDestroy")
    unsafe pixGetWidth = unsafe try symbol(leptonica, "pixGetWidth")
    unsafe pixGetHeight = unsafe try symbol(leptonica, "pixGetHeight")
    unsafe pixGetWpl = unsafe try symbol(leptonica, "pixGetWpl")
    unsafe pixGetDepth = unsafe try symbol(leptonica, "pixGetDepth")
    unsafe pixGetData = unsafe try symbol(leptonica, "pixGetData")
    unsafe pixCreate = unsafe try symbol(leptonica, "pixCreate")
    unsafe pixScale = unsafe try symbol(leptonica, "pixScale")
    unsafe pixFindSkewAndDeskew = unsafe try symbol(leptonica, "pixFindSkewAndDeskew")
    unsafe pixBackgroundNormSimple = unsafe try symbol(leptonica, "pixBackgroundNormSimple")
    unsafe pixCopy = unsafe try symbol(leptonica, "pixCopy")
    unsafe pixWriteMemJpeg = unsafe try symbol(leptonica, "pixWriteMemJpeg")
    unsafe leptFree = unsafe try symbol(leptonica, "lept_free")
    unsafe heifContextAlloc = unsafe try symbol(heif, "heif_context_alloc")
    unsafe heifContextFree = unsafe try symbol(heif, "heif_context_free")
    unsafe heifContextReadFromMemory = unsafe try symbol(
      heif, "heif_context_read_from_memory")
    unsafe heifContextGetPrimaryImageHandle = unsafe try symbol(
      heif, "heif_context_get_primary_image_handle")
    unsafe heifImageHandleRelease = unsafe try symbol(heif, "heif_image_handle_release")
    unsafe heifDecodeImage = unsafe try symbol(heif, "heif_decode_image")
    unsafe heifImageRelease = unsafe try symbol(heif, "heif_image_release")
    unsafe heifImageGetWidth = unsafe try symbol(heif, "heif_image_get_width")
    unsafe heifImageGetHeight = unsafe try symbol(heif, "heif_image_get_height")
    unsafe heifImageGetPlaneReadonly = unsafe try symbol(
      heif, "heif_image_get_plane_readonly")
    unsafe tessCreate = unsafe try symbol(tesseract, "TessBaseAPICreate")
    unsafe tessInit3 = unsafe try symbol(tesseract, "TessBaseAPIInit3")
    unsafe tessDelete = unsafe try symbol(tesseract, "TessBaseAPIDelete")
    unsafe tessEnd = unsafe try symbol(tesseract, "TessBaseAPIEnd")
    unsafe tessClear = unsafe try symbol(tesseract, "TessBaseAPIClear")
    unsafe tessSetVariable = unsafe try symbol(tesseract, "TessBaseAPISetVariable")
    unsafe tessSetPageSegMode = unsafe try symbol(tesseract, "TessBaseAPISetPageSegMode")
    unsafe tessSetImage2 = unsafe try symbol(tesseract, "TessBaseAPISetImage2")
    unsafe tessSetSourceResolution = unsafe try symbol(
      tesseract, "TessBaseAPISetSourceResolution")
    unsafe tessRecognize = unsafe try symbol(tesseract, "TessBaseAPIRecognize")
    unsafe tessGetTsvText = unsafe try symbol(tesseract, "TessBaseAPIGetTsvText")
    unsafe tessDeleteText = unsafe try symbol(tesseract, "TessDeleteText")
    ompSetMaxActiveLevels = unsafe try symbol(gomp, "omp_set_max_active_levels")
  }
}
