import Foundation
import SplitBillReports
import Testing

@testable import SplitBillCLI

/// The conventions of other command-line tools: version, short options with attached values,
/// help by section, completions and the man page made from the option table.
struct ShellTests {
  @Test func versionThreeWays() async {
    for arguments in [["--version"], ["-V"], ["version"]] {
      let outcome = await runCLI(arguments)
      #expect(outcome.code == 0)
      #expect(outcome.stdout == "splitbill \(SplitBillCommandLine.version)\n")
    }
  }

  @Test func bareSplitbillIsAShortUsageAndExit64() async {
    let outcome = await runCLI([])
    #expect(outcome.code == 64)
    #expect(outcome.stdout.isEmpty)
    #expect(outcome.stderr.hasPrefix("Usage: splitbill <command> [options]\nCommands: report,"))
    #expect(outcome.stderr.split(separator: "\n").count <= 4)
    let help = await runCLI(["help"])
    #expect(help.code == 0 && help.stdout.contains("Help topics"))
  }

  @Test func exitCodesAreATopicNotOnEveryPage() async {
    let topic = await runCLI(["help", "exit-codes"])
    #expect(topic.code == 0)
    #expect(topic.stdout.contains("64  usage error"))
    let page = await runCLI(["report", "--help"])
    #expect(!page.stdout.contains("64  usage error"))
    #expect(page.stdout.contains("Exit codes: splitbill help exit-codes"))
  }

