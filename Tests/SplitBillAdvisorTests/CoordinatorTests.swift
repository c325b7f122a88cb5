import Foundation
import SplitBillCore
import SplitBillJSON
import SplitBillModel
import Testing

@testable import SplitBillAdvisor

/// A transport that answers from a script and records what it was sent.
final class ScriptedTransport: HTTPTransport {
  let steps: Locked<[Result<HTTPResponse, TransportError>]>
  let sent = Locked<[HTTPRequest]>([])

  init(_ steps: [Result<HTTPResponse, TransportError>]) { self.steps = Locked(steps) }

  func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    sent.withLock { $0.append(request) }
    let step = steps.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    switch step {
    case .failure(let error): throw error
    case .success(let response): return response
    case nil: return Self.answer(for: request)
    }
  }

  /// A Gemini answer with 18 % for every bill in `request`.
  static func answer(for request: HTTPRequest, leaving missing: Int = 0) -> HTTPResponse {
    let text = JSON.parse(request.body)?["contents"]?.items.first?["parts"]?.items.first?["text"]?.string ?? ""
    let data =
      text.components(separatedBy: "BEGIN BILL DATA\n").last?.components(separatedBy: "\nEND BILL DATA").first ?? "[]"
    let ids = (JSON.parse(data)?.items ?? []).compactMap { $0["bill_id"]?.string }.dropLast(missing)
    let suggestions = JSON.object([
      (
        "suggestions",
        .array(
          ids.map { .object([("bill_id", .string($0)), ("tip_percent", .number("18")), ("reason", .string("fine"))]) })
      )
    ])
    let body = JSON.object([
      (
        "candidates",
        .array([
          .object([
            ("content", .object([("parts", .array([.object([("text", .string(suggestions.encoded))])]))])),
            ("finishReason", .string("STOP")),
          ])
        ])
      )
    ])
    return HTTPResponse(status: 200, body: Array(body.encoded.utf8))
  }
}

@Suite struct CoordinatorTests {
  func requests(_ count: Int) -> [AdviceRequest] {
    (1...count).map {
      AdviceRequest(
        billID: "b\($0)", amount: Money(minorUnits: 1000, currency: .usd), diners: 2, notes: "slow", base: .preset15)
    }
  }

  func coordinator(_ transport: ScriptedTransport, clock: TestClock = TestClock(), batch: Int = 20, retries: Int = 4)
    -> AdviceCoordinator
  {
    var settings = AdvisorSettings()
    settings.batchSize = batch
    settings.maxRetries = retries
    return AdviceCoordinator(
      provider: GeminiProvider(apiKey: "k", baseURL: "http://127.0.0.1:9"), transport: transport, clock: clock,
      settings: settings)
  }

  @Test func sendsCeilingOfBillsOverBatchSize() async {
    let transport = ScriptedTransport([])
    let answers = await coordinator(transport, batch: 4).advise(requests(10))
    #expect(transport.sent.withLock { $0.count } == 3)
    #expect(answers.count == 10)
    #expect(
      answers.values.allSatisfy {
        $0.percent == Percent(tenThousandths: 180_000) && !$0.fallback && $0.advisor == "gemini"
      })
  }

  @Test func retriesThenFallsBackWithTheReason() async {
    let overloaded = HTTPResponse(
      status: 503, body: Array(#"{"error": {"code": 503, "status": "UNAVAILABLE", "message": "overloaded"}}"#.utf8))
    let transport = ScriptedTransport([
      .success(overloaded), .success(overloaded), .failure(TransportError(timedOut: true, message: "")),
    ])
    let clock = TestClock()
    let answers = await coordinator(transport, clock: clock, retries: 2).advise(requests(2))
    #expect(transport.sent.withLock { $0.count } == 3)
    #expect(answers["b1"]?.fallback == true)
    #expect(answers["b1"]?.advisor == "offline")
    #expect(answers["b1"]?.fallbackReason == "gemini: timeout, 2 retries used")
    #expect(await clock.now() >= .seconds(3))  // backoffs of 1 s and 2 s at least
  }

  @Test func missingIdsAreAskedOnceMoreThenFallBack() async {
    // the first answer leaves one id out, and so does the smaller request asking again
    let first = ScriptedTransport.answer(for: GeminiProvider(apiKey: "k").request(for: requests(3)), leaving: 1)
    let second = ScriptedTransport.answer(
      for: GeminiProvider(apiKey: "k").request(for: Array(requests(3).suffix(1))), leaving: 1)
    let scripted = ScriptedTransport([.success(first), .success(second)])
    let answers = await coordinator(scripted).advise(requests(3))
    let sent = scripted.sent.withLock { $0 }
    #expect(sent.count == 2)
    #expect(answers["b1"]?.fallback == false)
    #expect(answers["b3"]?.fallback == true)
    #expect(answers["b3"]?.fallbackReason == "gemini: bad answer: no usable suggestion for this bill")
  }

  @Test func aDailyQuotaStopsTheOtherBatches() async {
    let daily = HTTPResponse(
      status: 429,
      body: Array(
        #"{"error": {"code": 429, "details": [{"violations": [{"quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}]}}"#
          .utf8))
    let transport = ScriptedTransport([.success(daily)])
    let answers = await coordinator(transport, batch: 1).advise(requests(4))
    #expect(transport.sent.withLock { $0.count } == 1)
    #expect(answers.values.allSatisfy { $0.fallback && ($0.fallbackReason ?? "").contains("daily quota exhausted") })
  }
}
