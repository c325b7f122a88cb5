import Foundation
import Testing

/// The AI stand-in server (`Tests/StandIn/ai_stand_in.py`), started on 127.0.0.1 for one test.
final class StandInServer {
  let child: ChildProcess
  let directory: URL
  let port: Int

  /// One logged request.
  struct Logged {
    var time: Double
    var path: String
    var headers: [String: String]
    var body: [String: Any]
  }

  /// Starts the server with `script` (comma-separated behaviours, see the script's docstring);
  /// requests with an image get the `receipts` in order.
  init(script: [String] = [], receipts: [[String: Any]] = []) throws {
    directory = try scratchDirectory()
    let receiptsFile = directory.appendingPathComponent("receipts.json")
    try JSONSerialization.data(withJSONObject: receipts).write(to: receiptsFile)
    let portFile = directory.appendingPathComponent("port")
    let null = open("/dev/null", O_RDWR | O_CLOEXEC)
    defer { close(null) }
    child = try ChildProcess(
      [
        "python3", packageRoot.appendingPathComponent("Tests/StandIn/ai_stand_in.py").path,
        "--port-file", portFile.path, "--log", directory.appendingPathComponent("requests.jsonl").path,
        "--script", script.joined(separator: ","), "--receipts", receiptsFile.path,
      ], stdin: null, stdout: null, stderr: null)
    var found: Int?
    for _ in 0..<500 {
      if let text = try? String(contentsOf: portFile, encoding: .utf8), let number = Int(text) {
        found = number
        break
      }
      if child.exitCodeIfDone() != nil { break }
      usleep(10_000)
    }
    guard let found else {
      child.kill()
      throw StandInError.didNotStart
    }
    port = found
  }

  enum StandInError: Error { case didNotStart }

  deinit { child.kill() }

  /// `http://127.0.0.1:PORT`.
  var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Every request so far, in order.
  var requests: [Logged] {
    guard let text = try? String(contentsOf: directory.appendingPathComponent("requests.jsonl"), encoding: .utf8) else {
      return []
    }
    return text.split(separator: "\n").compactMap { line in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
      return Logged(
        time: object["time"] as? Double ?? 0, path: object["path"] as? String ?? "",
        headers: object["headers"] as? [String: String] ?? [:], body: object["body"] as? [String: Any] ?? [:])
    }
  }

  /// Whether python3 can run the stand-in.
  static var available: Bool { pythonHas("import http.server, json") }
}

/// The bill ids a logged Gemini or OpenAI request asked about.
func billIDs(in request: StandInServer.Logged) -> [String] {
  let text: String
  if let messages = request.body["messages"] as? [[String: Any]] {
    text = messages.last?["content"] as? String ?? ""
  } else {
    let contents = request.body["contents"] as? [[String: Any]]
    let parts = contents?.first?["parts"] as? [[String: Any]]
    text = parts?.first?["text"] as? String ?? ""
  }
  guard let start = text.range(of: "BEGIN BILL DATA\n"), let end = text.range(of: "\nEND BILL DATA"),
    let data = try? JSONSerialization.jsonObject(with: Data(text[start.upperBound..<end.lowerBound].utf8))
      as? [[String: Any]]
  else { return [] }
  return data.compactMap { $0["bill_id"] as? String }
}
