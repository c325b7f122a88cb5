import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Whether `scan` can run here: Tesseract, Leptonica and libheif can be opened, and Tesseract's
/// English data is installed (the build needs none of them; scan opens them at run time).
let tesseractData: Bool = {
  let libraries = ["libtesseract.so.5", "libheif.so.1", "libgomp.so.1"].allSatisfy { name in
    guard let handle = dlopen(name, RTLD_LAZY) else { return false }
    dlclose(handle)
    return true
  }
  return libraries && FileManager.default.fileExists(atPath: "/usr/share/tesseract-ocr/5/tessdata/eng.traineddata")
}()

/// The hostile inputs of round three (issue 51), a test per point, each run through the built
/// binary as a user would meet it: what broke before (a crash, a silent wrong answer, gigabytes,
/// a key printed) and what is said now. Each test has its own directory (a suite instance a test),
/// and memory is measured per child process, so the tests run side by side.
@Suite
final class HostileRoundThreeTests {
  let directory: URL

  init() throws {
    directory = try FileManager.default.url(
      for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: URL(fileURLWithPath: "/tmp"), create: true)
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// Writes `text` to a file of the test's directory and returns its path.
  func file(_ name: String, _ text: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// A PNG whose header claims `width` × `height` pixels, with a little real image data (made by
  /// Python's zlib: 200 rows of white).
  func claimedPNG(_ name: String, width: Int, height: Int) throws -> String {
    let path = directory.appendingPathComponent(name).path
    let script = """
      import struct, sys, zlib
      w, h = int(sys.argv[2]), int(sys.argv[3])
      def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
      raw = zlib.compress(b''.join(b'\\x00' + b'\\xff' * w for _ in range(200)), 9)
      open(sys.argv[1], 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0))
        + chunk(b'IDAT', raw) + chunk(b'IEND', b''))
      """
    let made = try runProcess("python3", ["-c", script, path, String(width), String(height)])
    #expect(made.code == 0, "\(made.stderr)")
    return path
  }

  // MARK: 1. A decompression bomb

  @Test(
    .enabled(if: needing(tesseractData), "needs tesseract-ocr-eng (scan's recogniser)"),
    .disabled(if: underSanitizer, "peak memory is measured without a sanitizer's shadow memory"))
  func aPhotoClaimingBillionsOfPixelsIsRefusedFromItsHeader() throws {
    let bomb = try claimedPNG("bomb.png", width: 30_000, height: 30_000)
    let outcome = try runBinary(["scan", bomb, "--format", "json"])
    #expect(outcome.code == 65, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("30000 × 30000 pixels, past scan's limit of 64 megapixels"), "\(outcome.stderr)")
    // Decoding it would take 1.8 GB; read from its header, the run stays near its start.
    let peak = try StreamingMemoryTests().peakKilobytes(["scan", bomb], status: 65)
    #expect(peak < 150_000, "\(peak) KiB")
    // A long strip within the pixel limit is refused by its side.
    let strip = try claimedPNG("strip.png", width: 40_000, height: 10)
    #expect(try runBinary(["scan", strip]).code == 65)
  }

  // MARK: 2. An input is never an output

  @Test func scanNeverWritesOverAPhotoItReads() throws {
    let folder = directory.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let photo = folder.appendingPathComponent("a.png")
    let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
    try bytes.write(to: photo)
    let link = directory.appendingPathComponent("link.png")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: photo)
    for (inputs, output) in [
      ([photo.path], photo.path), ([folder.path], photo.path), ([photo.path], link.path), ([folder.path], link.path),
    ] {
      let outcome = try runBinary(["scan"] + inputs + ["-o", output, "--force"])
      #expect(outcome.code == 64, "\(inputs) -o \(output): \(outcome.stderr)")
      #expect(outcome.stderr.contains("scan never writes over what it reads"), "\(outcome.stderr)")
      #expect(try Data(contentsOf: photo) == bytes)
    }
    let appended = try runBinary(["scan", folder.path, "--append", link.path])
    #expect(appended.code == 64, "\(appended.stderr)")
    #expect(try Data(contentsOf: photo) == bytes)
  }

  // MARK: 3. Languages, engines and date orders that are none

  @Test(.enabled(if: needing(tesseractData), "needs tesseract-ocr-eng (scan's recogniser)"))
  func aMissingLanguageIsSaidNotCrashedOn() throws {
    let photo = packageRoot.appendingPathComponent("samples/receipts/harbour-diner.png").path
    for languages in ["zzz", "eng+zzz", "chi_sim"] {
      let outcome = try runBinary(["scan", photo, "--lang", languages])
      #expect(outcome.code == 69, "\(languages): \(outcome.code) \(outcome.stderr)")
      #expect(outcome.stderr.contains("apt-get install tesseract-ocr-"), "\(outcome.stderr)")
    }
    #expect(try runBinary(["scan", photo, "--lang", "chi_sim"]).stderr.contains("tesseract-ocr-chi-sim"))
    let wrongPrefix = try runProcess(
      try builtBinary().path, ["scan", photo], environment: ["TESSDATA_PREFIX": directory.path])
    #expect(wrongPrefix.code == 69, "\(wrongPrefix.stderr)")
    #expect(wrongPrefix.stderr.contains("set TESSDATA_PREFIX to the directory holding eng.traineddata"))
  }

  @Test func optionsOutsideTheirChoicesAreRefusedWithTheChoices() throws {
    let photo = packageRoot.appendingPathComponent("samples/receipts/harbour-diner.png").path
    for (arguments, said) in [
      (["--lang", ""], "is not a list of Tesseract languages"),
      (["--lang", "eng+"], "'eng+' is not a list of Tesseract languages"),
      (["--lang", "../../etc/passwd"], "is not a list of Tesseract languages"),
      (["--engine", "nope"], "--engine: 'nope' is not one of tesseract, gemini, openai"),
      (["--dates", "sideways"], "--dates: 'sideways' is not one of day-first, month-first"),
      (["--format", "jsn"], "did you mean 'json'?"),
    ] {
      let outcome = try runBinary(["scan", photo] + arguments)
      #expect(outcome.code == 64, "\(arguments): \(outcome.code)")
      #expect(outcome.stderr.contains(said), "\(arguments): \(outcome.stderr)")
    }
    // Every command's choices are checked as the command line is read.
    let report = try runBinary(["report", "samples/trip.yaml", "--format", "xml"])
    #expect(report.code == 64 && report.stderr.contains("'xml' is not one of"), "\(report.stderr)")
  }

  // MARK: 4–6. Recurring bills

  @Test func recurringInstancesEndAtTheLastDateTheFormatHolds() throws {
    let path = try file(
      "far.yaml",
      """
      defaults: {currency: EUR, tip: 0}
      bills:
        - {id: w, date: 9999-06-01, amount: 10, diners: [Ana, Ben], paid_by: Ana, repeat: {every: week, count: 5000}}
        - {id: m, date: 9999-10-31, amount: 10, diners: [Ana, Ben], paid_by: Ana, repeat: {every: month, count: 50}}

      """)
    let check = try runBinary(["check", path])
    #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
    let report = try runBinary(["report", path, "--format", "json"])
    #expect(report.code == 0, "\(report.stderr)")
    let bills = try #require(
      (try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["bills"] as? [[String: Any]]
    )
    let ids = bills.compactMap { $0["id"] as? String }
    // 31 Sundays from 9999-06-01 to 9999-12-28, and the months October to December.
    #expect(ids.count == 31 + 3, "\(ids.suffix(3))")
    #expect(ids.allSatisfy { !$0.contains("#1") }, "\(ids.suffix(3))")
    #expect(check.stdout.contains("\(ids.count) bills"), "\(check.stdout)")
  }

  @Test func aKeyGivenTwiceInRepeatIsAnError() throws {
    let path = try file(
      "twice.yaml",
      """
      defaults: {currency: EUR, tip: 0}
      bills:
        - {id: r, date: 2026-01-01, amount: 10, diners: [Ana, Ben], repeat: {every: month, every: week, count: 2}}

      """)
    let outcome = try runBinary(["check", path])
    #expect(outcome.code == 1)
    #expect(outcome.stdout.contains("duplicate key 'every' in repeat (first given at"), "\(outcome.stdout)")
    let csv = try file(
      "twice.csv",
      "id,date,amount,currency,tip,diners,repeat\nr,2026-01-01,10,EUR,0,Ana;Ben,every: month; count: 2; count: 3\n")
    let fromCSV = try runBinary(["check", csv])
    #expect(fromCSV.code == 1 && fromCSV.stdout.contains("duplicate key 'count' in repeat"), "\(fromCSV.stdout)")
  }

  /// 1,000 rules of 10,000 weekly instances each (10 million bills asked for in 115 KB): the run
  /// makes at most its limit, and says which rules passed it.
  @Test func recurringRulesAreHeldToTheRunsLimit() throws {
    var text = "defaults: {currency: EUR, tip: 0}\npeople: [Ana, Ben]\nbills:\n"
    for index in 0..<1_000 {
      text +=
        "  - {id: r\(index), date: 2000-01-0\(1 + index % 7), amount: \(index + 1), diners: [Ana, Ben], paid_by: Ana, repeat: {every: week, count: 10000}}\n"
    }
    let path = try file("amplified.yaml", text)
    let outcome = try runBinary(["check", "--max-instances", "30000", path])
    #expect(outcome.code == 1)
    #expect(outcome.stdout.contains("checked 1 file, 30997 bills: 997 errors"), "\(outcome.stdout.suffix(300))")
    #expect(
      outcome.stdout.contains(
        "amplified.yaml:7:5: error: repeat's 10000 instances would take the run past its limit of 30000 instances"),
      "\(outcome.stdout.prefix(600))")
    // The default limit, and one from the configuration.
    #expect(try runBinary(["check", path]).stdout.contains("checked 1 file, 100990 bills: 990 errors"))
    let configured = try file("conf/splitbill.yaml", "max-instances: 20000\n")
    let fromConfig = try runProcess(
      try builtBinary().path, ["check", path], directory: URL(fileURLWithPath: configured).deletingLastPathComponent())
    #expect(fromConfig.stdout.contains("checked 1 file, 20998 bills: 998 errors"), "\(fromConfig.stdout.suffix(200))")
    #expect(try runBinary(["check", "--max-instances", "0", path]).code == 64)
  }

