import SplitBillCore
import SplitBillReports
import SplitBillText

/// A mistake in how the command was called: printed with the usage line, exit 64.
package struct UsageError: Error, Equatable, Sendable {
  /// What was wrong, naming the option.
  package var message: String

  /// Creates the error.
  package init(_ message: String) { self.message = message }
}

/// One option a command accepts.
struct OptionSpec: Sendable {
  /// The long name with dashes (`--tip`); the key values are stored under.
  var name: String
  /// A one-letter alias (`-o`), if any.
  var short: String?
  /// The value's placeholder in help (`PERCENT`); `nil` for a flag.
  var valueName: String?
  /// Whether the option may be given more than once.
  var repeatable = false
  /// One line for `--help`.
  var help: String
  /// The heading `--help` lists it under (`nil`: "Options").
  var section: String?
  /// The values it takes, when they are a fixed set (for completions and the man page); any
  /// other value is refused as the command line is read, unless ``acceptsOtherSpellings``.
  var choices: [String] = []
  /// Whether the command reads spellings beyond ``choices`` itself (`--delimiter comma`).
  var acceptsOtherSpellings = false
  /// The extensions of the files it names (`csv`, `yaml`), or `[""]` for any file; empty when
  /// its value is no file.
  var files: [String] = []

  static func flag(_ name: String, short: String? = nil, _ help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, help: help)
  }

  static func value(
    _ name: String, short: String? = nil, _ valueName: String, repeatable: Bool = false, _ help: String,
    choices: [String] = [], acceptsOtherSpellings: Bool = false, files: [String] = []
  ) -> OptionSpec {
    OptionSpec(
      name: name, short: short, valueName: valueName, repeatable: repeatable, help: help, choices: choices,
      acceptsOtherSpellings: acceptsOtherSpellings, files: files)
  }

  /// The same option listed under `section` in help.
  func under(_ section: String) -> OptionSpec {
    var copy = self
    copy.section = section
    return copy
  }
}

/// The options and positional arguments of one call, checked against the command's specs.
struct ParsedArguments: Equatable, Sendable {
  /// Arguments that are not options, in order (`-` counts as one: standard input).
  var positionals: [String] = []
  /// Every value given, by long option name, in order.
  var values: [String: [String]] = [:]
  /// The flags given, by long option name.
  var flags: Set<String> = []
  /// The options whose values a configuration file gave (the command line gave the others).
  var configured: Set<String> = []
  /// How people are paid, from the configuration's `people:` entries with details, by NFC name.
  var payees: [String: PaymentDetails] = [:]

  /// The value of a single-valued option.
  func value(_ name: String) -> String? { values[name]?.last }

  /// Whether a flag was given.
  func flag(_ name: String) -> Bool { flags.contains(name) }

  /// Splits `arguments` by `specs`: `--name value`, `--name=value`, `-o value`, flags, and `--`
  /// after which everything is positional. Unknown options get a "did you mean".
  static func parse(_ arguments: [String], specs: [OptionSpec]) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") || isNumber(argument) {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      } else if !argument.hasPrefix("--"), argument.count > 2,
        specs.contains(where: { $0.short == String(argument.prefix(2)) && $0.valueName != nil })
      {
        // `-oFILE` and `-o=FILE`, as getopt reads them.
        name = String(argument.prefix(2))
        let rest = argument.dropFirst(2)
        inlineValue = String(rest.hasPrefix("=") ? rest.dropFirst() : rest)
      }
      guard let spec = specs.first(where: { $0.name == name || $0.short == name }) else {
        let known = specs.map(\.name) + ["--help"]
        var message = "unknown option '\(name)'"
        // The one option the name begins (`--settle` for `--settle-in`), when only one does.
        let begun = known.filter { name.count > 3 && $0.hasPrefix(name) }
        if let guess = Spelling.suggestion(for: name, among: known) ?? (begun.count == 1 ? begun.first : nil)
          ?? known.first(where: { name.count > 3 && $0.hasSuffix("-" + name.dropFirst(2)) })
        {
          // A typo, a name cut short, or the name of another command's option (`report --tip` is
          // `--default-tip`).
          message += "; did you mean '\(guess)'?"
        }
        throw UsageError(message)
      }
      if spec.valueName == nil {
        if inlineValue != nil { throw UsageError("option '\(spec.name)' takes no value") }
        parsed.flags.insert(spec.name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else if index < arguments.count {
        value = arguments[index]
        index += 1
      } else {
        throw UsageError("option '\(spec.name)' needs a value (\(spec.valueName ?? "VALUE"))")
      }
      if !spec.choices.isEmpty, !spec.acceptsOtherSpellings, !spec.choices.contains(value) {
        var message =
          "\(spec.name): '\(TerminalText.sanitize(String(value.prefix(64))))' is not one of "
          + spec.choices.joined(separator: ", ")
        if let guess = Spelling.suggestion(for: value, among: spec.choices) { message += "; did you mean '\(guess)'?" }
        throw UsageError(message)
      }
      if !spec.repeatable, parsed.values[spec.name] != nil {
        throw UsageError("option '\(spec.name)' is given more than once")
      }
      parsed.values[spec.name, default: []].append(value)
    }
    return parsed
  }

  /// `-5` and `-1.25` are values (a negative amount is then refused with its own message).
  private static func isNumber(_ text: String) -> Bool {
    let body = text.dropFirst()
    return !body.isEmpty && body.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
  }

  /// Parses the value of `name` with `transform`, naming the option in any error.
  func parse<T>(_ name: String, _ transform: (String) throws -> T) throws(UsageError) -> T? {
    guard let text = value(name) else { return nil }
    do {
      return try transform(text)
    } catch let error as UsageError {
      throw UsageError("\(name): \(error.message)")
    } catch {
      throw UsageError("\(name): \(error)")
    }
  }

  /// The value of `name` as one of `type`'s raw values, listing the choices on a mistake.
  func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type) throws(UsageError) -> T?
  where T.RawValue == String {
    try parse(name) { text in
      guard let value = T(rawValue: text) else {
        let choices = T.allCases.map(\.rawValue)
        var message = "'\(text)' is not one of \(choices.joined(separator: ", "))"
        if let guess = Spelling.suggestion(for: text, among: choices) { message += "; did you mean '\(guess)'?" }
        throw UsageError(message)
      }
      return value
    }
  }
}
