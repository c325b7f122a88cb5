import SplitBillCore
import SplitBillJSON

extension TipAdvice {
  /// The `advice` object of reports and `suggest --json`: percent (decimal string), reason,
  /// advisor, model, fallback, fallback_reason, clamped.
  package var jsonMembers: [(String, JSON)] {
    [
      ("percent", .string(percent.decimalString)), ("reason", .string(reason)), ("advisor", .string(advisor)),
      ("model", .optional(model)), ("fallback", .bool(fallback)), ("fallback_reason", .optional(fallbackReason)),
      ("clamped", .bool(clamped)),
    ]
  }

  /// What `suggest --json` prints: the advice's members, then with an amount the `bill`, as
  /// `calc --json` prints it one level in.
  package func suggestionJSON(bill split: BillSplit?) -> String {
    var sink = StringSink()
    JSON.object(jsonMembers).write(to: &sink)
    guard let split else { return sink.text }
    // The object's text ends in "\n}": the bill is its last member.
    return sink.text.dropLast(2) + ",\n  \"bill\": " + split.jsonText(level: 1) + "\n}"
  }
}
