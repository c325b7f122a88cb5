import Dispatch
import Foundation
@_spi(ByteWriters) import SplitBillBytes
import SplitBillCore
import SplitBillFiles
import SplitBillModel

#if canImport(Glibc)
  import Glibc
#endif

/// Finds keys (bill ids, receipt keys) that repeat across a run of any length, in bounded memory.
///
/// Each key is appended, with its 64-bit hash and its bill's ordinal, id and location, to one of 16
/// partitions chosen by the hash. A partition is an unlinked temporary file behind an 8 KiB buffer
/// (kept in memory instead when no temporary file can be had). At the end the partitions are read
/// back, one per core at a time: equal keys always share a partition, so memory holds a table of
/// 32 bits of the hashes of about 1/16 of the run's keys per core (at most 16 bytes a key: 1 MB at a
/// million bills), never the keys themselves. Within a partition only entries whose kept bits occur
/// twice are decoded, and those are compared by their full text, so the answer is exact. (Sixteen
/// 8 KiB buffers rather than 64 of 2 KiB: the same memory, a quarter of the `write` calls.)
struct RepeatFinder {
  /// One key as added.
  struct Entry: Sendable {
    /// The bill's position in the run (1-based, counting invalid bills too).
    var ordinal: Int
    /// Where the bill starts.
    var location: SourceLocation
    /// The bill's id.
    var id: String
    /// What must be unique.
    var key: String
  }

  /// An entry whose key an earlier entry already had.
  struct Repeat: Sendable {
    var entry: Entry
    var first: Entry
  }

  private static let partitionCount = 16
  private let partitions: [Partition]

  /// A finder whose temporary files go in `directory` (default: `$TMPDIR`, else `/tmp`).
  init(directory: String = TemporaryFile.directory()) {
    partitions = (0..<Self.partitionCount).map { _ in Partition(directory: directory) }
  }

  /// Adds `key` for the bill `ordinal`; `id` nil means the key is the id. Canonically equivalent
  /// spellings (`é` precomposed or not, `K` and the Kelvin sign) are the same key: the hash is
  /// of the key's bytes in NFC (an ASCII key's own, the usual case, needs no normalising), and
  /// keys with equal hashes are compared as strings.
  /// Gives the key's hash.
  @discardableResult
  func add(key: String, id: String?, ordinal: Int, location: SourceLocation) -> UInt64 {
    let utf8 = key.utf8.span
    let hash =
      ByteScan.isASCII(utf8)
      ? ByteHash.hash(utf8) : ByteHash.hash(key.precomposedStringWithCanonicalMapping.utf8.span)
    append(hash: hash, key: utf8, id: id, ordinal: ordinal, location: location)
    return hash
  }

  /// Adds a key given as UTF-8 bytes, hashed as bytes, without making a string of it: for keys
  /// whose equal texts are always equal bytes (ASCII, names already in NFC). A finder takes its
  /// keys one way only.
  func add(utf8 key: Span<UInt8>, id: String?, ordinal: Int, location: SourceLocation) {
    append(hash: ByteHash.hash(key), key: key, id: id, ordinal: ordinal, location: location)
  }

  /// Appends the entry to the partition its hash picks.
  private func append(hash: UInt64, key: Span<UInt8>, id: String?, ordinal: Int, location: SourceLocation) {
    partitions[Int(hash % UInt64(Self.partitionCount))].append(
      hash: hash, ordinal: ordinal, location: location, id: id, key: key)
  }

  /// Every entry whose key an earlier entry had, in ordinal order; entries whose ordinal is in
  /// `skipping` are left out altogether (neither first nor repeat).
  ///
  /// Partitions share no key, so they are scanned in parallel: this runs after the reading, on its
  /// own, and at a million bills took a second on one core.
  func repeats(skipping: Set<Int> = []) -> [Repeat] { repeats(skipping: skipping, limit: .max).first }

  /// The first `limit` repeats in ordinal order (as ``repeats(skipping:)`` gives them), and how
  /// many there are in all. Memory holds at most `limit` repeats a partition, however many there
  /// are: a file where every eighth bill repeats a receipt must not cost memory by the bill.
  func repeats(skipping: Set<Int>, limit: Int) -> (first: [Repeat], count: Int) {
    let partitions = UncheckedPartitions(partitions: partitions)
    // Each partition's first `limit` are in ordinal order, so the run's first `limit` are among
    // them: each is merged in as it is done, and only the first `limit` so far are kept.
    let found = Locked((first: [Repeat](), count: 0))
    DispatchQueue.concurrentPerform(iterations: partitions.partitions.count) { index in
      let repeats = Self.repeats(in: partitions.partitions[index], skipping: skipping, limit: limit)
      found.withLock { found in
        found.count += repeats.count
        found.first = Self.merged(found.first, repeats.first, limit: limit)
      }
    }
    return found.withLock { $0 }
  }

