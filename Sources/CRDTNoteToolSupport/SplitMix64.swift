/// SplitMix64: the small, fast, seeded random generator behind everything crdtnote does
/// deterministically — the sync simulation and its fault plans, the benchmark workloads
/// (Docs/BENCHMARKS.md, "Workload M1", defines M1 with exactly this generator) and the property tests.
///
/// ```swift
/// var rng = SplitMix64(seed: 1)
/// let roll = rng.next() % 3
/// let word = ["a", "b"].randomElement(using: &rng)
/// ```
package struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's state; the next value is derived from it.
    package var state: UInt64

    /// A generator starting at `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits (all arithmetic wraps).
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    package mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    /// `next() % n` for `n > 0` (0 otherwise; a value is drawn either way, so sequences do
    /// not depend on `n`): the plain modulo reduction M1 specifies.
    package mutating func below(_ n: Int) -> Int {
        let value = next()
        return n > 0 ? Int(value % UInt64(n)) : 0
    }
}
