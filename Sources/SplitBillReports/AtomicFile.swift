/// Writes a whole file atomically in one call.
package enum AtomicFile {
  /// Writes what `produce` sends to the sink to `path`, atomically.
  package static func write(to path: String, overwrite: Bool = true, _ produce: (FileDescriptorSink) throws -> Void)
    throws
  {
    let file = try PendingFile(path: path, overwrite: overwrite)
    do {
      try produce(file.sink)
    } catch {
      file.abort()
      throw error
    }
    try file.commit()
  }
}
