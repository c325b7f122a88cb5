import SplitBillCore
import SplitBillModel

/// A small YAML node tree: one bill, the defaults or the roster, never the whole file.
package struct YAMLNode: Sendable {
  package enum Kind: Sendable {
    /// `plain` when unquoted: only plain scalars can be null or the merge key `<<`.
    case scalar(String, plain: Bool)
    case sequence([YAMLNode])
    case mapping([(key: YAMLNode, value: YAMLNode)])
  }

  package var kind: Kind
  package var line: Int
  package var column: Int
  /// Nodes in this subtree, aliases expanded (saturating); bounds alias expansion.
  package var size: Int

  /// Whether this is a YAML null: a plain scalar ``YAMLEvent/isNull(_:)`` says is one.
  package var isNull: Bool {
    guard case .scalar(let text, plain: true) = kind else { return false }
    return YAMLEvent.isNull(text.utf8)
  }

  /// The scalar's text, or `nil` for collections.
  package var scalar: String? {
    if case .scalar(let text, _) = kind { return text }
    return nil
  }

  /// What kind of thing this is, for messages ("a list", "a mapping", "'abc'").
  package var shapeDescription: String {
    switch kind {
    case .scalar(let text, _): return "'\(text)'"
    case .sequence: return "a list"
    case .mapping: return "a mapping"
    }
  }
}

