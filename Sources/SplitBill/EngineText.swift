/// An option of the engine's requests (``CalcRequest``, ``ReportOptions``, ``ExportOptions``) as a message names it. The raw value is the property's name, which is how a
/// program sees it; the command line words it as its flag (`tipAmount` is `--tip-amount`).
public enum EngineOption: String, Sendable, Hashable, CaseIterable {
  // A bill worked out (`CalcRequest`).
  case amount, currency, tip, tipAmount, split, people, decimalComma, items
  case discount, discountItems, service, tax, taxIncluded, tipOn, receiptTotal
  // The report and the balances (`ReportOptions`).
  case rateFiles, settleIn, cashRounding, booksOf, journalLayout, recordSettlementsTo, allowEmpty, plan, keepOut
  // What the report writes (`ReportOptions.outputs`).
  case outputs
}

/// A message of the engine that may name its options: written as an interpolated string
/// (`"\(.rateFiles) is for \(.settleIn)"`) and worded by whoever shows it. ``description`` names
/// the options as a program sees them (`rateFiles`); ``worded(_:)`` as the caller chooses (the
/// command line's `--rates`). Placeholders such as `PERCENT` after an option are for the command
/// line's usage and left out of ``description``.
public struct EngineText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
  /// A run of text, an option, or a placeholder for an option's value.
  public enum Piece: Sendable, Hashable {
    case text(String)
    case option(EngineOption)
    case placeholder(String)
  }

  /// The message, piece by piece.
  public var pieces: [Piece]

  /// The message with each option as `name` words it, placeholders after a space.
  public func worded(_ name: (EngineOption) -> String) -> String {
    pieces.map { piece in
      switch piece {
      case .text(let text): text
      case .option(let option): name(option)
      case .placeholder(let text): " " + text
      }
    }.joined()
  }

  /// The message with each option named as a program sees it, without placeholders.
  public var description: String {
    pieces.map { piece in
      switch piece {
      case .text(let text): text
      case .option(let option): option.rawValue
      case .placeholder: ""
      }
    }.joined()
  }

  /// A message that names no option.
  public init(verbatim text: String) { pieces = [.text(text)] }

  public init(stringLiteral value: String) { pieces = [.text(value)] }

  public init(stringInterpolation: StringInterpolation) { pieces = stringInterpolation.pieces }

  /// The message `make` words for a value's name, with `option` as the name.
  static func naming(_ option: EngineOption, _ make: (String) -> String) -> EngineText {
    let marker = "\u{FFFF}option\u{FFFF}"
    var text = EngineText(pieces: [])
    for (index, part) in make(marker).split(separator: marker, omittingEmptySubsequences: false).enumerated() {
      if index > 0 { text.pieces.append(.option(option)) }
      if !part.isEmpty { text.pieces.append(.text(String(part))) }
    }
    return text
  }

  private init(pieces: [Piece]) { self.pieces = pieces }

  /// `text` followed by this message.
  func prefixed(_ text: EngineText) -> EngineText {
    var joined = text
    joined.pieces += pieces
    return joined
  }

  /// Builds the pieces of an interpolated message.
  public struct StringInterpolation: StringInterpolationProtocol {
    var pieces: [Piece] = []

    public init(literalCapacity: Int, interpolationCount: Int) {}

    public mutating func appendLiteral(_ literal: String) { appendText(literal) }

    /// An option, named as the reader of the message knows it.
    public mutating func appendInterpolation(_ option: EngineOption) { pieces.append(.option(option)) }

    /// An option and a placeholder for its value (`--tip PERCENT` on the command line).
    public mutating func appendInterpolation(_ option: EngineOption, placeholder: String) {
      pieces.append(.option(option))
      pieces.append(.placeholder(placeholder))
    }

    /// Another message, its options kept.
    public mutating func appendInterpolation(_ text: EngineText) { pieces += text.pieces }

    /// A value as text (`String(describing:)`).
    public mutating func appendInterpolation<Value>(_ value: Value) { appendText(String(describing: value)) }

    private mutating func appendText(_ text: String) {
      guard !text.isEmpty else { return }
      if case .text(let last)? = pieces.last {
        pieces[pieces.count - 1] = .text(last + text)
      } else {
        pieces.append(.text(text))
      }
    }
  }
}
