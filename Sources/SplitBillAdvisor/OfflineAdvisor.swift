import SplitBillCore

/// The default advisor: a transparent heuristic over the experience notes. No network, no key.
///
/// It starts from the bill's default tip (the file's or the command line's; 15 % when there is
/// none), then adds or takes away points for cues in the notes, grouped as service, food, wait,
/// atmosphere and apology. A cue right after a negation ("not great", "never came back", "wasn't
/// slow") counts the other way. The result is a whole percentage from 0 to 25, and the reason lists
/// every cue it matched:
///
///     OfflineAdvisor().suggest(notes: "Lovely waiter, but slow kitchen", base: .preset15)
///     // 14%: "service +2 (lovely), wait −3 (slow): 15% → 14%"
///
/// When the notes match no cue (or there are none), the suggestion is the default tip itself.
package struct OfflineAdvisor: Sendable {
  /// One cue: a word stem, its group and its points.
  package struct Cue: Sendable {
    /// Matches words starting with this stem ("attentiv" matches "attentive", "attentively").
    package var stem: String
    /// service, food, wait, atmosphere or apology.
    package var group: String
    /// Percentage points added (negative: taken away).
    package var points: Int
  }

  /// Every cue, documented here as the table the advisor uses.
  package static let cues: [Cue] = [
    // service
    Cue(stem: "attentiv", group: "service", points: 2), Cue(stem: "friendl", group: "service", points: 2),
    Cue(stem: "lovely", group: "service", points: 2), Cue(stem: "helpful", group: "service", points: 2),
    Cue(stem: "kind", group: "service", points: 1), Cue(stem: "welcom", group: "service", points: 1),
    Cue(stem: "explain", group: "service", points: 1), Cue(stem: "professional", group: "service", points: 2),
    Cue(stem: "rude", group: "service", points: -5), Cue(stem: "ignor", group: "service", points: -4),
    Cue(stem: "forgot", group: "service", points: -2), Cue(stem: "unfriendl", group: "service", points: -3),
    Cue(stem: "wrong", group: "service", points: -2), Cue(stem: "mistake", group: "service", points: -2),
    // food
    Cue(stem: "delicious", group: "food", points: 2), Cue(stem: "tasty", group: "food", points: 2),
    Cue(stem: "fresh", group: "food", points: 1), Cue(stem: "bland", group: "food", points: -2),
    Cue(stem: "burnt", group: "food", points: -2), Cue(stem: "undercooked", group: "food", points: -3),
    Cue(stem: "inedible", group: "food", points: -4),
    // overall
    Cue(stem: "excellent", group: "overall", points: 3), Cue(stem: "outstanding", group: "overall", points: 3),
    Cue(stem: "amazing", group: "overall", points: 3), Cue(stem: "wonderful", group: "overall", points: 3),
    Cue(stem: "fantastic", group: "overall", points: 3), Cue(stem: "perfect", group: "overall", points: 3),
    Cue(stem: "great", group: "overall", points: 2), Cue(stem: "good", group: "overall", points: 1),
    Cue(stem: "nice", group: "overall", points: 1), Cue(stem: "terrible", group: "overall", points: -5),
    Cue(stem: "awful", group: "overall", points: -5), Cue(stem: "horrible", group: "overall", points: -5),
    Cue(stem: "bad", group: "overall", points: -3), Cue(stem: "disappoint", group: "overall", points: -3),
    Cue(stem: "mediocre", group: "overall", points: -2),
    // wait
    Cue(stem: "slow", group: "wait", points: -3), Cue(stem: "wait", group: "wait", points: -2),
    Cue(stem: "late", group: "wait", points: -2), Cue(stem: "forever", group: "wait", points: -2),
    Cue(stem: "quick", group: "wait", points: 1), Cue(stem: "fast", group: "wait", points: 1),
    Cue(stem: "prompt", group: "wait", points: 1),
    // atmosphere
    Cue(stem: "view", group: "atmosphere", points: 1), Cue(stem: "cozy", group: "atmosphere", points: 1),
    Cue(stem: "cosy", group: "atmosphere", points: 1), Cue(stem: "atmospher", group: "atmosphere", points: 1),
    Cue(stem: "ambian", group: "atmosphere", points: 1), Cue(stem: "ambien", group: "atmosphere", points: 1),
    Cue(stem: "singer", group: "atmosphere", points: 1), Cue(stem: "music", group: "atmosphere", points: 1),
    Cue(stem: "noisy", group: "atmosphere", points: -1), Cue(stem: "loud", group: "atmosphere", points: -1),
    Cue(stem: "dirty", group: "atmosphere", points: -3), Cue(stem: "cramped", group: "atmosphere", points: -1),
    // apology: a mistake put right counts in the staff's favour
    Cue(stem: "apolog", group: "apology", points: 1), Cue(stem: "sorry", group: "apology", points: 1),
    Cue(stem: "comped", group: "apology", points: 1),
  ]

  /// Words that turn the next cue around (within three words, in the same clause).
  static let negations: Set<String> = [
    "not", "no", "never", "wasn't", "wasnt", "isn't", "isnt", "weren't", "didn't", "didnt", "hardly", "without",
    "nothing", "barely", "aren't", "don't", "dont", "neither", "nor",
  ]

  /// Words a stem would match by accident ("waiter" is not a wait).
  static let notCues: Set<String> = [
    "waiter", "waiters", "waitress", "waitresses", "waitstaff", "later", "latest", "lately", "kindergarten", "badge",
    "viewing", "prompted",
  ]

  /// Words that begin a new clause, so an earlier negation stops applying.
  static let clauseBreaks: Set<String> = ["but", "and", "though", "although", "however", "yet"]

  /// Where the starting point comes from when a bill has no default tip.
  package static let fallbackBase = Percent.preset15
  /// The smallest and largest percentages the heuristic suggests.
  package static let range = 0...25

  /// Creates the advisor.
  package init() {}

  /// The suggestion for `notes`, starting from `base` (the bill's default tip, or 15 %).
  package func suggest(notes: String?, base: Percent?) -> TipAdvice {
    let start = base ?? Self.fallbackBase
    let matches = Self.match(notes ?? "")
    guard !matches.isEmpty else {
      let why =
        (notes ?? "").isEmpty
        ? "no notes: the default tip \(start)"
        : "the notes name no cue the offline advisor knows: the default tip \(start)"
      return TipAdvice(percent: start, reason: why, advisor: "offline")
    }
    let points = matches.reduce(0) { $0 + $1.points }
    // Whole percentages: the start rounded half-up, plus the points, within the range.
    let whole = Int((start.tenThousandths + 5_000) / 10_000) + points
    let clamped = min(max(whole, Self.range.lowerBound), Self.range.upperBound)
    var groups: [(String, Int, [String])] = []
    for match in matches {
      if let index = groups.firstIndex(where: { $0.0 == match.group }) {
        groups[index].1 += match.points
        groups[index].2.append(match.word)
      } else {
        groups.append((match.group, match.points, [match.word]))
      }
    }
    let parts = groups.map { group, points, words in
      "\(group) \(points >= 0 ? "+" : "−")\(abs(points)) (\(words.joined(separator: ", ")))"
    }
    let result = Percent(tenThousandths: Int64(clamped) * 10_000)
    return TipAdvice(
      percent: result, reason: parts.joined(separator: ", ") + ": \(start) → \(result)", advisor: "offline")
  }

  /// A cue found in the notes: the word as written (with its negation), its group and points.
  struct Match: Equatable {
    var word: String
    var group: String
    var points: Int
  }

  static func match(_ notes: String) -> [Match] {
    var matches: [Match] = []
    for clause in notes.lowercased().split(whereSeparator: { ".,;:!?()\n".contains($0) }) {
      var recent: [String] = []
      for token in clause.split(whereSeparator: { !$0.isLetter && $0 != "'" && $0 != "’" }) {
        let word = String(token.map { $0 == "’" ? "'" : $0 })
        if clauseBreaks.contains(word) {
          recent = []
          continue
        }
        let cue =
          notCues.contains(word) ? nil : cues.filter { word.hasPrefix($0.stem) }.max { $0.stem.count < $1.stem.count }
        if let cue {
          let negated = recent.suffix(3).contains { negations.contains($0) }
          matches.append(
            Match(word: negated ? "not \(word)" : word, group: cue.group, points: negated ? -cue.points : cue.points))
          recent = []
        } else {
          recent.append(word)
        }
      }
    }
    return matches
  }
}
