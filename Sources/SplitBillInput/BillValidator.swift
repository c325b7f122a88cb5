import Foundation
import SplitBillCore

/// A value from the defaults chain: set (with where it came from), unset, or given but invalid.
enum Resolved<Value: Sendable>: Sendable {
  case unset
  case value(Value)
  /// Given in the file's defaults but invalid; bills that need it are invalid too.
  case invalid(SourceLocation)
}

/// What a document's header resolves to: defaults from the file over the command line's, and the roster.
struct DocumentContext: Sendable {
  var file: String
  var currency: Resolved<Currency>
  var tip: Resolved<DefaultTip>
  var leftover: Resolved<LeftoverPolicy>
  var rounding: Resolved<RoundingMode>
  /// The `people:` roster, NFC names, when given.
  var roster: [String]?
}

/// Turns raw bills into validated ``Bill`` values, reporting every problem with its position.
struct BillValidator {
  let options: ReadOptions
  /// Names repeat from bill to bill; each distinct one is normalised once.
  let names = NameCache()

  init(options: ReadOptions) { self.options = options }

  /// Resolves a document's header; problems go to `diagnostics`.
  func context(for header: DocumentHeader, diagnostics: inout [Diagnostic]) -> DocumentContext {
    diagnostics += header.problems
    if let version = header.version {
      if case .text(let text) = version.value, text.text == "1" {
      } else {
        diagnostics.append(
          .error(
            "unsupported version \(Self.describe(version.value)): this splitbill reads version 1", at: version.location)
        )
      }
    }
    let cli = options.defaults
    var context = DocumentContext(
      file: header.file,
      currency: cli.currency.map(Resolved.value) ?? .unset,
      tip: cli.tip.map(Resolved.value) ?? .unset,
      leftover: cli.leftover.map(Resolved.value) ?? .unset,
      rounding: cli.rounding.map(Resolved.value) ?? .unset)
    var problems: [Diagnostic] = []
    if let field = header.defaults[.currency], let text = text(field, &problems) {
      context.currency = parseCurrency(text, &problems).map(Resolved.value) ?? .invalid(field.location)
    }
    if let field = header.defaults[.tip], let text = text(field, &problems) {
      context.tip = parseTip(text, &problems).map(Resolved.value) ?? .invalid(field.location)
    }
    if let field = header.defaults[.leftover], let text = text(field, &problems) {
      context.leftover =
        parseChoice(text, LeftoverPolicy.self, "leftover", &problems).map(Resolved.value) ?? .invalid(field.location)
    }
    if let field = header.defaults[.rounding], let text = text(field, &problems) {
      context.rounding =
        parseChoice(text, RoundingMode.self, "rounding", &problems).map(Resolved.value) ?? .invalid(field.location)
    }
    if let roster = header.roster {
      switch roster.value {
      case .list(let names):
        var seen: [String: SourceLocation] = [:]
        var list: [String] = []
        for name in names {
          let normalized = Self.normalizeName(name.text)
          if normalized.isEmpty {
            problems.append(.error("empty name in people", at: name.location))
          } else if let first = seen[normalized] {
            problems.append(.error("'\(normalized)' is listed twice in people (first at \(first))", at: name.location))
          } else {
            seen[normalized] = name.location
            list.append(normalized)
          }
        }
        context.roster = list
      case .absent: break
      default:
        problems.append(
          .error(
            "people must be a list of names such as [Ana, Ben], found \(Self.describe(roster.value))",
            at: roster.location))
      }
    }
    diagnostics += problems
    return context
  }

