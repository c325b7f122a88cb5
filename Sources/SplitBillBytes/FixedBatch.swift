/// Up to `capacity` elements moved in and moved out, never copied: a copy of a bill is a
/// reference count changed for each of its strings and arrays, and an array of bills copied out
/// element by element and then destroyed was a fifth of a pipeline stage's time. Public only as
/// the SPI `ByteWriters` and `@inlinable`, so that it is specialized for its element.
///
/// Safe to use: it owns its `capacity` elements' room (allocated in `init`, freed in `deinit`);
/// the first `count` are initialized, which `append` and `drain` keep true, and `append` checks
/// that there is room. It is a class shared by reference between two threads that take turns
/// (a pipeline's handoff): its user makes sure they never use it at once.
@_spi(ByteWriters) @safe public final class FixedBatch<Element>: @unchecked Sendable {
  @usableFromInline let elements: UnsafeMutablePointer<Element>
  /// Unchecked for exclusive access: only the thread that holds the batch uses it (a dynamic
  /// check at each use, as a public class's stored property gets, cost more than the batching).
  @exclusivity(unchecked) @usableFromInline var count = 0
  @usableFromInline let capacity: Int

  /// An empty batch with room for `capacity` elements.
  @inlinable public init(capacity: Int) {
    precondition(capacity > 0, "room for an element")
    self.capacity = capacity
    unsafe elements = .allocate(capacity: capacity)
  }

  @inlinable deinit {
    unsafe elements.deinitialize(count: count)
    unsafe elements.deallocate()
  }

  /// Whether the batch holds no element.
  @inlinable public var isEmpty: Bool { unsafe count == 0 }
  /// Whether the batch has no room left.
  @inlinable public var isFull: Bool { unsafe count == capacity }

  /// Moves `element` in, after the others. The batch must not be full.
  @inlinable public func append(_ element: consuming Element) {
    precondition(unsafe count < capacity, "room in the batch")
    unsafe (elements + count).initialize(to: element)
    unsafe count += 1
  }

  /// Moves every element out to `body`, in order, leaving the batch empty: `body` owns each.
  @inlinable public func drain(_ body: (consuming Element) -> Void) {
    let taken = unsafe count
    unsafe count = 0
    for index in 0..<taken { unsafe body((elements + index).move()) }
  }
}
