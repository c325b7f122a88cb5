import SplitBillCore
import SplitBillFiles
@_spi(Readers) import SplitBillModel
import SplitBillRates
import SplitBillText
@_spi(Readers) import SplitBillYAML

/// Reads bill files in YAML, streaming: each bill is handed on as its events (``YAMLFlatBill``).
///
/// A file is a mapping (`version`, `defaults`, `people`, `bills`, `payments`, and `x-…` keys that
/// are ignored and can hold anchors) or a bare list of bills; several documents (`---`) are several
/// files' worth. `version`, `defaults` and `people` must come before `bills` and `payments`, so
/// that records can be handed on as they are read.
struct YAMLBillReader {
  let file: String
  let reader: YAMLEventReader
  /// Standard input's bytes when `file` is `-`, to locate reader errors.
  var standardInput: StandardInputCopy?
  /// Where flat bills come back to be filled again.
  let recycler = FlatBillRecycler()
  private var builder: YAMLNodeBuilder
  private var billCount = 0
  private var paymentCount = 0
  private let sourceFile: SourceFile

  /// What the reader hands on: headers and failures, and each bill as its events, to be read
  /// through the rules on the consumer's thread while this one parses on.
  enum Item: Sendable {
    case event(ReaderEvent)
    /// A bill, the `index`-th of its file: its events as libyaml gave them, or (a bill with
    /// anchors, aliases or merge keys, or deeply nested) as built here and made flat again.
    case bill(YAMLFlatBill, index: Int)
  }

  /// Reads `file` through `reader`; its aliases may reach at most `expansionLimit` nodes.
  init(file: String, reader: YAMLEventReader, expansionLimit: Int = YAMLNodeBuilder.baseExpansionLimit) {
    self.file = file
    self.reader = reader
    self.builder = YAMLNodeBuilder(reader: reader, file: file, expansionLimit: expansionLimit)
    self.sourceFile = SourceFile(file)
  }

