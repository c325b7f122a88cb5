import SplitBillCore
import SplitBillModel
import SplitBillText
import SplitBillYAML

/// One entry of a `people:` list, in a bill file or the configuration: a name (`Ana`), or a
/// mapping with the name and how the person is paid:
///
/// ```yaml
/// people:
///   - Ana
///   - {name: Ben, iban: DE89 3704 0044 0532 0130 00, bic: COBADEFFXXX}
///   - name: Chloé
///     link: https://paypal.me/chloe
///     holder: Chloé Martin
/// ```
///
/// Each detail is checked where it stands: an IBAN whose check digits are wrong, a BIC of the
/// wrong shape, a link that is not `https://` is refused at its line and column.
package struct PeopleEntry: Sendable {
  /// The name as written (normalized by the roster).
  package var name: String
  /// Where the name is.
  package var location: SourceLocation
  /// The details given, `nil` for a bare name (or a mapping with none, or with only bad ones).
  package var details: PaymentDetails?

  /// Reads one item of the list; `nil` with the problems when it has no name. A detail that is
  /// refused is a problem and is left out of ``details``; the name still counts.
  package static func read(_ item: YAMLNode, in file: SourceFile) -> (PeopleEntry?, [Diagnostic]) {
    let at = { (node: YAMLNode) in SourceLocation(in: file, line: node.line, column: node.column) }
    switch item.kind {
    case .scalar(let text, _):
      return (PeopleEntry(name: text, location: at(item)), [])
    case .sequence:
      return (nil, [.error(.payeeEntry(item.shapeDescription), at: at(item))])
    case .mapping(let pairs):
      var problems: [Diagnostic] = []
      var values: [String: YAMLNode] = [:]
      var firstKey: [String: SourceLocation] = [:]
      for (key, value) in pairs {
        guard let keyText = key.scalar else {
          problems.append(.error(.keyShape(key.shapeDescription), at: at(key)))
          continue
        }
        guard PaymentDetails.keys.contains(keyText) else {
          let guess = Spelling.suggestion(for: keyText, among: PaymentDetails.keys)
          problems.append(
            .error(.unknownKey(keyText, place: "people", allowed: PaymentDetails.keys, guess: guess), at: at(key)))
          continue
        }
        if let first = firstKey[keyText] {
          problems.append(.error(.repeatedKey(keyText, place: "people", first: first), at: at(key)))
          continue
        }
        firstKey[keyText] = at(key)
        guard value.scalar != nil, !value.isNull else {
          problems.append(
            .error(
              .notSingleValue(key: keyText, shape: value.isNull ? "nothing" : value.shapeDescription), at: at(value)))
          continue
        }
        values[keyText] = value
      }
      guard let nameNode = values["name"], let name = nameNode.scalar else {
        if firstKey["name"] == nil { problems.append(.error(.payeeEntry("a mapping without name"), at: at(item))) }
        problems.sort {
          ($0.location?.line ?? 0, $0.location?.column ?? 0) < ($1.location?.line ?? 0, $1.location?.column ?? 0)
        }
        return (nil, problems)
      }
      var details = PaymentDetails()
      if let node = values["iban"], let text = node.scalar {
        do throws(IBAN.Problem) {
          details.iban = try IBAN(parsing: text)
        } catch {
          problems.append(.error(.payeeIBAN(name, error), at: at(node)))
        }
      }
      if let node = values["bic"], let text = node.scalar {
        if let bic = BIC(parsing: text) {
          details.bic = bic
        } else {
          problems.append(.error(.payeeBIC(name), at: at(node)))
        }
      }
      if let node = values["link"], let text = node.scalar {
        if PaymentDetails.isPaymentLink(text) {
          details.link = text
        } else {
          problems.append(.error(.payeeLink(name), at: at(node)))
        }
      }
      if let node = values["holder"], let text = node.scalar {
        let holder = PersonName.normalized(text)
        if (1...70).contains(holder.count),
          !holder.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
          details.holder = holder
        } else {
          problems.append(.error(.payeeHolder(name), at: at(node)))
        }
      }
      // In the order of the file, whichever check found them.
      problems.sort {
        ($0.location?.line ?? 0, $0.location?.column ?? 0) < ($1.location?.line ?? 0, $1.location?.column ?? 0)
      }
      return (PeopleEntry(name: name, location: at(nameNode), details: details.isEmpty ? nil : details), problems)
    }
  }
}
