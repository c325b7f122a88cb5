import Foundation
import Testing

/// Whether receipts can be rendered here: Pillow, pillow-heif and Debian's DejaVu fonts.
let receiptRendering =
  pythonHas("import PIL, pillow_heif")
  && FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")

/// `splitbill scan` on photos of receipts the test renders with known contents
/// (scripts/render_receipt.py): a plain scan, a tilted and noisy JPEG, an EXIF-rotated JPEG, a
/// HEIC, faded thermal print, a total under a highlighter's stroke, faint print with black specks,
/// and a receipt whose printed total is wrong.
@Suite(
  .enabled(
    if: needing(receiptRendering && tesseractData),
    "needs Pillow and pillow-heif (pip install pillow pillow-heif) and fonts-dejavu-core to render receipts, and scan's libraries (apt-get install libtesseract5 liblept5 libheif1 tesseract-ocr-eng)"
  ),
  .serialized)
struct ScanCommandTests {
  /// The rendered photos, once per run: their directory, and each one's expected total.
  static let photos: (directory: URL, totals: [String: String]) = {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("splitbill-scan-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
    let specs: [[String: Any]] = [
      [
        "file": file("heron.png"),
        "lines": [
          ["BLUE HERON CAFE"], ["Date: 2026-11-20"], [""], ["Clam chowder", "9.50"], ["2 x Fish tacos", "25.00"],
          ["Lemonade", "4.25"], ["Subtotal", "38.75"], ["Tax 8%", "3.10"], ["TOTAL", "41.85"], ["CASH", "50.00"],
          ["CHANGE", "8.15"],
        ],
      ],
      [
        "file": file("mario.jpg"), "format": "jpeg", "rotate": 3, "blur": 1, "noise": 30,
        "lines": [
          ["TRATTORIA DA MARIO"], ["20/11/2026"], ["Pizza margherita", "12,00"], ["Tiramisu", "6,50"],
          ["Acqua", "3,00"], ["Coperto", "4,00"], ["TOTALE EUR", "25,50"],
        ],
      ],
      [
        "file": file("deli.jpg"), "format": "jpeg", "exif_orientation": 6,
        "lines": [["CORNER DELI"], ["11/03/2026"], ["Bagel", "3.50"], ["Coffee", "2.75"], ["TOTAL", "6.25"]],
      ],
      [
        "file": file("adler.heic"), "format": "heic",
        "lines": [
          ["GASTHAUS ADLER"], ["21.11.2026"], ["Schnitzel", "18,90"], ["Bier", "4,50"], ["Summe EUR", "23,40"],
        ],
      ],
      [
        "file": file("kopi.png"), "fade": true,
        "lines": [
          ["KEDAI KOPI"], ["Nasi lemak", "RM 8.50"], ["Teh tarik", "RM 2.80"], ["SUBTOTAL", "11.30"],
          ["SST 6%", "0.68"], ["ROUNDING", "0.02"], ["TOTAL", "RM 12.00"],
        ],
      ],
      [
        // A pink highlighter's zigzag across the total: read again with the colour made paper.
        "file": file("noodle.jpg"), "format": "jpeg", "pen": [5],
        "lines": [
          ["NOODLE HOUSE"], ["12/11/2026"], ["Laksa", "RM 9.50"], ["Teh tarik", "RM 2.80"], ["SUBTOTAL", "12.30"],
          ["TOTAL", "RM 12.30"], ["Thank you"],
        ],
      ],
      [
        // Faint print on a scan with a few black dots on it: read as blank until stretched. Its
        // summary is in two columns, a count beside each figure.
        "file": file("faint.png"), "ink": 205, "specks": 6, "table": false,
        "lines": [
          ["WELLMART"], ["Blueberry bun", "3.05"], ["Pak choy", "3.78"], ["ITEM: 2   Total with GST", "6.83"],
          ["QTY: 3    ROUNDING", "0.02"], ["SAVING: 0.00   TOTAL", "6.85"], ["Cash", "20.00"], ["CHANGE", "13.15"],
        ],
      ],
      [
        "file": file("wrong.png"),
        "lines": [["DINER"], ["Burger", "12.00"], ["Fries", "4.00"], ["TOTAL", "17.00"]],
      ],
    ]
    if let data = try? JSONSerialization.data(withJSONObject: specs) {
      _ = try? runProcess("python3", ["scripts/render_receipt.py"], stdin: data)
    }
    return (
      directory,
      [
        "heron.png": "41.85", "mario.jpg": "25.50", "deli.jpg": "6.25", "adler.heic": "23.40", "kopi.png": "12.00",
        "noodle.jpg": "12.30", "faint.png": "6.85", "wrong.png": "17.00",
      ]
    )
  }()

  static func path(_ name: String) -> String { photos.directory.appendingPathComponent(name).path }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func everyReceiptIsReadAndTheWrongTotalIsCaught() throws {
    let outcome = try runBinary([
      "scan", Self.photos.directory.path, "--format", "json", "--currency", "USD", "--jobs", "2",
    ])
    #expect(outcome.code == 1, "one receipt needs review: \(outcome.stderr)")
    let receipts = try #require(try Self.json(outcome.stdout)["receipts"] as? [[String: Any]])
    #expect(receipts.count == 8)
    for receipt in receipts {
      let file: String = try #require(receipt["file"] as? String)
      let name = String(file.split(separator: "/").last ?? "")
      let total = (receipt["total"] as? NSNumber).map { String(format: "%.2f", $0.doubleValue) }
      #expect(total == Self.photos.totals[name], "\(name): \(receipt["lines"] ?? "")")
      if name == "wrong.png" {
        #expect(receipt["status"] as? String == "needs-review")
        let review = receipt["review"] as? [[String: Any]] ?? []
        #expect(review.first?["code"] as? String == "scan.total-mismatch")
        #expect(review.first?["line"] as? Int == 4)
      } else {
        #expect(receipt["status"] as? String == "verified", "\(name): \(receipt["review"] ?? "")")
      }
    }
    let byName = Dictionary(
      uniqueKeysWithValues: receipts.map {
        (($0["file"] as? String ?? "").split(separator: "/").last.map(String.init) ?? "", $0)
      })
    #expect(byName["mario.jpg"]?["currency"] as? String == "EUR")
    #expect(byName["kopi.png"]?["currency"] as? String == "MYR")
    #expect(byName["heron.png"]?["currency"] as? String == "USD")
    #expect(byName["deli.jpg"]?["date"] as? String == "2026-11-03")
    let heronItems = byName["heron.png"]?["items"] as? [[String: Any]] ?? []
    #expect(heronItems.map { $0["name"] as? String } == ["Clam chowder", "Fish tacos", "Lemonade"])
    #expect(heronItems.map { $0["quantity"] as? Int } == [1, 2, 1])
    #expect(outcome.stderr.contains("wrong.png (line 4)"))
    // Every reading made is said; one is kept: for the highlighted total, the one with the pink
    // made paper.
    for receipt in receipts {
      let readings = receipt["readings"] as? [[String: Any]] ?? []
      #expect(!readings.isEmpty)
      #expect(readings.filter { $0["kept"] as? Bool == true }.count == 1, "\(receipt["file"] ?? "")")
    }
    let noodle = byName["noodle.jpg"]?["readings"] as? [[String: Any]] ?? []
    #expect(noodle.first?["pass"] as? String == "block")
    #expect(noodle.first?["status"] as? String == "needs-review")
    #expect(noodle.last?["pass"] as? String == "coloured-ink-removed")
    #expect(noodle.last?["kept"] as? Bool == true)
    #expect(noodle.last?["status"] as? String == "verified")
  }

  @Test func verboseSaysEachReading() throws {
    let outcome = try runBinary(["scan", Self.path("deli.jpg"), "--currency", "USD", "--verbose", "--format", "json"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let said = outcome.stderr.split(separator: "\n").first { $0.hasPrefix("scan: ") && $0.contains("deli.jpg") }
    let line = try #require(said, "\(outcome.stderr)")
    #expect(line.contains(": block reading, "))
    #expect(line.contains("total 6.25, 2 of 2 checks held, verified [kept]"), "\(line)")  // items-total, decimals
  }

  // One photo at a time and the readers' own paths: the plain and AddressSanitizer runs check
  // it; under ThreadSanitizer the scan of every photo on two threads above is what matters.
  @Test(.disabled(if: underThreadSanitizer, "one photo at a time; the plain and AddressSanitizer runs check it"))
  func theBillsPassCheckAndReportAsTheReceiptsSay() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("splitbill-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let bills = directory.appendingPathComponent("trip.yaml").path
    let verified = ["heron.png", "mario.jpg", "deli.jpg", "adler.heic", "kopi.png", "noodle.jpg"].map(Self.path)
    let scanned = try runBinary(
      ["scan"] + verified + ["--diners", "Ana, Ben", "--paid-by", "Ana", "--currency", "USD", "-o", bills])
    #expect(scanned.code == 0, "\(scanned.stderr)")
    let check = try runBinary(["check", bills])
    #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
    let report = try runBinary(["report", bills, "--format", "json"])
    #expect(report.code == 0, "\(report.stderr)")
    let reported = try #require(try Self.json(report.stdout)["bills"] as? [[String: Any]])
    let totals = Dictionary(
      uniqueKeysWithValues: reported.map { ($0["id"] as? String ?? "", $0["total"] as? String ?? "") })
    #expect(
      totals == [
        "heron": "41.85", "mario": "25.50", "deli": "6.25", "adler": "23.40", "kopi": "12.00", "noodle": "12.30",
      ])

    // Without diners, every bill says so, and check flags it.
    let bare = directory.appendingPathComponent("bare.yaml").path
    _ = try runBinary(["scan", Self.path("deli.jpg"), "-o", bare, "--quiet"])
    let text = try String(contentsOfFile: bare, encoding: .utf8)
    #expect(text.contains("# diners: missing"))
    #expect(try runBinary(["check", bare]).code == 1)

    // --append adds to a file and keeps what it had.
    let appended = try runBinary(["scan", Self.path("adler.heic"), "--append", bills, "--diners", "Ana, Ben"])
    #expect(appended.code == 0, "\(appended.stderr)")
    let after = try runBinary(["check", bills])
    #expect(after.code == 0, "\(after.stdout)\(after.stderr)")
    let ids = try String(contentsOfFile: bills, encoding: .utf8).components(separatedBy: "- id: ").count - 1
    #expect(ids == 7)
  }

  @Test func whatIsNoPhotoIsAnError() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("splitbill-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let notAPhoto = directory.appendingPathComponent("notes.jpg")
    try Data("not a photo".utf8).write(to: notAPhoto)
    let outcome = try runBinary(["scan", notAPhoto.path, "--format", "json"])
    #expect(outcome.code == 66)
    #expect(outcome.stderr.contains("not a JPEG, PNG, TIFF, HEIC or WebP image"))
    let empty = try runBinary(["scan", directory.appendingPathComponent("nothing").path])
    #expect(empty.code == 66)
    #expect(try runBinary(["scan"]).code == 64)
  }

  /// A German receipt (`GmbH`, `MwSt`) whose first reading does not close is read again in German
  /// when `deu`'s data is installed; not when German is read already (`--lang eng+deu`), and
  /// without a word when the data is missing (a data directory holding only English).
  @Test(
    .enabled(
      if: needing(FileManager.default.fileExists(atPath: "/usr/share/tesseract-ocr/5/tessdata/deu.traineddata")),
      "needs Tesseract's German data (apt-get install tesseract-ocr-deu)"))
  func aReceiptIsReadAgainInItsCountrysLanguage() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("splitbill-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let photo = directory.appendingPathComponent("baecker.png").path
    // The total is not the items' sum, so no reading closes and every pass is made.
    let spec: [[String: Any]] = [
      [
        "file": photo,
        "lines": [
          ["BAECKEREI KORN GMBH"], ["Roggenbrot", "3,20"], ["Brezel", "0,90"], ["SUMME EUR", "5,10"],
          ["MwSt 7%", "0,33"],
        ],
      ]
    ]
    _ = try runProcess(
      "python3", ["scripts/render_receipt.py"], stdin: try JSONSerialization.data(withJSONObject: spec))
    func passes(_ extra: [String], environment: [String: String]? = nil) throws -> [String] {
      let outcome = try runProcess(
        try builtBinary().path, ["scan", photo, "--format", "json"] + extra, environment: environment)
      #expect(outcome.code == 1, "the total is wrong, so the receipt needs review: \(outcome.stderr)")
      let receipt = try #require((try Self.json(outcome.stdout)["receipts"] as? [[String: Any]])?.first)
      #expect(receipt["total"] as? NSNumber == 5.10, "\(receipt["lines"] ?? "")")
      return (receipt["readings"] as? [[String: Any]] ?? []).compactMap { $0["pass"] as? String }
    }
    let read = try passes([])
    #expect(read.prefix(2) == ["block", "country-language"], "\(read)")
    #expect(try !passes(["--lang", "eng+deu"]).contains("country-language"))
    let englishOnly = directory.appendingPathComponent("tessdata")
    try FileManager.default.createDirectory(at: englishOnly, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: englishOnly.appendingPathComponent("eng.traineddata").path,
      withDestinationPath: "/usr/share/tesseract-ocr/5/tessdata/eng.traineddata")
    var environment = ProcessInfo.processInfo.environment
    environment["TESSDATA_PREFIX"] = englishOnly.path
    let withoutGerman = try passes([], environment: environment)
    #expect(withoutGerman.first == "block")
    #expect(!withoutGerman.contains("country-language"), "\(withoutGerman)")
  }
}

/// The scan on real receipts (`../shared/realdata/receipts/`, with their ground truth): no receipt
/// is verified with a wrong total, and most totals are read right. scripts/scan_accuracy.py
/// prints the full measure.
@Suite(
  .enabled(
    if: needing(realDataPresent && tesseractData),
    "needs ../shared/realdata beside the clone (real receipts) and scan's libraries"),
  .disabled(
    if: underSanitizer,
    "the real receipts are scanned by the plain run (sanitizers only slow the same code)"))
struct RealReceiptTests {
  @Test func verifiedMeansTheTotalIsRight() throws {
    let folder = realData.appendingPathComponent("receipts")
    let truth = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("truth.json")))
        as? [[String: Any]])
    let outcome = try runBinary(["scan", folder.appendingPathComponent("images").path, "--format", "json", "--quiet"])
    #expect(outcome.code == 1 || outcome.code == 0)
    let receipts = try #require(try ScanCommandTests.json(outcome.stdout)["receipts"] as? [[String: Any]])
    #expect(receipts.count == truth.count)
    var right = 0
    var printed = 0
    for entry in truth {
      guard let file = entry["file"] as? String, let name = file.split(separator: "/").last else { continue }
      let read = try #require(receipts.first { ($0["file"] as? String)?.hasSuffix("/" + name) == true })
      guard entry["total_printed"] as? Bool != false, let expected = entry["total"] as? NSNumber else { continue }
      printed += 1
      let total = read["total"] as? NSNumber
      let isRight = total.map { Decimal(string: $0.stringValue) == Decimal(string: expected.stringValue) } ?? false
      if isRight { right += 1 }
      if read["status"] as? String == "verified" {
        #expect(isRight, "\(name) verified with \(total ?? -1), printed \(expected)")
      }
    }
    // Measured 17 of 19 on 2026-12-04 (14 when this test was written); below 15 is a regression.
    #expect(right >= 15, "\(right) of \(printed) totals right")
  }
}

