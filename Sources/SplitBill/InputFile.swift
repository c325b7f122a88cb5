import Foundation
import SplitBillFiles

/// A file read whole, as the importer and the rate reader take it: an export, a rules file; `-` is
/// standard input, and a file in UTF-16 or UTF-32 is refused (its byte order mark says so).
public enum InputFile {
  /// Why a file could not be read: `cannot read 'x': no such file or directory`.
  public struct Unreadable: Error, Sendable {
    public var message: String
  }

  /// The bytes of `path`, or of standard input for `-`.
  public static func bytes(_ path: String) throws(Unreadable) -> [UInt8] {
    if path == "-" { return [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
    guard let kind = SystemCalls.kind(of: path) else {
      throw Unreadable(message: "cannot read '\(path)': no such file or directory")
    }
    guard kind != .directory else {
      throw Unreadable(message: "cannot read '\(path)': it is a directory: name the file")
    }
    // Read through a handle, to the end: a pipe or FIFO (`--rates <(...)`) has no size to read up to.
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw Unreadable(message: "cannot read '\(path)': permission denied")
    }
    defer { try? handle.close() }
    let bytes: [UInt8]
    do {
      bytes = [UInt8](try handle.readToEnd() ?? Data())
    } catch {
      throw Unreadable(message: "cannot read '\(path)': \(error.localizedDescription)")
    }
    if let encoding = ByteOrderMark.otherEncoding(bytes) {
      throw Unreadable(message: "cannot read '\(path)': \(ByteOrderMark.refusal(encoding))")
    }
    return bytes
  }
}
