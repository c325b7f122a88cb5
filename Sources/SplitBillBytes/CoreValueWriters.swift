public import SplitBillCore

// Core's amounts, dates and currency codes written at a cursor. The rules for their text are
// Core's, in safe code, and used as they are for `String`s there; these make the room and put the
// bytes Core hands over in it.

extension DecimalText {
  /// Writes what ``DecimalText/format(_:scale:)`` prints at `cursor`, as UTF-8.
  @_spi(ByteWriters) @inlinable public static func write(_ value: Int64, scale: Int, to cursor: inout ByteCursor) {
    let length = length(value, scale: scale)
    let room = unsafe cursor.take(length)
    // Core hands out the offsets 0..<length, each once, when `length` is its own `length(_:scale:)`.
    write(value, scale: scale, length: length) { byte, offset in
      assert(offset >= 0 && offset < length, "DecimalText.write: an offset outside the room")
      unsafe room[offset] = byte
    }
  }

  /// Writes what ``DecimalText/grouped(_:scale:)`` prints at `cursor`, as UTF-8.
  @_spi(ByteWriters) @inlinable public static func writeGrouped(
    _ value: Int64, scale: Int, to cursor: inout ByteCursor
  ) {
    let length = groupedLength(value, scale: scale)
    let room = unsafe cursor.take(length)
    writeGrouped(value, scale: scale) { byte, offset in
      assert(offset >= 0 && offset < length, "DecimalText.writeGrouped: an offset outside the room")
      unsafe room[offset] = byte
    }
  }

  /// Writes what ``DecimalText/trimmed(_:scale:)`` prints at `cursor` (at most
  /// ``DecimalText/maximumLength(scale:)`` bytes).
  @_spi(ByteWriters) @inlinable public static func writeTrimmed(
    _ value: Int64, scale: Int, to cursor: inout ByteCursor
  ) {
    let (value, scale) = withoutTrailingZeros(value, scale: scale)
    write(value, scale: scale, to: &cursor)
  }
}

extension CalendarDate {
  /// The most bytes ``writeISO(to:)`` writes.
  @_spi(ByteWriters) public static let maximumISOLength = 64

  /// Writes ``CalendarDate/description`` at `cursor` as UTF-8.
  @_spi(ByteWriters) @inlinable public func writeISO(to cursor: inout ByteCursor) {
    cursor.write(count: isoLength) { writeISO(into: &$0) }
  }
}

extension Currency {
  /// Writes the code's three letters at `cursor`.
  @_spi(ByteWriters) @inlinable public func writeCode(to cursor: inout ByteCursor) {
    cursor.write(codeByte(0))
    cursor.write(codeByte(1))
    cursor.write(codeByte(2))
  }
}
