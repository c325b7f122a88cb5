import Foundation
import SplitBillCore
import SplitBillFiles
import SplitBillJSON

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
    return SystemCalls.writeAtomically(Array(json.encoded.utf8), to: path(key))
  }

  private func path(_ key: String) -> String { directory + "/" + key + ".json" }
}
