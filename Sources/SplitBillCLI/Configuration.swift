import Foundation
import SplitBillInput
import SplitBillModel
import SplitBillReports
import SplitBillText

/// The configuration files: `$XDG_CONFIG_HOME/splitbill/config.yaml` (else `~/.config/…`), then
/// `splitbill.yaml` in the current directory. Each is a mapping of long option names without
/// `--` to values; the nearer file wins, and the command line wins over both. A key no command
/// knows is an error; a key the running command does not take is left alone (one file serves
/// `report` and `calc`). `ai-key` may hold the API key only in a file only its owner can read
/// (mode 600); it stands in for `GEMINI_API_KEY` / `OPENAI_API_KEY` when they are not set.
enum Configuration {
  /// The files, farthest first.
  static func paths(environment: [String: String]) -> [String] {
    var paths: [String] = []
    if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
      paths.append(xdg + "/splitbill/config.yaml")
    } else if let home = environment["HOME"], !home.isEmpty {
      paths.append(home + "/.config/splitbill/config.yaml")
    }
    paths.append(FileManager.default.currentDirectoryPath + "/splitbill.yaml")
    return paths
  }

  /// What applying the files gave: the arguments with the files' settings, where each setting
  /// came from (to locate a value the command refuses), and the files read.
  struct Applied {
    var arguments: ParsedArguments
    var origins: [String: SourceLocation] = [:]
    var read: [(path: String, settings: Int)] = []
  }

  /// Applies the files to `arguments` for `command`, the command line winning.
  static func apply(
    to arguments: ParsedArguments, command: Command, context: inout CommandContext
  ) throws(ConfigProblem) -> Applied {
    var applied = Applied(arguments: arguments)
    guard !arguments.flag("--no-config") else { return applied }
    let known = Set(SplitBillCommandLine.commands.flatMap { $0.allOptions.map(\.name) })
    var settings: [String: ConfigFile.Setting] = [:]
    // The nearer file's mapping entries after the farther's: the later wins, category by category.
    var categoryAccounts: [ConfigFile.Setting] = []
    for path in paths(environment: context.environment) {
      guard let file = try ConfigFile.read(path) else { continue }
      applied.read.append((path, file.settings.count + file.categoryAccounts.count))
      categoryAccounts += file.categoryAccounts
      // The nearer file's details of a person win.
      for (name, details) in file.payees { applied.arguments.payees[name] = details }
      for setting in file.settings {
        if setting.key == "ai-key" {
          let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0o644
          guard mode & 0o077 == 0 else {
            throw ConfigProblem(.error(.configKeyExposed(mode: String(mode, radix: 8)), at: setting.keyLocation))
          }
        } else if !known.contains("--" + setting.key) {
          let guess = Spelling.suggestion(for: setting.key, among: known.map { String($0.dropFirst(2)) } + ["ai-key"])
          throw ConfigProblem(
            .error(.configUnknownKey(ConfigFile.echoed(setting.key), guess: guess), at: setting.keyLocation))
        }
        settings[setting.key] = setting
      }
    }
    if !categoryAccounts.isEmpty, command.allOptions.contains(where: { $0.name == "--category-account" }) {
      // The command line's come last, so they win.
      if applied.arguments.values["--category-account"] == nil {
        applied.arguments.configured.insert("--category-account")
      }
      applied.arguments.values["--category-account"] =
        categoryAccounts.map(\.value) + (applied.arguments.values["--category-account"] ?? [])
      applied.origins["--category-account"] = categoryAccounts[0].location
    }
    for (key, setting) in settings.sorted(by: { $0.key < $1.key }) {
      if key == "ai-key" {
        for variable in ["GEMINI_API_KEY", "OPENAI_API_KEY"] where context.environment[variable] == nil {
          context.environment[variable] = setting.value
        }
        continue
      }
      guard let spec = command.allOptions.first(where: { $0.name == "--" + key }) else { continue }
      if spec.valueName == nil {
        guard let on = ["true": true, "yes": true, "false": false, "no": false][setting.value.lowercased()] else {
          throw ConfigProblem(.error(.configValue(key: key, message: "expected true or false"), at: setting.location))
        }
        if on {
          applied.arguments.flags.insert(spec.name)
          applied.arguments.configured.insert(spec.name)
        }
        continue
      }
      guard applied.arguments.values[spec.name] == nil else { continue }
      if !spec.choices.isEmpty, !spec.choices.contains(setting.value) {
        throw ConfigProblem(
          .error(
            .configValue(
              key: key, message: "'\(setting.value)' is not one of \(spec.choices.joined(separator: ", "))"),
            at: setting.location))
      }
      applied.arguments.values[spec.name] = [setting.value]
      applied.arguments.configured.insert(spec.name)
      applied.origins[spec.name] = setting.location
    }
    return applied
  }

  /// Prints a problem of a configuration file like a bill file's, but without its line: the file
  /// may hold the API key, on that line or around it (a list, a mapping, a quote left open).
  static func report(_ problem: ConfigProblem, _ context: inout CommandContext) {
    let diagnostic = problem.diagnostic
    context.stderr.write(
      DiagnosticFormatter.text(
        severity: diagnostic.severity.rawValue, location: diagnostic.location, file: nil, message: diagnostic.message,
        lines: [:], color: context.colorsStderr))
  }
}
