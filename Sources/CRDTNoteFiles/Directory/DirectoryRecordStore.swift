import CRDTNoteSupport
import CRDTNote
import CRDTNoteDurableFiles
import Foundation

/// A record store in a folder: one CloudKit Web Services JSON file per record plus asset files,
/// used by the CLI and by apps that want a local, inspectable store. Several processes may use
/// one folder at once, and any of them may be killed at any moment (Docs/RECORD-FORMAT.md,
/// "The folder record store").
///
/// Layout 2, one folder per zone (names escaped so that they differ even case-folded, see
/// `StoreFileName`):
/// ```
/// <root>/.lock                                 flock lock file: every request holds it, across processes
/// <root>/layout.json                           layout version (2)
/// <root>/schema.json                           field types per record type, fixed when first saved
/// <root>/zones/<zone>/zone.json                incarnation + change log (tokens, tags): the commit point
/// <root>/zones/<zone>/history/<name>/<tag>.json  versions; the one zone.json names is current
/// <root>/zones/<zone>/records/<name>.json      a copy of the current version, for people and tools
/// <root>/zones/<zone>/assets/<checksum>        asset bytes, content-addressed, never rewritten
/// ```
/// Every request (save, delete, fetch, zone change) holds the lock for its whole check and
/// write. A save writes assets and history files, then replaces `zone.json` (one rename commits
/// the batch), then refreshes the copies; a delete commits in `zone.json` before removing files.
/// Every file is written to a temporary file, flushed and renamed, so a killed writer leaves the
/// old or the new state, never a torn file. Change tags are `<incarnation>-<sequence>` and
/// change tokens name a sequence number; a stale tag conflicts exactly as in
/// `InMemoryCloudDatabase`, and a record giving a field another type than the folder's schema
/// fixed for it is refused as there (`invalidArguments`, see `RecordSchema`). Assets are never
/// garbage-collected.
public struct DirectoryRecordStore: RecordStore {
    /// The store's folder.
    public let root: String
    /// The limits enforced.
    public let limits: RecordStoreLimits
    /// Versions kept per record for conflict ancestors.
    public let historyLimit: Int
    /// The file layer every file operation goes through.
    let files: StoreFileSystem

    /// A store in `root`, created if missing.
    public init(root: String, limits: RecordStoreLimits = .cloudKit, historyLimit: Int = 16) throws(RecordStoreError) {
        try self.init(root: root, limits: limits, historyLimit: historyLimit, fileSystem: PosixFileSystem())
    }

