import SplitBillCore

/// Reads bill files in YAML, streaming: one bill's node tree at a time.
///
/// A file is a mapping (`version`, `defaults`, `people`, `bills`, and `x-…` keys that are ignored
/// and can hold anchors) or a bare list of bills; several documents (`---`) are several files' worth.
/// `version`, `defaults` and `people` must come before `bills`, so that bills can be handed on as
/// they are read.
struct YAMLBillReader {
  let file: String
  let reader: YAMLEventReader
  /// Standard input's bytes when `file` is `-`, to locate reader errors.
  var standardInput: [UInt8]?
  /// Whether bills are copied flat when they can be (``YAMLFlatBill``), rather than all built
  /// into nodes here; tests turn it off to compare.
  var capturesFlatBills = true
  /// Where flat bills come back to be filled again.
  let recycler = FlatBillRecycler()
  private var builder: YAMLNodeBuilder
  private var billCount = 0
  private let fields: YAMLFields

  /// What the reader hands on: events, and bills still as nodes, so that turning them into fields
  /// can happen on the consumer's thread while this one parses on.
  enum Item: Sendable {
    case event(ReaderEvent)
    /// A bill with anchors, aliases or merge keys, or deeply nested, built here.
    case bill(YAMLNode, index: Int)
    /// Any other bill: its events, copied flat.
    case flat(YAMLFlatBill, index: Int)
  }

  init(file: String, reader: YAMLEventReader) {
    self.file = file
    self.reader = reader
    self.builder = YAMLNodeBuilder(reader: reader, file: file)
    self.fields = YAMLFields(file: file)
  }

  /// Reads the whole stream, calling `emit` for each document header, bill and failure.
  mutating func read(_ emit: (Item) -> Void) {
    do {
      while let (event, _, _) = try next() {
        guard event == .documentStart else { continue }  // stream start and end carry nothing
        builder.resetDocument()
        try readDocument(emit)
      }
    } catch {
      if case .syntax(let syntax) = error {
        var (line, column) = (syntax.line, syntax.column)
        if line < 0 {
          // libyaml's reader errors carry a byte offset instead of a mark.
          (line, column) = SourceLines.position(ofByteOffset: column, in: file, standardInput: standardInput)
        }
        emit(.event(.failure(.error(syntax.message, at: fields.location(max(line, 1), max(column, 1))))))
      }
    }
  }

  private mutating func next() throws(InputFailure) -> (YAMLEvent, Int, Int)? {
    do {
      return try reader.next()
    } catch {
      throw .syntax(error)
    }
  }

  private mutating func readDocument(_ emit: (Item) -> Void) throws(InputFailure) {
    var header = DocumentHeader(file: file)
    let (first, line, column) = try builder.pull()
    switch first {
    case .mappingStart:
      var headerSent = false
      var billsSeen = false
      while true {
        let (keyEvent, keyLine, keyColumn) = try builder.pull()
        if keyEvent == .mappingEnd { break }
        let keyNode = try builder.build(keyEvent, line: keyLine, column: keyColumn, depth: 1)
        let keyLocation = fields.location(keyLine, keyColumn)
        let key = keyNode.scalar ?? ""
        if key == "bills" {
          if billsSeen {
            header.problems.append(.error("duplicate key 'bills' in the file", at: keyLocation))
          }
          billsSeen = true
          if !headerSent {
            emit(.event(.document(header)))
            headerSent = true
          }
          try readBills(emit)
          continue
        }
        let value = try builder.build(try builder.pull(), depth: 1)
        switch key {
        case "version", "defaults", "people":
          if billsSeen {
            emit(
              .event(
                .failure(
                  .error(
                    "'\(key)' must come before 'bills' in the file, so bills can be read as they stream",
                    at: keyLocation))))
          } else if key == "version" {
            if header.version != nil {
              header.problems.append(.error("duplicate key 'version' in the file", at: keyLocation))
            }
            header.version = fields.field(key, keyLocation, value)
          } else if key == "people" {
            if header.roster != nil {
              header.problems.append(.error("duplicate key 'people' in the file", at: keyLocation))
            }
            header.roster = fields.field(key, keyLocation, value)
          } else {
            readDefaults(value, keyLocation: keyLocation, into: &header)
          }
        case _ where key.hasPrefix("x-"):
          continue
        default:
          var message = "unknown key '\(key)' at the top of the file"
          let known = ["version", "defaults", "people", "bills"]
          if let guess = Spelling.suggestion(for: key, among: known) {
            message += "; did you mean '\(guess)'?"
          } else {
            message += ": expected version, defaults, people or bills (or an x- key for anchors)"
          }
          header.problems.append(.error(message, at: keyLocation))
        }
      }
      if !headerSent { emit(.event(.document(header))) }
    case .sequenceStart:
      emit(.event(.document(header)))
      try readBillItems(emit)
    case .scalar(let text, _, let plain) where plain && ["", "~", "null"].contains(text):
      emit(.event(.document(header)))
    default:
      let node = try builder.build(first, line: line, column: column)
      header.problems.append(
        .error(
          "expected a mapping with 'bills' or a list of bills, found \(node.shapeDescription)",
          at: fields.location(line, column)))
      emit(.event(.document(header)))
    }
    let (end, _, _) = try builder.pull()
    if end != .documentEnd { throw .at(line, column, "unexpected content after the document") }
  }

  private mutating func readBills(_ emit: (Item) -> Void) throws(InputFailure) {
    let (event, line, column) = try builder.pull()
    switch event {
    case .sequenceStart:
      try readBillItems(emit)
    case .scalar(let text, _, true) where ["", "~", "null"].contains(text):
      return
    default:
      let node = try builder.build(event, line: line, column: column, depth: 1)
      emit(
        .event(
          .failure(
            .error("'bills' must be a list of bills, found \(node.shapeDescription)", at: fields.location(line, column))
          )))
    }
  }

