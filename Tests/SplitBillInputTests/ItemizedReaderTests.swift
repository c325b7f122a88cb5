import Foundation
import SplitBillCore
import Testing

/// Itemized bills in YAML and in a CSV items file: what they read as, and each rule's
/// diagnostic at its place.
@Suite struct ItemizedReaderTests {
  @Test func yamlAndCSVItemsReadAsTheSameReceipt() throws {
    let yaml = try read(
      """
      bills:
        - id: d1
          diners: [Ana, Ben, Cy]
          tip: 20
          tax: 8.875%
          discount: 10%
          discount_items: [Wine]
          tip_on: subtotal
          receipt_total: 50.79
          items:
            - {name: Burger, price: 15.00, for: Ana}
            - {name: Fries, price: 6.00}
            - {name: Wine, price: 9.50, quantity: 3, for: {Ana: 1, Ben: 2}}
      """)
    #expect(yaml.lines == [])
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(
      "id,diners,tip,tax,discount,discount_items,tip_on,receipt_total\nd1,Ana;Ben;Cy,20,8.875%,10%,Wine,subtotal,50.79\n"
        .utf8
    ).write(to: directory.appendingPathComponent("bills.csv"))
    try Data("bill,name,price,quantity,for\nd1,Burger,15.00,,Ana\nd1,Fries,6.00,,\nd1,Wine,9.50,3,Ana:1;Ben:2\n".utf8)
      .write(to: directory.appendingPathComponent("bills.items.csv"))
    let csv = readPaths([directory.path])
    #expect(csv.lines == [], "the directory's items file is read with its bills file, not on its own")
    let fromYAML = try #require(yaml.bills.first)
    let fromCSV = try #require(csv.bills.first)
    var csvBill = fromCSV
    csvBill.source = fromYAML.source
    #expect(csvBill.terms == fromYAML.terms)
    let receipt = try #require(fromYAML.terms.receipt)
    #expect(receipt.items.map(\.total.minorUnits) == [1500, 600, 2850])
    #expect(receipt.items[2].sharers?.map(\.weight) == [.one, Weight(tenThousandths: 20_000)])
    #expect(receipt.discount == .percent(Percent(tenThousandths: 100_000)))
    #expect(receipt.discountItems == ["Wine"])
    #expect(receipt.tipOn == .subtotal)
    // 49.50 − 2.85 = 46.65; + 8.875 % tax 4.14 = 50.79 before tip; tip 20 % of 49.50 = 9.90.
    #expect(fromYAML.terms.amount.minorUnits == 5079)
    #expect(fromYAML.terms.knownTotal?.minorUnits == 6069)
  }

