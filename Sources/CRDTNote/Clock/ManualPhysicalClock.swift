import Foundation

/// A physical clock that only moves when told to, for tests and simulations.
///
/// Safe to share between threads: every read and write takes an internal lock. Hand
/// ``clock`` to a ``HybridLogicalClock``; moving the manual clock (even backwards) is then
/// seen by that HLC on its next event.
///
/// ```swift
/// let time = ManualPhysicalClock(milliseconds: 1_000)
/// var hlc = HybridLogicalClock(physicalClock: time.clock)
/// time.advance(by: 5)
/// hlc.tick().milliseconds   // 1_005
/// ```
package final class ManualPhysicalClock: @unchecked Sendable {
    // `@unchecked` because `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value: UInt64

    /// A clock reading `milliseconds` until moved.
    package init(milliseconds: UInt64) {
        self.value = milliseconds
    }

    /// The current reading.
    package var milliseconds: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    /// Moves the clock forward by `ms`, saturating at `UInt64.max` instead of trapping.
    package func advance(by ms: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        let (sum, overflow) = value.addingReportingOverflow(ms)
        value = overflow ? .max : sum
    }

    /// Sets the reading to `ms`, which may be earlier than the current one (a clock stepped backwards).
    package func set(_ ms: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        value = ms
    }

    /// A ``PhysicalClock`` that reads this manual clock (and keeps it alive).
    package var clock: PhysicalClock {
        PhysicalClock { self.milliseconds }
    }
}
