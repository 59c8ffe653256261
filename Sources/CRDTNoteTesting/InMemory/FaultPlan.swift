import CRDTNoteSupport
import CRDTNote
/// Which faults `InMemoryCloudDatabase` injects, how often, and from which seed.
///
/// Each request draws once from a SplitMix64 stream seeded with `seed`: with probability `rate`
/// it fails with one of the enabled kinds that fit the request (uniformly). The same seed and the
/// same sequence of requests give the same faults.
public struct FaultPlan: Hashable, Sendable {
    /// A set of fault kinds.
    public struct Kinds: OptionSet, Hashable, Sendable {
        /// The bits.
        public var rawValue: UInt32
        /// Kinds from bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `.networkFailure`: the request is lost, or (half the time, for writes) applied and
        /// then its response is lost.
        public static let networkFailure = Kinds(rawValue: 1 << 0)
        /// `.requestRateLimited` with `retryAfterSeconds`.
        public static let requestRateLimited = Kinds(rawValue: 1 << 1)
        /// `.serviceUnavailable` with `retryAfterSeconds`.
        public static let serviceUnavailable = Kinds(rawValue: 1 << 2)
        /// A save batch where some items fail (`.serviceUnavailable` each) and the rest are saved.
        public static let partialFailure = Kinds(rawValue: 1 << 3)
        /// `.limitExceeded` for a save of two or more records, as if the server's limit were lower:
        /// forces the client to split the batch.
        public static let limitExceeded = Kinds(rawValue: 1 << 4)
        /// A server reset: the zone and its records vanish, the request fails with `.zoneNotFound`
        /// and old change tokens expire.
        public static let zoneNotFound = Kinds(rawValue: 1 << 5)
        /// The user deleted the zone: records vanish and requests fail with `.userDeletedZone`
        /// until the zone is created again.
        public static let userDeletedZone = Kinds(rawValue: 1 << 6)

        /// Faults a client survives by retrying (network, throttling, partial, limits).
        public static let transient: Kinds = [.networkFailure, .requestRateLimited, .serviceUnavailable, .partialFailure, .limitExceeded]
        /// Every kind, including the destructive zone faults.
        public static let all: Kinds = [.transient, .zoneNotFound, .userDeletedZone]
    }

    /// Probability (0...1) that a request fails.
    public var rate: Double
    /// The kinds that may be injected.
    public var kinds: Kinds
    /// Seed of the deterministic fault stream.
    public var seed: UInt64
    /// Range of `retryAfterSeconds` for throttling faults.
    public var retryAfterSeconds: ClosedRange<Double>

    /// A fault plan.
    public init(rate: Double, kinds: Kinds = .transient, seed: UInt64, retryAfterSeconds: ClosedRange<Double> = 1...30) {
        self.rate = rate
        self.kinds = kinds
        self.seed = seed
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// No faults.
    public static let none = FaultPlan(rate: 0, kinds: [], seed: 0)
}

/// How many faults of each kind `InMemoryCloudDatabase` injected.
public struct FaultCounts: Hashable, Sendable, CustomStringConvertible {
    /// Network failures (request or response lost).
    public var networkFailure = 0
    /// Throttling faults.
    public var requestRateLimited = 0
    /// Service-unavailable faults.
    public var serviceUnavailable = 0
    /// Partial batch failures.
    public var partialFailure = 0
    /// Injected limit-exceeded faults.
    public var limitExceeded = 0
    /// Simulated server resets.
    public var zoneNotFound = 0
    /// Simulated user zone deletions.
    public var userDeletedZone = 0

    /// No faults yet.
    public init() {}

    /// All faults.
    public var total: Int {
        networkFailure + requestRateLimited + serviceUnavailable + partialFailure + limitExceeded + zoneNotFound + userDeletedZone
    }

    /// "total (kind=n, ...)".
    public var description: String {
        "\(total) (network \(networkFailure), rateLimited \(requestRateLimited), unavailable \(serviceUnavailable), "
            + "partial \(partialFailure), limit \(limitExceeded), zoneNotFound \(zoneNotFound), userDeletedZone \(userDeletedZone))"
    }

    mutating func count(_ kind: FaultPlan.Kinds) {
        switch kind {
        case .networkFailure: networkFailure += 1
        case .requestRateLimited: requestRateLimited += 1
        case .serviceUnavailable: serviceUnavailable += 1
        case .partialFailure: partialFailure += 1
        case .limitExceeded: limitExceeded += 1
        case .zoneNotFound: zoneNotFound += 1
        case .userDeletedZone: userDeletedZone += 1
        default: break
        }
    }
}

