/// Numbers people by name in the order first met, for the ledgers' per-person tables.
///
/// Names are equal as strings are (canonically equivalent spellings are one person), and a name
/// is found first by its exact UTF-8 bytes, in a cache of the spellings already seen: hashing a
/// `String` (SipHash over its normalised scalars, for a name that is not ASCII) cost more than
/// the rest of booking a share. The cache only ever answers for bytes it was told, so the numbers
/// are those a `[String: Int]` gives.
package struct PersonNumbers: Sendable {
  /// The names, by number: the first spelling met of each person.
  package private(set) var names: [String] = []
  private var numbers: [String: Int] = [:]
  private var spellings = ByteTable()
  /// Each spelling's person, by the spelling's number in `spellings`.
  private var spellingPeople: [Int] = []

  package init() {}

  /// The person's number, given on first sight.
  package mutating func number(of name: String) -> Int {
    if let known = unsafe name.utf8.withContiguousStorageIfAvailable({ unsafe spellings.number(of: $0) }), let known {
      return spellingPeople[known]
    }
    var spelling = name
    return spelling.withUTF8 { bytes in
      let number: Int
      if let known = numbers[name] {
        number = known
      } else {
        number = names.count
        names.append(name)
        numbers[name] = number
      }
      if let spelling = unsafe spellings.insert(bytes), spelling == spellingPeople.count {
        spellingPeople.append(number)
      }
      return number
    }
  }

  /// The person's number, if they were met.
  package func existingNumber(of name: String) -> Int? {
    if let known = unsafe name.utf8.withContiguousStorageIfAvailable({ unsafe spellings.number(of: $0) }), let known {
      return spellingPeople[known]
    }
    return numbers[name]
  }
}