  @Test func calcHelpGroupsTheAdvisorOptions() async {
    let help = await runCLI(["calc", "--help"]).stdout
    let heading = help.range(of: "Tip advice in interactive mode (--interactive):")
    let advisor = help.range(of: "--advisor NAME")
    #expect(heading != nil && advisor != nil)
    if let heading, let advisor { #expect(heading.lowerBound < advisor.lowerBound) }
    // The options section ends before the advisor's heading.
    let options = help.components(separatedBy: "Tip advice in interactive mode")[0]
    #expect(!options.contains("--ai-"))
  }

  @Test(arguments: [["-o/tmp/x.json"], ["-o=/tmp/x.json"], ["-o", "/tmp/x.json"], ["--output=/tmp/x.json"]])
  func shortOptionsTakeAttachedValues(arguments: [String]) throws {
    let specs: [OptionSpec] = [.value("--output", short: "-o", "FILE", repeatable: true, "x")]
    let parsed = try ParsedArguments.parse(arguments + ["in.yaml"], specs: specs)
    #expect(parsed.values["--output"] == ["/tmp/x.json"])
    #expect(parsed.positionals == ["in.yaml"])
  }

  @Test func colorFollowsTheFlagAndTheEnvironment() {
    func colors(_ choice: ColorChoice, _ environment: [String: String], terminal: Bool) -> Bool {
      var context = CommandContext(
        stdout: StringSink(), stderr: StringSink(), environment: environment, stdoutIsTerminal: terminal,
        stderrIsTerminal: terminal)
      context.setColor(choice)
      return context.colorsStderr
    }
    #expect(colors(.auto, [:], terminal: true))
    #expect(!colors(.auto, [:], terminal: false))
    #expect(!colors(.auto, ["NO_COLOR": "1"], terminal: true))
    #expect(colors(.auto, ["NO_COLOR": ""], terminal: true))
    #expect(colors(.auto, ["CLICOLOR_FORCE": "1"], terminal: false))
    #expect(!colors(.auto, ["CLICOLOR_FORCE": "0"], terminal: false))
    #expect(colors(.always, ["NO_COLOR": "1"], terminal: false))
    #expect(!colors(.never, ["CLICOLOR_FORCE": "1"], terminal: true))
  }

  @Test func diagnosticsAreColouredLikeACompilersOnlyWhenAsked() async {
    let path = packageRoot.appendingPathComponent("samples/invalid").path
    let plain = await runCLI(["check", path])
    #expect(!plain.stdout.contains("\u{1B}["))
    let coloured = await runCLI(["check", path, "--color", "always"])
    #expect(coloured.stdout.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    #expect(coloured.stdout.contains("\u{1B}[1;33mwarning:\u{1B}[0m"))
    #expect(coloured.stdout.contains("\u{1B}[32m^\u{1B}[0m"))
    #expect(await runCLI(["check", path, "--color", "sometimes"]).code == 64)
  }

  /// bash completes commands, options, option values and files by extension, from the script
  /// `completions bash` prints.
  @Test func bashCompletes() throws {
    let directory = try scratchDirectory()
    let script = directory.appendingPathComponent("splitbill.bash")
    try runBinary(["completions", "bash"]).stdout.write(to: script, atomically: true, encoding: .utf8)
    for name in ["trip.yaml", "notes.txt", "export.csv"] {
      try "".write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    func complete(_ words: [String]) throws -> [String] {
      let array = words.map { "'\($0)'" }.joined(separator: " ")
      let outcome = try runProcess(
        "bash",
        [
          "-c",
          "cd '\(directory.path)' && source splitbill.bash && COMP_WORDS=(\(array)) && COMP_CWORD=\(words.count - 1) && _splitbill; printf '%s\\n' \"${COMPREPLY[@]}\"",
        ])
      #expect(outcome.code == 0, "\(outcome.stderr)")
      return outcome.stdout.split(separator: "\n").map(String.init).sorted()
    }
    #expect(try complete(["splitbill", "rep"]) == ["report"])
    #expect(try complete(["splitbill", "report", "--format", "h"]) == ["hledger", "html"])
    #expect(try complete(["splitbill", "report", "--lef"]) == ["--leftover"])
    #expect(
      try complete(["splitbill", "check", ""]).filter { !$0.hasPrefix("splitbill") } == ["export.csv", "trip.yaml"])
    #expect(try complete(["splitbill", "import", "sp"]) == ["spliit", "splitwise"])
    #expect(try complete(["splitbill", "calc", "--advisor", ""]) == ["gemini", "offline", "openai"])
  }

  @Test(
    .enabled(if: needing(toolExists("zsh") && toolExists("fish")), "needs zsh and fish (apt-get install zsh fish)"))
  func zshAndFishReadTheirScripts() throws {
    let directory = try scratchDirectory()
    for (shell, check) in [("zsh", ["-n"]), ("fish", ["--no-execute"])] {
      let script = directory.appendingPathComponent("splitbill.\(shell)")
      try runBinary(["completions", shell]).stdout.write(to: script, atomically: true, encoding: .utf8)
      let outcome = try runProcess(shell, check + [script.path])
      #expect(outcome.code == 0 && outcome.stderr.isEmpty, "\(shell): \(outcome.stderr)")
    }
  }

  /// zsh reads each option's spec as one word, file patterns whole (a nested quote once split them,
  /// and zsh took `(yaml)` for glob qualifiers); fish describes a choice by its value's name, not
  /// the option's whole help again.
  @Test(
    .enabled(if: needing(toolExists("zsh") && toolExists("fish")), "needs zsh and fish (apt-get install zsh fish)"))
  func completionsKeepPatternsWholeAndChoicesShort() throws {
    let zsh = try runBinary(["completions", "zsh"]).stdout
    let lines = zsh.components(separatedBy: "\n")
    let start = try #require(lines.firstIndex { $0.hasPrefix("    report) _arguments -s") })
    var specs: [String] = []
    for line in lines[(start + 1)...] {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      specs.append(String(trimmed.dropLast(trimmed.hasSuffix(" ;;") ? 3 : 2)))
      if trimmed.hasSuffix(";;") { break }
    }
    let words = try runProcess("zsh", ["-fc", "specs=( \(specs.joined(separator: " ")) ); print -rl -- $specs"])
    #expect(words.code == 0, "\(words.stderr)")
    let parsed = words.stdout.split(separator: "\n")
    #expect(parsed.count == specs.count)
    #expect(parsed.contains { $0.hasPrefix("*--rates[") && $0.hasSuffix(":FILE:_files -g \"*.(csv|yaml|yml)\"") })

    // Each value of a choice is described by what the option is for, in a few words (the
    // command and the value's name when the help starts with the values); the help is given once.
    let fish = try runBinary(["completions", "fish"]).stdout.split(separator: "\n")
    let format = try #require(fish.first { $0.contains("subcommand_from report") && $0.contains(" -l format ") })
    #expect(format.contains("-a \"(printf '%s\\t%s\\n' 'text' 'report format' 'json' 'report format' "), "\(format)")
    #expect(format.components(separatedBy: "text (default)").count == 2)
  }

  /// `man -l` renders the page without a warning, and it lists every command and option.
  @Test(.enabled(if: needing(toolExists("man") && toolExists("groff")), "needs man-db and groff"))
  func theManPageRendersWithoutWarnings() throws {
    let page = try scratchDirectory().appendingPathComponent("splitbill.1")
    try runBinary(["man"]).stdout.write(to: page, atomically: true, encoding: .utf8)
    let outcome = try runProcess(
      "man", ["--warnings", "-l", page.path],
      environment: ["MANWIDTH": "100", "MANPAGER": "cat", "PATH": "/usr/bin:/bin"])
    #expect(outcome.code == 0)
    #expect(outcome.stderr.isEmpty, "\(outcome.stderr)")
    let text = outcome.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for command in SplitBillCommandLine.commands {
      let usage = command.usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(text.contains(usage.replacingOccurrences(of: "…", with: "...")), "\(command.name)")
    }
    #expect(text.contains("--record-settlements FILE") && text.contains("EXIT STATUS"))
  }

  /// scripts/install.sh puts the binary, the man page and the completions under a prefix, and the
  /// installed binary runs (the built binary is reused: SPLITBILL_BINARY).
  @Test func theInstallScriptInstallsEverything() throws {
    let prefix = try scratchDirectory().appendingPathComponent("prefix")
    let outcome = try runProcess(
      "bash", [packageRoot.appendingPathComponent("scripts/install.sh").path, prefix.path],
      environment: ProcessInfo.processInfo.environment.merging(["SPLITBILL_BINARY": try builtBinary().path]) { $1 })
    #expect(outcome.code == 0, "\(outcome.stderr)")
    for path in [
      "bin/splitbill", "share/man/man1/splitbill.1", "share/bash-completion/completions/splitbill",
      "share/zsh/site-functions/_splitbill", "share/fish/vendor_completions.d/splitbill.fish",
    ] {
      #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path), "\(path)")
    }
    let version = try runProcess(prefix.appendingPathComponent("bin/splitbill").path, ["-V"])
    #expect(version.stdout == "splitbill \(SplitBillCommandLine.version)\n")
  }
}
