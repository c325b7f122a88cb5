import Foundation
import SplitBillJSON
import SplitBillModel
import Testing

@testable import SplitBillAdvisor

/// The vision coordinator `scan --engine` uses: pacing by the rolling minute, retries, the cache
/// by the photo's hash, and the key only in a header.
@Suite struct ReceiptVisionTests {
  static func answer(_ text: String) -> HTTPResponse {
    let body = JSON.object([
      (
        "candidates",
        .array([
          .object([
            ("content", .object([("parts", .array([.object([("text", .string(text))])]))])),
            ("finishReason", .string("STOP")),
          ])
        ])
      )
    ])
    return HTTPResponse(status: 200, body: Array(body.encoded.utf8))
  }

  func photos(_ count: Int) -> [VisionPhoto] {
    (1...count).map {
      VisionPhoto(id: "p\($0)", image: [0xFF, 0xD8, 0xFF, UInt8($0)], mimeType: "image/jpeg", digest: "d\($0)")
    }
  }

  @Test func requestsArePacedByTheRollingMinute() async throws {
    let transport = ScriptedTransport((1...3).map { _ in .success(Self.answer("{\"total\": \"1.00\"}")) })
    let clock = TestClock()
    var settings = AdvisorSettings()
    settings.requestsPerMinute = 1
    let sent = Locked<[Duration]>([])
    let stamping = StampingTransport(inner: transport, clock: clock, stamps: sent)
    let coordinator = ReceiptVisionCoordinator(
      provider: .gemini(GeminiProvider(apiKey: "k-secret", baseURL: "http://127.0.0.1:9")), transport: stamping,
      clock: clock, settings: settings)
    let answers = await coordinator.read(photos(3))
    #expect(answers.count == 3)
    #expect(answers.values.allSatisfy { (try? $0.get()) == "{\"total\": \"1.00\"}" })
    let times = sent.withLock { $0 }
    #expect(times.count == 3)
    for (earlier, later) in zip(times, times.dropFirst()) { #expect(later - earlier >= .seconds(60)) }
    for request in transport.sent.withLock({ $0 }) {
      #expect(!request.url.contains("k-secret"))
      #expect(request.headers["x-goog-api-key"] == "k-secret")
      let parts = JSON.parse(request.body)?["contents"]?.items.first?["parts"]?.items ?? []
      #expect(parts.last?["inline_data"]?["mime_type"]?.string == "image/jpeg")
    }
  }

  @Test func aRetryableFailureIsRetriedAndTheCacheAnswersTheSecondRun() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vision-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let overloaded = HTTPResponse(
      status: 503, body: Array(#"{"error": {"code": 503, "status": "UNAVAILABLE", "message": "overloaded"}}"#.utf8))
    let transport = ScriptedTransport([.success(overloaded), .success(Self.answer("{}")), .success(Self.answer("{}"))])
    let coordinator = ReceiptVisionCoordinator(
      provider: .gemini(GeminiProvider(apiKey: "k", baseURL: "http://127.0.0.1:9")), transport: transport,
      clock: TestClock(), cacheDirectory: directory)
    let first = await coordinator.read(photos(2))
    #expect(first.values.allSatisfy { (try? $0.get()) == "{}" })
    #expect(transport.sent.withLock { $0.count } == 3)
    let second = await coordinator.read(photos(2))
    #expect(second.values.allSatisfy { (try? $0.get()) == "{}" })
    #expect(transport.sent.withLock { $0.count } == 3, "the second run asks nothing")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(files.count == 2)
  }

  @Test func aFatalFailureIsTheAnswer() async throws {
    let bad = HTTPResponse(
      status: 400,
      body: Array(
        #"{"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": "API key not valid. Please pass a valid API key."}}"#
          .utf8))
    let transport = ScriptedTransport([.success(bad)])
    let coordinator = ReceiptVisionCoordinator(
      provider: .gemini(GeminiProvider(apiKey: "k", baseURL: "http://127.0.0.1:9")), transport: transport,
      clock: TestClock())
    let answers = await coordinator.read(photos(1))
    guard case .failure(let failure) = answers["p1"] else {
      Issue.record("expected a failure")
      return
    }
    #expect(failure.reason.contains("key"))
    #expect(transport.sent.withLock { $0.count } == 1, "a bad key is not retried")
  }
}

/// Notes the clock's time of every request.
struct StampingTransport: HTTPTransport {
  let inner: ScriptedTransport
  let clock: TestClock
  let stamps: Locked<[Duration]>

  func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    let now = await clock.now()
    stamps.withLock { $0.append(now) }
    return try await inner.send(request)
  }
}
