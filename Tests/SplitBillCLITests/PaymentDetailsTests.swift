import Foundation
import SplitBillCore
import Testing

@testable import SplitBillReports

/// Paying from a phone: people carry an IBAN, a BIC, a payment link; a wrong IBAN is refused at
/// its line; the HTML report's EPC QR codes, drawn by a real browser and read by a real decoder
/// (zbar), carry the exact amount, IBAN and reference.
@Suite struct PaymentDetailsTests {
  /// Dinner 90.00 for three paid by Ben, a taxi 30.00 for Ana and Chloé paid by Chloé: Ana owes
  /// 45.00 (30.00 + 15.00), Chloé 15.00 (30.00 − 15.00), and Ben gets 60.00 back.
  static let trip = """
    version: 1
    title: Lisbon trip
    defaults: {currency: EUR, tip: 0}
    people:
      - Ana
      - {name: Ben, iban: de89 3704 0044 0532 0130 00, bic: COBADEFFXXX}
      - name: Chloé
        link: https://paypal.me/chloe
    bills:
      - {id: dinner, amount: 90.00, paid_by: Ben, diners: [Ana, Ben, Chloé]}
      - {id: taxi, amount: 30.00, paid_by: Chloé, diners: [Ana, Chloé]}
    """

  /// What each code must carry, written out by hand from the guidelines (EPC069-12, version 002).
  static let expectedCodes: Set<String> = [
    "BCD\n002\n1\nSCT\nCOBADEFFXXX\nBen\nDE89370400440532013000\nEUR45.00\n\n\nLisbon trip: Ana to Ben",
    "BCD\n002\n1\nSCT\nCOBADEFFXXX\nBen\nDE89370400440532013000\nEUR15.00\n\n\nLisbon trip: Chloé to Ben",
  ]

  func write(_ text: String, named name: String = "trip.yaml", in directory: URL? = nil) throws -> (URL, String) {
    let directory = try directory ?? scratchDirectory()
    let path = directory.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return (directory, path)
  }

  /// libqrencode can be opened here.
  static var hasQREncode: Bool { (try? QRCodeLibrary.load()) != nil }

