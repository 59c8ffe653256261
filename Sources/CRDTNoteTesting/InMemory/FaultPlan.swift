import CRDTNoteSupport
import CRDTNote
/// Which faults `InMemoryCloudDatabase` injects, how often, and from which seed. Each fault is
/// the answer CloudKit gives (a thrown `CloudKitFailure`, with `retryAfterSeconds` where CloudKit
/// gives one, or per-item failures), read by `CloudKitStyleRecordStore` as CloudKit's are.
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

        /// `.serverResponseLost`: a write is applied and its response lost (CloudKit's code 34).
        public static let serverResponseLost = Kinds(rawValue: 1 << 7)
        /// `.operationCancelled`: the request is cancelled before it is applied.
        public static let operationCancelled = Kinds(rawValue: 1 << 8)
        /// `.changeTokenExpired`: a change-feed request with a token finds every token of the
        /// zone expired (the records stay; the feed must be read from the start).
        public static let changeTokenExpired = Kinds(rawValue: 1 << 9)
        /// The change feed delivers one changed record damaged (its payload garbled): a record
        /// that cannot be read. The server's copy is intact.
        public static let unreadableRecord = Kinds(rawValue: 1 << 10)
        /// The change feed delivers one changed record claiming a newer schema version.
        public static let newerRecord = Kinds(rawValue: 1 << 11)
        /// A save where one record is refused as over the per-record limit (`.limitExceeded`
        /// as its item error); the rest are saved.
        public static let recordTooLarge = Kinds(rawValue: 1 << 12)
        /// A save applied in full whose saved records come back with only some keys (the first
        /// field of each), as CloudKit may return them.
        public static let partialSavedRecords = Kinds(rawValue: 1 << 13)
        /// Records handed out without their asset bytes (as a `CKAsset` not downloaded): the
        /// server and ancestor records of a save's conflicts, and the changed records of a feed page.
        public static let assetNotDownloaded = Kinds(rawValue: 1 << 14)

        /// Faults a client survives by retrying (network, throttling, partial, limits).
        public static let transient: Kinds = [.networkFailure, .requestRateLimited, .serviceUnavailable, .partialFailure, .limitExceeded]
        /// The original kinds and the server reset (what `NoteSyncSimulation` injects by
        /// default). Not `userDeletedZone`: under the default `UserDeletedZonePolicy` a client
        /// waits for the app's consent instead of recovering on its own. The kinds after it are
        /// not in it either: add them by name.
        public static let all: Kinds = [.transient, .zoneNotFound]
        /// Every kind a client must survive without losing or diverging: `all` plus lost
        /// responses, cancelled operations, expired tokens, partial saved records and assets not
        /// downloaded. (The record faults, `unreadableRecord`, `newerRecord`, `recordTooLarge`,
        /// leave a note behind on purpose.)
        public static let recoverable: Kinds = [.all, .serverResponseLost, .operationCancelled, .changeTokenExpired,
                                                .partialSavedRecords, .assetNotDownloaded]
    }

    /// Probability (0...1) that a request fails.
    public var rate: Double
    /// The kinds that may be injected.
    public var kinds: Kinds
    /// Seed of the deterministic fault stream.
    public var seed: UInt64
    /// Range of `retryAfterSeconds` for throttling faults.
    public var retryAfterSeconds: ClosedRange<Double>
    /// Whether zone errors (`zoneNotFound`, `userDeletedZone`, `changeTokenExpired`), injected
    /// or real, arrive as CloudKit's operations report them: for fetches a `.partialFailure`
    /// keyed by zone (`CloudKitFailure.zoneErrors`), for saves and deletes as every item's failure.
    public var wrapsZoneErrors: Bool

    /// A fault plan.
    public init(rate: Double, kinds: Kinds = .transient, seed: UInt64, retryAfterSeconds: ClosedRange<Double> = 1...30,
                wrapsZoneErrors: Bool = false) {
        self.rate = rate
        self.kinds = kinds
        self.seed = seed
        self.retryAfterSeconds = retryAfterSeconds
        self.wrapsZoneErrors = wrapsZoneErrors
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
    /// Lost responses (`serverResponseLost`).
    public var serverResponseLost = 0
    /// Cancelled operations.
    public var operationCancelled = 0
    /// Expired change tokens.
    public var changeTokenExpired = 0
    /// Records delivered damaged.
    public var unreadableRecord = 0
    /// Records delivered as newer.
    public var newerRecord = 0
    /// Records refused as too large.
    public var recordTooLarge = 0
    /// Saves answered with partial records.
    public var partialSavedRecords = 0
    /// Responses with assets not downloaded.
    public var assetNotDownloaded = 0

    /// No faults yet.
    package init() {}

    /// All faults.
    public var total: Int {
        networkFailure + requestRateLimited + serviceUnavailable + partialFailure + limitExceeded + zoneNotFound + userDeletedZone
            + serverResponseLost + operationCancelled + changeTokenExpired + unreadableRecord + newerRecord + recordTooLarge
            + partialSavedRecords + assetNotDownloaded
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
        case .serverResponseLost: serverResponseLost += 1
        case .operationCancelled: operationCancelled += 1
        case .changeTokenExpired: changeTokenExpired += 1
        case .unreadableRecord: unreadableRecord += 1
        case .newerRecord: newerRecord += 1
        case .recordTooLarge: recordTooLarge += 1
        case .partialSavedRecords: partialSavedRecords += 1
        case .assetNotDownloaded: assetNotDownloaded += 1
        default: break
        }
    }
}

