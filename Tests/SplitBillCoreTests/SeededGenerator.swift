import SplitBillBytes

@testable import SplitBillCore

/// Seeded randomness for the property tests, so every failure reproduces from its seed.
typealias SeededGenerator = SplitMix64
