import CRDTNoteSupport
import CRDTNote
import CRDTNoteDurableFiles
import Foundation

/// A record store in a folder: one CloudKit Web Services JSON file per record plus asset files,
/// used by the CLI and by apps that want a local, inspectable store.
///
/// Layout, one folder per zone (names escaped, see `StoreFileName`):
/// ```
/// <root>/.lock                                 advisory lock: one writer at a time, across processes
/// <root>/schema.json                           field types per record type, fixed when first saved
/// <root>/zones/<zone>/zone.json                incarnation + change log (tokens, tags)
/// <root>/zones/<zone>/records/<name>.json      current version (the commit point)
/// <root>/zones/<zone>/history/<name>/<tag>.json  recent versions, for conflict ancestors
/// <root>/zones/<zone>/assets/<checksum>        asset bytes, content-addressed, never rewritten
/// ```
/// Every file is written to a temporary file, flushed and renamed, so a crash never leaves a
/// half-written record. Change tags are `<incarnation>-<sequence>`; a stale tag conflicts
/// exactly as in `InMemoryCloudDatabase`, and a record giving a field another type than the
/// folder's schema fixed for it is refused as there (`invalidArguments`, see `RecordSchema`).
/// Assets are never garbage-collected.
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
            _ = try loadIndex(zone)
            var out: [String: CloudRecord] = [:]
            for name in names { out[name] = try readRecord(at: recordPath(name, zone), zone: zone) }
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
                let current = try readRecord(at: recordPath(name, zone), zone: zone)
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
                try files.writeAtomically(index.bytes(), to: indexPath(zone))
                for commit in commits { try files.writeAtomically(commit.bytes, to: commit.path) }
                for version in saved { pruneHistory(of: version.recordName, zone: zone) }
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
            var existing: [String] = []
            for name in names { if try files.exists(recordPath(name, zone)) { existing.append(name) } }
            guard !existing.isEmpty else { return }
            for name in existing { _ = index.recordChange(of: name, deleted: true) }
            try files.writeAtomically(index.bytes(), to: indexPath(zone))
            for name in existing {
                try files.remove(recordPath(name, zone))
                try files.remove(historyDirectory(name, zone))
            }
            try files.syncDirectory(recordsDirectory(zone))
        }
    }

    /// A page of the change feed after `token`. The record files decide: an entry whose file
    /// exists is reported as changed, one whose file is gone as deleted.
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
                if let record = try readRecord(at: recordPath(entry.key, zone), zone: zone) {
                    changed.append(record)
                } else if entry.value.deleted {
                    deleted.append(entry.key)
                }
            }
            let moreComing = pending.count > page.count
            let last = moreComing ? (page.last?.value.sequence ?? after) : index.sequence
            return RecordChanges(changed: changed, deletedRecordNames: deleted,
                                 token: ChangeToken(bytes: Array("dir1:\(index.incarnation):\(last)".utf8)), moreComing: moreComing)
        }
    }
}