  /// The first `limit` of two lists in ordinal order, in ordinal order.
  private static func merged(_ left: [Repeat], _ right: [Repeat], limit: Int) -> [Repeat] {
    if right.isEmpty { return left }
    var out: [Repeat] = []
    out.reserveCapacity(min(limit, left.count + right.count))
    var (i, j) = (0, 0)
    while out.count < limit && (i < left.count || j < right.count) {
      if j == right.count || (i < left.count && left[i].entry.ordinal < right[j].entry.ordinal) {
        out.append(left[i])
        i += 1
      } else {
        out.append(right[j])
        j += 1
      }
    }
    return out
  }

  /// The first `limit` repeats within one partition, in the order added, and how many there are.
  private static func repeats(in partition: Partition, skipping: Set<Int>, limit: Int) -> (first: [Repeat], count: Int)
  {
    // Hashes that occur more than once: the only entries that can repeat a key.
    // Hashes seen twice, found with a table rather than by sorting them all (which was most of the
    // end of a run). The table holds 32 bits of each hash: a pair that shares only those makes two
    // more candidates to compare in full, never a wrong answer, and the table is half the size.
    var seen = HashSet<UInt32>(room: partition.entries)
    var candidates = HashSet<UInt32>(room: 16)
    partition.scan { hash, _ in
      if !seen.insert(HashSet<UInt32>.key(hash)) { candidates.insert(HashSet<UInt32>.key(hash)) }
    }
    guard !candidates.isEmpty else { return ([], 0) }
    var found: [Repeat] = []
    var count = 0
    var first: [String: Entry] = [:]
    partition.scan { hash, bytes in
      guard candidates.contains(HashSet<UInt32>.key(hash)) else { return }
      var reader = EntryReader(bytes: bytes)
      guard let entry = reader.next(), !skipping.contains(entry.ordinal) else { return }
      if let earlier = first[entry.key] {
        count += 1
        if found.count < limit { found.append(Repeat(entry: entry, first: earlier)) }
      } else {
        first[entry.key] = entry
      }
    }
    return (found, count)
  }
}

/// The explicit ids met so far, as fingerprints of their 64-bit hashes, for telling as a record
/// comes whether its id was met before (``BillStream``): a guess, which the exact search at the
/// end (``RepeatFinder/repeats(skipping:limit:)``) confirms.
///
/// A hash's low bits choose its slot and its high 32 bits are kept there: two ids are taken for
/// the same only if their high halves are equal and one lies on the other's probe path, about
/// 2⁻³² times the path's length for a pair (simulated: 1.6 slots passed an id at 200,000 ids, so
/// such a run guesses wrong about once in 13,000 and is read again). 4 bytes an id, half what
/// whole hashes take. A slot does not tell the rest of its hash, so a full table cannot be spread
/// into a larger one: it is kept as it is, and the ids after it go to a table twice its size.
/// Made for the room the inputs may need, there is one table.
struct IDFingerprints {
  /// Tables filled to 7/8, oldest first.
  private var filled: [Table] = []
  private var current: Table
  /// Fingerprints held.
  private(set) var count = 0

  /// Room for `room` ids before a second table is made.
  init(room: Int) { current = Table(room: room) }

  /// Remembers `hash`; whether it (or a hash taken for it) was there already.
  mutating func insert(_ hash: UInt64) -> Bool {
    if filled.contains(where: { $0.find(hash).found }) { return true }
    var (slot, found) = current.find(hash)
    if found { return true }
    if current.isFull {
      filled.append(current)
      current = Table(room: 2 * current.room)
      slot = current.find(hash).slot
    }
    current.slots[slot] = Table.fingerprint(hash)
    current.count += 1
    count += 1
    return false
  }

  /// Whether `hash` (or a hash taken for it) is held.
  func contains(_ hash: UInt64) -> Bool {
    current.find(hash).found || filled.contains { $0.find(hash).found }
  }

  /// Open addressing with linear probing; 0 marks an empty slot.
  private struct Table {
    var slots: [UInt32]
    var count = 0

    init(room: Int) {
      var size = 16
      while size * 7 < 8 * room { size *= 2 }
      slots = Array(repeating: 0, count: size)
    }