  /// Validates one bill: a ``Bill``, or every problem found in it.
  func validate(_ raw: RawBill, context: DocumentContext) -> Result<Bill, InvalidBill> {
    var problems = raw.problems
    let fields = raw.fields
    if raw.unreadable {
      let id = fields[.id].flatMap { field -> String? in
        if case .text(let text) = field.value { return text.text }
        return nil
      }
      return .failure(
        InvalidBill(id: id ?? "\(context.file)#\(raw.index)", source: raw.location, diagnostics: problems))
    }
    let explicitID = fields[.id].flatMap { text($0, &problems) }.map { $0.text.trimmingSpaces }
    if explicitID?.isEmpty == true, let field = fields[.id] {
      problems.append(
        .error("id is empty: leave it out for the default '<file>#<n>' or give a name", at: field.location))
    }
    let id = explicitID.flatMap { $0.isEmpty ? nil : $0 } ?? "\(context.file)#\(raw.index)"

    var date: CalendarDate?
    if let field = fields[.date], let text = text(field, &problems) {
      date = CalendarDate(iso: text.text)
      if date == nil {
        let shape = text.text.utf8.count == 10 && text.text.split(separator: "-").count == 3
        problems.append(
          .error(
            shape
              ? "date '\(text.text)' is not a real calendar date"
              : "date '\(text.text)' is not an ISO date: expected YYYY-MM-DD such as 2026-11-20",
            at: text.location))
      }
    }
    let description = fields[.description].flatMap { text($0, &problems) }?.text
    let notes = fields[.notes].flatMap { text($0, &problems) }?.text

    // Currency first: amounts are read in its digits.
    var currency: Currency?
    var currencyKnown = true
    if let field = fields[.currency], let text = text(field, &problems) {
      currency = parseCurrency(text, &problems)
      currencyKnown = currency != nil
    } else {
      switch context.currency {
      case .value(let value): currency = value
      case .unset: currency = .usd
      case .invalid(let location):
        currencyKnown = false
        problems.append(
          .error("this bill takes its currency from defaults, which is invalid (\(location))", at: raw.location))
      }
    }

    var amount: Money?
    if let field = fields[.amount], case .text(let text) = field.value {
      if let currency { amount = parseMoney(text, currency: currency, field: "amount", &problems) }
    } else if let field = fields[.amount], case .absent = field.value {
      problems.append(.error("amount is empty: expected the bill before tip, such as 84.50", at: field.location))
    } else if let field = fields[.amount] {
      _ = text(field, &problems)
    } else if !raw.misspelt.contains("amount") {
      problems.append(.error("missing required key 'amount' (the bill before tip)", at: raw.location))
    }

    // Tip: exactly one of the bill's tip / tip_amount, else the defaults.
    var ownPercent: Percent?
    var askAdvisor = false
    var ownTipGiven = false
    if let field = fields[.tip], let text = text(field, &problems) {
      ownTipGiven = true
      switch parseTip(text, &problems) {
      case .percent(let percent): ownPercent = percent
      case .advisor: askAdvisor = true
      case nil: break
      }
    }
    var fixedTip: Money?
    if let field = fields[.tipAmount], let text = text(field, &problems) {
      if ownTipGiven {
        problems.append(
          .error(
            "tip and tip_amount are both given: a bill has exactly one of a percentage, a fixed tip, or 'ai'",
            at: field.keyLocation))
      }
      ownTipGiven = true
      if let currency { fixedTip = parseMoney(text, currency: currency, field: "tip_amount", &problems) }
    }
    var tip: TipChoice?
    var tipSource = TipSource.percent
    if let fixedTip {
      tip = .fixed(fixedTip)
      tipSource = .fixed
    } else if let ownPercent {
      tip = .percent(ownPercent)
    } else if askAdvisor {
      tip = .advisor
      tipSource = .advisor
    } else if !ownTipGiven {
      switch context.tip {
      case .value(.percent(let percent)):
        tip = .percent(percent)
        tipSource = .default
      case .value(.advisor):
        tip = .advisor
        tipSource = .advisor
      case .invalid(let location):
        problems.append(
          .error("this bill takes its tip from defaults, which is invalid (\(location))", at: raw.location))
      case .unset:
        problems.append(
          .error(
            "no tip for this bill: add 'tip: 18%' or 'tip_amount: 5.00', a 'tip' in the file's defaults, or --default-tip",
            at: raw.location))
      }
    }

    let diners = parseDiners(
      fields[.diners], context: context, billLocation: raw.location, reportMissing: !raw.misspelt.contains("diners"),
      &problems)
    var payer: String?
    if let field = fields[.paidBy], let text = text(field, &problems) {
      let name = names.normalized(text.text)
      if name.isEmpty {
        problems.append(.error("paid_by is empty: expected a name", at: text.location))
      } else {
        checkRoster(name, role: "paid_by", at: text.location, context: context, &problems)
        payer = name
      }
    }
    let leftover =
      choice(.leftover, LeftoverPolicy.self, fields, context.leftover, raw.location, &problems) ?? .balanced
    let rounding = choice(.rounding, RoundingMode.self, fields, context.rounding, raw.location, &problems) ?? .halfUp

    if leftover == .payer, let diners {
      if let payer {
        if diners.isAnonymous || !diners.list.contains(where: { $0.name == payer }) {
          problems.append(
            .error(SplitError.payerNotDiner(payer).description, at: fields[.paidBy]?.location ?? raw.location))
        }
      } else {
        problems.append(.error(SplitError.payerPolicyWithoutPayer.description, at: raw.location))
      }
    }

    guard problems.allSatisfy({ $0.severity != .error }), let amount, let tip, let diners, currencyKnown else {
      return .failure(InvalidBill(id: id, source: raw.location, diagnostics: problems))
    }
    let terms = BillTerms(
      amount: amount, tip: tip, diners: diners, payer: payer, leftover: leftover, rounding: rounding)
    // The advisor starts from the tip this bill would have had without 'ai': the file's or the
    // command line's default percentage.
    var defaultTip: Percent?
    if case .value(.percent(let percent)) = context.tip { defaultTip = percent }
    return .success(
      Bill(
        id: id, source: raw.location, date: date, description: description, notes: notes, terms: terms,
        tipSource: tipSource, defaultTip: defaultTip))
  }

