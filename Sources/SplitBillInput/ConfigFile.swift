import SplitBillCore

/// A configuration file: a YAML mapping of option names (without `--`) to values, the defaults a
/// cron job would otherwise repeat on every command line (`currency: EUR`, `default-tip: 18`,
/// `advisor: gemini`, `ai-rpm: 10`). Read through libyaml like bill files; a problem is a
/// ``Diagnostic`` with the file, line and column.
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

  /// Reads `path`; `nil` when there is no such file. Throws the first problem found.
  package static func read(_ path: String) throws(ConfigProblem) -> ConfigFile? {
    guard let reader = YAMLEventReader(path: path) else { return nil }
    var builder = YAMLNodeBuilder(reader: reader, file: path)
    let file = SourceFile(path)
    func located(_ failure: InputFailure) -> ConfigProblem {
      guard case .syntax(let error) = failure else { return ConfigProblem(.error(.unexpectedStructure, at: nil)) }
      var location = SourceLocation(in: file, line: 0, column: 0)
      if case .mark(let line, let column) = error.position {
        location = SourceLocation(in: file, line: line, column: column)
      }
      return ConfigProblem(.error(error.problem, at: location))
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
          .configShape("a mapping of option names to values, such as 'currency: EUR'", found: root.shapeDescription),
          at: SourceLocation(in: file, line: root.line, column: root.column)))
    }
    var settings: [Setting] = []
    for (key, value) in pairs {
      guard let name = key.scalar, case .scalar = key.kind else {
        throw ConfigProblem(
          .error(
            .configShape("an option name", found: key.shapeDescription),
            at: SourceLocation(in: file, line: key.line, column: key.column)))
      }
      guard case .scalar(let text, _) = value.kind, !value.isNull else {
        throw ConfigProblem(
          .error(
            .configShape("one value for '\(name)'", found: value.isNull ? "nothing" : value.shapeDescription),
            at: SourceLocation(in: file, line: value.line, column: value.column)))
      }
      if let first = settings.first(where: { $0.key == name }) {
        throw ConfigProblem(
          .error(
            .repeatedKey(name, place: "configuration", first: first.keyLocation),
            at: SourceLocation(in: file, line: key.line, column: key.column)))
      }
      settings.append(
        Setting(
          key: name, value: text, location: SourceLocation(in: file, line: value.line, column: value.column),
          keyLocation: SourceLocation(in: file, line: key.line, column: key.column)))
    }
    return ConfigFile(path: path, settings: settings)
  }

}

/// Why a configuration file is refused: one located diagnostic.
package struct ConfigProblem: Error, Sendable {
  package var diagnostic: Diagnostic
  package init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }
}
