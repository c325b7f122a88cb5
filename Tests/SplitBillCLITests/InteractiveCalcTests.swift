import Foundation
import Testing

/// Drives `splitbill calc --interactive` in a real terminal: tmux's send-keys and capture-pane.
@Suite(.serialized) struct InteractiveCalcTests {
  let session = "splitbill-test-\(getpid())"

  func tmux(_ arguments: [String]) throws -> Outcome {
    try runProcess("tmux", arguments, timeout: 30)
  }

  /// The visible screen, runs of spaces squeezed to one (alignment is the view's business).
  func screen() throws -> String {
    var text = try tmux(["capture-pane", "-t", session, "-p"]).stdout
    while text.contains("  ") { text = text.replacingOccurrences(of: "  ", with: " ") }
    return text
  }

  /// Sends keys, then waits until the screen contains `expected` (or ten seconds pass).
  @discardableResult
  func send(_ keys: [String], until expected: String) throws -> String {
    _ = try tmux(["send-keys", "-t", session] + keys)
    var text = ""
    for _ in 0..<500 {
      text = try screen()
      if text.contains(expected) { return text }
      usleep(20_000)
    }
    Issue.record("the screen never showed '\(expected)':\n\(text)")
    return text
  }

  @Test(.enabled(if: needing(toolExists("tmux")), "needs tmux (apt-get install tmux)"))
  func aBillSplitAsQuicklyAsInTheApp() throws {
    let directory = try scratchDirectory()
    let output = directory.appendingPathComponent("final.txt").path
    let binary = try builtBinary().path
    let command =
      "NO_COLOR=1 '\(binary)' calc -i > '\(output)'; echo \"exit $?\" >> '\(output)'; stty -a > '\(directory.path)/stty.tmp'; mv '\(directory.path)/stty.tmp' '\(directory.path)/stty.txt'; sleep 60"
    _ = try tmux(["kill-session", "-t", session])
    let started = try tmux(["new-session", "-d", "-s", session, "-x", "90", "-y", "32", command])
    #expect(started.code == 0, "\(started.stderr)")
    defer { _ = try? tmux(["kill-session", "-t", session]) }
    try send([], until: "Amount")

    // type an amount: 15 % is preselected, as in the app
    var text = try send(["84.50"], until: "Total 97.18 USD")
    #expect(text.contains("▸ Amount 84.50"))
    #expect(text.contains("[15%]"))
    // choose the 20 % preset
    text = try send(["Down", "Right"], until: "Tip (20%)")
    #expect(text.contains("[20%]"))
    #expect(text.contains("Total 101.40 USD"))
    // type a custom tip: the preset is cleared
    text = try send(["Down", "12.5"], until: "Tip (12.5%)")
    #expect(!text.contains("[20%]") && !text.contains("[15%]"))
    #expect(text.contains("Custom 12.5 %"))
    // three people: the leftover cents are named
    text = try send(["+", "+"], until: "Diner 3")
    #expect(text.contains("Total 95.06 USD"))
    #expect(text.contains("Diner 1 31.69 USD ◀ +0.01"))
    #expect(text.contains("Diner 3 31.68 USD"))
    #expect(text.contains("Diner 1 absorbs 1 leftover cent"))
    // a bad amount is shown inline and nothing is lost
    text = try send(["Up", "Up", "5"], until: "⚠")
    #expect(text.contains("84.505"))
    #expect(text.contains("amount '84.505' has 3 decimals but USD has 2"))
    text = try send(["BSpace"], until: "Total 95.06 USD")
    // ask for advice and apply it with one key
    text = try send(["?"], until: "Describe the experience")
    text = try send(["Lovely waiter, slow kitchen", "Enter"], until: "Suggested tip: 14%")
    #expect(text.contains("service +2 (lovely), wait −3 (slow)"))
    text = try send(["y"], until: "Tip (14%)")
    // resizing redraws, and leaving restores the terminal
    _ = try tmux(["resize-window", "-t", session, "-x", "70", "-y", "26"])
    text = try send([], until: "Tip (14%)")
    _ = try tmux(["send-keys", "-t", session, "q"])
    var final = ""
    for _ in 0..<500 {
      final = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
      if final.contains("exit ") { break }
      usleep(20_000)
    }
    #expect(final.hasPrefix("Amount     84.50 USD\nTip (14%)  11.83 USD\nTotal      96.33 USD\n"))
    #expect(final.contains("exit 0"))
    for _ in 0..<500 where !FileManager.default.fileExists(atPath: directory.path + "/stty.txt") { usleep(20_000) }
    let stty = (try? String(contentsOfFile: directory.path + "/stty.txt", encoding: .utf8)) ?? ""
    #expect(
      stty.contains(" icanon") && stty.contains(" echo") && !stty.contains("-icanon") && !stty.contains("-echo "),
      "terminal not restored:\n\(stty)")
  }

  /// A signal from outside (a closed terminal, `kill`) restores the terminal before the default
  /// action ends the process; the handler writes bytes that exist before any signal, allocating
  /// nothing.
  @Test(.enabled(if: needing(toolExists("tmux")), "needs tmux"), arguments: [SIGTERM, SIGHUP, SIGINT])
  func aSignalFromOutsideRestoresTheTerminal(signalNumber: Int32) throws {
    let directory = try scratchDirectory()
    let binary = try builtBinary().path
    let pidFile = directory.appendingPathComponent("pid").path
    let result = directory.appendingPathComponent("result").path
    let command =
      "sh -c 'echo $$ > \"\(pidFile)\"; exec \"\(binary)\" calc -i'; echo \"exit $?\" > '\(result).tmp'; stty -a >> '\(result).tmp'; mv '\(result).tmp' '\(result)'; sleep 60"
    _ = try tmux(["kill-session", "-t", session])
    #expect(try tmux(["new-session", "-d", "-s", session, "-x", "90", "-y", "32", command]).code == 0)
    defer { _ = try? tmux(["kill-session", "-t", session]) }
    try send([], until: "Amount")
    let pidText = try String(contentsOfFile: pidFile, encoding: .utf8)
    let pid = try #require(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(kill(pid, signalNumber) == 0)
    for _ in 0..<500 where !FileManager.default.fileExists(atPath: result) { usleep(20_000) }
    let text = (try? String(contentsOfFile: result, encoding: .utf8)) ?? ""
    #expect(text.hasPrefix("exit \(128 + signalNumber)\n"), "\(text)")
    #expect(
      text.contains(" icanon") && text.contains(" echo") && !text.contains("-icanon") && !text.contains("-echo "),
      "terminal not restored:\n\(text)")
  }

  @Test func withoutATerminalItPointsToThePlainForm() async throws {
    let outcome = try runBinary(["calc", "-i"], stdin: Data())
    #expect(outcome.code == 64)
    #expect(
      outcome.stderr.contains(
        "calc --interactive needs a terminal; without one, use: splitbill calc AMOUNT --tip PERCENT --split N"))
  }
}
