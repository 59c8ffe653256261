import CRDTNote
import CRDTNoteSupport
import CRDTNoteTesting
import CRDTNoteToolSupport
import Foundation

/// The sync half of `crdtnote-bench library` (Docs/BENCHMARKS.md, "Sync at library scale"): a
/// device whose library holds N notes of ~3 KB, synced with the in-memory CloudKit simulator.
/// Measured (medians): a sync sending one note edited here, a sync fetching one note another
/// device changed, the resident memory such a sync adds, and a new device's first download of
/// all N notes (time, and resident memory above the server's own).
enum LibrarySyncBench {
    struct Result {
        var syncOneChangeMs: Double
        var fetchOneChangeMs: Double
        var syncExtraRSSMB: Double
        var firstDownloadMs: Double
        var firstDownloadRSSMB: Double

        var json: JSONValue {
            var o = JSONObject()
            o["sync_one_change_ms"] = .double(syncOneChangeMs)
            o["fetch_one_change_ms"] = .double(fetchOneChangeMs)
            o["sync_extra_rss_mb"] = .double(syncExtraRSSMB)
            o["first_download_ms"] = .double(firstDownloadMs)
            o["first_download_rss_mb"] = .double(firstDownloadRSSMB)
            return .object(o)
        }

        var lines: [String] {
            [
                "sync sending one note    \(Format.ms(syncOneChangeMs))",
                "sync fetching one note   \(Format.ms(fetchOneChangeMs))",
                "memory such a sync adds  \(Format.fixed(syncExtraRSSMB, 1)) MB (resident)",
                "first download           \(Format.ms(firstDownloadMs)), \(Format.fixed(firstDownloadRSSMB, 1)) MB above the server's",
            ]
        }
    }

    /// `format`: the payload format pinned; nil: the automatic choice (a fleet of two devices of
    /// this release writes format 2).
    static func run(notes count: Int, runs: Int, format: SnapshotFormat? = nil) throws -> Result {
        var configuration = NoteSyncConfiguration()
        if let format { configuration.payloadFormat = .pinned(format) }
        let root = NSTemporaryDirectory() + "crdtnote-bench-sync-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        var rng = SplitMix64(seed: 0x5C)
        // Device A: N notes, all sent to the server (untimed).
        let a = try NoteLibrary.create(folder: root + "/a", replica: ReplicaID(rawValue: 1))
        for i in 0..<count { try a.save(try LibraryBench.typedNote(&rng, replica: ReplicaID(rawValue: 1)), as: "note-\(i)") }
        try a.flush()
        let engineA = NoteSyncEngine(library: a, store: store, configuration: configuration)
        _ = try blocking { try await engineA.sync() }

        // Device B's first download: every note, into a new library.
        let before = Memory.residentBytes()
        let b = try NoteLibrary.create(folder: root + "/b", replica: ReplicaID(rawValue: 2))
        let engineB = NoteSyncEngine(library: b, store: store, configuration: configuration)
        let download = try Measure.time { _ = try blocking { try await engineB.sync() } }.ms
        let downloadRSS = Double(max(Memory.residentBytes() - before, 0)) / 1_048_576
        guard try b.list().count == count else { throw UsageError("the first download brought \(try b.list().count) of \(count) notes") }

        var send: [Double] = [], fetch: [Double] = [], extra: [Double] = []
        for run in 0..<max(runs * 4, 10) {
            let name = "note-\((run * 7919) % count)"
            try a.edit(name) { (note: inout NoteText) throws(NoteTextError) in try note.insert("x", atScalarOffset: note.scalarCount / 2) }
            try a.flush()
            a.releaseCachedNotes()
            let resident = Memory.residentBytes()
            send.append(try Measure.time { _ = try blocking { try await engineA.sync() } }.ms)
            extra.append(Double(max(Memory.residentBytes() - resident, 0)) / 1_048_576)

            try b.edit(name) { (note: inout NoteText) throws(NoteTextError) in try note.insert("y", atScalarOffset: 0) }
            _ = try blocking { try await engineB.sync() }
            a.releaseCachedNotes()
            fetch.append(try Measure.time { _ = try blocking { try await engineA.sync() } }.ms)
        }
        guard try a.text(of: "note-0") == (try b.text(of: "note-0")) else { throw UsageError("the devices did not converge") }
        return Result(syncOneChangeMs: Timing(samples: send).median, fetchOneChangeMs: Timing(samples: fetch).median,
                      syncExtraRSSMB: Timing(samples: extra).median, firstDownloadMs: download, firstDownloadRSSMB: downloadRSS)
    }

    /// Runs `body` to completion from synchronous code.
    static func blocking<R: Sendable>(_ body: @escaping @Sendable () async throws -> R) throws -> R {
        let box = ResultBox<R>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        guard let result = box.result else { throw UsageError("the task ended without a result") }
        return try result.get()
    }
}

/// Carries a task's result to the thread waiting for it (set before the semaphore is signalled).
private final class ResultBox<R>: @unchecked Sendable {
    var result: Result<R, any Error>?
}
