import Foundation
import SplitBillModel
import Testing

@testable import SplitBillCLI

@Suite struct CheckCommandTests {
  @Test func samplesPassAndInvalidSamplesListEveryProblem() async throws {
    let clean = await runCLI(["check", packageRoot.appendingPathComponent("samples").path])
    #expect(clean.code == 0)
    #expect(clean.stdout.hasSuffix("checked 3 files, 17 bills: 0 errors, 0 warnings\n"))

    let invalid = try runBinary(["check", "samples/invalid"])
    #expect(invalid.code == 1)
    #expect(
      invalid.stdout.contains(
        """
        samples/invalid/amounts.yaml:5:13: error: amount '12.345' has 3 decimals but EUR has 2
                amount: 12.345        # three decimals in euros
                        ^
        """))
    #expect(invalid.stdout.hasSuffix("checked 9 files, 36 bills: 38 errors, 1 warning\n"))
    // every diagnostic has a position
    let heads = invalid.stdout.split(separator: "\n").filter { $0.hasPrefix("samples/") }
    #expect(heads.count == 39)
    #expect(
      heads.allSatisfy { $0.firstMatch(of: #/^samples/invalid/[a-z-]+\.(yaml|csv):\d+:\d+: (error|warning): /#) != nil }
    )
  }

  @Test func strictFailsOnWarnings() async throws {
    let path = packageRoot.appendingPathComponent("samples/invalid/dates-and-ids.yaml").path
    #expect(await runCLI(["check", path]).code == 1)
    let directory = try FileManager.default.url(
      for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: URL(fileURLWithPath: "/tmp"), create: true)
    let file = directory.appendingPathComponent("twice.yaml")
    try """
    - {id: a, date: 2026-11-20, amount: 5, currency: EUR, tip: 1, diners: 1, paid_by: Ana}
    - {id: b, date: 2026-11-20, amount: 5, currency: EUR, tip: 1, diners: 1, paid_by: Ana}
    """.write(to: file, atomically: true, encoding: .utf8)
    #expect(await runCLI(["check", file.path]).code == 0)
    #expect(await runCLI(["check", file.path, "--strict"]).code == 1)
  }

