#if canImport(Glibc)
  import Glibc
#endif

/// The C library's calls the modules above make, as safe functions: the C strings and pointers
/// they take stay in this module (the system's shim), and the callers need no `unsafe`.
package enum SystemCalls {
  /// The C library's words for error number `code` (`No such file or directory`).
  package static func errorText(_ code: Int32) -> String { unsafe String(cString: strerror(code)) }

  /// What a path names.
  package enum PathKind: Sendable, Equatable {
    case directory
    /// A file, a pipe, a device: anything but a directory.
    case other
  }

  /// What `stat` tells of a path, symbolic links followed.
  package struct FileStatus: Sendable, Equatable {
    /// The device and inode: one file, whatever path names it.
    package var device: UInt64
    package var inode: UInt64
    /// The size in bytes.
    package var size: Int64
    /// The permission bits (`0o600`…).
    package var permissions: UInt32
    /// Whether it is a regular file (not a directory, a FIFO, a device).
    package var isRegularFile: Bool
    /// Whether it is a directory.
    package var isDirectory: Bool
  }

  /// What `path` names, symbolic links followed; else the error number.
  package static func status(of path: String) -> Result<FileStatus, ErrorNumber> {
    var status = stat()
    guard unsafe stat(path, &status) == 0 else { return .failure(ErrorNumber(code: errno)) }
    let kind = status.st_mode & S_IFMT
    return .success(
      FileStatus(
        device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
        permissions: UInt32(status.st_mode & 0o7777), isRegularFile: kind == S_IFREG, isDirectory: kind == S_IFDIR))
  }

  /// What `path` names, symbolic links followed; `nil` when nothing is there (or it cannot be
  /// looked at), as `FileManager.fileExists(atPath:isDirectory:)` says.
  package static func kind(of path: String) -> PathKind? {
    guard case .success(let status) = status(of: path) else { return nil }
    return status.isDirectory ? .directory : .other
  }

  /// The permission bits of what `path` names (`0o600`…), symbolic links followed; else the
  /// error number.
  package static func permissions(of path: String) -> Result<UInt32, ErrorNumber> {
    status(of: path).map(\.permissions)
  }

  /// The process's environment, `NAME=value` entries as a dictionary (an entry without `=` is
  /// left out; of a name given twice, the last).
  package static func environment() -> [String: String] {
    var result: [String: String] = [:]
    var pointer = unsafe environ
    while let entry = unsafe pointer.pointee {
      let text = unsafe String(cString: entry)
      if let equals = text.firstIndex(of: "=") {
        result[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      unsafe pointer += 1
    }
    return result
  }

  /// Writes all of `bytes` to `descriptor`, again after an interrupted or short write; with an
  /// `offset`, at that place in the file (`pwrite`) rather than at the descriptor's position.
  /// `nil` when every byte was written, else the error number (`EIO` when the system wrote nothing
  /// and named no error).
  package static func write(_ bytes: [UInt8], to descriptor: Int32, at offset: Int64? = nil) -> Int32? {
    write(bytes.span, to: descriptor, at: offset)
  }

  /// ``write(_:to:at:)`` of the bytes `bytes` views.
  package static func write(_ bytes: Span<UInt8>, to descriptor: Int32, at offset: Int64? = nil) -> Int32? {
    unsafe bytes.withUnsafeBytes { buffer in
      var done = 0
      while done < buffer.count {
        let rest = unsafe UnsafeRawBufferPointer(rebasing: buffer[done...])
        let written =
          if let offset {
            unsafe pwrite(descriptor, rest.baseAddress, rest.count, off_t(offset + Int64(done)))
          } else {
            unsafe Glibc.write(descriptor, rest.baseAddress, rest.count)
          }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return written < 0 ? errno : EIO }
        done += written
      }
      return nil
    }
  }

  /// Up to `count` bytes of the file `descriptor` from `offset` (`pread`, again after an
  /// interruption): fewer only at the file's end, none past it; else the error number.
  package static func read(upTo count: Int, at offset: Int64, from descriptor: Int32) -> Result<[UInt8], ErrorNumber> {
    // An array made with room for nothing writes the shared empty array's count.
    guard count > 0 else { return .success([]) }
    var failure: Int32?
    // Read straight into the array's room: no zeroing first (a journal's spool is read back in
    // pieces of up to 64 KiB).
    let bytes = unsafe [UInt8](unsafeUninitializedCapacity: count) { room, initialized in
      while initialized < room.count {
        let read = unsafe pread(
          descriptor, room.baseAddress.map { unsafe $0 + initialized }, room.count - initialized,
          off_t(offset + Int64(initialized)))
        if read < 0 && errno == EINTR { continue }
        if read < 0 { failure = errno }
        if read <= 0 { break }
        initialized += read
      }
    }
    return failure.map { .failure(ErrorNumber(code: $0)) } ?? .success(bytes)
  }

  /// The whole regular file at `path`, or why it cannot be had: the system's reason (`Permission
  /// denied`, `Is a directory`), or that it is larger than `limit` bytes (told from its size before
  /// any byte is read, so a huge file costs no memory).
  package static func readWholeFile(_ path: String, limit: Int) -> Result<[UInt8], WholeFileFailure> {
    let descriptor = unsafe open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(.system(errorText(errno))) }
    defer { close(descriptor) }
    var status = stat()
    guard unsafe fstat(descriptor, &status) == 0 else { return .failure(.system(errorText(errno))) }
    if status.st_mode & S_IFMT == S_IFDIR { return .failure(.system("it is a directory")) }
    if status.st_mode & S_IFMT != S_IFREG {
      // A pipe or FIFO (`scan <(curl …)`) has no size: read to its end, up to the limit.
      var bytes: [UInt8] = []
      while true {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = unsafe chunk.withUnsafeMutableBytes { unsafe Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count < 0 { return .failure(.system(errorText(errno))) }
        if count == 0 { return .success(bytes) }
        bytes += chunk.prefix(count)
        if bytes.count > limit { return .failure(.tooLarge(bytes: Int64(bytes.count))) }
      }
    }
    guard status.st_size <= Int64(limit) else { return .failure(.tooLarge(bytes: Int64(status.st_size))) }
    switch read(upTo: Int(status.st_size), at: 0, from: descriptor) {
    case .success(let bytes): return .success(bytes)
    case .failure(let error): return .failure(.system(errorText(error.code)))
    }
  }

  /// The first `count` bytes of the regular file at `path` (fewer if it is shorter; none if it
  /// cannot be read, its reading says why). None of a FIFO or a device: what is read of those is
  /// gone for the reading that follows.
  package static func head(of path: String, count: Int) -> [UInt8] {
    guard case .success(let status) = status(of: path), status.isRegularFile else { return [] }
    let descriptor = unsafe open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    return (try? read(upTo: count, at: 0, from: descriptor).get()) ?? []
  }

  /// Why ``readWholeFile(_:limit:)`` gave no bytes.
  package enum WholeFileFailure: Error, Equatable, Sendable {
    /// The system's words for the failure.
    case system(String)
    /// The file is larger than the limit.
    case tooLarge(bytes: Int64)
  }

  /// The width in columns of the terminal `descriptor` is, if it is one that says.
  package static func terminalWidth(of descriptor: Int32) -> Int? {
    var size = winsize()
    guard unsafe ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// A system call's error number (`errno`), as an error.
  package struct ErrorNumber: Error, Equatable, Sendable {
    /// The number (`ENOSPC`…).
    package var code: Int32

    package init(code: Int32) { self.code = code }
  }

  /// Writes `bytes` to `target` atomically through a ``ReplacementFile`` (a new file is private:
  /// mode 0600), so that `target` is the old bytes or the new, never a part; on any failure the
  /// new file is removed. The system's reason (`'path': reason`), or `nil` on success.
  package static func writeAtomically(_ bytes: [UInt8], to target: String) -> String? {
    do throws(WriteError) {
      let file = try ReplacementFile(path: target, newFileMode: 0o600)
      if let code = write(bytes, to: file.descriptor) {
        file.abort()
        return "'\(target)': \(errorText(code))"
      }
      try file.commit()
      return nil
    } catch {
      return "'\(target)': \(error.reason)"
    }
  }

  /// Today's date in the local time zone (`TZ`): year, month (1–12) and day.
  package static func localDate() -> (year: Int, month: Int, day: Int) {
    var now = time(nil)
    var parts = unsafe tm()
    unsafe localtime_r(&now, &parts)
    return unsafe (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
  }
}
