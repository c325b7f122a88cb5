import Foundation
import Testing

/// Reading streams: peak memory does not grow with the number of bills.
@Suite struct StreamingMemoryTests {
  /// Peak RSS in KiB of `splitbill ARGS`, measured by Python's `resource` for the child.
  /// With `stdin`, the file is piped to its standard input; `status` is the exit code expected.
  func peakKilobytes(_ arguments: [String], stdin: String? = nil, status: Int = 0) throws -> Int {
    let script = """
      import resource, subprocess, sys
      source = open(sys.argv[1], "rb") if sys.argv[1] else subprocess.DEVNULL
      run = subprocess.run(sys.argv[2:], stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
      print(run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
      """
    let outcome = try runProcess(
      "python3", ["-c", script, stdin ?? "", try builtBinary().path] + arguments)
    let fields = outcome.stdout.split(separator: " ").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    #expect(fields.first == status, "splitbill exited \(String(describing: fields.first))")
    return try #require(fields.last ?? nil)
  }

  /// `count` bills; with `duplicates`, every eighth has the date, amount and payer of the bill
  /// before it (a probable duplicate receipt).
  func generate(_ count: Int, csv: Bool, duplicates: Bool = false, in directory: URL) throws -> String {
    // Every bill has an id and a date, so the run-wide id and receipt checks see every one.
    var text = csv ? "id,date,amount,currency,tip,diners,paid_by,notes\n" : "defaults: {tip: 15}\nbills:\n"
    let names = ["Ana", "Ben", "Chloé", "Dmitri"]
    for index in 0..<count {
      let id = "bill-\(index)"
      let index = duplicates && index % 8 == 7 ? index - 1 : index
      let amount = "\(10 + index % 990).\(index % 10)\(index % 7)"
      let date = "2026-\(10 + index % 3)-\(10 + index % 19)"
      if csv {
        text += "\(id),\(date),\(amount),EUR,10,Ana:2;Ben:1;Chloé:1,\(names[index % 4]),\"said \"\"fine\"\", thanks\"\n"
      } else {
        text +=
          "  - {id: \(id), date: \(date), amount: \(amount), currency: EUR, diners: {Ana: 2, Ben: 1, Chloé: 1}, paid_by: \(names[index % 4]), notes: \"ok\"}\n"
      }
    }
    let url = directory.appendingPathComponent("bills-\(count)\(duplicates ? "-dups" : "").\(csv ? "csv" : "yaml")")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  @Test(
    .enabled(if: needing(pythonHas("import resource")), "needs python3 to measure peak memory"),
    .disabled(
      if: underSanitizer,
      "memory is measured without a sanitizer's shadow memory (the plain run of .ci/run measures it)"))
  func readingAndReportingTenTimesMoreBillsNeedsNoMoreMemory() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for csv in [false, true] {
      let smallFile = try generate(2_000, csv: csv, in: directory)
      let largeFile = try generate(20_000, csv: csv, in: directory)
      for command in [["check"], ["report", "--format", "json", "-o", "/dev/null"]] {
        let small = try peakKilobytes(command + [smallFile])
        let large = try peakKilobytes(command + [largeFile])
        // 18,000 more bills held in memory would take well over four megabytes.
        #expect(
          large - small < 4_096,
          "\(command[0]) \(csv ? "CSV" : "YAML"): \(small) KiB for 2k bills, \(large) KiB for 20k")
      }
    }
  }

  @Test(
    .enabled(if: needing(pythonHas("import resource")), "needs python3 to measure peak memory"),
    .disabled(
      if: underSanitizer,
      "memory is measured without a sanitizer's shadow memory (the plain run of .ci/run measures it)"))
  func aJSONReportsPaymentsAreWrittenOneByOne() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let bills = try generate(2_000, csv: true, in: directory)
    func payments(_ count: Int) throws -> String {
      var text = "id,date,from,to,amount,currency\n"
      for index in 0..<count { text += "p\(index),2026-03-\(10 + index % 9),Ben,Ana,\(1 + index % 90).25,EUR\n" }
      let url = directory.appendingPathComponent("payments-\(count).csv")
      try text.write(to: url, atomically: true, encoding: .utf8)
      return url.path
    }
    let command = ["report", "--format", "json", "-o", "/dev/null", bills]
    let few = try peakKilobytes(command + [try payments(2_000)])
    let many = try peakKilobytes(command + [try payments(20_000)])
    // The report lists every payment, so it keeps them (about 4 MB for 18,000 more); their JSON,
    // made as a tree of all of them before it was written, took 11 MB more.
    #expect(many - few < 8_192, "\(few) KiB with 2,000 payments, \(many) KiB with 20,000")
  }

  @Test(
    .enabled(if: needing(pythonHas("import resource")), "needs python3 to measure peak memory"),
    .disabled(
      if: underSanitizer,
      "memory is measured without a sanitizer's shadow memory (the plain run of .ci/run measures it)"))
  func thousandsOfWarningsNeedNoMoreMemory() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for csv in [false, true] {
      let plain = try generate(40_000, csv: csv, in: directory)
      let repeating = try generate(40_000, csv: csv, duplicates: true, in: directory)
      for command in [["check"], ["report", "--format", "json", "-o", "/dev/null"]] {
        let without = try peakKilobytes(command + [plain])
        let with = try peakKilobytes(command + [repeating])
        // The 5,000 warnings and the repeats behind them, all kept, took over three megabytes.
        #expect(
          with - without < 2_048,
          "\(command[0]) \(csv ? "CSV" : "YAML"): \(without) KiB without warnings, \(with) KiB with 5,000")
      }
    }
  }

  @Test(
    .enabled(if: needing(pythonHas("import resource")), "needs python3 to measure peak memory"),
    .disabled(
      if: underSanitizer,
      "memory is measured without a sanitizer's shadow memory (the plain run of .ci/run measures it)"))
  func standardInputStreamsLikeAFile() async throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for csv in [false, true] {
      let small = try generate(2_000, csv: csv, in: directory)
      let large = try generate(40_000, csv: csv, in: directory)
      let command = ["check", "--input-format", csv ? "csv" : "yaml", "-"]
      let smallPeak = try peakKilobytes(command, stdin: small)
      let largePeak = try peakKilobytes(command, stdin: large)
      // 38,000 more bills' bytes (several megabytes) held in memory would show.
      #expect(
        largePeak - smallPeak < 2_048,
        "stdin \(csv ? "CSV" : "YAML"): \(smallPeak) KiB for 2k bills, \(largePeak) KiB for 40k")
    }
  }

  /// Past a thousand warnings of one kind, the rest are counted, and the counts say so.
  // Not under a sanitizer: counting on one thread, over thousands of bills (34 s of the two tests
  // under AddressSanitizer, which checks the same readers in their own suites).
  @Test(.disabled(if: underSanitizer, "counting; the plain run checks it"))
  func warningsPastTheLimitAreCountedNotShown() throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = try generate(16_000, csv: true, duplicates: true, in: directory)
    let json = try runBinary(["check", "--format", "json", file])
    let value = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let shown = (value["diagnostics"] as? [[String: Any]] ?? []).filter { $0["code"] as? String == "receipt.duplicate" }
    #expect(shown.count == 1_000)
    #expect(value["warnings"] as? Int == 2_000)
    let omitted = value["omitted_warnings"] as? [[String: Any]] ?? []
    #expect(omitted.count == 1 && omitted.first?["code"] as? String == "receipt.duplicate")
    #expect(omitted.first?["count"] as? Int == 1_000)
    let text = try runBinary(["check", file])
    #expect(text.stdout.contains("warning: 1000 more receipt.duplicate warnings not shown"))
    #expect(text.stdout.hasSuffix("checked 1 file, 16000 bills: 0 errors, 2000 warnings\n"))
    let strict = try runBinary(["check", "--strict", file])
    #expect(strict.code == 1)
  }

  /// `count` bills whose amounts are all broken (as many errors as bills), or, with `repeatedIDs`,
  /// valid but every other one's id repeating the one before (half as many).
  func generateBroken(_ count: Int, repeatedIDs: Bool = false, in directory: URL) throws -> String {
    var text = "bills:\n"
    for index in 0..<count {
      let id = repeatedIDs ? index / 2 : index
      let amount = repeatedIDs ? "10" : "x\(index)"
      text += "  - {id: b\(id), amount: \(amount), currency: EUR, diners: [Ana, Ben], paid_by: Ana, tip: 0}\n"
    }
    let url = directory.appendingPathComponent("broken-\(count)\(repeatedIDs ? "-repeats" : "").yaml")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// Broken input does not grow memory: past a thousand errors of one kind they are counted, and
  /// a report lists the first thousand invalid records.
  @Test(
    .enabled(if: needing(pythonHas("import resource")), "needs python3 to measure peak memory"),
    .disabled(
      if: underSanitizer,
      "memory is measured without a sanitizer's shadow memory (the plain run of .ci/run measures it)"))
  func twentyTimesMoreErrorsNeedNoMoreMemory() throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let small = try generateBroken(2_000, in: directory)
    let large = try generateBroken(40_000, in: directory)
    for command in [["check"], ["report", "--format", "json", "-o", directory.path + "/out.json"]] {
      let smallPeak = try peakKilobytes(command + [small], status: 1)
      let largePeak = try peakKilobytes(command + [large], status: 1)
      // 38,000 more errors kept, at several hundred bytes each, would take well over 8 MB.
      #expect(
        largePeak - smallPeak < 4_096,
        "\(command[0]): \(smallPeak) KiB for 2k broken bills, \(largePeak) KiB for 40k")
    }
  }

  /// Past a thousand errors of one kind, the rest are counted, in every form `check` and
  /// `report` give; the counts and the exit code include them all.
  // Not under a sanitizer: counting on one thread, over thousands of bills (34 s of the two tests
  // under AddressSanitizer, which checks the same readers in their own suites).
  @Test(.disabled(if: underSanitizer, "counting; the plain run checks it"))
  func errorsPastTheLimitAreCountedNotShown() throws {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = try generateBroken(2_500, in: directory)
    let json = try runBinary(["check", "--format", "json", file])
    #expect(json.code == 1)
    let value = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((value["diagnostics"] as? [[String: Any]])?.count == 1_000)
    #expect(value["errors"] as? Int == 2_500)
    let omitted = value["omitted_errors"] as? [[String: Any]] ?? []
    #expect(omitted.count == 1 && omitted.first?["code"] as? String == "amount.syntax")
    #expect(omitted.first?["count"] as? Int == 1_500)
    let text = try runBinary(["check", file])
    #expect(text.stdout.contains("error: 1500 more amount.syntax errors not shown"))
    #expect(text.stdout.hasSuffix("checked 1 file, 2500 bills: 2500 errors, 0 warnings\n"))
    let github = try runBinary(["check", "--format", "github", file])
    #expect(github.stdout.contains("::error::1500 more amount.syntax errors not shown"))

    let report = try runBinary(["report", "--format", "json", file])
    #expect(report.code == 1)
    let reported = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
    #expect((reported["invalid"] as? [Any])?.count == 1_000)
    #expect(reported["invalid_not_listed"] as? Int == 1_500)
    #expect(report.stderr.contains("error: 1500 more amount.syntax errors not shown"))
    let plain = try runBinary(["report", file])
    #expect(plain.stdout.contains("2500 invalid bills left out"))
    #expect(plain.stdout.contains("…and 1500 more invalid records not listed (the first 1000 are)"))

    // Repeated ids are errors like any: the first thousand shown, the rest counted.
    let repeats = try generateBroken(4_002, repeatedIDs: true, in: directory)
    let repeated = try runBinary(["check", repeats])
    #expect(repeated.stdout.contains("error: 1001 more id.duplicate errors not shown"))
    #expect(repeated.stdout.hasSuffix("checked 1 file, 4002 bills: 2001 errors, 0 warnings\n"))
  }
}
