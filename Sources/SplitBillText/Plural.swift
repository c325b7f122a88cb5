/// `3 bills`, `1 bill`; irregular plurals given explicitly. Every count a message or a report
/// shows goes through here.
package func plural(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
  "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
