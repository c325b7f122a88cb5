@_spi(ByteWriters) import SplitBillBytes
import Testing

/// The spill buffer and scratch room of SplitBillBytes: what is written is what is read back,
/// across growth, and fixed-width fields round-trip least significant byte first.
@Suite struct RecordBufferTests {
  @Test func recordsWrittenPastTheFirstRoomAreAllKept() {
    let buffer = RecordBuffer(capacity: 16)
    var expected: [UInt8] = []
    for record in 0..<500 {
      let name = Array("record-\(record)".utf8)
      buffer.append(atMost: 12 + name.count) { out in
        out.write(littleEndian: UInt64(record) &* 0x0101_0101_0101_0101)
        out.write(littleEndian: UInt32(name.count))
        out.write(bytes: name)
      }
      expected += withUnsafeBytes(of: (UInt64(record) &* 0x0101_0101_0101_0101).littleEndian, Array.init)
      expected += withUnsafeBytes(of: UInt32(name.count).littleEndian, Array.init)
      expected += name
    }
    #expect(buffer.count == expected.count)
    #expect(buffer.bytes == expected)
    let fields = buffer.withBytes { span in
      (span.littleEndian(at: 0, as: UInt64.self), span.littleEndian(at: 8, as: UInt32.self))
    }
    #expect(fields.0 == 0 && fields.1 == 8)
    let last = buffer.withBytes { span in span.littleEndian(at: expected.count - 10 - 12, as: UInt64.self) }
    #expect(last == UInt64(499) &* 0x0101_0101_0101_0101)
  }

  @Test func aBufferEmptiedOrReplacedHoldsOnlyWhatCameAfter() {
    let buffer = RecordBuffer(capacity: 64)
    buffer.append(atMost: 5) { $0.write(bytes: [1, 2, 3]) }
    buffer.removeAll()
    #expect(buffer.count == 0 && buffer.bytes.isEmpty)
    buffer.replace(with: Array(repeating: 7, count: 300))
    buffer.append(atMost: 1) { $0.write(9) }
    #expect(buffer.bytes == Array(repeating: 7, count: 300) + [9])
  }

  @Test func scratchBytesAreReadAsWritten() {
    let read = withScratchBytes(atMost: 32) { out in
      out.write(utf8: "2026-11-20|84.50|")
      out.write(littleEndian: UInt16(0x4241))
    } read: { span in
      (0..<span.count).map { span[$0] }
    }
    #expect(String(decoding: read, as: UTF8.self) == "2026-11-20|84.50|AB")
  }
}
