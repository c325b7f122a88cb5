/// Lends room for up to `capacity` values of `type` (on the stack when it is small) as an
/// `OutputSpan` that starts empty: `body` appends and reads them through it, safely. The values
/// left in it are deinitialized when `body` returns.
///
/// The standard library of later Swift versions has this as `withTemporaryAllocation(of:capacity:_:)`;
/// Swift 6.3 has only the unsafe form, wrapped here. The split uses it for its working arrays,
/// which would otherwise be one allocation a bill.
@inlinable
public func withScratchSpace<T, R>(of type: T.Type, capacity: Int, _ body: (inout OutputSpan<T>) -> R) -> R {
  unsafe withUnsafeTemporaryAllocation(of: type, capacity: capacity) { buffer in
    var span = unsafe OutputSpan(buffer: buffer, initializedCount: 0)
    let result = body(&span)
    let count = unsafe span.finalize(for: buffer)
    _ = unsafe buffer.extracting(0..<count).deinitialize()
    return result
  }
}
