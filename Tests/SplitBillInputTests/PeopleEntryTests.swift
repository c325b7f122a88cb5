import SplitBillCore
import Testing

@testable import SplitBillInput
@testable import SplitBillModel

/// `people:` entries with payment details: the roster they make, the details they give, and each
/// problem at its place.
@Suite struct PeopleEntryTests {
  @Test func entriesGiveTheRosterAndTheDetails() throws {
    let result = readPaths([try fixture("people-details.yaml")])
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    #expect(result.bills.count == 2)
    #expect(Set(result.payees.keys) == ["Ben", "Chloé", "Dmitri"])
    #expect(result.payees["Ben"]?.iban?.electronic == "DE89370400440532013000")
    #expect(result.payees["Ben"]?.bic?.code == "COBADEFFXXX")
    #expect(result.payees["Chloé"] == PaymentDetails(link: "https://paypal.me/chloe", holder: "Chloé Martin"))
    #expect(result.payees["Dmitri"]?.iban?.grouped == "GB82 WEST 1234 5698 7654 32")
  }

  /// The roster still holds: a name outside it is an error, the entries' names included.
  @Test func theEntriesNamesAreTheRoster() throws {
    let result = try read(
      """
      people: [Ana, {name: Ben, iban: DE89370400440532013000}]
      bills:
        - {id: b, amount: 10.00, tip: 0, paid_by: Ben, diners: [Ana, Bne]}
      """)
    #expect(
      result.lines.contains { $0.hasPrefix("3:64: error: diner 'Bne' is not in people; did you mean 'Ben'?") },
      "\(result.lines)")
  }

  /// An anchor reuses an entry; an alias of a person with details gives the same details. A
  /// name given twice, once bare, once with details, is a repeated name as before.
  @Test func aliasesAndRepeatsReadAsTheirText() throws {
    let result = try read(
      """
      x-ben: &ben {name: Ben, iban: DE89370400440532013000}
      people: [Ana, *ben, Ben]
      bills:
        - {id: b, amount: 10.00, tip: 0, paid_by: Ben, diners: [Ana, Ben]}
      """)
    #expect(result.payees["Ben"]?.iban != nil)
    #expect(result.lines.contains { $0.hasPrefix("2:21: error: 'Ben' is listed twice in people") }, "\(result.lines)")
  }

  /// A huge or nested entry is refused by its shape; a value that is a list is not a single value.
  @Test func oddShapesAreRefusedWhereTheyStand() throws {
    let result = try read(
      """
      people:
        - {name: Ben, iban: [DE89370400440532013000]}
        - {name: [Ana]}
        - {name: Chloé, link: null}
        - 7
      bills:
        - {id: b, amount: 10.00, tip: 0, paid_by: Ben, diners: [Ben]}
      """)
    #expect(result.lines.contains("2:23: error: iban must be a single value, not a list"), "\(result.lines)")
    #expect(result.lines.contains("3:12: error: name must be a single value, not a list"), "\(result.lines)")
    #expect(result.lines.contains("4:25: error: link must be a single value, not nothing"), "\(result.lines)")
    #expect(result.payees.isEmpty)
    expectInside(result.diagnostics, lines: 7)
  }
}
