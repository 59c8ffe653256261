/// The hybrid logical clock (HLC) of one replica, after Kulkarni et al., "Logical Physical
/// Clocks" (2014): the clock a ``NoteText`` stamps its edits with.
///
/// An HLC issues timestamps that stay close to physical time yet respect causality: a timestamp
/// issued after receiving a remote one is always greater than it, and a replica's own timestamps
/// strictly increase even if its wall clock steps backwards. Timestamps are
/// ``HLCTimestamp``s (48-bit milliseconds, 16-bit counter). The note ticks its clock on every
/// edit and lets it receive the timestamps that arrive with merged changes; an app only picks
/// the clock's time source (``PhysicalClock``) and drift bound when it makes a note.
///
/// - Local or send event (`tick()`): `l' = max(l, pt)`; the counter becomes `c + 1` if `l`
///   did not move, else 0.
/// - Receive event (`receive(_:)`): `l' = max(l, l.m, pt)`; the counter continues from
///   whichever of the local and remote timestamps reached `l'` (the larger counter if both did),
///   or restarts at 0 if physical time alone is ahead.
/// - A counter that fills up within one millisecond carries into the milliseconds, so order
///   stays strict; at the very top of the range (year 10889) timestamps saturate instead of trapping.
///
/// ## Drift guard
/// Absorbing a remote timestamp drags this clock up to it, and an HLC never moves back. One
/// device with its clock set years ahead would otherwise push every replica it syncs with into
/// that future for good. So receiving refuses a remote timestamp whose milliseconds exceed
/// local physical time plus ``maximumForwardDrift``: the clock then advances as for a local
/// event. The remote *data* is still kept (merging is not the clock's business); only the
/// clock is not moved. Because the bound is measured from the receiver's own physical time, not
/// from its HLC, forwarding cannot compound it: no replica's clock ever runs more than the bound
/// ahead of the fastest physical clock whose stamps it accepted.
///
/// ```swift
/// // A note whose edits are stamped at a fixed time (tests, reproducible fixtures):
/// let clock = HybridLogicalClock(physicalClock: .fixed(1_700_000_000_000))
/// var note = NoteText(replica: ReplicaID.random(), clock: clock)
/// ```
public struct HybridLogicalClock: Sendable {
    /// The default drift bound: one hour (3,600,000 ms).
    ///
    /// Devices that sync their time (NTP) agree to well under a second, and a phone that has not
    /// synced for days drifts by seconds or minutes, so an hour accepts every honestly running
    /// clock with a wide margin. A clock wrong by more than an hour is misconfigured (a manually
    /// set date, a dead RTC battery, a test device), and following it would give every note a
    /// visibly future "modified" date on every device. Refusing costs little: the remote edit is
    /// still merged; only its causal order against later local edits of *clock-ordered* data
    /// (such as record metadata) may be lost, and only for that broken device.
    public static let defaultMaximumForwardDrift: UInt64 = 3_600_000

    /// The last timestamp this clock issued or absorbed; the next one will be greater.
    public private(set) var latest: HLCTimestamp

    /// How far (ms) a remote timestamp may be ahead of local physical time and still be absorbed.
    public let maximumForwardDrift: UInt64

    /// Where physical time comes from; replace it in tests or simulations.
    public var physicalClock: PhysicalClock

    /// A clock reading `physicalClock`, absorbing remote stamps up to `maximumForwardDrift` ms
    /// ahead of it, and resuming after `latest` (pass the last timestamp persisted by this replica
    /// so a restarted app never reissues an old one).
    public init(
        physicalClock: PhysicalClock = .system,
        maximumForwardDrift: UInt64 = defaultMaximumForwardDrift,
        latest: HLCTimestamp = .zero
    ) {
        self.physicalClock = physicalClock
        self.maximumForwardDrift = maximumForwardDrift
        self.latest = latest
    }

    /// Issues the timestamp for a local or send event; strictly greater than every earlier ``latest``
    /// (except when saturated at ``HLCTimestamp/max``).
    @discardableResult
    package mutating func tick() -> HLCTimestamp {
        let physical = physicalMilliseconds()
        // Packed order is (ms, counter) order, so "l stays, c + 1 with carry" is `successor()`.
        if latest.milliseconds >= physical {
            latest = latest.successor()
        } else {
            latest = HLCTimestamp(clampingMilliseconds: physical, counter: 0)
        }
        return latest
    }

    /// Applies a receive event for `remote`, the timestamp of a message from another replica.
    ///
    /// Afterwards ``latest`` is greater than both its old value and `remote`, unless `remote` is
    /// more than ``maximumForwardDrift`` ms ahead of physical time: then `remote` is ignored, the
    /// clock ticks as for a local event, and ``ClockReceiveOutcome/rejectedAsTooFarAhead`` is returned.
    @discardableResult
    package mutating func receive(_ remote: HLCTimestamp) -> ClockReceiveOutcome {
        let physical = physicalMilliseconds()
        let (limit, overflow) = physical.addingReportingOverflow(maximumForwardDrift)
        if !overflow, remote.milliseconds > limit {
            tick()
            return .rejectedAsTooFarAhead
        }
        // The paper's four cases collapse in packed form: if physical time is not ahead of both,
        // continue from the larger of the two timestamps (same ms: larger counter) plus one.
        let larger = Swift.max(latest, remote)
        if larger.milliseconds >= physical {
            latest = larger.successor()
        } else {
            latest = HLCTimestamp(clampingMilliseconds: physical, counter: 0)
        }
        return .absorbed
    }

    /// The physical reading clamped to what a timestamp can hold, so a broken clock cannot trap.
    private func physicalMilliseconds() -> UInt64 {
        Swift.min(physicalClock.now(), HLCTimestamp.maxMilliseconds)
    }
}

/// What ``HybridLogicalClock/receive(_:)`` did with a remote timestamp.
package enum ClockReceiveOutcome: Sendable, Equatable {
    /// The remote timestamp was merged into the clock; later local timestamps are greater than it.
    case absorbed
    /// The remote timestamp was too far ahead of local physical time and did not move the clock.
    /// Keep the remote data anyway; only its clock reading was distrusted.
    case rejectedAsTooFarAhead
}