    /// The fingerprints it takes before it is full.
    var room: Int { slots.count * 7 / 8 }
    var isFull: Bool { count >= room }

    /// The slot that holds `hash`'s fingerprint, or the empty one where it would go.
    func find(_ hash: UInt64) -> (slot: Int, found: Bool) {
      let fingerprint = Self.fingerprint(hash)
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] != 0 {
        if slots[slot] == fingerprint { return (slot, true) }
        slot = (slot + 1) & mask
      }
      return (slot, false)
    }

    /// The high half of `hash`; never 0.
    static func fingerprint(_ hash: UInt64) -> UInt32 { max(UInt32(truncatingIfNeeded: hash >> 32), 1) }
  }
}

/// A set of hashes, or of parts of hashes (already uniformly mixed, so their bits index the table
/// directly): open addressing with linear probing, doubling when half full.
struct HashSet<Key: FixedWidthInteger & UnsignedInteger> {
  private var slots: [Key]
  /// Keys held (zero aside).
  private(set) var count = 0
  /// Zero marks an empty slot; whether zero itself is in the set.
  private var hasZero = false

  /// A set with room for `room` keys before it grows.
  init(room: Int) {
    var size = 16
    while size < 2 * room { size *= 2 }
    slots = Array(repeating: 0, count: size)
  }

  var isEmpty: Bool { count == 0 && !hasZero }

  /// Adds `key`; `false` if it was there already.
  @discardableResult
  mutating func insert(_ key: Key) -> Bool {
    guard key != 0 else {
      defer { hasZero = true }
      return !hasZero
    }
    if 2 * (count + 1) > slots.count { grow() }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: key) & mask
    while slots[slot] != 0 {
      if slots[slot] == key { return false }
      slot = (slot + 1) & mask
    }
    slots[slot] = key
    count += 1
    return true
  }

  func contains(_ key: Key) -> Bool {
    guard key != 0 else { return hasZero }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: key) & mask
    while slots[slot] != 0 {
      if slots[slot] == key { return true }
      slot = (slot + 1) & mask
    }
    return false
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: 0, count: 2 * old.count)
    count = 0
    for key in old where key != 0 { insert(key) }
  }
}

extension HashSet<UInt32> {
  /// The part of `hash` kept: its high half (the low bits pick the partition, `hash % 16`).
  static func key(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash >> 32) }
}

/// The partitions, handed to the threads of ``RepeatFinder/repeats(skipping:)``: each is read by
/// one thread only (with `pread`), after all writing is done.
private struct UncheckedPartitions: @unchecked Sendable {
  let partitions: [Partition]
}

/// One partition: entries encoded as bytes, in the order added.
///
/// An entry: hash (8 bytes), ordinal (8), file (its ``SourceFile/number``), line, column (4 each),
/// the key's UTF-8 length (4) and bytes, the id's length (4, all ones when the id is the key) and
/// bytes; integers little-endian.
private final class Partition {
  /// Entries not yet in the file, written in place through a ``ByteCursor`` (an entry's bytes
  /// stored at once: appending them to an array one field at a time was a third of the cost of
  /// a check).
  private let buffer = RecordBuffer(capacity: Partition.flushSize + 256)
  /// Entries added, in the file and in the buffer.
  private(set) var entries = 0
  private let directory: String
  private var descriptor: Int32 = -1
  private var fileSize = 0
  private var inMemoryOnly = false
  private static let flushSize = 8192
  /// The bytes of an entry before its key, and between its key and its id.
  private static let fixedLength = 36

