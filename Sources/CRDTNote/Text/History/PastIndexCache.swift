import Foundation

/// What reading a note's past needs from its history, built on the first read and kept until
/// the history changes (``PastIndex``: pending payloads decoded). Copies of a history share it until one of them changes (that
/// copy then gets a fresh one), so a history screen asking `text(at:)` for many times decodes
/// and indexes the history once. Thread-safe: reads of a shared note from several threads
/// build it once.
final class PastIndexCache: @unchecked Sendable {
    private let lock = NSLock()
    private var index: PastIndex?

    init() {}

    /// The cached index, else the one `build` makes (kept; a failure is not).
    func index(orBuild build: () throws(NoteHistoryError) -> PastIndex) throws(NoteHistoryError) -> PastIndex {
        lock.lock()
        defer { lock.unlock() }
        if let index { return index }
        let built = try build()
        index = built
        return built
    }

    /// Whether the cache holds an index (for a cache no other copy holds: no lock).
    var isFilledUnshared: Bool { index != nil }
}

/// A history read for the past: its events (sorted) indexed by element, and its shadows and
/// their clock entries (Docs/FORMAT.md §11.6), every pending payload decoded and united.
struct PastIndex: Sendable {
    var deletions: TextSequence.DeletionTimes
    var shadows: [ShadowRun]
    var shadowStamps: [ReplicaID: [ClockLogEntry]]
}