    /// A store in `root` on `fileSystem` (in tests, a `FaultInjectingFileSystem`), created if missing.
    package init(root: String, limits: RecordStoreLimits = .cloudKit, historyLimit: Int = 16, fileSystem: any DurableFileSystem) throws(RecordStoreError) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.limits = limits
        self.historyLimit = max(historyLimit, 1)
        self.files = StoreFileSystem(files: fileSystem)
        try files.makeDirectory(self.root + "/zones")
        try openLayout()
    }

    // MARK: Paths

    func zoneDirectory(_ zone: RecordZoneID) -> String { root + "/zones/" + StoreFileName.escape(zone.zoneName) }
    func indexPath(_ zone: RecordZoneID) -> String { zoneDirectory(zone) + "/zone.json" }
    func recordsDirectory(_ zone: RecordZoneID) -> String { zoneDirectory(zone) + "/records" }
    func assetsDirectory(_ zone: RecordZoneID) -> String { zoneDirectory(zone) + "/assets" }
    func recordPath(_ name: String, _ zone: RecordZoneID) -> String { recordsDirectory(zone) + "/" + StoreFileName.escape(name) + ".json" }
    func historyDirectory(_ name: String, _ zone: RecordZoneID) -> String { zoneDirectory(zone) + "/history/" + StoreFileName.escape(name) }
    var lockPath: String { root + "/.lock" }

    // MARK: RecordStore

    /// Creates the zone's folder and index; an existing zone is left alone.
    public func createZone(_ zone: RecordZoneID) throws(RecordStoreError) {
        try files.withLock(lockPath) { () throws(RecordStoreError) in
            if try files.exists(indexPath(zone)) { return }
            try files.remove(zoneDirectory(zone)) // leftovers of a crashed delete
            for dir in [recordsDirectory(zone), assetsDirectory(zone), zoneDirectory(zone) + "/history"] {
                try files.makeDirectory(dir)
            }
            let incarnation = String(UInt64.random(in: 1...UInt64.max), radix: 16)
            try files.writeAtomically(DirectoryZoneIndex(incarnation: incarnation).bytes(), to: indexPath(zone))
        }
    }

    /// Deletes the zone: its index goes first (the zone is gone from then on), then its files.
    public func deleteZone(_ zone: RecordZoneID) throws(RecordStoreError) {
        try files.withLock(lockPath) { () throws(RecordStoreError) in
            try files.remove(indexPath(zone))
            try files.remove(zoneDirectory(zone))
        }
    }

    /// Current versions of the named records that exist, with their asset bytes.
    public func fetchRecords(named names: [String], in zone: RecordZoneID) throws(RecordStoreError) -> [String: CloudRecord] {
        try files.withLock(lockPath) { () throws(RecordStoreError) in
            var out: [String: CloudRecord] = [:]
            let index = try loadIndex(zone)
            for name in names { out[name] = try currentRecord(name, index: index, zone: zone) }
            return out
        }
    }

    /// Saves with change-tag checks (see `RecordStore`).
    public func saveRecords(_ records: [CloudRecord], in zone: RecordZoneID) throws(RecordStoreError) -> [CloudRecord] {
        try files.withLock(lockPath) { () throws(RecordStoreError) in
            var index = try loadIndex(zone)
            var schema = try loadSchema()
            var schemaChanged = false
            if let error = limits.requestError(records: records) { throw error }
            try OptimisticConcurrency.checkUnique(records.map(\.recordName))
            var saved: [CloudRecord] = []
            var itemErrors: [String: RecordStoreError] = [:]
            var commits: [(path: String, bytes: [UInt8])] = []
            for client in records {
                let name = client.recordName
                guard !name.isEmpty else { throw RecordStoreError(.invalidArguments, "a record has an empty name") }
                let current = try currentRecord(name, index: index, zone: zone)
                let wasDeleted = index.changes[name]?.deleted == true
                if let error = limits.recordError(client) ?? schema.check(client, in: "the folder store \(root)")
                    ?? OptimisticConcurrency.check(client: client, current: current, wasDeleted: wasDeleted, ancestor: { tag in
                        // A conflict's ancestor is optional (CloudKit may omit it too): a pruned or
                        // unreadable old version makes the merge two-way, which loses nothing.
                        try? readRecord(at: historyDirectory(name, zone) + "/" + tag + ".json", zone: zone)
                    }) {
                    itemErrors[name] = error
                    continue
                }
                var version: CloudRecord
                switch AssetBinding.bind(client, current: current) {
                case .failure(let error):
                    itemErrors[name] = error
                    continue
                case .success(let bound):
                    version = bound
                }
                if schema.learn(version) { schemaChanged = true }
                let tag = index.recordChange(of: name, deleted: false)
                version.recordChangeTag = tag
                version.zoneID = zone
                for (field, value) in version.fields {
                    guard case .asset(let ref) = value.value, let bytes = ref.bytes else { continue }
                    version[field: field] = .asset(try writeAsset(bytes, field: field, in: version, zone: zone))
                }
                let json = version.jsonBytes()
                try files.makeDirectory(historyDirectory(name, zone))
                try files.writeAtomically(json, to: historyDirectory(name, zone) + "/" + tag + ".json")
                commits.append((recordPath(name, zone), json))
                saved.append(version)
            }
            if !commits.isEmpty {
                if schemaChanged { try writeSchema(schema) }
                // The commit point: from this rename on, every version of the batch is current.
                try files.writeAtomically(index.bytes(), to: indexPath(zone))
                do throws(RecordStoreError) {
                    for commit in commits { try files.writeAtomically(commit.bytes, to: commit.path) }
                } catch {
                    throw RecordStoreError(.storageFailure, "saved (zone.json committed the batch) but the copy in records/ was not refreshed: \(error.message)")
                }
                for version in saved {
                    pruneHistory(of: version.recordName, current: index.changes[version.recordName]?.sequence ?? 0, zone: zone)
                }
            }
            if !itemErrors.isEmpty { throw RecordStoreError.partialFailure(itemErrors, saved: saved) }
            return saved
        }
    }

    /// Deletes the named records (missing ones are ignored) and their history.
    public func deleteRecords(named names: [String], in zone: RecordZoneID) throws(RecordStoreError) {
        try files.withLock(lockPath) { () throws(RecordStoreError) in
            var index = try loadIndex(zone)
            if let error = limits.deleteError(count: names.count) { throw error }
            let existing = names.filter { index.currentTag(of: $0) != nil }
            guard !existing.isEmpty else { return }
            for name in existing { _ = index.recordChange(of: name, deleted: true) }
            // The commit point: from this rename on, the records are deleted, files or not.
            try files.writeAtomically(index.bytes(), to: indexPath(zone))
            do throws(RecordStoreError) {
                for name in existing {
                    try files.remove(recordPath(name, zone))
                    try files.remove(historyDirectory(name, zone))
                }
                try files.syncDirectory(recordsDirectory(zone))
            } catch {
                throw RecordStoreError(.storageFailure, "deleted (zone.json committed it) but files of the records were not removed: \(error.message)")
            }
        }
    }

    /// A page of the change feed after `token`, read under the lock from one committed zone
    /// index: each record whose latest change is after the token, once, oldest change first; a
    /// record whose latest change was a delete is in `deletedRecordNames`. Tokens are the index's
    /// sequence numbers, so a page never half-sees a batch another process is saving.
    public func fetchChanges(in zone: RecordZoneID, since token: ChangeToken?, limit: Int) throws(RecordStoreError) -> RecordChanges {
        try files.withLock(lockPath) { () throws(RecordStoreError) in
            let index = try loadIndex(zone)
            var after: Int64 = 0
            if let token {
                let parts = String(decoding: token.bytes, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 3, parts[0] == "dir1", let sequence = Int64(parts[2]), sequence >= 0 else {
                    throw RecordStoreError(.invalidArguments, "change token was not issued by a directory store")
                }
                guard parts[1] == index.incarnation, sequence <= index.sequence else {
                    throw RecordStoreError(.changeTokenExpired, "change token belongs to an earlier incarnation of zone '\(zone.zoneName)'")
                }
                after = sequence
            }
            let pending = index.changes.filter { $0.value.sequence > after }.sorted { $0.value.sequence < $1.value.sequence }
            let page = pending.prefix(max(limit, 1))
            var changed: [CloudRecord] = []
            var deleted: [String] = []
            for entry in page {
                if entry.value.deleted {
                    deleted.append(entry.key)
                } else if let record = try currentRecord(entry.key, index: index, zone: zone) {
                    changed.append(record)
                }
            }
            let moreComing = pending.count > page.count
            let last = moreComing ? (page.last?.value.sequence ?? after) : index.sequence
            return RecordChanges(changed: changed, deletedRecordNames: deleted,
                                 token: ChangeToken(bytes: Array("dir1:\(index.incarnation):\(last)".utf8)), moreComing: moreComing)
        }
    }
}
