import Foundation
import SplitBillCore
import SplitBillJSON

#if canImport(Glibc)
  import Glibc
#endif

/// Advice already received, on disk: one small JSON file per answer under
/// `$XDG_CACHE_HOME/splitbill/advice/` (default `~/.cache/splitbill/advice/`), so a weekly run asks
/// only about new bills.
///
/// The file name is the SHA-256 of the advisor, the model, the prompt version, the allowed range
/// and the bill's notes, amount and head count; never the key. Unreadable or malformed entries are
/// ignored and rewritten; writes are atomic (a temporary file beside the entry, renamed over it),
/// and a write that fails (a full disk, a file-size limit, a directory that cannot be made)
/// leaves nothing behind and is reported to the caller, which warns: the report itself is whole.
package struct AdviceCache: Sendable {
  /// The directory entries live in.
  package let directory: String

  /// A cache in `directory`, created (mode 0700) when first written.
  package init(directory: String) { self.directory = directory }

  /// The default directory for `environment`.
  package static func defaultDirectory(environment: [String: String]) -> String? {
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/splitbill/advice" }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.cache/splitbill/advice"
  }

  /// The entry name for `request` asked of `provider`'s `model`.
  package static func key(_ request: AdviceRequest, provider: String, model: String, range: ClosedRange<Int>) -> String
  {
    let parts = [
      "splitbill-advice", provider, model, AdvicePrompt.version, "\(range.lowerBound)-\(range.upperBound)",
      request.amount.description, String(request.diners), request.notes,
    ]
    return SHA256.hex(parts.map { "\($0.utf8.count):\($0)" }.joined(separator: "|"))
  }

  /// The stored advice for `key`, or `nil` (missing or corrupt).
  package func load(_ key: String) -> TipAdvice? {
    guard let data = FileManager.default.contents(atPath: path(key)), let json = JSON.parse([UInt8](data)),
      let percentText = json["percent"]?.string, let reason = json["reason"]?.string,
      let advisor = json["advisor"]?.string,
      let units = try? DecimalText.parse(percentText, scale: Percent.scale, maxIntegerDigits: 3)
    else { return nil }
    return TipAdvice(
      percent: Percent(tenThousandths: units), reason: reason, advisor: advisor, model: json["model"]?.string,
      clamped: json["clamped"] == .bool(true))
  }

  /// Stores `advice` under `key`: the reason it could not, or `nil` when it is stored.
  @discardableResult
  package func store(_ advice: TipAdvice, key: String) -> String? {
    let json = JSON.object([
      ("version", .number("1")),
      ("percent", .string(advice.percent.decimalString)),
      ("reason", .string(advice.reason)),
      ("advisor", .string(advice.advisor)),
      ("model", advice.model.map(JSON.string) ?? .null),
      ("clamped", .bool(advice.clamped)),
    ])
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      return "cannot make the directory '\(directory)'"
    }
    return Self.writeAtomically(Array(json.encoded.utf8), to: path(key))
  }

  /// Writes `bytes` to a new temporary file beside `target` and renames it over `target`; on any
  /// failure the temporary file is removed. The system's reason, or `nil` on success.
  static func writeAtomically(_ bytes: [UInt8], to target: String) -> String? {
    let temporary = "\(target).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = unsafe open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return lastError(temporary) }
    var offset = 0
    while offset < bytes.count {
      let written = unsafe bytes[offset...].withUnsafeBytes { unsafe write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else {
        let reason = written < 0 ? lastError(target) : "'\(target)': nothing written"
        close(descriptor)
        _ = unsafe unlink(temporary)
        return reason
      }
      offset += written
    }
    guard close(descriptor) == 0 else {
      let reason = lastError(target)
      _ = unsafe unlink(temporary)
      return reason
    }
    guard unsafe rename(temporary, target) == 0 else {
      let reason = lastError(target)
      _ = unsafe unlink(temporary)
      return reason
    }
    return nil
  }

  private static func lastError(_ path: String) -> String { unsafe "'\(path)': \(String(cString: strerror(errno)))" }

  private func path(_ key: String) -> String { directory + "/" + key + ".json" }
}
