import SplitBillCore
import SplitBillModel

/// A YAML bill's events, copied flat: kinds and positions in one array, scalars' bytes one after
/// the other in another. The one form in which a YAML bill reaches the rules (``YAMLBillFields``).
///
/// Most bills are copied straight from libyaml's events on the parsing thread, which then has
/// nothing else to do (``YAMLEventReader/capture(into:)``): bills of at most ``maximumDepth``
/// levels and ``maximumEvents`` events, without anchors, aliases and merge keys. The others are
/// built into nodes there, where the document's anchors are known, and made flat again
/// (``init(flattening:)``). Strings and the rules come on the validating thread.
///
/// Public as the SPI `Readers`, with what the rules read at every key `@inlinable`: a `package`
/// declaration is not inlined into another module, and the readers walk the events in Input.
@_spi(Readers) public struct YAMLFlatBill: Sendable {
  /// Levels of nesting taken flat (a bill, its diners, their weights, one more).
  package static let maximumDepth = 4
  /// Events taken flat.
  package static let maximumEvents = 512

  public enum Kind: UInt8, Sendable {
    case scalar, plainScalar, sequenceStart, sequenceEnd, mappingStart, mappingEnd
  }

  public struct Event: Sendable {
    public var kind: Kind
    public var line: Int32
    public var column: Int32
    /// Where this scalar's text ends in ``YAMLFlatBill/text`` (it starts where the previous
    /// event's ends); for other events, where the text so far ends.
    public var end: Int32

    package init(kind: Kind, line: Int32, column: Int32, end: Int32) {
      (self.kind, self.line, self.column, self.end) = (kind, line, column, end)
    }
  }

  public var events: [Event]
  public var text: [UInt8]

  /// An empty bill; with `room`, room for a typical one (growing an array reallocates it).
  package init(room: Bool = true) {
    events = []
    text = []
    guard room else { return }
    events.reserveCapacity(32)
    text.reserveCapacity(256)
  }

  /// The text of the scalar at `position`.
  @inlinable public func text(at position: Int) -> ArraySlice<UInt8> { text[textRange(at: position)] }

  /// Where the text of the scalar at `position` lies in ``text``: from where the event before
  /// it ends.
  @inlinable public func textRange(at position: Int) -> Range<Int> {
    (position == 0 ? 0 : Int(events[position - 1].end))..<Int(events[position].end)
  }

  /// Whether the scalar at `position` is a YAML null (``YAMLEvent/isNull(_:)``), plain.
  public func isNull(at position: Int) -> Bool {
    events[position].kind == .plainScalar && YAMLEvent.isNull(text(at: position))
  }

  /// The position just past the node that starts at `position`.
  @inlinable public func end(ofNodeAt position: Int) -> Int {
    var depth = 0
    var position = position
    repeat {
      switch events[position].kind {
      case .sequenceStart, .mappingStart: depth += 1
      case .sequenceEnd, .mappingEnd: depth -= 1
      case .scalar, .plainScalar: break
      }
      position += 1
    } while depth > 0 && position < events.count
    return position
  }

  /// Most text a bill may expand to through aliases when it is made flat (``init(flattening:)``).
  package static let maximumFlattenedText = 256 << 20

  /// The events of `node`, a bill built with its anchors, aliases and merge keys resolved; `nil`
  /// when its text comes to more than ``maximumFlattenedText`` bytes (aliases of long scalars).
  package init?(flattening node: YAMLNode) {
    self.init(room: false)
    guard append(node) else { return nil }
  }

  private mutating func append(_ node: YAMLNode) -> Bool {
    let line = Int32(clamping: node.line)
    let column = Int32(clamping: node.column)
    switch node.kind {
    case .scalar(let value, let plain):
      guard text.count + value.utf8.count <= Self.maximumFlattenedText else { return false }
      text.append(contentsOf: value.utf8)
      events.append(Event(kind: plain ? .plainScalar : .scalar, line: line, column: column, end: Int32(text.count)))
    case .sequence(let items):
      events.append(Event(kind: .sequenceStart, line: line, column: column, end: Int32(text.count)))
      for item in items {
        guard append(item) else { return false }
      }
      events.append(Event(kind: .sequenceEnd, line: line, column: column, end: Int32(text.count)))
    case .mapping(let pairs):
      events.append(Event(kind: .mappingStart, line: line, column: column, end: Int32(text.count)))
      for (key, value) in pairs {
        guard append(key), append(value) else { return false }
      }
      events.append(Event(kind: .mappingEnd, line: line, column: column, end: Int32(text.count)))
    }
    return true
  }

  /// The events as the node builder takes them.
  package var yamlEvents: [(YAMLEvent, line: Int, column: Int)] {
    events.indices.map { position in
      let event = events[position]
      let converted: YAMLEvent
      switch event.kind {
      case .scalar, .plainScalar:
        converted = .scalar(
          value: String(decoding: text(at: position), as: UTF8.self), anchor: nil, plain: event.kind == .plainScalar)
      case .sequenceStart: converted = .sequenceStart(anchor: nil)
      case .sequenceEnd: converted = .sequenceEnd
      case .mappingStart: converted = .mappingStart(anchor: nil)
      case .mappingEnd: converted = .mappingEnd
      }
      return (converted, Int(event.line), Int(event.column))
    }
  }
}

/// Flat bills the validating thread is done with, for the parsing thread to fill again: memory
/// allocated on one thread and freed on another costs both threads a lock in glibc's allocator,
/// and the parsing thread is the one every YAML run waits for.
package final class FlatBillRecycler: Sendable {
  private let spare = Locked<[YAMLFlatBill]>([])
  /// Bills kept (about what the hand-over between the threads holds).
  private static let limit = 2_048

  /// A recycler with no bills kept yet.
  package init() {}

  /// An empty flat bill: one handed back, else a new one.
  package func take() -> YAMLFlatBill {
    guard var bill = spare.withLock({ $0.popLast() }) else { return YAMLFlatBill() }
    bill.events.removeAll(keepingCapacity: true)
    bill.text.removeAll(keepingCapacity: true)
    return bill
  }

  /// Hands `bill` back.
  package func recycle(_ bill: YAMLFlatBill) {
    spare.withLock { if $0.count < Self.limit { $0.append(bill) } }
  }
}