/// `scan --engine gemini|openai` against the stand-in server: the photo goes inline with the
/// key in a header, the answer goes through the same checks (a wrong total is caught), retries
/// follow the server's delay, and a second run answers from the cache without a request.
@Suite(
  .enabled(
    if: needing(StandInServer.available && receiptRendering && tesseractData),
    "needs python3 with Pillow for the stand-in and the photos, and scan's libraries to decode them"),
  .serialized)
struct VisionScanTests {
  static let key = "test-key-Vz27q-never-shown"

  /// What a model reads off the two photos: the café's receipt right, the deli's total wrong.
  static var answers: [[String: Any]] {
    [
      [
        "merchant": "CORNER DELI", "date": "2026-11-03", "currency": "USD",
        "items": [
          ["name": "Bagel", "price": "3.50", "quantity": 1], ["name": "Coffee", "price": "2.75", "quantity": 1],
        ],
        "subtotal": NSNull(), "discount": NSNull(), "service": NSNull(), "tax": NSNull(), "rounding": NSNull(),
        "tip": NSNull(), "total": "7.25", "cash": NSNull(), "change": NSNull(), "tax_included": false,
      ],
      [
        "merchant": "BLUE HERON CAFE", "date": "2026-11-20", "currency": "USD",
        "items": [
          ["name": "Clam chowder", "price": "9.50", "quantity": 1],
          ["name": "Fish tacos", "price": "25.00", "quantity": 2],
          ["name": "Lemonade", "price": "4.25", "quantity": 1],
        ],
        "subtotal": "38.75", "discount": NSNull(), "service": NSNull(), "tax": "3.10", "rounding": NSNull(),
        "tip": NSNull(), "total": "41.85", "cash": "50.00", "change": "8.15", "tax_included": false,
      ],
    ]
  }

