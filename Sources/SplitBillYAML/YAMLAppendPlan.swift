import SplitBillFiles
import SplitBillModel

/// Where a new record goes in a YAML bill file, and how the records around it are written, so
/// that `splitbill add` can insert lines and leave every other byte (comments, order, quoting)
/// as it was.
///
/// The file's last document is the one added to. A record goes after the last line of its
/// section's last item (`bills:` or `payments:`, or the bare list of bills a file may be); a file
/// without the section gets it at its end.
package struct YAMLAppendPlan: Sendable, Equatable {
  /// The 1-based line after which the new lines go (0: before the first line).
  package var afterLine: Int
  /// Whether the section's key must be written first (the file has no such section).
  package var writesSectionKey: Bool
  /// The column (0-based) of the new item's `-`.
  package var dashColumn: Int
  /// The column (0-based) of the new item's keys, in block style.
  package var keyColumn: Int
  /// Whether the items are written `- {id: a, amount: 5}`, one a line (as the first item is).
  package var flowItems: Bool

  /// `original` with `lines` after line ``afterLine``, in the file's own line ends (a last line
  /// without one gets one first): what `add` and `scan --append` write.
  package func inserting(_ lines: [String], into original: [UInt8]) -> [UInt8] {
    var offset = 0
    var line = 0
    while line < afterLine, offset < original.count {
      if original[offset] == 0x0A { line += 1 }
      offset += 1
    }
    let lineEnd = SourceLines.lineEnd(of: original)
    var inserted = ""
    if offset == original.count, let last = original.last, last != 0x0A { inserted += lineEnd }
    inserted += lines.joined(separator: lineEnd) + lineEnd
    return Array(original[..<offset]) + Array(inserted.utf8) + Array(original[offset...])
  }

  /// Why a file cannot be added to.
  package enum Problem: Error, Equatable, Sendable {
    /// libyaml's message, at a 1-based line and column.
    case syntax(String, line: Int, column: Int)
    /// The document is a list of bills, and a payment was asked for.
    case bareListOfBills
    /// The document is neither a mapping nor a list.
    case notAMapping
    /// The section is a flow list `[...]` (or another shape) at this line: lines cannot be added to it.
    case flowSection(String, line: Int)

    package var message: String {
      switch self {
      case .syntax(let problem, let line, let column): return "\(line):\(column): \(problem): fix the file first"
      case .bareListOfBills:
        return "the file is a bare list of bills: payments go in a file with 'bills:' and 'payments:' keys"
      case .notAMapping: return "the file is not a mapping of 'bills:' and 'payments:' (nor a list of bills)"
      case .flowSection(let section, let line):
        return
          "'\(section)' (line \(line)) is written as a flow list [...]: write it as a block list ('- ' items) to add to it"
      }
    }
  }

  /// The plan for adding to `section` (`bills` or `payments`) of the YAML `bytes`.
  package static func plan(for bytes: [UInt8], section: String) throws(Problem) -> YAMLAppendPlan {
    let reader = YAMLEventReader(bytes: bytes)
    let lineCount = SourceLines.count(in: bytes)
    // The state of the last document read so far.
    var plan: YAMLAppendPlan?
    var rootKind: YAMLEvent?
    var depth = 0
    var expectingKey = true
    var inSection = false
    var sectionDepth = 0
    // The line of the section's key, while its value is still to come.
    var sectionKeyLine: Int?
    var firstItemSeen = false
    var lastContentLine = 0
    var flowStack: [Bool] = []
    var problem: Problem?
    do {
      while let (event, start, end, flow) = try reader.nextOutlined() {
        // An event's last line: a mark at the start of a line belongs to the line before.
        let endLine = end.column == 1 ? end.line - 1 : end.line
        switch event {
        case .documentStart:
          (plan, rootKind, depth, expectingKey, inSection, sectionKeyLine, problem) =
            (nil, nil, 0, true, false, nil, nil)
          firstItemSeen = false
          flowStack = []
        case .streamStart, .streamEnd, .documentEnd:
          break
        case .scalar(let value, _, _), .alias(let value):
          if depth == 0 { rootKind = event }
          if inSection {
            lastContentLine = max(lastContentLine, endLine)
            if depth == sectionDepth + 1 && !firstItemSeen {
              firstItemSeen = true
              let dash = plan?.dashColumn ?? 0
              plan?.keyColumn = dash + 2
            }
          } else if depth == 1, case .mappingStart? = rootKind {
            if expectingKey, value == section, case .scalar = event {
              sectionKeyLine = start.line
              expectingKey = false
              continue
            }
            // A null section value (`bills:` with nothing under it): items go after its key.
            if let keyLine = sectionKeyLine {
              if event.isNull {
                plan = YAMLAppendPlan(
                  afterLine: endLine, writesSectionKey: false, dashColumn: 2, keyColumn: 4, flowItems: false)
              } else if problem == nil {
                problem = .flowSection(section, line: keyLine)
              }
              sectionKeyLine = nil
            }
          }
          if depth == 1 { expectingKey.toggle() }
        case .sequenceStart, .mappingStart:
          var isSequence = false
          if case .sequenceStart = event { isSequence = true }
          if depth == 0 { rootKind = event }
          // The section's value, or a bare list of bills (the whole document).
          if (depth == 1 && sectionKeyLine != nil) || (depth == 0 && isSequence && section == "bills") {
            sectionKeyLine = nil
            if isSequence, !flow {
              inSection = true
              sectionDepth = depth
              firstItemSeen = false
              lastContentLine = start.line
              plan = YAMLAppendPlan(
                afterLine: 0, writesSectionKey: false, dashColumn: start.column - 1, keyColumn: start.column + 1,
                flowItems: false)
            } else if problem == nil {
              problem = .flowSection(section, line: start.line)
            }
          } else if inSection && depth == sectionDepth + 1 && !firstItemSeen {
            firstItemSeen = true
            plan?.keyColumn = start.column - 1
            plan?.flowItems = flow
          }
          flowStack.append(flow)
          depth += 1
        case .sequenceEnd, .mappingEnd:
          depth -= 1
          let wasFlow = flowStack.popLast() ?? false
          if inSection {
            if wasFlow { lastContentLine = max(lastContentLine, endLine) }
            if depth == sectionDepth {
              inSection = false
              plan?.afterLine = lastContentLine
            }
          }
          if depth == 1 { expectingKey.toggle() }
        }
      }
    } catch {
      var (line, column) = (1, 1)
      if case .mark(let markLine, let markColumn) = error.position { (line, column) = (markLine, markColumn) }
      throw .syntax(error.problem.message, line: line, column: column)
    }
    if let problem { throw problem }
    if let plan { return plan }
    switch rootKind {
    case .mappingStart?, nil:
      return YAMLAppendPlan(
        afterLine: lineCount, writesSectionKey: true, dashColumn: 2, keyColumn: 4, flowItems: false)
    case .sequenceStart?: throw .bareListOfBills
    default: throw .notAMapping
    }
  }
}
