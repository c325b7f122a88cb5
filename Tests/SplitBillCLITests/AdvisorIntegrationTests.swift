import Foundation
import Testing

/// `report` and `suggest` against the stand-in AI server over real HTTP on 127.0.0.1.
@Suite(.enabled(if: needing(StandInServer.available), "needs python3 for the stand-in AI server"))
struct AdvisorIntegrationTests {
  static let key = "test-key-Zq81x-never-shown"

  /// Runs the built binary with a key, a private cache, and `arguments`.
  func run(
    _ arguments: [String], cache: URL, key: String? = key, variable: String = "GEMINI_API_KEY",
    under wrapper: [String] = []
  ) throws -> Outcome {
    var environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "XDG_CACHE_HOME": cache.path,
    ]
    if let key { environment[variable] = key }
    let command = wrapper + [try builtBinary().path] + arguments
    return try runProcess(command[0], Array(command.dropFirst()), environment: environment)
  }

  func report(_ server: StandInServer, _ extra: [String], cache: URL) throws -> (Outcome, [[String: Any]]) {
    let outcome = try run(
      ["report", "samples/trip.yaml", "--format", "json", "--advisor", "gemini", "--ai-base-url", server.baseURL]
        + extra,
      cache: cache)
    let object = try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
    let bills = (object?["bills"] as? [[String: Any]] ?? []).filter { $0["advice"] != nil }
    return (outcome, bills)
  }

  @Test func batchesHeadersAndACacheThatSavesTheSecondRun() throws {
    let server = try StandInServer()
    let cache = try scratchDirectory()
    let (outcome, advised) = try report(server, ["--ai-batch-size", "2", "--ai-rpm", "10"], cache: cache)
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let requests = server.requests
    #expect(requests.count == 2)  // ceil(3 ai bills / 2)
    #expect(requests.map { billIDs(in: $0) } == [["lis-04", "lis-07"], ["tyo-05"]])
    for request in requests {
      #expect(request.path == "/v1beta/models/gemini-3.5-flash:generateContent")
      #expect(!request.path.contains("key"))
      #expect(request.headers["x-goog-api-key"] == Self.key)
      #expect(request.headers["authorization"] == nil)
      let config = request.body["generationConfig"] as? [String: Any]
      #expect(config?["responseMimeType"] as? String == "application/json")
      #expect(config?["responseSchema"] != nil)
      let system =
        ((request.body["systemInstruction"] as? [String: Any])?["parts"] as? [[String: Any]])?.first?["text"] as? String
      #expect(system?.contains("never instructions") == true)
    }
    #expect(advised.count == 3)
    for bill in advised {
      let advice = bill["advice"] as? [String: Any]
      #expect(advice?["advisor"] as? String == "gemini")
      #expect(advice?["model"] as? String == "gemini-3.5-flash")
      #expect(advice?["fallback"] as? Bool == false)
    }
    let tips = advised.map { ($0["id"] as? String ?? "", $0["tip_percent"] as? String ?? "") }
    #expect(tips.map(\.1) == ["18", "18", "12"])  // tyo-05's notes say "slow"

    // Second run: everything from the cache, no request at all.
    let (again, cached) = try report(server, ["--ai-batch-size", "2"], cache: cache)
    #expect(again.code == 0)
    #expect(server.requests.count == 2)
    #expect(cached.map { $0["tip_percent"] as? String ?? "" } == ["18", "18", "12"])
    // --no-cache asks again
    _ = try report(server, ["--ai-batch-size", "3", "--no-cache"], cache: cache)
    #expect(server.requests.count == 3)
  }

  @Test func recoversFromA429WithRetryInfoAndA503() throws {
    let server = try StandInServer(script: ["429:1s", "503", "ok"])
    let cache = try scratchDirectory()
    let (outcome, advised) = try report(server, ["--ai-batch-size", "3", "--ai-rpm", "30"], cache: cache)
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let times = server.requests.map(\.time)
    #expect(times.count == 3)
    if times.count == 3 {
      #expect(times[1] - times[0] >= 1.0, "waited at least RetryInfo's 1s")
      #expect(times[2] - times[1] >= 2.0, "second retry backs off 2s")
    }
    #expect(advised.allSatisfy { ($0["advice"] as? [String: Any])?["fallback"] as? Bool == false })
  }

  @Test func aDailyQuotaStopsEveryFurtherRequestAndFallsBack() throws {
    let server = try StandInServer(script: ["429-daily"])
    let cache = try scratchDirectory()
    let (outcome, advised) = try report(server, ["--ai-batch-size", "1"], cache: cache)
    #expect(outcome.code == 0)
    #expect(server.requests.count == 1)
    #expect(advised.count == 3)
    for bill in advised {
      let advice = bill["advice"] as? [String: Any]
      #expect(advice?["fallback"] as? Bool == true)
      #expect(advice?["advisor"] as? String == "offline")
      #expect((advice?["fallback_reason"] as? String)?.contains("daily quota exhausted") == true)
    }
    // Said once on stderr, for runs nobody watches (stderr is not a terminal here).
    let warnings = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
    #expect(warnings.count == 1, "\(outcome.stderr)")
    #expect(warnings.first?.contains("3 of 3 advised bills got no advice from gemini") == true, "\(warnings)")
    let (quiet, _) = try report(
      try StandInServer(script: ["429-daily"]), ["--ai-batch-size", "1", "--quiet"], cache: cache)
    #expect(!quiet.stderr.contains("warning: "), "\(quiet.stderr)")
    // --require-ai: exit 69, nothing written
    let exhausted = try StandInServer(script: ["429-daily"])
    let output = cache.appendingPathComponent("report.json")
    let strict = try run(
      [
        "report", "samples/trip.yaml", "--advisor", "gemini", "--ai-base-url", exhausted.baseURL, "--require-ai",
        "--no-cache",
        "-o", output.path,
      ], cache: cache)
    #expect(strict.code == 69)
    #expect(strict.stderr.contains("3 bills got no advice from gemini"))
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  @Test func missingIdsAreAskedAgainOnceInASmallerRequest() throws {
    let server = try StandInServer(script: ["ok-missing", "ok"])
    let (outcome, advised) = try report(server, ["--ai-batch-size", "3", "--no-cache"], cache: try scratchDirectory())
    #expect(outcome.code == 0)
    #expect(server.requests.map { billIDs(in: $0) } == [["lis-04", "lis-07", "tyo-05"], ["tyo-05"]])
    #expect(advised.allSatisfy { ($0["advice"] as? [String: Any])?["fallback"] as? Bool == false })
  }

  @Test(arguments: [
    ("malformed", "bad answer: the answer is not JSON"), ("blocked", "bad answer: the prompt was blocked (SAFETY)"),
    ("max-tokens", "bad answer: the answer did not finish (finishReason MAX_TOKENS)"),
    (
      "404",
      "model 'gemini-3.5-flash' was not found (HTTP 404): it may be retired or misspelt; choose a current model with --ai-model"
    ),
    ("400-key", "the gemini API key was not accepted (HTTP 400)"),
  ])
  func unusableAnswersFallBackWithTheReason(step: String, reason: String) throws {
    let server = try StandInServer(script: [step])
    let (outcome, advised) = try report(server, ["--ai-batch-size", "3", "--no-cache"], cache: try scratchDirectory())
    #expect(outcome.code == 0)
    #expect(server.requests.count == 1)
    for bill in advised {
      let advice = bill["advice"] as? [String: Any]
      #expect(advice?["fallback"] as? Bool == true)
      #expect((advice?["fallback_reason"] as? String)?.hasPrefix("gemini: " + reason) == true, "\(advice ?? [:])")
    }
  }

  @Test func suggestionsOutsideTheRangeAreClampedAndFlagged() throws {
    let server = try StandInServer(script: ["high"])
    let (_, advised) = try report(
      server, ["--ai-batch-size", "3", "--no-cache", "--ai-max", "25"], cache: try scratchDirectory())
    #expect(advised.count == 3)
    for bill in advised {
      #expect(bill["tip_percent"] as? String == "25")
      #expect((bill["advice"] as? [String: Any])?["clamped"] as? Bool == true)
    }
  }

  @Test func theKeyNeverAppearsAnywhere() throws {
    let server = try StandInServer(script: ["echo-key", "ok"])
    let cache = try scratchDirectory()
    let output = cache.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    let outcome = try run(
      [
        "report", "samples/trip.yaml", "--advisor", "gemini", "--ai-base-url", server.baseURL, "--verbose",
        "--ai-max-retries", "1", "--ai-batch-size", "3",
      ]
        + ["json", "html", "md", "csv", "txt", "journal", "beancount", "ledger"].flatMap {
          ["-o", output.appendingPathComponent("r.\($0)").path]
        },
      cache: cache)
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("advisor: → POST"))
    #expect(outcome.stderr.contains("x-goog-api-key: <redacted>"))
    #expect(!outcome.stdout.contains(Self.key) && !outcome.stderr.contains(Self.key))
    let files = FileManager.default.enumerator(atPath: cache.path)?.compactMap { $0 as? String } ?? []
    #expect(files.contains { $0.hasSuffix(".json") && $0.contains("splitbill/advice/") })
    for file in files {
      let text = (try? String(contentsOfFile: cache.appendingPathComponent(file).path, encoding: .utf8)) ?? ""
      #expect(!text.contains(Self.key), "the key is in \(file)")
    }
    // the server did receive it, in the header
    #expect(server.requests.first?.headers["x-goog-api-key"] == Self.key)
  }

  @Test func standardInputIsReadOnceForBothPasses() throws {
    let server = try StandInServer()
    let trip = try Data(contentsOf: packageRoot.appendingPathComponent("samples/trip.yaml"))
    var environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "GEMINI_API_KEY": Self.key,
    ]
    environment["XDG_CACHE_HOME"] = try scratchDirectory().path
    let outcome = try runProcess(
      try builtBinary().path,
      ["report", "-", "--format", "json", "--advisor", "gemini", "--ai-base-url", server.baseURL],
      stdin: trip, environment: environment)
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    let bills = try #require(object["bills"] as? [[String: Any]])
    #expect(bills.count == 14)
    #expect(bills.filter { ($0["advice"] as? [String: Any])?["advisor"] as? String == "gemini" }.count == 3)
  }

  @Test func missingKeyExits69WithHowToSetIt() throws {
    let outcome = try run(
      ["report", "samples/trip.yaml", "--advisor", "gemini"], cache: try scratchDirectory(), key: nil)
    #expect(outcome.code == 69)
    #expect(outcome.stderr.contains("set GEMINI_API_KEY or pass --ai-key-file PATH"))
    #expect(outcome.stderr.contains("--advisor offline"))
  }

  @Test func keyFilesReadableByOthersAreRefused() throws {
    let server = try StandInServer()
    let directory = try scratchDirectory()
    let keyFile = directory.appendingPathComponent("gemini.key")
    try "\(Self.key)\n".write(to: keyFile, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
    let arguments = [
      "suggest", "slow service", "--advisor", "gemini", "--ai-base-url", server.baseURL, "--ai-key-file", keyFile.path,
    ]
    let refused = try run(arguments, cache: directory, key: nil)
    #expect(refused.code == 69)
    #expect(refused.stderr.contains("readable by group or others"))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
    let accepted = try run(arguments + ["--no-cache"], cache: directory, key: nil)
    #expect(accepted.code == 0, "\(accepted.stderr)")
    #expect(
      accepted.stdout.hasPrefix(
        "Suggested tip: 12%\nReason: stand-in: slow service\nAdvisor: gemini (gemini-3.5-flash)"))
    #expect(server.requests.last?.headers["x-goog-api-key"] == Self.key)
  }

  @Test func openAICompatibleServersGetABearerKeyAndJSONSchema() throws {
    let server = try StandInServer()
    let outcome = try run(
      [
        "report", "samples/trip.yaml", "--format", "json", "--advisor", "openai", "--ai-base-url",
        server.baseURL + "/v1",
        "--ai-model", "llama3.2", "--no-cache",
      ], cache: try scratchDirectory(), key: "local-key", variable: "OPENAI_API_KEY")
    #expect(outcome.code == 0, "\(outcome.stderr)")
    let request = try #require(server.requests.first)
    #expect(request.path == "/v1/chat/completions")
    #expect(request.headers["authorization"] == "Bearer local-key")
    #expect(request.body["model"] as? String == "llama3.2")
    #expect((request.body["response_format"] as? [String: Any])?["type"] as? String == "json_schema")
    #expect(outcome.stdout.contains("\"advisor\": \"openai\""))
    // no key at all is fine for a local server
    let keyless = try run(
      ["suggest", "great food", "--advisor", "openai", "--ai-base-url", server.baseURL + "/v1", "--no-cache"],
      cache: try scratchDirectory(), key: nil)
    #expect(keyless.code == 0)
    #expect(server.requests.last?.headers["authorization"] == nil)
  }

  @Test func aSlowServerTimesOutAndFallsBack() throws {
    let server = try StandInServer(script: ["slow:3", "slow:3"])
    let (outcome, advised) = try report(
      server, ["--ai-batch-size", "3", "--no-cache", "--ai-timeout", "1", "--ai-max-retries", "1"],
      cache: try scratchDirectory())
    #expect(outcome.code == 0)
    #expect(server.requests.count == 2)
    #expect(
      advised.allSatisfy {
        (($0["advice"] as? [String: Any])?["fallback_reason"] as? String)?.contains("timeout") == true
      })
  }

  /// The cache is only an optimisation: an answer that cannot be kept (a full disk, here a
  /// file-size limit smaller than an entry) leaves no file behind, the output is whole, and one
  /// warning says so, since the next run pays for the answer again.
  @Test(
    .enabled(if: needing(toolExists("prlimit")), "needs prlimit (util-linux)"),
    .disabled(if: underThreadSanitizer, "ThreadSanitizer's runtime dies of SIGBUS under a small RLIMIT_FSIZE"))
  func anAnswerTheCacheCannotKeepIsSaidOnceAndLeavesNoFile() throws {
    let server = try StandInServer()
    let cache = try scratchDirectory()
    let arguments = [
      "suggest", "great service", "--amount", "50", "--advisor", "gemini", "--ai-base-url", server.baseURL,
    ]
    let limited = try run(arguments, cache: cache, under: ["prlimit", "--fsize=40", "--"])
    #expect(limited.code == 0, "\(limited.stderr)")
    #expect(limited.stdout.hasPrefix("Suggested tip: 18%\nReason: stand-in: good service"))
    let warnings = limited.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
    #expect(warnings.count == 1, "\(limited.stderr)")
    #expect(limited.stderr.contains("1 answer was not kept in the advice cache ("))
    #expect(limited.stderr.contains("File too large); the next run asks for it again"))
    #expect(!limited.stderr.contains(Self.key))
    let advice = cache.appendingPathComponent("splitbill/advice")
    #expect((try? FileManager.default.contentsOfDirectory(atPath: advice.path)) == [], "no entry, no temporary file")
    // Without the limit the answer is kept and the next run sends nothing.
    #expect(try run(arguments, cache: cache).stderr == "")
    let requests = server.requests.count
    let again = try run(arguments + ["--quiet"], cache: cache)
    #expect(again.code == 0)
    #expect(server.requests.count == requests)
    #expect((try? FileManager.default.contentsOfDirectory(atPath: advice.path))?.count == 1)
  }

  /// A cache directory that cannot be made (a file is in the way): the report is whole and exits
  /// 0, one warning counts the answers not kept, and `--quiet` silences it.
  @Test func aCacheDirectoryThatCannotBeMadeIsOneWarning() throws {
    let server = try StandInServer()
    let cache = try scratchDirectory()
    try Data("not a directory".utf8).write(to: cache.appendingPathComponent("splitbill"))
    let (outcome, advised) = try report(server, ["--ai-batch-size", "3"], cache: cache)
    #expect(outcome.code == 0, "\(outcome.stderr)")
    #expect(advised.count == 3)
    #expect(advised.allSatisfy { ($0["advice"] as? [String: Any])?["fallback"] as? Bool == false })
    #expect(
      outcome.stderr.split(separator: "\n").filter { $0.contains("not kept in the advice cache") }.count == 1,
      "\(outcome.stderr)")
    #expect(outcome.stderr.contains("3 answers were not kept in the advice cache (cannot make the directory"))
    let (quiet, _) = try report(server, ["--ai-batch-size", "3", "--quiet"], cache: cache)
    #expect(quiet.code == 0)
    #expect(quiet.stderr == "", "\(quiet.stderr)")
  }
}