  /// Nodes the file's aliases reached.
  var aliasNodes: Int { builder.expanded }

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
        let (line, column) = syntax.position(in: file, standardInput: standardInput)
        emit(.event(.failure(.error(syntax.problem, at: location(line, column)))))
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
      var paymentsSeen = false
      var ratesSeen = false
      while true {
        let (keyEvent, keyLine, keyColumn) = try builder.pull()
        if keyEvent == .mappingEnd { break }
        let keyNode = try builder.build(keyEvent, line: keyLine, column: keyColumn, depth: 1)
        let keyLocation = location(keyLine, keyColumn)
        let key = keyNode.scalar ?? ""
        if key == "bills" {
          if billsSeen {
            header.problems.append(.error(.repeatedTopKey("bills"), at: keyLocation))
          }
          billsSeen = true
          if !headerSent {
            emit(.event(.document(header)))
            headerSent = true
          }
          try readBills(emit)
          continue
        }
        if key == "payments" {
          if paymentsSeen {
            header.problems.append(.error(.repeatedTopKey("payments"), at: keyLocation))
          }
          paymentsSeen = true
          if !headerSent {
            emit(.event(.document(header)))
            headerSent = true
          }
          try readPayments(emit)
          continue
        }
        let value = try builder.build(try builder.pull(), depth: 1)
        switch key {
        case "title":
          // What the reports are headed with: one line of text.
          if header.title != nil { header.problems.append(.error(.repeatedTopKey("title"), at: keyLocation)) }
          if case .scalar(let text, _) = value.kind, !value.isNull {
            header.title = text
          } else if !value.isNull {
            header.problems.append(
              .error(.notSingleValue(key: "title", shape: value.shapeDescription), at: keyLocation))
          }
        case "version", "defaults", "people", "rates":
          if billsSeen || paymentsSeen {
            emit(
              .event(
                .failure(
                  .error(.headerAfterBills(key), at: keyLocation))))
          } else if key == "version" {
            if header.version != nil {
              header.problems.append(.error(.repeatedTopKey("version"), at: keyLocation))
            }
            header.version = headerValue(value, keyLocation: keyLocation)
          } else if key == "rates" {
            if ratesSeen { header.problems.append(.error(.repeatedTopKey("rates"), at: keyLocation)) }
            ratesSeen = true
            let (rates, problems) = RateReader.rates(of: value, in: sourceFile, source: file)
            header.rates = rates
            header.problems += problems
          } else if key == "people" {
            if header.roster != nil {
              header.problems.append(.error(.repeatedTopKey("people"), at: keyLocation))
            }
            header.roster = rosterValue(value, keyLocation: keyLocation, into: &header)
          } else {
            readDefaults(value, keyLocation: keyLocation, into: &header)
          }
        case _ where key.hasPrefix("x-"):
          continue
        default:
          let known = ["version", "title", "defaults", "people", "rates", "bills", "payments"]
          let guess = Spelling.suggestion(for: key, among: known)
          header.problems.append(.error(.unknownTopKey(key, guess: guess), at: keyLocation))
        }
      }
      if !headerSent { emit(.event(.document(header))) }
    case .sequenceStart:
      emit(.event(.document(header)))
      try readBillItems(emit)
    case .scalar where first.isNull:
      emit(.event(.document(header)))
    default:
      let node = try builder.build(first, line: line, column: column)
      header.problems.append(
        .error(.documentShape(node.shapeDescription), at: location(line, column)))
      emit(.event(.document(header)))
    }
    let (end, _, _) = try builder.pull()
    if end != .documentEnd { throw .at(line, column, .contentAfterDocument) }
  }

  private mutating func readBills(_ emit: (Item) -> Void) throws(InputFailure) {
    let (event, line, column) = try builder.pull()
    switch event {
    case .sequenceStart:
      try readBillItems(emit)
    case .scalar where event.isNull:
      return
    default:
      let node = try builder.build(event, line: line, column: column, depth: 1)
      emit(
        .event(
          .failure(
            .error(.billsShape(node.shapeDescription), at: location(line, column))
          )))
    }
  }

  private mutating func readPayments(_ emit: (Item) -> Void) throws(InputFailure) {
    let (event, line, column) = try builder.pull()
    switch event {
    case .sequenceStart:
      while true {
        let (item, itemLine, itemColumn) = try builder.pull()
        if item == .sequenceEnd { return }
        let node = try builder.build(item, line: itemLine, column: itemColumn, depth: 2)
        paymentCount += 1
        emit(.event(.payment(record(node, index: paymentCount))))
      }
    case .scalar where event.isNull:
      return
    default:
      let node = try builder.build(event, line: line, column: column, depth: 1)
      emit(.event(.failure(.error(.paymentsShape(node.shapeDescription), at: location(line, column)))))
    }
  }

  /// A payment's node as the payment rules take it.
  private func record(_ node: YAMLNode, index: Int) -> RawRecord {
    let start = location(node.line, node.column)
    guard case .mapping(let pairs) = node.kind else {
      return RawRecord(
        index: index, start: start, entries: [], problem: .error(.paymentShape(node.shapeDescription), at: start))
    }
    var entries: [RawRecord.Entry] = []
    for (key, value) in pairs {
      let keyLocation = location(key.line, key.column)
      guard let name = key.scalar else {
        return RawRecord(
          index: index, start: start, entries: [], problem: .error(.keyShape(key.shapeDescription), at: keyLocation))
      }
      let shown: RawRecord.Entry.Value
      if value.isNull {
        shown = .null
      } else if let text = value.scalar {
        shown = .text(text)
      } else {
        shown = .other(value.shapeDescription)
      }
      entries.append(
        RawRecord.Entry(
          key: name, keyLocation: keyLocation, value: shown,
          valueLocation: value.isNull ? keyLocation : location(value.line, value.column)))
    }
    return RawRecord(index: index, start: start, entries: entries, problem: nil)
  }

  private mutating func readBillItems(_ emit: (Item) -> Void) throws(InputFailure) {
    while true {
      var flat = recycler.take()
      let captured: YAMLEventReader.Capture
      do {
        captured = try reader.capture(into: &flat)
      } catch {
        throw .syntax(error)
      }
      switch captured {
      case .complete:
        billCount += 1
        emit(.bill(flat, index: billCount))
      case .stopped(let event, let line, let column):
        if flat.events.isEmpty && event == .sequenceEnd { return }
        let node =
          flat.events.isEmpty
          ? try builder.build(event, line: line, column: column, depth: 2)
          : try builder.build(flat: flat, then: (event, line, column), depth: 2)
        billCount += 1
        guard let built = YAMLFlatBill(flattening: node) else {
          throw .at(node.line, node.column, .billExpandsTooFar(mebibytes: YAMLFlatBill.maximumFlattenedText >> 20))
        }
        emit(.bill(built, index: billCount))
      }
    }
  }

  private func readDefaults(_ node: YAMLNode, keyLocation: SourceLocation, into header: inout DocumentHeader) {
    if node.isNull { return }
    guard case .mapping(let pairs) = node.kind else {
      header.problems.append(
        .error(.defaultsShape(node.shapeDescription), at: location(node.line, node.column)))
      return
    }
    for (keyNode, value) in pairs {
      let name = keyNode.scalar ?? keyNode.shapeDescription
      let keyLocation = location(keyNode.line, keyNode.column)
      if name == "cash_rounding" {
        header.cashRounding = cashRounding(value)
        continue
      }
      if name == "whole_units" {
        header.wholeUnits = headerValue(value, keyLocation: keyLocation)
        continue
      }
      guard let key = BillKey(name: name), BillField.defaultKeys.contains(name) else {
        header.problems.append(
          BillRules.unknownKey(
            name, allowed: BillField.defaultKeys + ["cash_rounding", "whole_units"], place: "defaults", at: keyLocation
          ).0)
        continue
      }
      if let first = header.defaults.keyLocation(key) {
        header.problems.append(.error(.repeatedKey(name, place: "defaults", first: first), at: keyLocation))
        continue
      }
      header.defaults.set(key, headerValue(value, keyLocation: keyLocation), keyLocation: keyLocation)
    }
  }

  /// `cash_rounding: {CHF: 0.05, SEK: 1}` as written, for the rules.
  private func cashRounding(_ node: YAMLNode) -> CashRoundingValue {
    guard case .mapping(let pairs) = node.kind else {
      return .unexpected(node.shapeDescription, location(node.line, node.column))
    }
    return .entries(
      pairs.map { key, value in
        let keyLocation = location(key.line, key.column)
        return (key.scalar ?? key.shapeDescription, keyLocation, headerValue(value, keyLocation: keyLocation))
      })
  }

  /// A header value as the rules take it.
  private func headerValue(_ node: YAMLNode, keyLocation: SourceLocation) -> HeaderValue {
    let place = location(node.line, node.column)
    if node.isNull { return HeaderValue(shape: .null, location: keyLocation) }
    switch node.kind {
    case .scalar(let text, _):
      return HeaderValue(shape: .text(text), location: place)
    case .sequence(let items):
      var names: [(String, SourceLocation)] = []
      for item in items {
        guard let text = item.scalar else {
          return HeaderValue(shape: .unexpected("a list containing \(item.shapeDescription)"), location: place)
        }
        names.append((text, location(item.line, item.column)))
      }
      return HeaderValue(shape: .list(names), location: place)
    case .mapping(let pairs):
      for (key, value) in pairs where key.scalar == nil || value.scalar == nil {
        let odd = value.scalar == nil ? value : key
        return HeaderValue(shape: .unexpected("a mapping containing \(odd.shapeDescription)"), location: place)
      }
      return HeaderValue(shape: .unexpected("a mapping"), location: place)
    }
  }

  /// `people:` as a header value: a list of names, each entry a name or a mapping with a name and
  /// payment details (``PeopleEntry``); the details go to `header`, their problems too.
  private func rosterValue(_ node: YAMLNode, keyLocation: SourceLocation, into header: inout DocumentHeader)
    -> HeaderValue
  {
    guard case .sequence(let items) = node.kind else { return headerValue(node, keyLocation: keyLocation) }
    var names: [(String, SourceLocation)] = []
    for item in items {
      let (entry, problems) = PeopleEntry.read(item, in: sourceFile)
      header.problems += problems
      guard let entry else { continue }
      names.append((entry.name, entry.location))
      if entry.details != nil { header.payees.append(entry) }
    }
    return HeaderValue(shape: .list(names), location: location(node.line, node.column))
  }

  private func location(_ line: Int, _ column: Int) -> SourceLocation {
    SourceLocation(in: sourceFile, line: line, column: column)
  }
}

extension YAMLNodeBuilder {
  /// Builds the node whose first event was just pulled.
  mutating func build(_ pulled: (YAMLEvent, Int, Int), depth: Int) throws(InputFailure) -> YAMLNode {
    try build(pulled.0, line: pulled.1, column: pulled.2, depth: depth)
  }
}