  // MARK: - Fields

  /// A single-valued field's text; lists and mappings are reported.
  private func text(_ field: RawField, _ problems: inout [Diagnostic]) -> LocatedText? {
    switch field.value {
    case .text(let text): return text
    case .absent: return nil
    default:
      problems.append(
        .error("\(field.key) must be a single value, not \(Self.describe(field.value))", at: field.location))
      return nil
    }
  }

  private func parseCurrency(_ text: LocatedText, _ problems: inout [Diagnostic]) -> Currency? {
    do {
      return try Currency(code: text.text)
    } catch {
      var message = error.message(field: "currency")
      if let guess = Spelling.suggestion(for: text.text.uppercased(), among: Currency.allCodes) {
        message += "; did you mean '\(guess)'?"
      }
      problems.append(.error(message, at: text.location))
      return nil
    }
  }

  private func parseMoney(_ text: LocatedText, currency: Currency, field: String, _ problems: inout [Diagnostic])
    -> Money?
  {
    do {
      return try Money(parsing: text.text, currency: currency, decimalComma: options.decimalComma)
    } catch {
      problems.append(.error(error.message(field: field), at: text.location))
      return nil
    }
  }

  private func parseTip(_ text: LocatedText, _ problems: inout [Diagnostic]) -> DefaultTip? {
    if text.text.utf8.count == 2 && text.text.lowercased() == "ai" { return .advisor }
    do {
      return .percent(try Percent(parsing: text.text, decimalComma: options.decimalComma))
    } catch {
      problems.append(.error(error.message(field: "tip") + " (or 'ai' for advice)", at: text.location))
      return nil
    }
  }

  private func parseChoice<T: RawRepresentable & CaseIterable>(
    _ text: LocatedText, _ type: T.Type, _ key: String, _ problems: inout [Diagnostic]
  ) -> T? where T.RawValue == String {
    if let value = T(rawValue: text.text) { return value }
    let choices = T.allCases.map(\.rawValue)
    var message = "\(key) '\(text.text)' is not one of \(choices.joined(separator: ", "))"
    if let guess = Spelling.suggestion(for: text.text, among: choices) { message += "; did you mean '\(guess)'?" }
    problems.append(.error(message, at: text.location))
    return nil
  }

  private func choice<T: RawRepresentable & CaseIterable & Sendable>(
    _ key: BillKey, _ type: T.Type, _ fields: RawFields, _ fallback: Resolved<T>,
    _ billLocation: SourceLocation,
    _ problems: inout [Diagnostic]
  ) -> T? where T.RawValue == String {
    if let field = fields[key], let text = text(field, &problems) {
      return parseChoice(text, type, key.name, &problems)
    }
    switch fallback {
    case .value(let value): return value
    case .unset: return nil
    case .invalid(let location):
      problems.append(
        .error("this bill takes its \(key.name) from defaults, which is invalid (\(location))", at: billLocation))
      return nil
    }
  }

