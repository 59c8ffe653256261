import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// Shorthand for a timestamp in tests (milliseconds clamped to 48 bits).
private func ts(_ milliseconds: UInt64, _ counter: UInt16) -> HLCTimestamp {
    HLCTimestamp(clampingMilliseconds: milliseconds, counter: counter)
}

@Suite("HybridLogicalClock")
struct HybridLogicalClockTests {
    @Test("tick follows physical time and counts within a millisecond")
    func tickBasics() {
        let time = ManualPhysicalClock(milliseconds: 1_000)
        var clock = HybridLogicalClock(physicalClock: time.clock)
        #expect(clock.latest == .zero)
        #expect(clock.tick() == ts(1_000, 0))
        #expect(clock.tick() == ts(1_000, 1))
        #expect(clock.latest == ts(1_000, 1))
        time.advance(by: 1)
        #expect(clock.tick() == ts(1_001, 0))
    }

    @Test("65,536 ticks in one millisecond carry into the next, strictly increasing")
    func counterOverflowCarries() {
        let time = ManualPhysicalClock(milliseconds: 5_000)
        var clock = HybridLogicalClock(physicalClock: time.clock)
        var previous = HLCTimestamp.zero
        for _ in 0..<65_536 {
            let t = clock.tick()
            #expect(t > previous)
            previous = t
        }
        #expect(previous == ts(5_000, 65_535))
        let carried = clock.tick()
        #expect(carried == ts(5_001, 0))
        #expect(clock.tick() == ts(5_001, 1))
        // Physical time catching up to the carried millisecond keeps counting, it does not reset.
        time.set(5_001)
        #expect(clock.tick() == ts(5_001, 2))
        time.set(5_005)
        #expect(clock.tick() == ts(5_005, 0))
    }

    @Test("a physical clock going backwards never makes timestamps go backwards")
    func backwardsPhysicalClock() {
        let time = ManualPhysicalClock(milliseconds: 10_000)
        var clock = HybridLogicalClock(physicalClock: time.clock)
        #expect(clock.tick() == ts(10_000, 0))
        time.set(4_000)
        #expect(clock.tick() == ts(10_000, 1))
        #expect(clock.receive(ts(3_000, 9)) == .absorbed)
        #expect(clock.latest == ts(10_000, 2))
        time.set(10_001)
        #expect(clock.tick() == ts(10_001, 0))
    }

    @Test("resumes after a persisted latest timestamp")
    func resumesAfterLatest() {
        var clock = HybridLogicalClock(physicalClock: .fixed(100), latest: ts(500, 7))
        #expect(clock.tick() == ts(500, 8))
    }

    @Test("receive: remote ahead of local and physical continues from the remote counter")
    func receiveRemoteAhead() {
        var clock = HybridLogicalClock(physicalClock: .fixed(1_000), latest: ts(1_000, 3))
        #expect(clock.receive(ts(1_500, 7)) == .absorbed)
        #expect(clock.latest == ts(1_500, 8))
        #expect(clock.tick() == ts(1_500, 9))
    }

    @Test("receive: remote behind local continues from the local counter")
    func receiveRemoteBehind() {
        var clock = HybridLogicalClock(physicalClock: .fixed(1_000), latest: ts(2_000, 3))
        #expect(clock.receive(ts(1_500, 40)) == .absorbed)
        #expect(clock.latest == ts(2_000, 4))
    }

    @Test("receive: remote at the same millisecond takes the larger counter plus one")
    func receiveRemoteEqual() {
        var clock = HybridLogicalClock(physicalClock: .fixed(1_000), latest: ts(2_000, 3))
        #expect(clock.receive(ts(2_000, 40)) == .absorbed)
        #expect(clock.latest == ts(2_000, 41))
        #expect(clock.receive(ts(2_000, 10)) == .absorbed)
        #expect(clock.latest == ts(2_000, 42))
    }

    @Test("receive: physical time ahead of both restarts the counter")
    func receivePhysicalAhead() {
        var clock = HybridLogicalClock(physicalClock: .fixed(9_000), latest: ts(2_000, 3))
        #expect(clock.receive(ts(8_999, 40)) == .absorbed)
        #expect(clock.latest == ts(9_000, 0))
    }

    @Test("receive: remote at physical time with a higher counter is exceeded")
    func receiveRemoteAtPhysical() {
        var clock = HybridLogicalClock(physicalClock: .fixed(9_000))
        #expect(clock.receive(ts(9_000, 12)) == .absorbed)
        #expect(clock.latest == ts(9_000, 13))
    }

    @Test("receive: a full remote counter carries into the next millisecond")
    func receiveRemoteCounterCarries() {
        var clock = HybridLogicalClock(physicalClock: .fixed(1_000))
        #expect(clock.receive(ts(1_000, .max)) == .absorbed)
        #expect(clock.latest == ts(1_001, 0))
        #expect(clock.latest > ts(1_000, .max))
    }

    @Test("drift guard: a remote stamp ten years ahead is rejected and does not move the clock there")
    func driftGuardRejectsFarFuture() {
        let now: UInt64 = 1_795_262_400_123
        let tenYears: UInt64 = 10 * 365 * 86_400_000
        var clock = HybridLogicalClock(physicalClock: .fixed(now))
        #expect(clock.tick() == ts(now, 0))
        #expect(clock.receive(ts(now + tenYears, 0)) == .rejectedAsTooFarAhead)
        // Behaves as a local event.
        #expect(clock.latest == ts(now, 1))
        #expect(clock.tick() == ts(now, 2))
        #expect(clock.latest.milliseconds - now < HybridLogicalClock.defaultMaximumForwardDrift)
    }

