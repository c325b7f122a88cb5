/// Where a value came from: a file and a 1-based line and column, or a whole file (a file that
/// cannot be read, one named twice: ``init(wholeFile:)``, ``isWholeFile``).
///
/// For CSV, the line is the physical line (a quoted cell can span several) and the column is the
/// cell's first character; ``field`` names the CSV column.
///
/// The file is held as a ``SourceFile`` (a number) and the line and column in 32 bits each
/// (clamped), so a location is 12 bytes of plain data: copying one costs no reference counting,
/// which matters because every field of every bill carries a few (and a bill's fields then fit in
/// an allocation small enough for the allocator's per-thread cache).
package struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The file, interned.
  package var sourceFile: SourceFile
  private var storedLine: Int32
  private var storedColumn: Int32

  /// 1-based line, of a place in the file (ask ``position`` when it may be a whole file).
  package var line: Int {
    get { Int(storedLine) }
    set { storedLine = Int32(clamping: newValue) }
  }

  /// 1-based column, in characters.
  package var column: Int {
    get { Int(storedColumn) }
    set { storedColumn = Int32(clamping: newValue) }
  }

  /// Creates a location in `file`, interned once for the run; readers that make many locations
  /// in one file intern it once and use ``init(in:line:column:)``.
  package init(file: String, line: Int, column: Int) {
    self.init(in: SourceFile(file), line: line, column: column)
  }

  /// The whole of `file`, not a place in it.
  package init(wholeFile file: String) {
    // Stored as line and column 0, which no place in a file has; read only through
    // `isWholeFile`, `position` and `description`.
    self.init(in: SourceFile(file), line: 0, column: 0)
  }

  /// Whether this is a whole file rather than a place in it.
  package var isWholeFile: Bool { storedLine <= 0 }

  /// The line and column; `nil` for a whole file.
  package var position: (line: Int, column: Int)? { isWholeFile ? nil : (line, column) }

  /// Creates a location in a file already interned.
  package init(in file: SourceFile, line: Int, column: Int) {
    self.sourceFile = file
    self.storedLine = Int32(clamping: line)
    self.storedColumn = Int32(clamping: column)
  }

  /// The path as the user gave it (`-` for standard input).
  package var file: String {
    get { sourceFile.path }
    set { sourceFile = SourceFile(newValue) }
  }

  /// `trip.yaml:9:13`, or the path alone for a whole file.
  package var description: String { isWholeFile ? file : "\(file):\(line):\(column)" }

  package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
  }
}

/// A file path interned for the life of the process: equal paths get the same number, and the
/// number gives the path back.
///
/// A location holds this number, not the path: a path longer than a small string is a reference
/// counted buffer, and every copy of a location (bills pass between threads) would touch that
/// count from several threads at once, contention that grows with the run (docs/performance.md
/// has the measurement). The table holds one entry per distinct path a run names.
package struct SourceFile: Hashable, Sendable {
  /// The path's number in the table: stable for the life of the process, for compact encodings
  /// (the temporary files of the run-wide checks).
  package let number: UInt32

  /// The file numbered `number` in this process, if there is one.
  package init?(number: UInt32) {
    guard Self.table.withLock({ Int(number) < $0.paths.count }) else { return nil }
    self.number = number
  }

  /// The number of `path`, given it on first sight.
  package init(_ path: String) {
    number = Self.table.withLock { table in
      if let known = table.numbers[path] { return known }
      let number = UInt32(table.paths.count)
      table.paths.append(path)
      table.numbers[path] = number
      return number
    }
  }

  /// The path.
  package var path: String { Self.table.withLock { $0.paths[Int(number)] } }

  private struct Table {
    var paths: [String] = []
    var numbers: [String: UInt32] = [:]
  }

  private static let table = Locked(Table())
}