  private func parseDiners(
    _ field: RawField?, context: DocumentContext, billLocation: SourceLocation, reportMissing: Bool,
    _ problems: inout [Diagnostic]
  ) -> Diners? {
    guard let field, !field.value.isAbsent else {
      if let roster = context.roster, !roster.isEmpty {
        return .named(roster.map { Diner(name: $0) })
      }
      guard reportMissing else { return nil }
      problems.append(
        .error(
          "missing required key 'diners': a head count (3), a list of names, or name -> weight",
          at: field?.location ?? billLocation))
      return nil
    }
    var named: [(LocatedText, Weight)] = []
    let problemsBefore = problems.count
    switch field.value {
    case .text(let text):
      let trimmed = text.text.trimmingSpaces
      guard let count = Int(trimmed) else {
        problems.append(
          .error(
            "diners '\(text.text)' is not a head count: expected a whole number, a list of names, or name -> weight",
            at: text.location))
        return nil
      }
      guard count >= 1 else {
        problems.append(.error("diners is \(count): a bill needs at least one person to split it", at: text.location))
        return nil
      }
      guard count <= Diners.maximumCount else {
        problems.append(.error(SplitError.tooManyDiners(count).description, at: text.location))
        return nil
      }
      return .anonymous(count: count)
    case .list(let names):
      named = names.map { ($0, Weight.one) }
    case .pairs(let pairs):
      for (name, weightText) in pairs {
        do {
          let weight =
            weightText.text.isEmpty
            ? Weight.one
            : try Weight(
              parsing: options.decimalComma ? weightText.text.replacingOccurrences(of: ",", with: ".") : weightText.text
            )
          named.append((name, weight))
        } catch {
          problems.append(.error("\(error.description) (diner '\(name.text)')", at: weightText.location))
        }
      }
    case .absent, .nested:
      problems.append(
        .error(
          "diners must be a head count, a list of names, or name -> weight, not \(Self.describe(field.value))",
          at: field.location))
      return nil
    }
    guard !named.isEmpty else {
      if problems.count == problemsBefore {
        problems.append(.error("diners is empty: a bill needs at least one person to split it", at: field.location))
      }
      return nil
    }
    // Most tables are small: looking along the list beats hashing every name.
    let large = named.count > 16
    var seen: Set<String> = []
    var diners: [Diner] = []
    diners.reserveCapacity(named.count)
    for (located, weight) in named {
      let name = names.normalized(located.text)
      guard !name.isEmpty else {
        problems.append(.error("empty diner name", at: located.location))
        continue
      }
      // Names are in NFC here, so names of different byte lengths differ: that test is free, and
      // spares `==` its slow path for non-ASCII names.
      if large
        ? seen.contains(name) : diners.contains(where: { $0.name.utf8.count == name.utf8.count && $0.name == name })
      {
        // Only on this error path: where the name was first given.
        let first = named.first { names.normalized($0.0.text) == name }?.0.location ?? located.location
        problems.append(.error("diner '\(name)' is listed twice (first at \(first))", at: located.location))
        continue
      }
      if large { seen.insert(name) }
      checkRoster(name, role: "diner", at: located.location, context: context, &problems)
      diners.append(Diner(name: name, weight: weight))
    }
    return .named(diners)
  }

  private func checkRoster(
    _ name: String, role: String, at location: SourceLocation, context: DocumentContext, _ problems: inout [Diagnostic]
  ) {
    guard let roster = context.roster, !roster.contains(name) else { return }
    var message = "\(role) '\(name)' is not in people"
    if let guess = Spelling.suggestion(for: name, among: roster) {
      message += "; did you mean '\(guess)'?"
    } else {
      message += " (\(roster.joined(separator: ", ")))"
    }
    problems.append(.error(message, at: location))
  }

  /// Names compare and print in Unicode NFC, without surrounding spaces.
  static func normalizeName(_ name: String) -> String {
    asciiNormalized(name) ?? name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
  }

  /// ``normalizeName(_:)`` of an ASCII name (most of them), which is already NFC and only needs
  /// trimming, done without Foundation; `nil` for any other name.
  static func asciiNormalized(_ name: String) -> String? {
    name.utf8.allSatisfy({ $0 < 0x80 }) ? name.trimmingSpaces : nil
  }

  static func describe(_ value: RawValue) -> String {
    switch value {
    case .absent: return "nothing"
    case .text(let text): return "'\(text.text)'"
    case .list: return "a list"
    case .pairs: return "a mapping"
    case .nested(let description): return description
    }
  }
}

extension RawValue {
  var isAbsent: Bool {
    if case .absent = self { return true }
    return false
  }
}

/// A bill that could not be used, with every problem found in it.
public struct InvalidBill: Error, Sendable, Hashable {
  /// Creates an invalid bill.
  public init(id: String?, source: SourceLocation, diagnostics: [Diagnostic]) {
    self.id = id
    self.source = source
    self.diagnostics = diagnostics
  }

  /// Its id (explicit or default), when one could be determined.
  public var id: String?
  /// Where it starts.
  public var source: SourceLocation
  /// Its problems, errors first in file order.
  public var diagnostics: [Diagnostic]
}

/// Remembers the NFC form of names already seen (up to a bound, so memory stays flat).
final class NameCache: @unchecked Sendable {
  private var known: [String: String] = [:]
  private let lock = NSLock()

  func normalized(_ name: String) -> String {
    // ASCII names: nothing to remember.
    if let ascii = BillValidator.asciiNormalized(name) { return ascii }
    lock.lock()
    defer { lock.unlock() }
    if let found = known[name] { return found }
    let result = BillValidator.normalizeName(name)
    if known.count < 4_096 { known[name] = result }
    return result
  }
}
