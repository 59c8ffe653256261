import Foundation

/// A loaded snapshot whose cheap parts have been read and checked (visible text, counts, clock
/// table) and whose ``TextSequence`` (runs, tree, id index, delete set) is built on first need.
///
/// Shared by every copy of a note loaded lazily (the note is a value type; this box is
/// immutable apart from the one-time build). The build runs at most once, under a lock, and its
/// outcome (the sequence, or why the payload is corrupt) is kept for every copy; a copy that
/// edits takes the built sequence as its own value, so no copy ever sees another's edits.
@usableFromInline
final class DeferredSequence: @unchecked Sendable {
    /// The visible text in document order (valid UTF-8).
    let text: ArraySlice<UInt8>
    /// Unicode scalars and UTF-16 code units of `text`.
    @usableFromInline let scalarCount: Int
    @usableFromInline let utf16Count: Int
    /// Runs the snapshot declares (tombstones included).
    @usableFromInline let runCount: Int
    /// The replica table and its per-replica facts, as the built sequence will hold them.
    let replicas: [ReplicaID]
    let nextSeq: [UInt32]
    let latestStamp: [HLCTimestamp]
    let clockLog: [ClockLog]
    /// The payload this was read from, header included (``NoteText/encodedSnapshot()`` may
    /// return it unchanged).
    let payload: [UInt8]
    /// The compaction ledger the payload holds (format 3), to tell whether a copy changed it.
    let ledger: CompactionLedger?

    private let build: @Sendable () throws(BinaryDecodingError) -> TextSequence
    private let lock = NSLock()
    /// Set by the first build: the sequence, or why the payload cannot be decoded.
    private var outcome: Result<TextSequence, BinaryDecodingError>?

    init(text: ArraySlice<UInt8>, scalarCount: Int, utf16Count: Int, runCount: Int, replicas: [ReplicaID],
         nextSeq: [UInt32], latestStamp: [HLCTimestamp], clockLog: [ClockLog], payload: [UInt8], ledger: CompactionLedger? = nil,
         build: @escaping @Sendable () throws(BinaryDecodingError) -> TextSequence) {
        self.text = text
        self.scalarCount = scalarCount
        self.utf16Count = utf16Count
        self.runCount = runCount
        self.replicas = replicas
        self.nextSeq = nextSeq
        self.latestStamp = latestStamp
        self.clockLog = clockLog
        self.payload = payload
        self.ledger = ledger
        self.build = build
    }

    /// The built sequence (building it on the first call), or the error that makes the
    /// payload unusable; every later call returns the same outcome.
    func sequence() throws(BinaryDecodingError) -> TextSequence {
        lock.lock()
        defer { lock.unlock() }
        return try builtLocked().get()
    }

    /// ``sequence()``, leaving nothing cached: for the last copy holding this box, which takes
    /// the sequence as its own (so its first edit does not copy the arrays the cache shares).
    func takeSequence() throws(BinaryDecodingError) -> TextSequence {
        lock.lock()
        defer { lock.unlock() }
        let result = builtLocked()
        if case .success = result { outcome = nil }
        return try result.get()
    }

    private func builtLocked() -> Result<TextSequence, BinaryDecodingError> {
        if let outcome { return outcome }
        let result: Result<TextSequence, BinaryDecodingError>
        do {
            result = .success(try build())
        } catch {
            result = .failure(error)
        }
        outcome = result
        return result
    }
}
