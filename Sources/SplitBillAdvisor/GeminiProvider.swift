import SplitBillCore
import SplitBillJSON

/// Google's Gemini REST API: `POST {base}/{version}/models/{model}:generateContent`, the key in the
/// `x-goog-api-key` header (never in the URL, never as a Bearer token), structured JSON output.
package struct GeminiProvider: AdviceProvider {
  /// The default model: a current flash model (models retire; `--ai-model` changes it).
  package static let defaultModel = "gemini-3.5-flash"
  /// The default API version.
  package static let defaultVersion = "v1beta"
  /// Google's endpoint.
  package static let defaultBaseURL = "https://generativelanguage.googleapis.com"

  package let name = "gemini"
  package let model: String
  let baseURL: String
  let version: String
  let apiKey: String
  let minimum: Int
  let maximum: Int

  /// A provider for `model` at `baseURL` (tests point it at a local stand-in).
  package init(
    apiKey: String, model: String = defaultModel, baseURL: String = defaultBaseURL, version: String = defaultVersion,
    minimum: Int = 0, maximum: Int = 30
  ) {
    self.apiKey = apiKey
    self.model = model
    self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    self.version = version
    self.minimum = minimum
    self.maximum = maximum
  }

  /// Structured JSON output of `schema`, thinking kept low on models that think.
  func generationConfig(schema: JSON, temperature: String) -> JSON {
    var generation: [(String, JSON)] = [
      ("temperature", .number(temperature)),
      // Thinking tokens count against this; too small a limit ends in MAX_TOKENS with no answer.
      ("maxOutputTokens", .number("8192")),
      ("responseMimeType", .string("application/json")),
      ("responseSchema", schema),
    ]
    if model.hasPrefix("gemini-3") {
      generation.append(("thinkingConfig", .object([("thinkingLevel", .string("low"))])))
    }
    return .object(generation)
  }

  /// A `generateContent` request with `body`, the key in its header.
  func request(body: JSON) -> HTTPRequest {
    HTTPRequest(
      method: "POST", url: "\(baseURL)/\(version)/models/\(model):generateContent",
      headers: ["Content-Type": "application/json", "x-goog-api-key": apiKey, "User-Agent": "splitbill"],
      body: Array(body.encoded.utf8))
  }

  package func request(for batch: [AdviceRequest]) -> HTTPRequest {
    let body = JSON.object([
      (
        "systemInstruction",
        .object([
          ("parts", .array([.object([("text", .string(AdvicePrompt.system(minimum: minimum, maximum: maximum)))])]))
        ])
      ),
      (
        "contents",
        .array([
          .object([
            ("role", .string("user")), ("parts", .array([.object([("text", .string(AdvicePrompt.user(batch)))])])),
          ])
        ])
      ),
      ("generationConfig", generationConfig(schema: AdvicePrompt.schema(gemini: true), temperature: "0.2")),
    ])
    return request(body: body)
  }

  package func decode(_ response: HTTPResponse) throws(ProviderFailure) -> [String: Suggestion] {
    try AdvicePrompt.suggestions(in: answerText(response))
  }

  /// The text of a `generateContent` answer (its thoughts left out), or why there is none.
  func answerText(_ response: HTTPResponse) throws(ProviderFailure) -> String {
    guard response.status == 200 else {
      throw ErrorBody(response).failure(status: response.status, model: model, provider: name)
    }
    guard let json = JSON.parse(response.body) else { throw .badAnswer(reason: "the response is not JSON") }
    let candidates = json["candidates"]?.items ?? []
    guard let candidate = candidates.first else {
      let blocked = json["promptFeedback"]?["blockReason"]?.string
      throw .badAnswer(reason: blocked.map { "the prompt was blocked (\($0))" } ?? "the response has no candidates")
    }
    let finish = candidate["finishReason"]?.string ?? "STOP"
    guard finish == "STOP" else { throw .badAnswer(reason: "the answer did not finish (finishReason \(finish))") }
    let parts = candidate["content"]?["parts"]?.items ?? []
    let text = parts.filter { $0["thought"] != .bool(true) }.compactMap { $0["text"]?.string }.joined()
    guard !text.isEmpty else { throw .badAnswer(reason: "the answer has no text") }
    return text
  }
}