    @Test("drift guard: a rejected receive still ticks when physical time moved on")
    func driftGuardRejectTicks() {
        var clock = HybridLogicalClock(physicalClock: .fixed(50), latest: ts(10, 4))
        #expect(clock.receive(ts(HybridLogicalClock.defaultMaximumForwardDrift + 51, 0)) == .rejectedAsTooFarAhead)
        #expect(clock.latest == ts(50, 0))
    }

    @Test("drift guard: exactly at the bound is absorbed, one millisecond past it is rejected")
    func driftGuardBoundary() {
        let now: UInt64 = 1_000_000
        let bound = HybridLogicalClock.defaultMaximumForwardDrift
        #expect(bound == 3_600_000)
        var inside = HybridLogicalClock(physicalClock: .fixed(now))
        #expect(inside.receive(ts(now + bound, 6)) == .absorbed)
        #expect(inside.latest == ts(now + bound, 7))

        var outside = HybridLogicalClock(physicalClock: .fixed(now))
        #expect(outside.receive(ts(now + bound + 1, 0)) == .rejectedAsTooFarAhead)
        #expect(outside.latest == ts(now, 0))
    }

    @Test("drift guard honours a custom bound, including zero")
    func customDrift() {
        var strict = HybridLogicalClock(physicalClock: .fixed(700), maximumForwardDrift: 0)
        #expect(strict.maximumForwardDrift == 0)
        #expect(strict.receive(ts(700, 30)) == .absorbed)
        #expect(strict.latest == ts(700, 31))
        #expect(strict.receive(ts(701, 0)) == .rejectedAsTooFarAhead)
        #expect(strict.latest == ts(700, 32))

        var loose = HybridLogicalClock(physicalClock: .fixed(700), maximumForwardDrift: .max)
        #expect(loose.receive(.max) == .absorbed)
        #expect(loose.latest == .max)
    }

    @Test("saturation near 2^48 milliseconds never traps")
    func saturation() {
        let top = HLCTimestamp.maxMilliseconds
        var clock = HybridLogicalClock(physicalClock: .fixed(top), latest: HLCTimestamp(rawValue: .max - 2))
        #expect(clock.tick() == HLCTimestamp(rawValue: .max - 1))
        #expect(clock.tick() == .max)
        #expect(clock.tick() == .max)
        #expect(clock.receive(.max) == .absorbed)
        #expect(clock.latest == .max)

        // A physical clock reading beyond 48 bits is clamped rather than trapping.
        var broken = HybridLogicalClock(physicalClock: .fixed(.max))
        #expect(broken.tick() == ts(top, 0))
        #expect(broken.receive(.max) == .absorbed)
        #expect(broken.latest == .max)
        var brokenLoose = HybridLogicalClock(physicalClock: .fixed(.max), maximumForwardDrift: .max)
        #expect(brokenLoose.receive(.max) == .absorbed)
        #expect(brokenLoose.tick() == .max)
    }

    @Test("the system clock reads current wall time (on Linux trailing it by about a kernel tick)")
    func systemClock() {
        let slack = Self.systemClockSlack()
        let before = UInt64(Date().timeIntervalSince1970 * 1_000)
        let reading = PhysicalClock.system.now()
        let after = UInt64(Date().timeIntervalSince1970 * 1_000)
        #expect(reading + slack >= before)
        #expect(reading <= after + 1)
        var clock = HybridLogicalClock()
        let first = clock.tick()
        #expect(first.milliseconds + slack >= before)
        #expect(clock.tick() > first)
    }

    /// How far `PhysicalClock.system` may trail `Date()` in milliseconds: on Linux (which reads
    /// the coarse clock) its resolution, asked of the kernel, plus 200 ms for ticks a loaded
    /// virtual machine delays (seen in full test runs on 2 busy cores); else 1 ms. Still far below
    /// what a wrong clock gives (a monotonic clock or wrong units are off by years).
    static func systemClockSlack() -> UInt64 {
        #if os(Linux)
        var resolution = timespec()
        guard clock_getres(CLOCK_REALTIME_COARSE, &resolution) == 0 else { return 1 }
        return UInt64(resolution.tv_sec) * 1_000 + (UInt64(resolution.tv_nsec) + 999_999) / 1_000_000 + 200
        #else
        return 1
        #endif
    }

    @Test("the manual clock advances, steps back, saturates and is shared")
    func manualClock() async {
        let time = ManualPhysicalClock(milliseconds: 10)
        let reader = time.clock
        time.advance(by: 5)
        #expect(reader.now() == 15)
        time.set(3)
        #expect(time.milliseconds == 3)
        time.advance(by: .max)
        #expect(time.milliseconds == .max)

        let shared = ManualPhysicalClock(milliseconds: 0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<1_000 { shared.advance(by: 1) }
                }
            }
        }
        #expect(shared.milliseconds == 4_000)
        #expect(PhysicalClock.fixed(42).now() == 42)
    }
}
