import Foundation
import Testing

/// Every `console` example of the README and docs/ is run and its shown output checked, so the
/// documentation cannot drift from the tool: each `$ swift run splitbill …` or `$ splitbill …`
/// line runs the built binary in a directory of its own holding the samples, and the lines shown under it must come out in that order; `…` stands for lines left out, and
/// an example without one must match whole.
@Suite struct ReadmeExampleTests {
  /// One command of an example and the output shown under it.
  struct Example: CustomStringConvertible {
    var file: String
    var line: Int
    var arguments: [String]
    var directory: String?
    var shown: [String]

    var description: String { "\(file):\(line) splitbill \(arguments.joined(separator: " "))" }
  }

  /// The examples of `files` (paths under the package root).
  static func examples(in files: [String]) throws -> [Example] {
    var examples: [Example] = []
    for file in files {
      let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
      var inBlock = false
      var indent = 0
      // A `cd` holds to the end of the file, as in a terminal.
      var directory: String?
      var ownStory = false
      for (index, raw) in text.components(separatedBy: "\n").enumerated() {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("```") {
          ownStory = false
          inBlock = !inBlock && trimmed == "```console"
          indent = raw.prefix { $0 == " " }.count
          continue
        }
        guard inBlock else { continue }
        let line = String(raw.dropFirst(min(indent, raw.prefix { $0 == " " }.count)))
        if line.hasPrefix("$ ") {
          let command = String(line.dropFirst(2))
          // A story that starts in a new directory has a test of its own (FlatStoryTests).
          if command.wholeMatch(of: /mkdir ~\/(\w+) && cd ~\/\w+/) != nil { ownStory = true }
          if ownStory { continue }
          if let copy = command.firstMatch(of: /^cp -r (samples\/[\w\/]+) ~\/(\w+) && cd ~\/\w+$/) {
            directory = String(copy.1)
            continue
          }
          var words = try words(command)
          // `swift run` runs in the clone, whatever the story's `cd` said.
          let inClone = words.starts(with: ["swift", "run"])
          if inClone { words.removeFirst(2) }
          guard words.first == "splitbill" else {
            Issue.record("\(file):\(index + 1): an example the test cannot run: \(command)")
            continue
          }
          examples.append(
            Example(
              file: file, line: index + 1, arguments: Array(words.dropFirst()), directory: inClone ? nil : directory,
              shown: []))
        } else if !ownStory, !examples.isEmpty, examples[examples.count - 1].file == file {
          examples[examples.count - 1].shown.append(line)
        }
      }
    }
    return examples
  }

  /// A command's words, with double quotes as the shell reads them (no variables, no operators).
  static func words(_ command: String) throws -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var started = false
    for character in command {
      if character == "\"" {
        quoted.toggle()
        started = true
      } else if character == " ", !quoted {
        if started { words.append(current) }
        current = ""
        started = false
      } else {
        try #require(quoted || !"|&;<>$`'".contains(character), "a shell operator in: \(command)")
        current.append(character)
        started = true
      }
    }
    if started { words.append(current) }
    return words
  }

  @Test func everyExampleShowsWhatTheToolPrints() throws {
    let examples = try Self.examples(
      in: ["README.md", "docs/guide.md", "docs/format.md", "docs/import.md", "docs/library.md"])
    #expect(examples.count(where: { $0.directory == nil }) >= 6, "the README's examples were not found")
    // The weekly story's runs (in a copy of samples/flat) have steps between them that are prose
    // (delete a transfer): WeeklyStoryTests runs that story as written.
    // A clone of its own: the samples, and room for the files examples write (`init`).
    let clone = try scratchDirectory()
    try FileManager.default.createSymbolicLink(
      at: clone.appendingPathComponent("samples"), withDestinationURL: packageRoot.appendingPathComponent("samples"))
    for example in examples where example.directory == nil {
      let directory = clone
      let outcome = try runProcess(
        try builtBinary().path, example.arguments, environment: ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"],
        directory: directory)
      let printed = (outcome.stdout + outcome.stderr).components(separatedBy: "\n").map(Self.trailingTrimmed)
      let shown = example.shown.map(Self.trailingTrimmed).reversed().drop { $0.isEmpty }.reversed()
      var remaining = printed[...]
      var missing: String?
      for line in shown where line != "…" {
        guard let found = remaining.firstIndex(of: line) else {
          missing = line
          break
        }
        remaining = remaining[(found + 1)...]
      }
      #expect(missing == nil, "\(example): not printed (in this order): \(missing ?? "")\n\(outcome.stdout)")
      if !shown.contains("…") {
        #expect(
          Array(shown) == printed.reversed().drop { $0.isEmpty }.reversed(),
          "\(example): shown whole, but the tool prints more")
      }
    }
  }

  @Test func theCalcJSONSampleIsTheOutput() async throws {
    let readme = try String(contentsOf: packageRoot.appendingPathComponent("docs/guide.md"), encoding: .utf8)
    let marker = "`splitbill calc 100 --tip 0 --split 3 --json` prints:\n\n```json\n"
    let start = try #require(readme.range(of: marker))
    let end = try #require(readme[start.upperBound...].range(of: "\n```"))
    let sample = String(readme[start.upperBound..<end.lowerBound])
    let outcome = await runCLI(["calc", "100", "--tip", "0", "--split", "3", "--json"])
    #expect(outcome.stdout == sample + "\n")
  }

  static func trailingTrimmed(_ line: String) -> String {
    String(line.reversed().drop { $0 == " " }.reversed())
  }
}