  @Test func githubFormatIsWorkflowCommands() async {
    let outcome = await runCLI([
      "check", packageRoot.appendingPathComponent("samples/invalid/tips.yaml").path, "--format", "github",
    ])
    let lines = outcome.stdout.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines.allSatisfy { $0.hasPrefix("::error file=") && $0.contains(",line=") && $0.contains(",col=") })
    #expect(
      lines[1].hasSuffix(
        "tips.yaml,line=11,col=10::tip '150%25' is out of range: expected a percentage from 0 to 100 (or 'ai' for advice)"
      ))
  }

  @Test func jsonFormatHasTheDocumentedKeys() async throws {
    let outcome = await runCLI([
      "check", packageRoot.appendingPathComponent("samples/invalid/keys.yaml").path, "--format", "json",
    ])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "files", "bills", "payments", "errors", "warnings", "diagnostics", "omitted_warnings", "omitted_errors",
      ])
    #expect(object["errors"] as? Int == 3)
    let first = try #require((object["diagnostics"] as? [[String: Any]])?.first)
    #expect(Set(first.keys) == ["file", "line", "column", "severity", "code", "message"])
    #expect(first["line"] as? Int == 6)
    #expect(first["column"] as? Int == 5)
    #expect(first["code"] as? String == "bill.unknown-key")
  }

  /// Every problem in the broken samples has a stable code, and each code is in the documented
  /// table (docs/format.md shows the same table, checked below).
  @Test func everyDiagnosticHasADocumentedCode() async throws {
    let outcome = await runCLI([
      "check", packageRoot.appendingPathComponent("samples/invalid").path, "--format", "json",
    ])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    let codes = try #require(object["diagnostics"] as? [[String: Any]]).compactMap { $0["code"] as? String }
    #expect(codes.count > 20)
    let documented = Set(Problem.documentedCodes.map(\.code))
    let single = /^(id|date|description|amount|currency|tip|tip_amount|diners|paid_by|notes|leftover|rounding)\.shape$/
    for code in Set(codes) { #expect(documented.contains(code) || code.wholeMatch(of: single) != nil, "\(code)") }
    // Some codes of each kind: a value, a key, a person, the file.
    for code in [
      "amount.decimals", "bill.unknown-key", "diners.unknown-person", "tip.range", "date.calendar", "rates.conflict",
      "rate.syntax",
    ] {
      #expect(codes.contains(code), "\(code)")
    }
  }

  @Test func theFormatDocumentListsEveryCode() throws {
    let document = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/format.md"), encoding: .utf8)
    for (code, meaning) in Problem.documentedCodes {
      #expect(document.contains("| `\(code)` | \(meaning) |"), "docs/format.md lacks \(code)")
    }
  }

  @Test func unreadableInputExits66() async {
    let outcome = await runCLI(["check", "/nonexistent/bills.yaml"])
    #expect(outcome.code == 66)
    #expect(
      outcome.stdout.contains(
        "/nonexistent/bills.yaml: error: cannot read '/nonexistent/bills.yaml': no such file or directory"))
  }

  @Test func standardInputWithItsFormat() async throws {
    let csv = Data("amount,tip,diners\n12.345,10,2\n".utf8)
    let outcome = try runBinary(["check", "-", "--input-format", "csv", "--currency", "EUR"], stdin: csv)
    #expect(outcome.code == 1)
    #expect(
      outcome.stdout.hasPrefix("-:2:1: error: amount '12.345' has 3 decimals but EUR has 2\n    12.345,10,2\n    ^\n"))
  }

  @Test func initWritesAStarterThatPassesCheck() async throws {
    let directory = try FileManager.default.url(
      for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: URL(fileURLWithPath: "/tmp"), create: true)
    let path = directory.appendingPathComponent("trip.yaml").path
    #expect(await runCLI(["init", path]).code == 0)
    #expect(await runCLI(["check", path]).code == 0)
    let again = await runCLI(["init", path])
    #expect(again.code == 73)
    #expect(again.stderr.contains("the file exists (use --force)"))
    #expect(await runCLI(["init", path, "--force"]).code == 0)
    #expect(await runCLI(["init"]).stdout == InitCommand.starter)
  }
}

