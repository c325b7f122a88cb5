import Testing

@testable import SplitBillCLI

@Suite struct CalcCommandTests {
  @Test func splitsAHundredThreeWaysAndNamesWhoAbsorbsTheCent() async {
    let outcome = await runCLI(["calc", "100", "--tip", "0", "--split", "3"])
    #expect(outcome.code == 0)
    #expect(outcome.stderr == "")
    #expect(
      outcome.stdout == """
        Amount     100.00 USD
        Tip (0%)     0.00 USD
        Total      100.00 USD

        Split 3 ways (leftover: balanced)
          Diner 1   33.34 USD  +0.01 absorbed
          Diner 2   33.33 USD
          Diner 3   33.33 USD

        Diner 1 absorbs the leftover cent (0.01 USD).

        """)
  }

  @Test func jsonHasTheDocumentedKeysInOrder() async {
    let outcome = await runCLI([
      "calc", "10000", "--currency", "JPY", "--tip-amount", "500", "--people", "Ana=2,Ben=1,Chloé",
      "--leftover", "remainder", "--json",
    ])
    #expect(outcome.code == 0)
    #expect(
      outcome.stdout == """
        {
          "currency": "JPY",
          "amount": "10000",
          "tip_percent": "5",
          "tip": "500",
          "total": "10500",
          "leftover_policy": "remainder",
          "leftover_to_tip": "0",
          "shares": [
            {
              "person": "Ana",
              "weight": 2,
              "amount": "5250",
              "absorbed": 0
            },
            {
              "person": "Ben",
              "weight": 1,
              "amount": "2625",
              "absorbed": 0
            },
            {
              "person": "Chloé",
              "weight": 1,
              "amount": "2625",
              "absorbed": 0
            }
          ]
        }

        """)
  }

  @Test func kuwaitiDinarsKeepThreeDecimals() async {
    let outcome = await runCLI(["calc", "10.005", "--currency", "KWD", "--tip", "15", "--people", "Ana,Ben,Chloé"])
    #expect(outcome.code == 0)
    #expect(outcome.stdout.contains("Total      11.506 KWD"))
    #expect(outcome.stdout.contains("Ana absorbs the leftover unit (0.001 KWD)."))
  }

  @Test func toTipReportsTheSurplus() async {
    let outcome = await runCLI(["calc", "100", "--tip", "0", "--split", "3", "--leftover", "to-tip"])
    #expect(outcome.stdout.contains("  incl. leftover    0.02 USD"))
    #expect(outcome.stdout.contains("the surplus 0.02 USD was added to the tip"))
  }

  @Test func terminalControlCharactersInNamesAreNeutralised() async {
    let outcome = await runCLI(["calc", "10", "--tip", "0", "--people", "Ana\u{1B}[2J,Ben"])
    #expect(outcome.code == 0)
    #expect(!outcome.stdout.contains("\u{1B}"))
    #expect(outcome.stdout.contains("Ana\\u{1B}[2J"))
  }
}

struct UsageCase: Sendable, CustomTestStringConvertible {
  var id: String
  var arguments: [String]
  var expected: String
  var testDescription: String { id }