  @Test func anIBANWithWrongCheckDigitsIsRefusedAtItsLine() throws {
    let (directory, path) = try write(
      Self.trip.replacingOccurrences(of: "0130 00", with: "0130 01")
        .replacingOccurrences(of: "https://paypal.me/chloe", with: "javascript:alert(1)"))
    defer { try? FileManager.default.removeItem(at: directory) }
    let checked = try runBinary(["check", path])
    #expect(checked.code == 1)
    #expect(
      checked.stdout.contains(
        "trip.yaml:6:23: error: the iban of 'Ben' is not an IBAN: its check digits do not match (a digit mistyped or two swapped?)"
      ), "\(checked.stdout)")
    #expect(checked.stdout.contains("trip.yaml:8:11: error: the link of 'Chloé' is not a payment link"))
    // The report fails too: its file says it is incomplete, and shows no account for Ben.
    let out = directory.appendingPathComponent("out.html").path
    let reported = try runBinary(["report", path, "-o", out])
    #expect(reported.code == 1)
    let html = try String(contentsOfFile: out, encoding: .utf8)
    #expect(html.contains("<b>Incomplete:</b>"))
    #expect(!html.contains("class=\"iban\""))
    let json = try runBinary(["check", path, "--format", "json"])
    #expect(json.stdout.contains("\"code\": \"people.iban\""), "\(json.stdout)")
  }

  @Test func everyEntryProblemIsLocated() throws {
    let (directory, path) = try write(
      """
      defaults: {currency: EUR, tip: 0}
      people:
        - {name: Ben, iban: DE89 3704 0044 0532 0130 00, bic: COBADEFF1, colour: red}
        - [Ana]
        - {iban: DE89370400440532013000}
        - {name: Dora, holder: ""}
        - {name: Eve, iban: DE89 3704 0044 0532 0130 0}
      bills:
        - {id: b, amount: 10.00, paid_by: Ben, diners: [Ben, Dora]}
      """)
    defer { try? FileManager.default.removeItem(at: directory) }
    let checked = try runBinary(["check", path])
    #expect(checked.code == 1)
    for expected in [
      "trip.yaml:3:57: error: the bic of 'Ben' is not a BIC",
      "trip.yaml:3:68: error: unknown key 'colour' in people: expected one of name, iban, bic, link, holder",
      "trip.yaml:4:5: error: a person in people is a name, or a mapping",
      "trip.yaml:5:5: error: a person in people is a name, or a mapping such as {name: Ben, iban: DE89 3704 0044 0532 0130 00}, found a mapping without name",
      "trip.yaml:6:26: error: the holder of 'Dora' must be the account's name",
      "trip.yaml:7:23: error: the iban of 'Eve' is not an IBAN: 21 characters, but an IBAN of DE has 22",
    ] {
      #expect(checked.stdout.contains(expected), "\(expected)\n\(checked.stdout)")
    }
  }

  /// The text, Markdown and messages views say how to pay each person the plan pays.
  @Test func theDetailsStandBesideTheTransfers() throws {
    let (directory, path) = try write(Self.trip)
    defer { try? FileManager.default.removeItem(at: directory) }
    let text = try runBinary(["report", path])
    #expect(text.code == 0, "\(text.stderr)")
    #expect(
      text.stdout.contains("\n  To pay Ben: IBAN DE89 3704 0044 0532 0130 00 (BIC COBADEFFXXX)\n"), "\(text.stdout)")
    // Chloé is paid nothing by this plan: her link is not shown.
    #expect(!text.stdout.contains("paypal.me"))
    let messages = try runBinary(["report", path, "--format", "messages"])
    #expect(messages.stdout.contains("\n→ pay Ben 45.00 EUR: IBAN DE89 3704 0044 0532 0130 00 (BIC COBADEFFXXX)\n"))
    #expect(messages.stdout.contains("\n→ pay Ben 15.00 EUR: IBAN DE89 3704 0044 0532 0130 00 (BIC COBADEFFXXX)"))
    let json = try runBinary(["report", path, "--format", "json"])
    #expect(
      json.stdout.contains(
        "\"to\": \"Ben\",\n          \"amount\": \"45.00\",\n          \"currency\": \"EUR\",\n          \"iban\": \"DE89370400440532013000\",\n          \"bic\": \"COBADEFFXXX\""
      ), "\(json.stdout)")
    let markdown = try runBinary(["report", path, "--format", "markdown"])
    #expect(markdown.stdout.contains("\n- To pay Ben: IBAN DE89 3704 0044 0532 0130 00 (BIC COBADEFFXXX)\n"))
    // Chloé's link, when the plan pays her: she paid for both (120.00, her share 45.00).
    let (_, swapped) = try write(
      Self.trip.replacingOccurrences(of: "paid_by: Ben", with: "paid_by: Chloé"), named: "other.yaml", in: directory)
    let linked = try runBinary(["report", swapped, "--format", "messages"])
    #expect(linked.code == 0, "\(linked.stderr)")
    #expect(linked.stdout.contains("\n→ pay Chloé 45.00 EUR: https://paypal.me/chloe\n"), "\(linked.stdout)")
    #expect(linked.stdout.contains("\n→ pay Chloé 30.00 EUR: https://paypal.me/chloe"))
  }

  /// `balance NAME`, what a person checks on their phone before paying, says where to pay.
  @Test func balanceSaysWhereToPay() throws {
    let (directory, path) = try write(Self.trip)
    defer { try? FileManager.default.removeItem(at: directory) }
    let ana = try runBinary(["balance", "Ana", path])
    #expect(ana.code == 0, "\(ana.stderr)")
    #expect(
      ana.stdout
        == "Ana owes 45.00 EUR: to Ben 45.00 EUR\n  pay Ben: IBAN DE89 3704 0044 0532 0130 00 (BIC COBADEFFXXX)\n")
    let json = try runBinary(["balance", "Ana", path, "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let settlements = try #require(object["settlements"] as? [[String: Any]])
    #expect(settlements.count == 1)
    #expect(settlements.first?["iban"] as? String == "DE89370400440532013000")
    #expect(settlements.first?["bic"] as? String == "COBADEFFXXX")
    // The one paid says nothing of their own account.
    let ben = try runBinary(["balance", "Ben", path])
    #expect(!ben.stdout.contains("IBAN"), "\(ben.stdout)")
  }

  /// The same person given other details in a second file is an error there; the configuration's
  /// details serve files without their own.
  @Test func detailsComeFromFilesAndTheConfigurationOnce() throws {
    let (directory, path) = try write(Self.trip)
    defer { try? FileManager.default.removeItem(at: directory) }
    let (_, second) = try write(
      """
      defaults: {currency: EUR, tip: 0}
      people:
        - Ana
        - {name: Ben, iban: GB82 WEST 1234 5698 7654 32}
        - Chloé
      bills:
        - {id: lunch, amount: 9.00, paid_by: Ana, diners: [Ana, Ben, Chloé]}
      """, named: "second.yaml", in: directory)
    let both = try runBinary(["check", path, second])
    #expect(both.code == 1)
    #expect(
      both.stdout.contains(
        "second.yaml:4:12: error: the payment details of 'Ben' differ from those given at \(path):6:12: give them once (the first are kept)"
      ), "\(both.stdout)")
    // The configuration: a person with details in its people.
    let xdg = directory.appendingPathComponent("xdg")
    try FileManager.default.createDirectory(
      at: xdg.appendingPathComponent("splitbill"), withIntermediateDirectories: true)
    try "people:\n  - Ana\n  - {name: Ben, iban: GB82 WEST 1234 5698 7654 32}\ncurrency: EUR\ndefault-tip: 0\n".write(
      to: xdg.appendingPathComponent("splitbill/config.yaml"), atomically: true, encoding: .utf8)
    let csv = directory.appendingPathComponent("bills.csv")
    try "id,amount,diners,paid_by\nb1,30.00,Ana;Ben,Ben\n".write(to: csv, atomically: true, encoding: .utf8)
    let environment = ["PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": xdg.path]
    let configured = try runProcess(
      try builtBinary().path, ["report", csv.path, "--format", "messages"], environment: environment,
      directory: directory)
    #expect(configured.code == 0, "\(configured.stderr)")
    #expect(configured.stdout.contains("→ pay Ben 15.00 EUR: IBAN GB82 WEST 1234 5698 7654 32"), "\(configured.stdout)")
    // A wrong IBAN there is refused at its line, like any configuration value (exit 64).
    try "people:\n  - {name: Ben, iban: GB82 WEST 1234 5698 7654 33}\n".write(
      to: xdg.appendingPathComponent("splitbill/config.yaml"), atomically: true, encoding: .utf8)
    let refused = try runProcess(
      try builtBinary().path, ["report", csv.path], environment: environment, directory: directory)
    #expect(refused.code == 64)
    #expect(refused.stderr.contains("config.yaml:2:23: error: the iban of 'Ben' is not an IBAN"), "\(refused.stderr)")
  }

  /// Untrusted text in details (a holder's name) is escaped in HTML, and a link that would leave
  /// its attribute is refused before any report sees it.
  @Test func hostileDetailsAreEscapedOrRefused() throws {
    let (directory, path) = try write(
      Self.trip.replacingOccurrences(
        of: "bic: COBADEFFXXX}", with: "bic: COBADEFFXXX, holder: \"<script>x</script> & \\\"Ben\\\"\"}"))
    defer { try? FileManager.default.removeItem(at: directory) }
    let html = try runBinary(["report", path, "--format", "html"])
    #expect(html.code == 0, "\(html.stderr)")
    #expect(!html.stdout.contains("<script>"))
    #expect(html.stdout.contains("&lt;script&gt;x&lt;/script&gt; &amp; &quot;Ben&quot;"))
    for link in ["https://a\\\"onmouseover=x", "https://a b", "https://x<y"] {
      let (_, bad) = try write(
        Self.trip.replacingOccurrences(of: "https://paypal.me/chloe", with: "\"\(link)\""), named: "bad.yaml",
        in: directory)
      let refused = try runBinary(["check", bad])
      #expect(refused.code == 1, "\(link)")
      #expect(refused.stdout.contains("is not a payment link"), "\(link): \(refused.stdout)")
    }
  }

  /// Each code libqrencode makes, drawn as a picture and read by zbar, gives back its text byte for
  /// byte: hostile names and titles, the longest that fit, every amount's shape.
  @Test(
    .enabled(if: needing(hasQREncode && toolExists("zbarimg")), "needs libqrencode4 and zbar-tools (apt-get install)"))
  func everyCodeReadsBackByteForByte() throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let eur = try Currency(code: "EUR")
    let iban = try IBAN(parsing: "FR14 2004 1010 0505 0001 3M02 606")
    let cases: [(String, Int64, String)] = [
      ("Ben", 1, "Trip"), ("Chloé Martin", 99_999_999_999, "Ünïcödé trip 🧾"),
      ("x\ny", 4_500, "a\r\nb"), (String(repeating: "é", count: 90), 123_456, String(repeating: "Ж", count: 200)),
    ]
    for (index, (name, units, title)) in cases.enumerated() {
      let payload = try #require(
        EPCPayment.payload(
          name: name, iban: iban, bic: BIC(parsing: "BNPAFRPP"), amount: Money(minorUnits: units, currency: eur),
          reference: EPCPayment.reference(title: title, from: "Ana", to: name)))
      let code = try QRCode.encode(Array(payload.utf8))
      // A grey picture, 4 pixels a module, with the quiet zone.
      let scale = 4
      let side = (code.width + 8) * scale
      var pixels = Data("P5 \(side) \(side) 255\n".utf8)
      for row in 0..<side {
        for column in 0..<side {
          let x = column / scale - 4
          let y = row / scale - 4
          let dark = x >= 0 && y >= 0 && x < code.width && y < code.width && code.isDark(x: x, y: y)
          pixels.append(dark ? 0 : 255)
        }
      }
      let image = directory.appendingPathComponent("code\(index).pgm")
      try pixels.write(to: image)
      let read = try runProcess("zbarimg", ["--raw", "-q", "-Sbinary", image.path])
      #expect(read.code == 0, "\(read.stderr)")
      #expect(read.stdout == payload, "\(read.stdout.debugDescription) != \(payload.debugDescription)")
    }
  }

  /// The HTML report as a phone's camera sees it: the page drawn by Chromium, the picture read by
  /// zbar; each code gives back the transfer's exact amount, the IBAN and the reference.
  @Test(
    .enabled(
      if: needing(hasQREncode && toolExists("zbarimg") && toolExists("chromium")),
      "needs libqrencode4, zbar-tools and chromium (apt-get install)"),
    .disabled(if: underAddressSanitizer, "the page's drawing; the plain run checks it"))
  func aRealBrowsersPageDecodesToTheTransfers() throws {
    let (directory, path) = try write(Self.trip)
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = directory.appendingPathComponent("trip.html")
    let reported = try runBinary(["report", path, "-o", page.path])
    #expect(reported.code == 0, "\(reported.stderr)")
    let html = try String(contentsOf: page, encoding: .utf8)
    #expect(html.components(separatedBy: "<svg class=\"qr\"").count == 3)
    let image = directory.appendingPathComponent("page.png")
    let drawn = try runProcess(
      "chromium",
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1000,1800",
        "--screenshot=\(image.path)", page.absoluteString,
      ], environment: ["HOME": directory.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"],
      timeout: 90)
    #expect(drawn.code == 0, "\(drawn.stderr.suffix(500))")
    let read = try runProcess("zbarimg", ["--raw", "-q", "-Sbinary", image.path])
    #expect(read.code == 0, "\(read.stderr)")
    // Binary output runs the codes together: each starts with the service tag.
    let codes = read.stdout.components(separatedBy: "BCD\n002\n").dropFirst().map { "BCD\n002\n" + $0 }
    #expect(Set(codes) == Self.expectedCodes, "\(read.stdout.debugDescription)")
  }
}