/// Builds `YAMLNode`s from events, resolving anchors, aliases and merge keys within a document.
///
/// Alias expansion is bounded: the file may reach at most `expansionLimit` nodes through aliases
/// (in all its documents: anchors are per document, the bound is not), so a "billion laughs" file
/// is an error instead of exponential work.
package struct YAMLNodeBuilder {
  /// Nodes a run may reach through aliases before its inputs' bytes add to it.
  package static let baseExpansionLimit = 100_000
  /// Nodes this file may reach through aliases.
  package let expansionLimit: Int
  /// Nesting depth beyond which a document is refused.
  package static let depthLimit = 64

  /// Where events come from; `nil` for a builder of flat bills only.
  package let reader: YAMLEventReader?
  package let file: String
  private var anchors: [String: YAMLNode] = [:]
  /// Nodes reached through aliases so far.
  package private(set) var expanded = 0
  /// Events handed out before the reader's: a bill taken flat, then the event that stopped it.
  private var replay: [(YAMLEvent, line: Int, column: Int)] = []
  private var replayed = 0

  package init(reader: YAMLEventReader?, file: String, expansionLimit: Int = YAMLNodeBuilder.baseExpansionLimit) {
    self.reader = reader
    self.file = file
    self.expansionLimit = expansionLimit
  }

  /// Forgets anchors at a document boundary (YAML anchors are per document; what aliases
  /// expanded to still counts).
  package mutating func resetDocument() {
    anchors = [:]
  }

  /// Remembers a node built by someone else under `anchor`.
  package mutating func register(_ node: YAMLNode, anchor: String?) {
    if let anchor { anchors[anchor] = node }
  }

  /// Builds the node that starts with `event`, pulling the rest of its events.
  package mutating func build(_ event: YAMLEvent, line: Int, column: Int, depth: Int = 0) throws(InputFailure)
    -> YAMLNode
  {
    guard depth < Self.depthLimit else {
      throw .at(line, column, .tooDeep(limit: Self.depthLimit))
    }
    switch event {
    case .scalar(let value, let anchor, let plain):
      let node = YAMLNode(kind: .scalar(value, plain: plain), line: line, column: column, size: 1)
      register(node, anchor: anchor)
      return node
    case .alias(let anchor):
      guard let node = anchors[anchor] else {
        throw .at(line, column, .unknownAlias(anchor))
      }
      expanded += node.size
      if expanded > expansionLimit {
        throw .at(line, column, .aliasesExpandTooFar(limit: expansionLimit))
      }
      var copy = node
      copy.line = line
      copy.column = column
      return copy
    case .sequenceStart(let anchor):
      // Room for a typical list up front: growing one element at a time reallocates three times.
      var items: [YAMLNode] = []
      items.reserveCapacity(8)
      var size = 1
      while true {
        let (next, nextLine, nextColumn) = try pull()
        if next == .sequenceEnd { break }
        let item = try build(next, line: nextLine, column: nextColumn, depth: depth + 1)
        size = Self.add(size, item.size)
        items.append(item)
      }
      let node = YAMLNode(kind: .sequence(items), line: line, column: column, size: size)
      register(node, anchor: anchor)
      return node
    case .mappingStart(let anchor):
      // Room for a bill's keys up front (a bill has up to 12): growing reallocates four times.
      var pairs: [(key: YAMLNode, value: YAMLNode)] = []
      pairs.reserveCapacity(12)
      var merged: [(key: YAMLNode, value: YAMLNode)] = []
      var size = 1
      while true {
        let (next, keyLine, keyColumn) = try pull()
        if next == .mappingEnd { break }
        let key = try build(next, line: keyLine, column: keyColumn, depth: depth + 1)
        let (valueEvent, valueLine, valueColumn) = try pull()
        let value = try build(valueEvent, line: valueLine, column: valueColumn, depth: depth + 1)
        size = Self.add(size, Self.add(key.size, value.size))
        if case .scalar("<<", plain: true) = key.kind {
          merged += try Self.mergePairs(value, file: file)
        } else {
          pairs.append((key, value))
        }
      }
      // Explicit keys win over merged ones; earlier merges win over later ones.
      if !merged.isEmpty {
        var present = Set(pairs.compactMap(\.key.scalar))
        for pair in merged where !present.contains(pair.key.scalar ?? "") {
          present.insert(pair.key.scalar ?? "")
          pairs.append(pair)
        }
      }
      let node = YAMLNode(kind: .mapping(pairs), line: line, column: column, size: size)
      register(node, anchor: anchor)
      return node
    default:
      throw .at(line, column, .unexpectedStructure)
    }
  }

  /// Builds the node whose first events are `flat`'s, followed by `next` (the event that stopped
  /// the flat copy) and the rest of the reader's.
  package mutating func build(flat: YAMLFlatBill, then next: (YAMLEvent, Int, Int)?, depth: Int) throws(InputFailure)
    -> YAMLNode
  {
    replay = flat.yamlEvents
    if let next { replay.append(next) }
    replayed = 0
    let (first, line, column) = try pull()
    return try build(first, line: line, column: column, depth: depth)
  }

  /// A stream of one document: its root node, or `nil` for an empty stream; a second document is
  /// ``Problem/contentAfterDocument``.
  package mutating func documentRoot() throws(InputFailure) -> YAMLNode? {
    var root: YAMLNode?
    while true {
      let pulled: (YAMLEvent, line: Int, column: Int)?
      do {
        pulled = try reader?.next()
      } catch {
        throw .syntax(error)
      }
      guard let (event, line, column) = pulled else { return root }
      switch event {
      case .streamStart, .documentStart, .documentEnd, .streamEnd: continue
      default:
        guard root == nil else { throw InputFailure.at(line, column, .contentAfterDocument) }
        root = try build(event, line: line, column: column)
      }
    }
  }

  /// The next event; the end of the stream inside a node is an error.
  package mutating func pull() throws(InputFailure) -> (YAMLEvent, Int, Int) {
    if replayed < replay.count {
      defer {
        replayed += 1
        if replayed == replay.count { replay.removeAll(keepingCapacity: true) }
      }
      return replay[replayed]
    }
    replayed = 0
    let pulled: (YAMLEvent, line: Int, column: Int)?
    do {
      pulled = try reader?.next()
    } catch {
      throw .syntax(error)
    }
    guard let (event, line, column) = pulled else {
      throw .syntax(YAMLSyntaxError(problem: .unexpectedEnd, position: .unknown))
    }
    return (event, line, column)
  }

  private static func mergePairs(_ value: YAMLNode, file: String) throws(InputFailure) -> [(
    key: YAMLNode, value: YAMLNode
  )] {
    switch value.kind {
    case .mapping(let pairs): return pairs
    case .sequence(let items):
      var result: [(key: YAMLNode, value: YAMLNode)] = []
      for item in items {
        guard case .mapping(let pairs) = item.kind else {
          throw .at(item.line, item.column, .mergeKeyValue(shape: nil))
        }
        result += pairs
      }
      return result
    case .scalar:
      throw .at(value.line, value.column, .mergeKeyValue(shape: value.shapeDescription))
    }
  }

  private static func add(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
  }
}

/// A problem that stops reading the rest of a file (syntax errors, runaway aliases).
package enum InputFailure: Error {
  case syntax(YAMLSyntaxError)

  package static func at(_ line: Int, _ column: Int, _ problem: Problem) -> InputFailure {
    .syntax(YAMLSyntaxError(problem: problem, position: .mark(line: line, column: column)))
  }
}
