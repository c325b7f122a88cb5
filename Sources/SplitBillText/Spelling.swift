/// "Did you mean …?" suggestions for misspelt keys, options and names.
package enum Spelling {
  /// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo
  /// (at most a third of the word's length, and at least one edit allowed).
  ///
  ///     Spelling.suggestion(for: "ammount", among: ["amount", "tip"])   // "amount"
  ///
  /// Bounded, since both the word and the candidates come from input files: a word of more than
  /// ``longestWord`` characters gets no suggestion, only the first ``mostCandidates`` candidates
  /// are compared, one whose length alone puts it too far is skipped, and each comparison stops
  /// once it is too far. A 1 MiB currency value or a roster of thousands costs microseconds.
  package static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
    guard word.utf8.count <= 4 * longestWord, word.count <= longestWord else { return nil }
    let allowed = max(1, word.count / 3)
    // ASCII words and candidates (most keys and names) are compared as bytes, each candidate's
    // letters counted before any edit distance: a roster of a thousand costs a pass over it.
    let asciiWord = word.utf8.allSatisfy { $0 < 0x80 } ? word.utf8.map(lowercasedASCII) : nil
    let wordCounts = asciiWord.map(LetterCounts.init)
    let lowered = Array(word.lowercased())
    var best: (candidate: String, distance: Int)?
    for candidate in candidates.prefix(mostCandidates) {
      guard candidate.utf8.count <= 4 * longestWord else { continue }
      let limit = min(allowed, (best?.distance ?? Int.max) - 1)
      guard limit >= 0 else { break }
      if let asciiWord, let wordCounts, candidate.utf8.allSatisfy({ $0 < 0x80 }) {
        guard abs(candidate.utf8.count - asciiWord.count) <= limit,
          !LetterCounts(candidate.utf8).differ(from: wordCounts, by: 2 * limit)
        else { continue }
        guard let distance = editDistance(asciiWord, candidate.utf8.map(lowercasedASCII), atMost: limit) else {
          continue
        }
        best = (candidate, distance)
        continue
      }
      let other = Array(candidate.lowercased())
      guard abs(other.count - lowered.count) <= limit, let distance = editDistance(lowered, other, atMost: limit)
      else { continue }
      best = (candidate, distance)
    }
    return best?.candidate
  }

  /// An ASCII byte with `A`–`Z` made lower case.
  static func lowercasedASCII(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

  /// How many of each letter a text has, counted in 32 bins (a letter's code point, or its
  /// byte, modulo 32; bytes case folded): texts `k` edits apart differ by at most `2k` counts, so
  /// texts further apart need no edit distance. The one prefilter of suggestions and look-alikes.
  package struct LetterCounts {
    private var counts: InlineArray<32, Int16> = .init(repeating: 0)

    /// The counts of a text's bytes, `A`–`Z` folded to lower case.
    package init(_ bytes: some Sequence<UInt8>) {
      for byte in bytes { counts[Int(lowercasedASCII(byte) & 31)] &+= 1 }
    }

    /// The counts of a text's characters, by their first code point.
    package init(_ characters: [Character]) {
      for character in characters { counts[Int((character.unicodeScalars.first?.value ?? 0) & 31)] &+= 1 }
    }

    /// Whether the counts differ by more than `limit` in all.
    package func differ(from other: LetterCounts, by limit: Int) -> Bool {
      var total = 0
      for bin in 0..<32 {
        total += abs(Int(counts[bin]) - Int(other.counts[bin]))
        if total > limit { return true }
      }
      return false
    }
  }

  /// The longest word a suggestion is looked for.
  package static let longestWord = 64
  /// The most candidates compared for one word.
  package static let mostCandidates = 1_000

  /// ``editDistance(_:_:)`` if it is at most `limit`, else `nil`, found without computing past
  /// the limit: a row whose every entry exceeds it ends the search.
  package static func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element], atMost limit: Int) -> Int? {
    if a.isEmpty { return b.count <= limit ? b.count : nil }
    if b.isEmpty { return a.count <= limit ? a.count : nil }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMinimum = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previousPrevious[j - 2] + 1)
        }
        rowMinimum = min(rowMinimum, current[j])
      }
      // Entries never decrease from one row to the one after next: past the limit in two
      // consecutive rows, the distance is too.
      if rowMinimum > limit && i > 1 && previous.min().map({ $0 > limit }) == true { return nil }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
  }

  /// Levenshtein distance with transpositions counted as one edit.
  package static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previousPrevious[j - 2] + 1)
        }
      }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count]
  }
}