@Suite struct SchemaTests {
  @Test func schemaPropertiesFollowTheFieldTable() async throws {
    let outcome = await runCLI(["schema"])
    let schema = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    let defs = try #require(schema["$defs"] as? [String: [String: Any]])
    let billProperties = try #require(defs["bill"]?["properties"] as? [String: Any])
    #expect(
      Set(billProperties.keys) == [
        "id", "date", "description", "category", "amount", "currency", "tip", "tip_amount", "diners", "paid_by",
        "notes",
        "leftover", "rounding", "shares", "rate", "repeat", "items", "discount", "discount_items", "service", "tax",
        "tax_included",
        "tip_on", "receipt_total",
      ])
    let paymentProperties = try #require(defs["payment"]?["properties"] as? [String: Any])
    #expect(Set(paymentProperties.keys) == ["id", "date", "from", "to", "amount", "currency", "notes"])
    let defaultProperties = try #require(defs["defaults"]?["properties"] as? [String: Any])
    #expect(
      Set(defaultProperties.keys) == [
        "currency", "tip", "category", "leftover", "rounding", "cash_rounding", "whole_units",
      ])
  }

  /// The samples and the starter validate against the schema with Python's jsonschema (CI installs it).
  @Test(
    .enabled(
      if: needing(pythonHas("import jsonschema, yaml")),
      "needs python3 with jsonschema and PyYAML (pip install jsonschema pyyaml)"))
  func samplesValidateAgainstTheSchemaInARealValidator() async throws {
    let directory = try FileManager.default.url(
      for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: URL(fileURLWithPath: "/tmp"), create: true)
    let schemaPath = directory.appendingPathComponent("schema.json")
    try await runCLI(["schema"]).stdout.write(to: schemaPath, atomically: true, encoding: .utf8)
    let starter = directory.appendingPathComponent("starter.yaml")
    try InitCommand.starter.write(to: starter, atomically: true, encoding: .utf8)
    let bad = directory.appendingPathComponent("bad.yaml")
    try "bills:\n  - {amount: 5, tip: 10, tip_amount: 1, ammount: 3}\n".write(
      to: bad, atomically: true, encoding: .utf8)
    let payments = directory.appendingPathComponent("payments.yaml")
    try
      "people: [Ana, Ben]\npayments:\n  - {id: p1, date: 2026-11-20, from: Ana, to: Ben, amount: 5.00, currency: EUR}\n"
      .write(to: payments, atomically: true, encoding: .utf8)
    let vat = directory.appendingPathComponent("vat.yaml")
    try """
    bills:
      - {amount: 11.00, tip: 0, diners: [Ana], tax: 10%, tax_included: true, tip_on: total,
         items: [{name: Menu, price: 11.00, quantity: 1, for: {Ana: 1}}], discount: 5%, discount_items: Menu}
    """.write(to: vat, atomically: true, encoding: .utf8)
    let badVAT = directory.appendingPathComponent("bad-vat.yaml")
    try "bills:\n  - {tip: 0, diners: 2, tax_included: sometimes, items: [{name: Menu}]}\n".write(
      to: badVAT, atomically: true, encoding: .utf8)
    // People with payment details, and one with a key the format does not have.
    let payees = directory.appendingPathComponent("payees.yaml")
    try
      "people: [Ana, {name: Ben, iban: DE89 3704 0044 0532 0130 00, bic: COBADEFFXXX, link: https://paypal.me/ben, holder: Ben B}]\nbills:\n  - {amount: 5, tip: 0, diners: [Ana, Ben], paid_by: Ben}\n"
      .write(to: payees, atomically: true, encoding: .utf8)
    let badPayees = directory.appendingPathComponent("bad-payees.yaml")
    try "people: [{name: Ben, iban: DE89, colour: red}, {iban: DE89}]\nbills: []\n".write(
      to: badPayees, atomically: true, encoding: .utf8)
    let badPayment = directory.appendingPathComponent("bad-payment.yaml")
    try "payments:\n  - {from: Ana, amount: 5, tip: 1}\n".write(to: badPayment, atomically: true, encoding: .utf8)
    let script = """
      import json, sys, yaml, jsonschema
      class TextLoader(yaml.SafeLoader):
          pass  # merge keys resolved, scalars kept as text, as splitbill reads them
      for tag in ("int", "float", "bool", "timestamp"):
          TextLoader.add_constructor("tag:yaml.org,2002:" + tag, lambda loader, node: loader.construct_scalar(node))
      schema = json.load(open(sys.argv[1]))
      jsonschema.Draft202012Validator.check_schema(schema)
      validator = jsonschema.Draft202012Validator(schema)
      for path in sys.argv[2:]:
          errors = list(validator.iter_errors(yaml.load(open(path), Loader=TextLoader)))
          print(path, len(errors))
      """
    let outcome = try runProcess(
      "python3",
      [
        "-c", script, schemaPath.path, packageRoot.appendingPathComponent("samples/trip.yaml").path,
        starter.path, bad.path, payments.path, badPayment.path,
        packageRoot.appendingPathComponent("samples/flat/week47.yaml").path,
        packageRoot.appendingPathComponent("samples/receipts/steakhouse.yaml").path, vat.path, badVAT.path,
        payees.path, badPayees.path,
      ])
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let counts = outcome.stdout.split(separator: "\n").map { $0.split(separator: " ").last.map(String.init) ?? "" }
    #expect(counts == ["0", "0", "1", "0", "1", "0", "0", "0", "1", "0", "1"])
  }
}