  func scan(_ arguments: [String], cache: URL, key: String? = key) throws -> Outcome {
    var environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "XDG_CACHE_HOME": cache.path,
    ]
    if let key { environment["GEMINI_API_KEY"] = key }
    return try runProcess(
      try builtBinary().path,
      [
        "scan", ScanCommandTests.path("deli.jpg"), ScanCommandTests.path("heron.png"), "--format", "json", "--jobs",
        "1",
      ]
        + arguments, environment: environment)
  }

  @Test func geminiReadsThePhotosAndTheChecksCatchAWrongTotal() throws {
    let server = try StandInServer(script: ["429:1s"], receipts: Self.answers)
    let cache = try scratchDirectory()
    let outcome = try scan(["--engine", "gemini", "--ai-base-url", server.baseURL, "--verbose"], cache: cache)
    #expect(outcome.code == 1, "\(outcome.stderr)")
    let receipts = try #require(try ScanCommandTests.json(outcome.stdout)["receipts"] as? [[String: Any]])
    #expect(receipts.map { $0["status"] as? String } == ["needs-review", "verified"])
    let review = receipts.first?["review"] as? [[String: Any]] ?? []
    #expect(review.first?["code"] as? String == "scan.total-mismatch")
    #expect(receipts.last?["total"] as? NSNumber == 41.85)
    let requests = server.requests
    #expect(requests.count == 3, "one 429, retried after the server's delay, then one request a photo")
    if requests.count == 3 { #expect(requests[1].time - requests[0].time >= 1.0) }
    for request in requests {
      #expect(request.path == "/v1beta/models/gemini-3.5-flash:generateContent")
      #expect(request.headers["x-goog-api-key"] == Self.key)
      let parts = ((request.body["contents"] as? [[String: Any]])?.first?["parts"] as? [[String: Any]]) ?? []
      let inline = parts.compactMap { $0["inline_data"] as? [String: Any] }.first
      #expect(inline?["mime_type"] as? String == "image/jpeg")
      let image = Data(base64Encoded: inline?["data"] as? String ?? "") ?? Data()
      #expect(image.prefix(3) == Data([0xFF, 0xD8, 0xFF]), "the photo is sent as a JPEG")
      let config = request.body["generationConfig"] as? [String: Any]
      #expect(config?["responseSchema"] != nil)
    }
    #expect(!outcome.stderr.contains(Self.key), "the key is never printed")
    #expect(outcome.stderr.contains("retry 1"))

    // A second run asks nothing: the answers are in the cache, by the photos' hashes.
    let again = try scan(["--engine", "gemini", "--ai-base-url", server.baseURL], cache: cache)
    #expect(again.code == 1)
    #expect(server.requests.count == 3)
    let cached = try #require(try ScanCommandTests.json(again.stdout)["receipts"] as? [[String: Any]])
    #expect(cached.map { $0["status"] as? String } == ["needs-review", "verified"])
    let files = try FileManager.default.contentsOfDirectory(
      atPath: cache.appendingPathComponent("splitbill/receipts").path)
    #expect(files.count == 2)
    for file in files {
      let text = try String(
        contentsOf: cache.appendingPathComponent("splitbill/receipts").appendingPathComponent(file), encoding: .utf8)
      #expect(!text.contains(Self.key))
    }
  }

  /// The cache is only an optimisation: answers it cannot keep (its directory cannot be made)
  /// leave the bills whole, and one warning counts them, since the next run pays for them again.
  @Test func answersTheCacheCannotKeepAreOneWarning() throws {
    let server = try StandInServer(receipts: Self.answers)
    let cache = try scratchDirectory()
    try Data("not a directory".utf8).write(to: cache.appendingPathComponent("splitbill"))
    let outcome = try scan(["--engine", "gemini", "--ai-base-url", server.baseURL], cache: cache)
    #expect(outcome.code == 1, "one receipt needs review: \(outcome.stderr)")
    let receipts = try #require(try ScanCommandTests.json(outcome.stdout)["receipts"] as? [[String: Any]])
    #expect(receipts.map { $0["status"] as? String } == ["needs-review", "verified"])
    let warnings = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
    #expect(warnings.count == 1, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("warning: 2 answers were not kept in the receipt cache ("))
    #expect(outcome.stderr.contains("the next run asks for them again"))
    #expect(!outcome.stderr.contains(Self.key))
    let quiet = try scan(["--engine", "gemini", "--ai-base-url", server.baseURL, "--quiet"], cache: cache)
    #expect(quiet.code == 1)
    #expect(!quiet.stderr.contains("warning: "), "\(quiet.stderr)")
    #expect(server.requests.count == 4, "nothing kept, so the second run asked again")
  }

  @Test func anOpenAICompatibleServerGetsTheImageAsADataURL() throws {
    let server = try StandInServer(receipts: Self.answers)
    let outcome = try scan(
      ["--engine", "openai", "--ai-base-url", server.baseURL + "/v1", "--ai-model", "llava", "--no-cache"],
      cache: try scratchDirectory(), key: nil)
    #expect(outcome.code == 1, "\(outcome.stderr)")
    let requests = server.requests
    #expect(requests.count == 2)
    for request in requests {
      #expect(request.path == "/v1/chat/completions")
      #expect(request.headers["authorization"] == nil)
      #expect(request.body["model"] as? String == "llava")
      let content = ((request.body["messages"] as? [[String: Any]])?.last?["content"] as? [[String: Any]]) ?? []
      let url = content.compactMap { ($0["image_url"] as? [String: Any])?["url"] as? String }.first ?? ""
      #expect(url.hasPrefix("data:image/jpeg;base64,"))
      let format = request.body["response_format"] as? [String: Any]
      #expect(format?["type"] as? String == "json_schema")
    }
  }

  @Test func geminiWithoutAKeyIsUnavailable() throws {
    let outcome = try scan(["--engine", "gemini"], cache: try scratchDirectory(), key: nil)
    #expect(outcome.code == 69)
    #expect(outcome.stderr.contains("GEMINI_API_KEY"))
    let misplaced = try scan(["--ai-model", "x"], cache: try scratchDirectory())
    #expect(misplaced.code == 64)
  }
}
