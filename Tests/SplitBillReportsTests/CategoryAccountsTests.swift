import Testing

@testable import SplitBillReports

/// Each category's expense account: the user's, the built-in one, or one made from the category.
@Suite struct CategoryAccountsTests {
  @Test func theUsersThenTheBuiltInThenOneMadeFromTheCategory() {
    var accounts = CategoryAccounts()
    #expect(accounts.account(for: nil) == "Expenses:Dining")
    #expect(accounts.account(for: "Groceries") == "Expenses:Food:Groceries")
    #expect(accounts.account(for: "Dining out") == "Expenses:Food:Dining")
    #expect(accounts.account(for: "furniture shop") == "Expenses:Furniture shop")
    #expect(accounts.account(for: "trip: ferry") == "Expenses:Trip:ferry")
    #expect(accounts.account(for: "a::b:") == "Expenses:A:b")
    #expect(accounts.account(for: " : ") == "Expenses:Other")
    #expect(accounts.map("GROCERIES", to: "Expenses:Household:Food") == nil)
    #expect(accounts.account(for: "groceries") == "Expenses:Household:Food")
  }

  @Test(arguments: [
    "Food", "Expenses", "Expenses:", "Expenses::Food", "Expenses: Food", "Expenses:Food ", "Expenses:Two  spaces",
    "Expenses:a;b", "Expenses:tab\there", "Costs:Food",
  ])
  func accountsTheToolsWouldNotTakeAreRefused(account: String) {
    var accounts = CategoryAccounts()
    #expect(accounts.map("food", to: account) != nil)
    #expect(accounts.account(for: "food") == "Expenses:Food")
  }
}