  init(directory: String) {
    self.directory = directory
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  func append(hash: UInt64, ordinal: Int, location: SourceLocation, id: String?, key: Span<UInt8>) {
    buffer.append(atMost: Self.fixedLength + key.count + (id?.utf8.count ?? 0)) { out in
      out.write(littleEndian: hash)
      out.write(littleEndian: UInt64(ordinal))
      out.write(littleEndian: location.sourceFile.number)
      out.write(littleEndian: UInt32(clamping: location.line))
      out.write(littleEndian: UInt32(clamping: location.column))
      out.write(littleEndian: UInt32(key.count))
      out.write(key)
      if let id {
        out.write(littleEndian: UInt32(id.utf8.count))
        out.write(utf8: id)
      } else {
        out.write(littleEndian: UInt32.max)
      }
    }
    entries += 1
    if buffer.count >= Self.flushSize && !inMemoryOnly { flush() }
  }

  /// Calls `body` with every entry's hash and bytes, in the order added, reading the file in
  /// 64 KiB pieces: the entries are found in place, and an entry cut by the end of a piece is
  /// carried to the front of the next.
  func scan(_ body: (UInt64, ArraySlice<UInt8>) -> Void) {
    var pending: [UInt8] = []
    // Hands on the whole entries of `pending` and keeps what is left.
    func consume() {
      var start = 0
      while let (hash, end) = Self.entry(in: pending.span, at: start) {
        body(hash, pending[start..<end])
        start = end
      }
      pending.removeFirst(start)
    }
    forEachFilePiece { piece in
      pending += piece
      consume()
    }
    // Then what is still in the buffer.
    pending += buffer.bytes
    consume()
  }

  /// Calls `body` with the file's first `fileSize` bytes in pieces of up to 64 KiB, in order; a
  /// failed read ends them.
  private func forEachFilePiece(_ body: ([UInt8]) -> Void) {
    var offset = 0
    while offset < fileSize,
      case .success(let piece) = SystemCalls.read(
        upTo: min(65536, fileSize - offset), at: Int64(offset), from: descriptor),
      !piece.isEmpty
    {
      offset += piece.count
      body(piece)
    }
  }

  /// The hash and end of the whole entry that starts at `start` in `bytes`, if it is all there
  /// (a truncated entry, which a failed read can leave, ends them).
  private static func entry(in bytes: Span<UInt8>, at start: Int) -> (hash: UInt64, end: Int)? {
    let available = bytes.count - start
    guard available >= fixedLength else { return nil }
    let keyLength = Int(bytes.littleEndian(at: start + 28, as: UInt32.self))
    guard available >= fixedLength + keyLength else { return nil }
    let idLength = bytes.littleEndian(at: start + 32 + keyLength, as: UInt32.self)
    let length = fixedLength + keyLength + (idLength == UInt32.max ? 0 : Int(idLength))
    guard available >= length else { return nil }
    return (bytes.littleEndian(at: start, as: UInt64.self), start + length)
  }

  /// Moves the buffer to the temporary file. Without one (none could be made, or the disk is full)
  /// everything stays in memory: the bound is lost, never an entry.
  private func flush() {
    if descriptor < 0 {
      descriptor = TemporaryFile.open(in: directory, prefix: "splitbill-repeats")
      guard descriptor >= 0 else {
        inMemoryOnly = true
        return
      }
    }
    guard buffer.withBytes({ SystemCalls.write($0, to: descriptor, at: Int64(fileSize)) }) != nil else {
      fileSize += buffer.count
      buffer.removeAll()
      return
    }
    // The disk is full: bring back what the file holds and keep everything here from now on.
    // The file holds `fileSize` bytes of whole entries; what a short write put past them is
    // ignored, and the whole buffer is kept.
    var earlier: [UInt8] = []
    forEachFilePiece { earlier += $0 }
    buffer.replace(with: earlier + buffer.bytes)
    close(descriptor)
    descriptor = -1
    fileSize = 0
    inMemoryOnly = true
  }
}

/// Decodes one entry as ``Partition`` wrote it; `nil` for a truncated one.
private struct EntryReader {
  let bytes: ArraySlice<UInt8>
  private(set) var offset: Int

  init(bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    offset = bytes.startIndex
  }

  /// The entry, or nil if it is cut short.
  mutating func next() -> RepeatFinder.Entry? {
    guard u64() != nil, let ordinal = u64(), let file = u32(), let line = u32(), let column = u32(),
      let keyLength = u32(), let key = text(length: keyLength), let idLength = u32()
    else { return nil }
    let id = idLength == UInt32.max ? key : text(length: idLength)
    guard let id, let file = SourceFile(number: file) else { return nil }
    return RepeatFinder.Entry(
      ordinal: Int(ordinal), location: SourceLocation(in: file, line: Int(line), column: Int(column)), id: id,
      key: key)
  }

  private mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
    guard bytes.endIndex - offset >= count else { return nil }
    defer { offset += count }
    return bytes[offset..<offset + count]
  }

  private mutating func u64() -> UInt64? { take(8).map { $0.reversed().reduce(0) { $0 << 8 | UInt64($1) } } }

  private mutating func u32() -> UInt32? { take(4).map { $0.reversed().reduce(0) { $0 << 8 | UInt32($1) } } }

  private mutating func text(length: UInt32) -> String? {
    take(Int(length)).map { String(decoding: $0, as: UTF8.self) }
  }
}
