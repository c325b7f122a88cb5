import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An HTTP request, as a value.
package struct HTTPRequest: Sendable, Equatable {
  /// `POST`, `GET`.
  package var method: String
  /// The full URL; never carries a key.
  package var url: String
  /// Header fields. Secret ones are listed in ``secretHeaders`` and never printed.
  package var headers: [String: String]
  /// The body.
  package var body: [UInt8]

  /// Headers whose values are secrets.
  package static let secretHeaders: Set<String> = ["x-goog-api-key", "authorization"]

  /// Creates a request.
  package init(method: String = "POST", url: String, headers: [String: String] = [:], body: [UInt8] = []) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }

  /// For `--verbose`: method, URL and headers, secrets shown as `<redacted>`.
  package var redactedDescription: String {
    let shown = headers.keys.sorted().map { name in
      "\(name): \(Self.secretHeaders.contains(name.lowercased()) ? "<redacted>" : headers[name] ?? "")"
    }
    return "\(method) \(url) [\(shown.joined(separator: "; "))] \(body.count) bytes"
  }
}

/// An HTTP response, as a value.
package struct HTTPResponse: Sendable, Equatable {
  /// The status code.
  package var status: Int
  /// Header fields, names lower-cased.
  package var headers: [String: String]
  /// The body.
  package var body: [UInt8]

  /// Creates a response.
  package init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The body as text.
  package var text: String { String(decoding: body, as: UTF8.self) }
}

/// A failure below HTTP: no connection, a timeout, a reset.
package struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Whether the request timed out.
  package var timedOut: Bool
  /// What happened.
  package var message: String

  /// Creates the error.
  package init(timedOut: Bool, message: String) {
    self.timedOut = timedOut
    self.message = message
  }

  package var description: String { timedOut ? "timed out" : message }
}

/// Sends one request. Tests use a stub; the tool uses ``URLSessionTransport``.
package protocol HTTPTransport: Sendable {
  /// Sends `request` and returns the response, or throws ``TransportError``.
  func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

/// The real transport, over Foundation's `URLSession`.
package struct URLSessionTransport: HTTPTransport {
  private let session: URLSession

  /// A transport whose requests give up after `timeout`.
  package init(timeout: Duration) {
    let configuration = URLSessionConfiguration.ephemeral
    let seconds = TimeInterval(timeout.components.seconds) + TimeInterval(timeout.components.attoseconds) / 1e18
    configuration.timeoutIntervalForRequest = seconds
    configuration.timeoutIntervalForResource = seconds
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    session = URLSession(configuration: configuration)
  }

  package func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    guard let url = URL(string: request.url) else { throw TransportError(timedOut: false, message: "invalid URL") }
    var urlRequest = URLRequest(url: url)
    urlRequest.httpMethod = request.method
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    urlRequest.httpBody = Data(request.body)
    do {
      let (data, response) = try await session.data(for: urlRequest)
      guard let http = response as? HTTPURLResponse else {
        throw TransportError(timedOut: false, message: "not an HTTP response")
      }
      var headers: [String: String] = [:]
      for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
      }
      return HTTPResponse(status: http.statusCode, headers: headers, body: [UInt8](data))
    } catch let error as TransportError {
      throw error
    } catch let error as URLError {
      throw TransportError(timedOut: error.code == .timedOut, message: "URL error \(error.code.rawValue)")
    } catch {
      throw TransportError(timedOut: false, message: "no response")
    }
  }
}