  static let all: [UsageCase] = [
    UsageCase(
      id: "typo in option", arguments: ["calc", "10", "--tipp", "3"],
      expected: "error: unknown option '--tipp'; did you mean '--tip'?"),
    UsageCase(
      id: "typo in command", arguments: ["cacl"], expected: "error: unknown command 'cacl'; did you mean 'calc'?"),
    UsageCase(
      id: "no amount", arguments: ["calc", "--tip", "3"],
      expected: "error: missing the bill AMOUNT, for example: splitbill calc 84.50 --tip 18 --split 3"),
    UsageCase(
      id: "no tip", arguments: ["calc", "10"],
      expected: "error: no tip given: add --tip PERCENT (for example --tip 15) or --tip-amount AMOUNT"),
    UsageCase(
      id: "two tips", arguments: ["calc", "10", "--tip", "3", "--tip-amount", "1"],
      expected: "error: give either --tip or --tip-amount, not both"),
    UsageCase(
      id: "too many decimals", arguments: ["calc", "12.345", "--currency", "EUR", "--tip", "3"],
      expected: "error: amount '12.345' has 3 decimals but EUR has 2"),
    UsageCase(
      id: "negative", arguments: ["calc", "-5", "--tip", "3"],
      expected: "error: amount '-5' is negative: expected zero or more"),
    UsageCase(
      id: "percent range", arguments: ["calc", "5", "--tip", "120"],
      expected: "error: --tip: tip '120' is out of range: expected a percentage from 0 to 100"),
    UsageCase(
      id: "zero people", arguments: ["calc", "5", "--tip", "1", "--split", "0"],
      expected: "error: --split: '0' is not a number of people: expected a whole number of at least 1"),
    UsageCase(
      id: "bad policy", arguments: ["calc", "5", "--tip", "1", "--leftover", "balance"],
      expected:
        "error: --leftover: 'balance' is not one of balanced, remainder, first, payer, to-tip; did you mean 'balanced'?"
    ),
    UsageCase(
      id: "unknown currency", arguments: ["calc", "5", "--tip", "1", "--currency", "EURO"],
      expected: "error: --currency: unknown currency 'EURO': expected an ISO 4217 code such as EUR, USD or JPY"),
    UsageCase(
      id: "duplicate person", arguments: ["calc", "5", "--tip", "1", "--people", "Ana,Ana"],
      expected: "error: --people: diner 'Ana' is listed twice"),
    UsageCase(
      id: "zero weight", arguments: ["calc", "5", "--tip", "1", "--people", "Ana=0"],
      expected: "error: --people: weight '0' must be greater than zero (diner 'Ana')"),
    UsageCase(
      id: "payer not diner",
      arguments: ["calc", "5", "--tip", "1", "--people", "Ana", "--payer", "Ben", "--leftover", "payer"],
      expected: "error: leftover policy 'payer' needs the payer among the diners, but 'Ben' is not one"),
    UsageCase(
      id: "missing value", arguments: ["calc", "5", "--tip"], expected: "error: option '--tip' needs a value (PERCENT)"),
    UsageCase(
      id: "repeated", arguments: ["calc", "5", "--tip", "1", "--tip", "2"],
      expected: "error: option '--tip' is given more than once"),
  ]
}

@Suite struct UsageTests {
  @Test(arguments: UsageCase.all)
  func reportsUsageErrors(_ c: UsageCase) async {
    let outcome = await runCLI(c.arguments)
    #expect(outcome.code == 64)
    #expect(outcome.stdout == "")
    #expect(outcome.stderr.split(separator: "\n").first.map(String.init) == c.expected)
    #expect(outcome.stderr.contains("--help' for more information."))
  }

  @Test func helpGoesToStdoutWithExamplesAndWhereTheExitCodesAre() async {
    for arguments in [["--help"], ["help", "calc"], ["calc", "--help"]] {
      let outcome = await runCLI(arguments)
      #expect(outcome.code == 0)
      #expect(outcome.stdout.contains("splitbill calc 84.50 --tip 18 --split 3"))
      #expect(outcome.stdout.contains("exit-codes"))
    }
    #expect(await runCLI(["--version"]).stdout == "splitbill \(SplitBillCommandLine.version)\n")
    #expect(await runCLI([]).code == 64)
  }
}

@Suite struct ArgumentParsingTests {
  let specs: [OptionSpec] = [
    .value("--output", short: "-o", "FILE", repeatable: true, "out"), .value("--tip", "P", "tip"),
    .flag("--json", "json"),
  ]

  @Test func acceptsTheUsualSpellings() async throws {
    let parsed = try ParsedArguments.parse(
      ["a.yaml", "--tip=15", "-o", "x.json", "--output", "y.md", "--json", "-", "--", "--not-an-option"], specs: specs)
    #expect(parsed.positionals == ["a.yaml", "-", "--not-an-option"])
    #expect(parsed.values["--output"] == ["x.json", "y.md"])
    #expect(parsed.value("--tip") == "15")
    #expect(parsed.flag("--json"))
  }

  @Test func flagsTakeNoValue() async {
    #expect(throws: UsageError("option '--json' takes no value")) {
      try ParsedArguments.parse(["--json=yes"], specs: specs)
    }
  }
}
