import Foundation
import Testing

/// Itemized receipts end to end: the reports explain every share, `calc` tries one from the
/// command line, and untrusted item names are escaped.
@Suite struct ItemizedBillTests {
  static func cents(_ text: Any?) -> Int {
    let digits = (text as? String ?? "").replacingOccurrences(of: ".", with: "")
    return Int(digits) ?? Int.min
  }

  @Test func jsonReportHasItemsReceiptAndABreakdownThatAddsUp() async throws {
    let path = packageRoot.appendingPathComponent("samples/receipts/steakhouse.yaml").path
    let outcome = await runCLI(["report", path, "--format", "json"])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    let bill = try #require((object["bills"] as? [[String: Any]])?.first)
    let items = try #require(bill["items"] as? [[String: Any]])
    #expect(items.count == 11)
    let itemCents: [Int] = items.map { Self.cents($0["total"]) }
    #expect(itemCents.reduce(0, +) == 31_895)
    let receipt = try #require(bill["receipt"] as? [String: Any])
    #expect(Self.cents(receipt["before_tip"]) == 35_164)
    #expect(Self.cents(receipt["tax"]) == 3_269)
    #expect(receipt["tax_rate"] as? String == "10.25")
    #expect(receipt["tip_on"] as? String == "pretax")
    #expect(Self.cents(bill["amount"]) == 35_164)
    let shares = try #require(bill["shares"] as? [[String: Any]])
    var sum = 0
    for share in shares {
      let breakdown = try #require(share["breakdown"] as? [String: Any])
      let parts = ["items", "discount", "service", "tax", "tip"].map { Self.cents(breakdown[$0]) }.reduce(0, +)
      #expect(parts + (share["absorbed"] as? Int ?? -1) == Self.cents(share["amount"]), "\(share)")
      sum += Self.cents(share["amount"])
    }
    #expect(sum == Self.cents(bill["total"]))
    let leo = try #require(shares.first { $0["person"] as? String == "Leo" })
    let portions = (leo["breakdown"] as? [String: Any])?["portions"] as? [[String: Any]] ?? []
    #expect(
      portions.map { "\($0["item"] ?? "") \($0["portion"] ?? "")" } == ["Kids' menu 1", "Lemonade 1/2", "Tiramisu 1/2"])
  }

  @Test func textReportExplainsEachShare() async throws {
    let path = packageRoot.appendingPathComponent("samples/receipts").path
    let outcome = await runCLI(["report", path])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(
      outcome.stdout.contains(
        "  receipt: 11 items 318.95 + tax 10.25% 32.69 = 351.64 (receipt total as printed); tip on pretax 318.95\n"))
    #expect(
      outcome.stdout.contains(
        "      items 24.00 + tax 2.45 + tip 4.80 + 0.01 absorbed: Kids' menu, Lemonade 1/2, Tiramisu 1/2\n"))
    #expect(
      outcome.stdout.contains(
        "  receipt: 3 items 44.50 − discount 20% 2.80 (on Champagne (glass)) = 41.70 (incl. tax 10% 3.79) (receipt total as printed); tip on pretax 37.91\n"
      ))
  }

  @Test func calcTriesAnItemizedBill() async throws {
    let arguments = [
      "calc", "--people", "Ana,Ben,Cy", "--item", "Burger=15.00@Ana", "--item", "Salad=12.00@Ben", "--item",
      "Fries=6.00", "--item", "Beer=7.00x2@Cy", "--tax", "8.875%", "--tip", "20",
    ]
    let text = await runCLI(arguments)
    #expect(text.code == 0, "\(text.stderr)")
    #expect(text.stdout.contains("receipt: 4 items 47.00 + tax 8.875% 4.17 = 51.17; tip on pretax 47.00"))
    #expect(
      text.stdout.contains(
        "  Ana      21.91 USD  +0.01 absorbed\n      items 17.00 + tax 1.50 + tip 3.40 + 0.01 absorbed: Burger, Fries 1/3\n"
      ))
    let json = await runCLI(arguments + ["--json", "51.17"])
    #expect(json.code == 0, "\(json.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((object["shares"] as? [[String: Any]])?.map { Self.cents($0["amount"]) } == [2191, 1804, 2062])
    #expect((object["items"] as? [[String: Any]])?.count == 4)
    // A wrong AMOUNT, a printed total that matches neither figure, receipt options without items.
    #expect(await runCLI(arguments + ["51.00"]).stderr.contains("amount is 51.00 USD but the items come to 51.17 USD"))
    #expect(await runCLI(arguments + ["--receipt-total", "60.00"]).code == 64)
    #expect(await runCLI(arguments + ["--receipt-total", "60.57"]).code == 0)
    #expect(await runCLI(["calc", "100", "--tip", "10", "--tax", "5%"]).code == 64)
    #expect(await runCLI(["calc", "--people", "Ana", "--item", "Wine=4@Zed", "--tip", "0"]).stderr.contains("'Zed'"))
  }

  @Test func itemNamesAreEscapedInEveryFormat() async throws {
    let directory = try scratchDirectory()
    let input = directory.appendingPathComponent("hostile.yaml")
    try """
    bills:
      - id: h1
        date: 2026-11-20
        currency: USD
        tip: 0
        diners: [Ana]
        paid_by: Ana
        items:
          - {name: "<script>alert(1)</script>", price: 5.00}
          - {name: "=HYPERLINK(\\"x\\") | **bold** \\u001b[31mred", price: 1.00}
    """.write(to: input, atomically: true, encoding: .utf8)
    let html = await runCLI(["report", input.path, "--format", "html"])
    #expect(html.code == 0, "\(html.stderr)")
    #expect(!html.stdout.contains("<script>alert"))
    #expect(html.stdout.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    let markdown = await runCLI(["report", input.path, "--format", "markdown"])
    #expect(!markdown.stdout.contains("| **bold**"))
    #expect(!markdown.stdout.contains("<script>"))
    let text = await runCLI(["report", input.path])
    #expect(!text.stdout.contains("\u{1B}[31m"))
    for flavor in ["hledger", "ledger", "beancount"] {
      let journal = await runCLI(["report", input.path, "--format", flavor])
      #expect(journal.code == 0)
      #expect(!journal.stdout.contains("\u{1B}"))
    }
  }
}