  // MARK: 8–9. ECB files

  @Test func anECBColumnNamedTwiceAndDisagreeingDirectionsAreSaid() throws {
    let bills = try file(
      "usd.yaml",
      "defaults: {currency: USD, tip: 0}\nbills:\n  - {id: a, date: 2026-03-02, amount: 11, diners: [Ana, Ben], paid_by: Ana}\n"
    )
    let twice = try file("twice-ecb.csv", "Date,USD,JPY,USD,\n2026-03-02,1.1000,160.00,1.2000,\n")
    let outcome = try runBinary(["report", bills, "--settle-in", "EUR", "--rates", twice, "--format", "json"])
    #expect(outcome.code == 1, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("twice-ecb.csv:1:14: error: USD is a column of the header twice (first column 2)"))
    // The first column's rate is the one used: Ana's 5.50 USD at 1.1 is 5.00 EUR.
    let compact = outcome.stdout.filter { !$0.isWhitespace }
    #expect(compact.contains(#""rate":"1.1""#), "\(outcome.stdout)")
    #expect(compact.contains(#""balance":"5.50","converted":"5.00""#), "\(outcome.stdout)")

    let both = try file("both.csv", "date,base,quote,rate\n2026-03-02,EUR,USD,1.10\n2026-03-02,USD,EUR,0.50\n")
    let warned = try runBinary(["report", bills, "--settle-in", "EUR", "--rates", both])
    #expect(warned.code == 0, "\(warned.stderr)")
    #expect(
      warned.stderr.contains(
        "both.csv:3:1: warning: the USD/EUR rate for 2026-03-02 is not the inverse of the EUR/USD rate at "),
      "\(warned.stderr)")
    // Rounded inverses agree.
    let rounded = try file(
      "rounded.csv", "date,base,quote,rate\n2026-03-02,EUR,USD,1.0856\n2026-03-02,USD,EUR,0.9211\n")
    #expect(!(try runBinary(["report", bills, "--settle-in", "EUR", "--rates", rounded]).stderr.contains("warning")))
  }

  @Test func anECBHeaderOfThousandsOfUnknownColumnsIsOneError() throws {
    let bills = try file(
      "usd2.yaml",
      "defaults: {currency: USD, tip: 0}\nbills:\n  - {id: a, date: 2026-03-02, amount: 11, diners: [Ana, Ben], paid_by: Ana}\n"
    )
    let columns = (0..<9_000).map { "X\($0)" }.joined(separator: ",")
    let rates = try file(
      "unknown-ecb.csv", "Date,USD,\(columns)\n2026-03-02,1.1\(String(repeating: ",", count: 9_000))\n")
    let outcome = try runBinary(["report", bills, "--settle-in", "EUR", "--rates", rates, "--format", "json"])
    #expect(outcome.code == 1)
    #expect(
      outcome.stderr.contains(
        "unknown-ecb.csv:1:10: error: 9000 columns of the header are no currency ('X0', 'X1', 'X2' and 8997 more)"),
      "\(outcome.stderr.prefix(400))")
    #expect(outcome.stderr.utf8.count < 4_096, "\(outcome.stderr.utf8.count) bytes")
  }

  // MARK: 10. A member's name too long for YAML to read back

  @Test func anImportedNameTooLongIsALocatedRefusal() throws {
    let name = String(repeating: "A", count: 1_100)
    let export = try file(
      "long.csv",
      "Date,Description,Category,Cost,Currency,\(name),Bob\n2026-10-01,Dinner,Dining out,30.00,EUR,15.00,-15.00\n")
    let outcome = try runBinary(["import", "splitwise", export])
    #expect(outcome.code == 1, "\(outcome.code) \(outcome.stderr.prefix(300))")
    #expect(outcome.stderr.contains("long.csv:1:41: error: a member column has a name of 1100 characters"))
    #expect(outcome.stderr.contains("expected at most 200"))
    let spliit = try file(
      "long.json",
      #"{"participants": [{"id": "p1", "name": "\#(name)"}], "expenses": [], "currency": "€", "currencyCode": "EUR"}"#)
    let fromSpliit = try runBinary(["import", "spliit", spliit])
    #expect(fromSpliit.code == 1 && fromSpliit.stderr.contains("has a name of 1100 characters"), "\(fromSpliit.stderr)")
  }

  // MARK: 11. The API key through an alias

  @Test func theKeyIsNeverPrintedWhateverWayTheConfigurationReachesIt() throws {
    let secret = "sk-rxq8Z0secret4711"
    for (index, body) in [
      "ai-key: &k \(secret)\ncurrency: *k\n", "currency: &k \(secret)\nai-key: *k\n",
      "ai-key: &k \(secret)\n*k : EUR\n",
      "ai-key: &k \(secret)\nbase: &m {currency: *k}\n<<: *m\n", "ai-key: \(secret)\npeople: [\(secret)]\n",
      "ai-key: \(secret)\ncategory-accounts: {food: \"Expenses:\(secret)\"}\n",
    ].enumerated() {
      let folder = directory.appendingPathComponent("config-\(index)/splitbill")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let config = folder.appendingPathComponent("config.yaml")
      try body.write(to: config, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config.path)
      let outcome = try runProcess(
        try builtBinary().path, ["report", packageRoot.appendingPathComponent("samples/trip.yaml").path],
        environment: ["XDG_CONFIG_HOME": folder.deletingLastPathComponent().path, "HOME": directory.path])
      #expect(outcome.code != 0, "\(body)")
      #expect(!(outcome.stdout + outcome.stderr).contains("rxq8Z0"), "\(body): \(outcome.stderr)")
      #expect(outcome.stderr.contains("the text of ai-key is also"), "\(body): \(outcome.stderr)")
    }
  }

  // MARK: 12. A row of millions of cells

  @Test(
    .enabled(if: needing(pythonHas("import resource")), "needs python3 to measure peak memory"),
    .disabled(if: underSanitizer, "peak memory is measured without a sanitizer's shadow memory"))
  func aRowOfMillionsOfCellsTakesBoundedMemory() throws {
    let commas = String(repeating: ",", count: 3_000_000)
    let bills = try file("wide.csv", "id,amount,tip,diners,currency\na,10,0,2,EUR\(commas)\nb,10,0,2,EUR\n")
    _ = try file("items.csv", "id,currency,tip,diners\nb1,EUR,0,Ana;Ben\n")
    _ = try file("items.items.csv", "bill,name,price\nb1,soup,1.00\(commas)\n")
    let rates = try file("wide-rates.csv", "date,base,quote,rate\n2026-01-01,USD,EUR,0.9\(commas)\n")
    let export = try file(
      "wide-export.csv", "Date,Description,Category,Cost,Currency,A,B\n2026-10-01,x,y,30.00,EUR,15.00,-15.00\(commas)\n"
    )
    let memory = StreamingMemoryTests()
    // Before the limit each took 150–250 MB (40 bytes a cell, twice over as the arrays grew).
    for (arguments, status) in [
      (["check", bills], 1), (["check", directory.appendingPathComponent("items.csv").path], 1),
      (["report", bills, "--settle-in", "EUR", "--rates", rates], 1), (["import", "splitwise", export], 1),
    ] {
      let peak = try memory.peakKilobytes(arguments, status: status)
      #expect(peak < 100_000, "\(arguments[0]) \(arguments.last ?? ""): \(peak) KiB")
    }
    let said = try runBinary(["check", bills])
    #expect(said.stdout.contains("wide.csv:2:"), "\(said.stdout.prefix(300))")
    #expect(said.stdout.contains("error: the row has more than 10000 cells"))
    // The bill after the wide row is read.
    #expect(said.stdout.contains("2 bills: 1 error"), "\(said.stdout.suffix(200))")
  }

  // MARK: 13. UTF-16, and a Spliit date that is none

  @Test func aUTF16FileIsSaidToBeSo() throws {
    let text = "id,amount,tip,diners,currency\na,10,0,2,EUR\n"
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    for name in ["u16.csv", "u16.yaml"] {
      let url = directory.appendingPathComponent(name)
      try Data(bytes).write(to: url)
      let outcome = try runBinary(["check", url.path])
      #expect(outcome.code == 66)
      #expect(outcome.stdout.contains("it is UTF-16 text, as its byte order mark says: save it as UTF-8"))
      #expect(!outcome.stdout.contains("\u{0}"))
    }
    let rates = directory.appendingPathComponent("u16-rates.csv")
    try Data(bytes).write(to: rates)
    let withRates = try runBinary(["report", "samples/trip.yaml", "--settle-in", "EUR", "--rates", rates.path])
    #expect(withRates.stderr.contains("UTF-16 text"), "\(withRates.stderr)")
  }

  @Test func aSpliitExpenseDateThatIsNoneIsWarnedOf() throws {
    let export = try file(
      "dates.json",
      #"""
      {"participants": [{"id": "a", "name": "Ana"}, {"id": "b", "name": "Ben"}], "currency": "€", "currencyCode": "EUR",
       "expenses": [{"id": "e1", "title": "Dinner", "amount": 3000, "expenseDate": "2026-02-30T00:00:00.000Z",
         "createdAt": "2026-03-01T10:00:00.000Z", "paidById": "a", "splitMode": "EVENLY",
         "paidFor": [{"participantId": "a", "shares": 1}, {"participantId": "b", "shares": 1}]}]}
      """#)
    let outcome = try runBinary(["import", "spliit", export])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(
      outcome.stderr.contains("expenseDate '2026-02-30T00:00:00.000Z' is not a date: dated by createdAt, 2026-03-01"),
      "\(outcome.stderr)")
    #expect(outcome.stdout.contains("2026-03-01"))
  }
}
