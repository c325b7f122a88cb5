import SplitBillCore
import SplitBillModel
import SplitBillYAML

/// A configuration file: a YAML mapping of option names (without `--`) to values, the defaults a
/// cron job would otherwise repeat on every command line (`currency: EUR`, `default-tip: 18`,
/// `advisor: gemini`, `ai-rpm: 10`). Read through libyaml like bill files; a problem is a
/// ``Diagnostic`` with the file, line and column.
///
/// A configuration file may hold the API key (`ai-key`), so nothing of its text reaches a message
/// but key names that look like option names: a value is described by its shape, never quoted, and
/// no line of it is shown under a problem (``Configuration``), whatever is wrong around the key.
package struct ConfigFile: Sendable {
  /// One setting: the option it stands for, its value (flags: `true`/`false`), and where it is.
  package struct Setting: Sendable, Equatable {
    package var key: String
    package var value: String
    /// Where the value is.
    package var location: SourceLocation
    /// Where the key is.
    package var keyLocation: SourceLocation
  }

  package var path: String
  package var settings: [Setting]
  /// `category-accounts:`, a mapping of categories to journal accounts: each entry a setting of
  /// ``categoryAccountsKey``'s option, valued `CATEGORY=ACCOUNT`.
  package var categoryAccounts: [Setting] = []
  /// How people are paid: the `people:` entries with details (`{name: Ben, iban: …}`), by NFC name.
  package var payees: [(name: String, details: PaymentDetails)] = []
  /// The one key whose value is a mapping.
  package static let categoryAccountsKey = "category-accounts"

  /// Reads `path`; `nil` when there is no such file. Throws the first problem found.
  package static func read(_ path: String) throws(ConfigProblem) -> ConfigFile? {
    guard let reader = YAMLEventReader(path: path) else { return nil }
    var builder = YAMLNodeBuilder(reader: reader, file: path)
    let file = SourceFile(path)
    func located(_ failure: InputFailure) -> ConfigProblem {
      guard case .syntax(let error) = failure else { return ConfigProblem(.error(.unexpectedStructure, at: nil)) }
      // Inside the file, as a bill file's (libyaml may place the end past the last line).
      let (line, column) = error.position(in: path, standardInput: nil)
      return ConfigProblem(.error(error.problem, at: SourceLocation(in: file, line: line, column: column)))
    }
    let root: YAMLNode?
    do throws(InputFailure) {
      root = try builder.documentRoot()
    } catch {
      throw located(error)
    }
    guard let root else { return ConfigFile(path: path, settings: []) }
    guard case .mapping(let pairs) = root.kind else {
      throw ConfigProblem(
        .error(
          .configShape("a mapping of option names to values, such as 'currency: EUR'", found: Self.shape(root)),
          at: SourceLocation(in: file, line: root.line, column: root.column)))
    }
    var settings: [Setting] = []
    var payees: [(String, PaymentDetails)] = []
    var categoryAccounts: [Setting]?
    var categoryAccountsAt: SourceLocation?
    // The API key's text, found first: whichever way the file refers to it again (an alias, an
    // anchor, a merge, a copy), in a key or in a value, it is refused before any message could
    // quote it.
    let secrets = pairs.compactMap { key, value in key.scalar == "ai-key" ? value.scalar : nil }.filter {
      $0.count >= 4
    }
    func holdsSecret(_ node: YAMLNode) -> Bool {
      switch node.kind {
      case .scalar(let text, _): return secrets.contains { text.contains($0) }
      case .sequence(let items): return items.contains(where: holdsSecret)
      case .mapping(let entries): return entries.contains { holdsSecret($0.key) || holdsSecret($0.value) }
      }
    }
    for (key, value) in pairs where !secrets.isEmpty {
      if holdsSecret(key) {
        throw ConfigProblem(
          .error(.configSecretElsewhere(key: nil), at: SourceLocation(in: file, line: key.line, column: key.column)))
      }
      if key.scalar != "ai-key", holdsSecret(value), let name = key.scalar {
        throw ConfigProblem(
          .error(
            .configSecretElsewhere(key: Self.echoed(name)),
            at: SourceLocation(in: file, line: value.line, column: value.column)))
      }
    }
    for (key, value) in pairs {
      guard let name = key.scalar, case .scalar = key.kind else {
        throw ConfigProblem(
          .error(
            .configShape("an option name", found: Self.shape(key)),
            at: SourceLocation(in: file, line: key.line, column: key.column)))
      }
      if name == Self.categoryAccountsKey {
        let keyLocation = SourceLocation(in: file, line: key.line, column: key.column)
        if let first = categoryAccountsAt {
          throw ConfigProblem(.error(.repeatedKey(name, place: "configuration", first: first), at: keyLocation))
        }
        categoryAccountsAt = keyLocation
        guard case .mapping(let entries) = value.kind else {
          throw ConfigProblem(
            .error(
              .configShape(
                "a mapping of categories to accounts, such as 'groceries: Expenses:Food:Groceries'",
                found: value.isNull ? "nothing" : Self.shape(value)),
              at: SourceLocation(in: file, line: value.line, column: value.column)))
        }
        var found: [Setting] = []
        for (category, account) in entries {
          guard let categoryText = category.scalar, let accountText = account.scalar, !account.isNull else {
            throw ConfigProblem(
              .error(
                .configShape(
                  "a category and its account", found: Self.shape(account.scalar == nil ? account : category)),
                at: SourceLocation(in: file, line: category.line, column: category.column)))
          }
          found.append(
            Setting(
              key: name, value: "\(categoryText)=\(accountText)",
              location: SourceLocation(in: file, line: account.line, column: account.column),
              keyLocation: SourceLocation(in: file, line: category.line, column: category.column)))
        }
        categoryAccounts = found
        continue
      }
      // A list where the option takes several values (`people: [Maya, Jonas]`, as bill files
      // write people): its items, comma-separated as on the command line.
      let text: String
      if Self.listKeys.contains(name), case .sequence(let items) = value.kind {
        var texts: [String] = []
        for item in items {
          if name == "people", case .mapping = item.kind {
            // A person with payment details, as in a bill file's people.
            let (entry, problems) = PeopleEntry.read(item, in: file)
            if let problem = problems.first { throw ConfigProblem(problem) }
            guard let entry, !entry.name.contains(",") else {
              throw ConfigProblem(
                .error(
                  .configShape("a name (without a comma) in the list 'people'", found: "a name with a comma"),
                  at: SourceLocation(in: file, line: item.line, column: item.column)))
            }
            texts.append(entry.name)
            if let details = entry.details { payees.append((PersonName.normalized(entry.name), details)) }
            continue
          }
          guard case .scalar(let itemText, _) = item.kind, !item.isNull, !itemText.contains(",") else {
            throw ConfigProblem(
              .error(
                .configShape(
                  "a name (without a comma) in the list '\(name)'", found: item.isNull ? "nothing" : Self.shape(item)),
                at: SourceLocation(in: file, line: item.line, column: item.column)))
          }
          texts.append(itemText)
        }
        text = texts.joined(separator: ",")
      } else if name == "cash-rounding", case .mapping(let entries) = value.kind {
        // By currency, as a file's `cash_rounding: {HUF: 5}`: `HUF=5,CHF=0.05` for the option.
        var texts: [String] = []
        for (code, increment) in entries {
          guard let codeText = code.scalar, let incrementText = increment.scalar, !increment.isNull else {
            throw ConfigProblem(
              .error(
                .configShape("a currency and its increment, such as HUF: 5", found: Self.shape(increment)),
                at: SourceLocation(in: file, line: code.line, column: code.column)))
          }
          texts.append("\(codeText)=\(incrementText)")
        }
        text = texts.joined(separator: ",")
      } else {
        guard case .scalar(let scalarText, _) = value.kind, !value.isNull else {
          throw ConfigProblem(
            .error(
              .configShape(
                "one value for '\(Self.echoed(name))'", found: value.isNull ? "nothing" : Self.shape(value)),
              at: SourceLocation(in: file, line: value.line, column: value.column)))
        }
        text = scalarText
      }
      if let first = settings.first(where: { $0.key == name }) {
        throw ConfigProblem(
          .error(
            .repeatedKey(Self.echoed(name), place: "configuration", first: first.keyLocation),
            at: SourceLocation(in: file, line: key.line, column: key.column)))
      }
      settings.append(
        Setting(
          key: name, value: text, location: SourceLocation(in: file, line: value.line, column: value.column),
          keyLocation: SourceLocation(in: file, line: key.line, column: key.column)))
    }
    var read = ConfigFile(path: path, settings: settings)
    read.categoryAccounts = categoryAccounts ?? []
    read.payees = payees
    return read
  }

  /// The options a configuration may give as a YAML list: `people: [Maya, Jonas]` as well as
  /// `people: Maya, Jonas`.
  static let listKeys: Set<String> = ["people", "whole-units"]

  /// A node's shape, without its text: `text`, `a list`, `a mapping`.
  private static func shape(_ node: YAMLNode) -> String {
    if case .scalar = node.kind { return "text" }
    return node.shapeDescription
  }

  /// A key as messages may name it: itself when it looks like an option name (lower-case letters,
  /// digits, `-` and `_`, at most 30: API keys are longer or mixed-case), else `a key` (it may be
  /// an API key pasted in the wrong place).
  package static func echoed(_ key: String) -> String {
    let looksLikeAnOption =
      !key.isEmpty && key.utf8.count <= 30
      && key.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
    return looksLikeAnOption ? key : "a key"
  }

}

/// Why a configuration file is refused: one located diagnostic.
package struct ConfigProblem: Error, Sendable {
  package var diagnostic: Diagnostic
  package init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }
}
