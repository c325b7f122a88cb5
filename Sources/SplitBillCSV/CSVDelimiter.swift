/// The delimiter of a CSV file, told by its header line: every CSV file the project reads (bills,
/// items, payments, exports, rates, standard input) is sniffed here.
package enum CSVDelimiter {
  /// The delimiter the first line of `bytes` uses most outside quotes: `,`, `;` or tab (`,` on a
  /// tie, and when it has none of them).
  package static func sniff(_ bytes: some Collection<UInt8>) -> UInt8 {
    var counts: [UInt8: Int] = [0x2C: 0, 0x3B: 0, 0x09: 0]
    var quoted = false
    for byte in bytes {
      if byte == 0x22 { quoted.toggle() }
      if !quoted && (byte == 0x0A || byte == 0x0D) { break }
      if !quoted, let count = counts[byte] { counts[byte] = count + 1 }
    }
    let comma = counts[0x2C] ?? 0
    let best = [UInt8(0x3B), 0x09].max { (counts[$0] ?? 0) < (counts[$1] ?? 0) } ?? 0x2C
    return (counts[best] ?? 0) > comma ? best : 0x2C
  }
}
