import SplitBillFiles

/// An output file being written atomically: a ``ReplacementFile`` written through a buffered
/// ``FileDescriptorSink``. ``prepare()`` writes out the buffer and makes the file complete on
/// disk, ``commit()`` renames it over the target, ``abort()`` leaves the target as it was.
package final class PendingFile {
  /// Where to write the content.
  package let sink: FileDescriptorSink
  private let file: ReplacementFile

  /// The target path.
  package var path: String { file.path }

  /// Creates the temporary file next to `path`.
  ///
  /// - Parameter overwrite: when `false`, an existing `path` is an error and is left alone.
  package init(path: String, overwrite: Bool = true) throws(WriteError) {
    file = try ReplacementFile(path: path, overwrite: overwrite)
    sink = FileDescriptorSink(descriptor: file.descriptor)
  }

  /// Writes out what the sink holds, then syncs and closes the file: after this only
  /// ``commit()``'s rename is left, so several files can all be made complete before any of them
  /// replaces its target. A write that failed (disk full) aborts the file and is thrown.
  package func prepare() throws(WriteError) {
    guard file.isOpen else { return }
    sink.flush()
    if let reason = sink.failureReason {
      file.abort()
      throw WriteError(path: path, reason: reason)
    }
    try file.prepare()
  }

  /// The complete temporary file after ``prepare()``, to be read before ``commit()`` (`add`
  /// checks the file it would make there); `nil` when the target is written directly (not a
  /// regular file) or the file is gone.
  package var preparedPath: String? { file.preparedPath }

  /// Writes out, syncs and renames the file into place (``prepare()`` first, if not done yet).
  package func commit() throws(WriteError) {
    try prepare()
    try file.commit()
  }

  /// Drops the temporary file; the target is untouched.
  package func abort() { file.abort() }
}
