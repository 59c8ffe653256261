import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Seeded simulations of several replicas exchanging messages in random order.
@Suite("HybridLogicalClock properties")
struct HybridLogicalClockPropertyTests {
    /// How replica 0's physical clock relates to the others'.
    enum FastReplica: Sendable, CustomStringConvertible {
        case honest, insideBound, tenYearsAhead, allClocksFrozen

        var offset: UInt64 {
            switch self {
            case .honest, .allClocksFrozen: return 0
            case .insideBound: return HybridLogicalClock.defaultMaximumForwardDrift - 60_000
            case .tenYearsAhead: return 10 * 365 * 86_400_000
            }
        }

        var description: String {
            switch self {
            case .honest: return "honest"
            case .insideBound: return "fast inside bound"
            case .tenYearsAhead: return "ten years fast"
            case .allClocksFrozen: return "frozen clocks"
            }
        }
    }

    struct Replica {
        let time: ManualPhysicalClock
        var clock: HybridLogicalClock
        var lastIssued = HLCTimestamp.zero
    }

    struct Message {
        let from: Int
        let to: Int
        let stamp: HLCTimestamp
    }

    @Test("monotonic, causal and bounded under random delivery", arguments: [
        (FastReplica.honest, UInt64(1)), (.honest, 2), (.honest, 3),
        (.insideBound, 4), (.insideBound, 5),
        (.tenYearsAhead, 6), (.tenYearsAhead, 7),
        (.allClocksFrozen, 8),
    ])
    func simulate(_ scenario: FastReplica, _ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let start: UInt64 = 1_795_262_400_000
        // Frozen clocks: two replicas and many steps, so the shared counter must overflow.
        let replicaCount = scenario == .allClocksFrozen ? 2 : 4
        let steps = scenario == .allClocksFrozen ? 120_000 : 20_000
        var replicas = (0..<replicaCount).map { index -> Replica in
            let skew = rng.next() % 4_000
            let offset = index == 0 ? scenario.offset : 0
            let time = ManualPhysicalClock(milliseconds: start + skew + offset)
            return Replica(time: time, clock: HybridLogicalClock(physicalClock: time.clock))
        }
        /// Replicas whose stamps everyone accepts; only their physical readings bound the timestamps.
        func trusted(_ index: Int) -> Bool { !(scenario == .tenYearsAhead && index == 0) }

        var inFlight: [Message] = []
        var events: UInt64 = 0
        var maxTrustedReading: UInt64 = 0
        var rejections = 0
        var carries = 0
        var failures: [String] = []

        func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition && failures.count < 5 { failures.append(message()) }
        }
        /// Records what the replica's physical clock will read for the next event.
        func noteReading(_ index: Int) {
            if trusted(index) { maxTrustedReading = max(maxTrustedReading, replicas[index].time.milliseconds) }
            events += 1
        }
        /// Checks local strict monotonicity and the global bound after an event on `index`.
        func checkIssued(_ index: Int, _ t: HLCTimestamp, step: Int) {
            check(t > replicas[index].lastIssued, "step \(step): replica \(index) issued \(t) after \(replicas[index].lastIssued)")
            // Beyond every physical reading: only a counter overflow can have carried it there.
            if t.milliseconds > maxTrustedReading { carries += 1 }
            replicas[index].lastIssued = t
            if trusted(index) {
                let bound = HLCTimestamp(clampingMilliseconds: maxTrustedReading, counter: 0).rawValue + events
                check(t.rawValue <= bound, "step \(step): replica \(index) at \(t) exceeds bound \(HLCTimestamp(rawValue: bound))")
            }
        }

        for step in 0..<steps where failures.isEmpty {
            // Physical clocks run at slightly different rates and sometimes step backwards.
            if scenario != .allClocksFrozen {
                for replica in replicas {
                    let roll = rng.next() % 2_000
                    if roll < 800 { replica.time.advance(by: 1) }
                    if roll == 0 { replica.time.set(replica.time.milliseconds - rng.next() % 200) }
                }
            }
            if inFlight.isEmpty || rng.next() % 2 == 0 {
                // Local edit, sent to another replica.
                let from = Int(rng.next() % UInt64(replicaCount))
                noteReading(from)
                let t = replicas[from].clock.tick()
                checkIssued(from, t, step: step)
                let to = (from + 1 + Int(rng.next() % UInt64(replicaCount - 1))) % replicaCount
                inFlight.append(Message(from: from, to: to, stamp: t))
            } else {
                // Deliver any pending message: arbitrary reordering.
                let message = inFlight.remove(at: Int(rng.next() % UInt64(inFlight.count)))
                let to = message.to
                noteReading(to)
                let outcome = replicas[to].clock.receive(message.stamp)
                let expectReject = !trusted(message.from) && trusted(to)
                check(outcome == (expectReject ? .rejectedAsTooFarAhead : .absorbed),
                      "step \(step): receive of \(message.stamp) by \(to) gave \(outcome)")
                checkIssued(to, replicas[to].clock.latest, step: step)
                noteReading(to)
                let t = replicas[to].clock.tick()
                checkIssued(to, t, step: step)
                if outcome == .absorbed {
                    check(t > message.stamp, "step \(step): \(t) not after received \(message.stamp)")
                } else {
                    rejections += 1
                    check(t < message.stamp, "step \(step): rejected stamp \(message.stamp) still reached \(t)")
                    check(t.milliseconds <= replicas[to].time.milliseconds + 60_000,
                          "step \(step): rejected stamp dragged \(t) away from physical time")
                }
            }
        }

        #expect(failures.isEmpty, "\(scenario) seed \(seed): \(failures.joined(separator: "; "))")
        #expect((rejections > 0) == (scenario == .tenYearsAhead))
        if scenario == .allClocksFrozen { #expect(carries > 0, "frozen clocks should overflow the counter") }
        if scenario == .honest { #expect(carries == 0) }
    }
}