  private mutating func readBillItems(_ emit: (Item) -> Void) throws(InputFailure) {
    while true {
      var flat = capturesFlatBills ? recycler.take() : YAMLFlatBill(room: false)
      let captured: YAMLEventReader.Capture
      if capturesFlatBills {
        do {
          captured = try reader.capture(into: &flat)
        } catch {
          throw .syntax(error)
        }
      } else {
        // Nothing copied: the bill is built from its first event on.
        let (event, line, column) = try builder.pull()
        captured = .stopped(event, line: line, column: column)
      }
      switch captured {
      case .complete:
        billCount += 1
        emit(.flat(flat, index: billCount))
      case .stopped(let event, let line, let column):
        if flat.events.isEmpty && event == .sequenceEnd { return }
        let node =
          flat.events.isEmpty
          ? try builder.build(event, line: line, column: column, depth: 2)
          : try builder.build(flat: flat, then: (event, line, column), depth: 2)
        billCount += 1
        emit(.bill(node, index: billCount))
      }
    }
  }

  private func readDefaults(_ node: YAMLNode, keyLocation: SourceLocation, into header: inout DocumentHeader) {
    if node.isNull { return }
    guard case .mapping(let pairs) = node.kind else {
      header.problems.append(
        .error(
          "'defaults' must be a mapping such as {currency: EUR, tip: 18%}, found \(node.shapeDescription)",
          at: fields.location(node.line, node.column)))
      return
    }
    var collector = FieldCollector(fields: header.defaults)
    for (key, value) in pairs {
      collector.add(
        fields.field(key.scalar ?? key.shapeDescription, fields.location(key.line, key.column), value),
        allowed: BillField.defaultKeys, what: "defaults")
    }
    header.defaults = collector.fields
    header.problems += collector.problems
  }
}

/// Turns YAML nodes into located fields and raw bills.
struct YAMLFields: Sendable {
  let file: SourceFile

  init(file: String) { self.file = SourceFile(file) }

  func location(_ line: Int, _ column: Int) -> SourceLocation {
    SourceLocation(in: file, line: line, column: column)
  }

  /// The bill copied flat in `flat`, the `index`th of its file.
  func bill(from flat: YAMLFlatBill, index: Int) -> RawBill {
    // A flat bill has no aliases, no merge keys and little depth: nothing to refuse.
    var builder = YAMLNodeBuilder(reader: nil, file: file.path)
    do {
      return bill(from: try builder.build(flat: flat, then: nil, depth: 2), index: index)
    } catch {
      switch error {
      case .syntax(let failure):
        let start = location(max(failure.line, 1), max(failure.column, 1))
        return RawBill(
          location: start, index: index, fields: [:], problems: [.error(failure.message, at: start)], unreadable: true)
      }
    }
  }

  /// The bill `node`, the `index`th of its file.
  func bill(from node: YAMLNode, index: Int) -> RawBill {
    let start = location(node.line, node.column)
    guard case .mapping(let pairs) = node.kind else {
      let problem = Diagnostic.error(
        "a bill must be a mapping with keys such as amount, tip and diners, found \(node.shapeDescription)", at: start)
      return RawBill(location: start, index: index, fields: [:], problems: [problem], unreadable: true)
    }
    var collector = FieldCollector()
    for (key, value) in pairs {
      let keyLocation = location(key.line, key.column)
      guard let name = key.scalar else {
        collector.problems.append(.error("a key must be a plain name, found \(key.shapeDescription)", at: keyLocation))
        continue
      }
      collector.add(field(name, keyLocation, value), allowed: BillField.billKeys, what: "bill")
    }
    return RawBill(
      location: start, index: index, fields: collector.fields, problems: collector.problems,
      misspelt: collector.misspelt)
  }

  func field(_ key: String, _ keyLocation: SourceLocation, _ node: YAMLNode) -> RawField {
    RawField(
      key: key, keyLocation: keyLocation, value: value(of: node),
      location: node.isNull ? keyLocation : location(node.line, node.column))
  }

  private func value(of node: YAMLNode) -> RawValue {
    if node.isNull { return .absent }
    switch node.kind {
    case .scalar(let text, _):
      return .text(LocatedText(text: text, location: location(node.line, node.column)))
    case .sequence(let items):
      var texts: [LocatedText] = []
      texts.reserveCapacity(items.count)
      for item in items {
        guard let text = item.scalar else { return .nested("a list containing \(item.shapeDescription)") }
        texts.append(LocatedText(text: text, location: location(item.line, item.column)))
      }
      return .list(texts)
    case .mapping(let pairs):
      var result: [(LocatedText, LocatedText)] = []
      result.reserveCapacity(pairs.count)
      for (key, value) in pairs {
        guard let name = key.scalar, let text = value.scalar else {
          return .nested("a mapping containing \(value.scalar == nil ? value.shapeDescription : key.shapeDescription)")
        }
        result.append(
          (
            LocatedText(text: name, location: location(key.line, key.column)),
            LocatedText(text: value.isNull ? "" : text, location: location(value.line, value.column))
          ))
      }
      return .pairs(result)
    }
  }
}

extension YAMLNodeBuilder {
  /// Builds the node whose first event was just pulled.
  mutating func build(_ pulled: (YAMLEvent, Int, Int), depth: Int) throws(InputFailure) -> YAMLNode {
    try build(pulled.0, line: pulled.1, column: pulled.2, depth: depth)
  }
}
