import Foundation

/// A `Clock` for tests and simulations that never waits: `sleep` moves virtual time forward at
/// once and records the duration asked for. Hand it to `NoteSyncEngine(retryClock:)` to see the
/// retry waits a sync would make without spending them.
///
/// ```swift
/// let clock = RecordingClock()
/// let engine = try NoteSyncEngine(store: db, replica: ReplicaID(rawValue: 1), retryClock: clock)
/// try await engine.sync()
/// clock.waits   // [.seconds(7), .seconds(3)]
/// ```
public final class RecordingClock: Clock, @unchecked Sendable {
    // `@unchecked` because `elapsed` and `recorded` are only touched while holding `lock`.

    /// A point in virtual time: the duration since the clock was made.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// Virtual time since the clock's start.
        public var offset: Duration

        /// The instant `offset` after the start.
        public init(offset: Duration) { self.offset = offset }

        /// This instant moved by `duration`.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Earlier instants order first.
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let lock = NSLock()
    private var elapsed: Duration = .zero
    private var recorded: [Duration] = []

    /// A clock at virtual time zero, with no waits recorded.
    public init() {}

    /// The current virtual time.
    public var now: Instant {
        lock.lock()
        defer { lock.unlock() }
        return Instant(offset: elapsed)
    }

    /// The smallest step: one nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Records the wait until `deadline` and moves virtual time there, without waiting.
    /// Throws `CancellationError` when the calling task is cancelled, as `Task.sleep` does.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        advance(to: deadline)
    }

    private func advance(to deadline: Instant) {
        lock.lock()
        defer { lock.unlock() }
        let wait = max(deadline.offset - elapsed, .zero)
        recorded.append(wait)
        elapsed += wait
    }

    /// Every wait asked for, in order.
    public var waits: [Duration] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// The sum of the waits.
    public var totalWaited: Duration { waits.reduce(.zero, +) }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
