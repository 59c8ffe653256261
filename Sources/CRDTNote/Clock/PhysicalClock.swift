#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A source of physical time, in milliseconds since 1970-01-01 UTC.
///
/// A ``HybridLogicalClock`` reads its physical time through this wrapper so tests and
/// simulations can substitute ``fixed(_:)`` (or any closure) for the wall clock.
///
/// ```swift
/// let clock = HybridLogicalClock(physicalClock: .fixed(1_000))
/// var note = NoteText(replica: ReplicaID.random(), clock: clock)   // edits stamped at 1_000 ms
/// ```
public struct PhysicalClock: Sendable {
    private let read: @Sendable () -> UInt64

    /// A clock that calls `now` for each reading.
    public init(_ now: @escaping @Sendable () -> UInt64) {
        self.read = now
    }

    /// The current physical time in milliseconds since 1970.
    public func now() -> UInt64 {
        read()
    }

    /// The system wall clock: on Linux `CLOCK_REALTIME_COARSE`, elsewhere `CLOCK_REALTIME` where
    /// available, else Foundation's `Date`.
    ///
    /// Wall time, not a monotonic clock: it may jump backwards, which the HLC tolerates.
    /// Times before 1970 read as 0.
    ///
    /// On Linux the reading is the time of the last kernel tick, so it trails `CLOCK_REALTIME`
    /// by about one tick (1–10 ms depending on the kernel's `HZ`; 4 ms on most distributions;
    /// more while an overloaded virtual machine delays ticks). A note ticks its clock on every edit, and the exact clock costs 25–30 ns
    /// a reading on virtual machines (a quarter of a replayed keystroke), the coarse one 5–7 ns.
    /// Stamps only need to be close to physical time (the HLC's counter orders edits within a
    /// millisecond, or within a tick, alike); Docs/ARCHITECTURE.md, "One edit, from the API to the store".
    public static let system = PhysicalClock { PhysicalClock.wallMilliseconds() }

    /// A clock stuck at `milliseconds`.
    public static func fixed(_ milliseconds: UInt64) -> PhysicalClock {
        PhysicalClock { milliseconds }
    }

    /// Reads the wall clock without going through floating point where the platform allows.
    /// Inlined into ``system``'s closure (one call less per edit).
    @inline(__always)
    private static func wallMilliseconds() -> UInt64 {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        #if os(Linux)
        let source = CLOCK_REALTIME_COARSE
        #else
        let source = CLOCK_REALTIME
        #endif
        var spec = timespec()
        if clock_gettime(source, &spec) == 0, spec.tv_sec >= 0 {
            return UInt64(spec.tv_sec) &* 1_000 &+ UInt64(spec.tv_nsec / 1_000_000)
        }
        #endif
        let milliseconds = (Date().timeIntervalSince1970 * 1_000).rounded(.down)
        // Also rejects NaN; the upper bound keeps the conversion from trapping.
        guard milliseconds >= 0 else { return 0 }
        guard milliseconds < 1.8e19 else { return UInt64.max }
        return UInt64(milliseconds)
    }
}
