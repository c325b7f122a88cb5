import SplitBillCore
import SplitBillJSON

/// The OpenAI-compatible chat-completions API: Ollama, llama.cpp's server, vLLM, and Gemini's own
/// compatibility endpoint. `POST {base}/chat/completions` with JSON-schema output; the key, when
/// there is one, as a Bearer token.
package struct OpenAIProvider: AdviceProvider {
  /// A model Ollama users commonly have.
  package static let defaultModel = "llama3.2"
  /// Ollama's OpenAI-compatible endpoint.
  package static let defaultBaseURL = "http://localhost:11434/v1"

  package let name = "openai"
  package let model: String
  let baseURL: String
  let apiKey: String?
  let minimum: Int
  let maximum: Int

  /// A provider for `model` at `baseURL`.
  package init(
    apiKey: String?, model: String = defaultModel, baseURL: String = defaultBaseURL, minimum: Int = 0, maximum: Int = 30
  ) {
    self.apiKey = apiKey
    self.model = model
    self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    self.minimum = minimum
    self.maximum = maximum
  }

  package func request(for batch: [AdviceRequest]) -> HTTPRequest {
    let body = JSON.object([
      ("model", .string(model)),
      (
        "messages",
        .array([
          .object([
            ("role", .string("system")), ("content", .string(AdvicePrompt.system(minimum: minimum, maximum: maximum))),
          ]),
          .object([("role", .string("user")), ("content", .string(AdvicePrompt.user(batch)))]),
        ])
      ),
      ("temperature", .number("0.2")),
      ("max_tokens", .number("8192")),
      ("response_format", Self.responseFormat(name: "tip_suggestions", schema: AdvicePrompt.schema(gemini: false))),
    ])
    return request(body: body)
  }

  package func decode(_ response: HTTPResponse) throws(ProviderFailure) -> [String: Suggestion] {
    try AdvicePrompt.suggestions(in: answerText(response))
  }

  /// A chat-completions request with `body`, the key (if any) as a Bearer token.
  func request(body: JSON) -> HTTPRequest {
    var headers = ["Content-Type": "application/json", "User-Agent": "splitbill"]
    if let apiKey { headers["Authorization"] = "Bearer \(apiKey)" }
    return HTTPRequest(
      method: "POST", url: "\(baseURL)/chat/completions", headers: headers, body: Array(body.encoded.utf8))
  }

  /// `response_format` asking for JSON of `schema`, named `name`.
  static func responseFormat(name: String, schema: JSON) -> JSON {
    .object([
      ("type", .string("json_schema")),
      ("json_schema", .object([("name", .string(name)), ("schema", schema), ("strict", .bool(true))])),
    ])
  }

  /// The message text of a chat-completions answer, or why there is none.
  func answerText(_ response: HTTPResponse) throws(ProviderFailure) -> String {
    guard response.status == 200 else {
      throw ErrorBody(response).failure(status: response.status, model: model, provider: name)
    }
    guard let json = JSON.parse(response.body) else { throw .badAnswer(reason: "the response is not JSON") }
    guard let choice = json["choices"]?.items.first else { throw .badAnswer(reason: "the response has no choices") }
    let finish = choice["finish_reason"]?.string ?? "stop"
    guard finish == "stop" else { throw .badAnswer(reason: "the answer did not finish (finish_reason \(finish))") }
    guard let text = choice["message"]?["content"]?.string, !text.isEmpty else {
      throw .badAnswer(reason: "the answer has no content")
    }
    return text
  }
}