  static let invalid: [(text: String, expected: [String])] = [
    (
      "- {tip: 0, diners: [Ana], items: [{name: A, price: 5}], receipt_total: 6}\n",
      [
        "1:72: error: receipt_total is 6.00 USD but the items come to 5.00 USD before tip: 1.00 USD over the total before tip"
      ]
    ),
    (
      "- {tip: 0, diners: [Ana, Chloé], items: [{name: A, price: 5, for: [Chloe]}]}\n",
      ["1:68: error: item 'A' is for 'Chloe', who is not among the bill's diners; did you mean 'Chloé'?"]
    ),
    (
      "- {tip: 0, diners: [Ana], items: [{name: A, price: 3.99, quantity: 0.5}]}\n",
      [
        "1:68: error: item 'A': 0.5 × 3.99 USD is not a whole number of USD minor units: give the line total as the price with quantity 1"
      ]
    ),
    (
      "- {tip: 0, diners: [Ana], items: [{name: A, price: 5}], amount: 6}\n",
      ["1:65: error: amount is 6.00 USD but the items come to 5.00 USD before tip: 1.00 USD over"]
    ),
    (
      "- {tip: 0, diners: [Ana], items: [{nam: A, price: 5}]}\n",
      [
        "1:36: error: unknown item key 'nam': an item takes name, price, quantity, for; did you mean 'name'?",
        "1:35: error: item has no name: expected the line as printed, such as 'name: House wine'",
      ]
    ),
    (
      "- {tip: 0, diners: [Ana], items: [{name: A}]}\n",
      ["1:35: error: item has no price: expected its unit price, such as 'price: 42.00'"]
    ),
    (
      "- {tip: 0, diners: [Ana], items: [{name: A, price: 5.001}]}\n",
      ["1:52: error: price '5.001' has 3 decimals but USD has 2 (item 'A')"]
    ),
    (
      "- {tip: 0, diners: [Ana], items: []}\n",
      ["1:34: error: items is empty: list at least one item, or give an amount instead"]
    ),
    (
      "- {tip: 0, diners: [Ana], items: 5}\n",
      [
        "1:34: error: items must be a list of items, each a mapping such as {name: Wine, price: 42.00, for: [Ana, Ben]}, not '5'"
      ]
    ),
    (
      "- {tip: 0, diners: [Ana], amount: 5, tax: 10%}\n",
      ["1:38: error: tax is given but the bill has no items: it applies to itemized bills (add items)"]
    ),
    (
      "- {tip: 0, diners: [Ana], items: [{name: A, price: 5}], discount: 6}\n",
      ["1:67: error: discount 6.00 USD is more than the 5.00 USD it is on"]
    ),
    (
      "- {tip: 0, diners: [Ana], items: [{name: A, price: 5}], discount: 1, discount_items: [B]}\n",
      ["1:86: error: discount_items names 'B', which is not an item of this bill"]
    ),
    (
      "- {tip: 0, diners: [Ana], items: [{name: A, price: 5}], tax: ten}\n",
      ["1:62: error: tax 'ten' is neither a percentage nor an amount: expected such as 10% or 5.00"]
    ),
    (
      "- {tip: 0, diners: [Ana], items: [{name: A, price: 5}], tax_included: maybe}\n",
      ["1:71: error: tax_included 'maybe' is not true or false"]
    ),
    (
      "- {tip: 0, diners: [Ana], items: [{name: A, price: 5}], tip_on: tax}\n",
      ["1:65: error: tip_on 'tax' is not one of subtotal, pretax, total"]
    ),
    (
      "- {tip: 0, diners: 2, items: [{name: A, price: 5, for: Ana}]}\n",
      [
        "1:56: error: item 'A' names who shares it, but the bill's diners are a head count: list them by name"
      ]
    ),
    (
      "- {tip: 0, shares: {Ana: 5}, amount: 5, items: [{name: A, price: 5}]}\n",
      ["1:41: error: a bill has either items or exact shares, not both"]
    ),
    (
      "- {tip: 0, diners: [Ana, Ben], items: [{name: A, price: 5, for: [Ana, Ana]}]}\n",
      ["1:71: error: 'Ana' is listed twice in the for of item 'A'"]
    ),
    (
      "- {tip: 0, diners: [Ana, Ben], items: [{name: A, price: 5, for: {Ana: 0}}]}\n",
      ["1:71: error: weight '0' must be greater than zero (item 'A')"]
    ),
  ]

  @Test(arguments: 0..<invalid.count)
  func yamlItemProblemsAreLocated(index: Int) throws {
    let (text, expected) = Self.invalid[index]
    let result = try read(text)
    #expect(result.lines == expected, "\(text)")
    #expect(result.bills.isEmpty)
  }

  @Test func itemsFileProblemsAreLocated() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    func write(_ name: String, _ text: String) throws {
      try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }
    try write("trip.csv", "id,diners,tip\nd1,Ana;Ben,0\nd2,Ana,0\n")
    try write(
      "trip.items.csv",
      "bill,name,price,for\nd1,Pizza,12.00,Ana;Ben\nd9,Ghost,1.00,\nd1,Beer,x,Ana\nd1,Salad,4.00,Ann\n")
    let result = readPaths([directory.appendingPathComponent("trip.csv").path])
    // The items file's rows at their cells; the bills file's d2 has neither items nor an amount.
    #expect(
      result.lines == [
        "4:9: error: price 'x' is not a number: expected digits with at most 2 decimals, such as 1234.50 (item 'Beer')",
        "5:15: error: item 'Salad' is for 'Ann', who is not among the bill's diners; did you mean 'Ana'?",
        "3:1: error: missing required key 'amount' (the bill before tip)",
        "3:1: error: item row for bill 'd9', which its bills file does not have",
      ])
    #expect(result.diagnostics.map { $0.location?.file.hasSuffix(".items.csv") ?? false } == [true, true, false, true])
    #expect(result.bills.isEmpty)
    #expect(result.invalid.count == 2)
    #expect(result.diagnostics.contains { $0.code == "items.orphan" && $0.location?.line == 3 })
    #expect(result.diagnostics.contains { $0.code == "items.price" && $0.location?.line == 4 })
    #expect(result.diagnostics.contains { $0.code == "items.not-a-diner" && $0.location?.line == 5 })

    // An items file on its own, and a bills file without ids.
    let alone = readPaths([directory.appendingPathComponent("trip.items.csv").path])
    #expect(alone.diagnostics.map(\.code) == ["items.file"])
    try write("noid.csv", "diners,tip,amount\nAna,0,5\n")
    try write("noid.items.csv", "bill,name,price\nx,A,5\n")
    let noIDs = readPaths([directory.appendingPathComponent("noid.csv").path])
    #expect(noIDs.diagnostics.map(\.code).contains("items.file"))
    // A CSV `items` column is not how items are written.
    let column = try read("amount,tip,diners,items\n5,0,1,x\n", name: "bills.csv")
    #expect(column.diagnostics.map(\.code) == ["items.file"])
  }
}
