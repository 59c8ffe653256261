import CRDTNoteSupport
import CRDTNote
import Foundation

/// Reading records, writing assets, pruning history.
extension DirectoryRecordStore {
    func loadIndex(_ zone: RecordZoneID) throws(RecordStoreError) -> DirectoryZoneIndex {
        let path = indexPath(zone)
        guard let bytes = try files.read(path) else {
            throw RecordStoreError(.zoneNotFound, "zone '\(zone.zoneName)' does not exist in \(root)")
        }
        return try DirectoryZoneIndex(bytes: bytes, path: path)
    }

    /// The current version of `name` as the zone index says (nil: no such record, or deleted),
    /// with its asset bytes: the history file its change tag names, or the copy in `records/`
    /// when that holds the same tag (a folder whose history of the record was pruned by an older
    /// release). Anything else is damage: the version the index committed is gone.
    func currentRecord(_ name: String, index: DirectoryZoneIndex, zone: RecordZoneID) throws(RecordStoreError) -> CloudRecord? {
        guard let tag = index.currentTag(of: name) else { return nil }
        if let version = try readRecord(at: historyDirectory(name, zone) + "/" + tag + ".json", zone: zone) { return version }
        if let copy = try readRecord(at: recordPath(name, zone), zone: zone), copy.recordChangeTag == tag { return copy }
        throw RecordStoreError(.storageFailure, recordName: name,
                               "record '\(name)' of zone '\(zone.zoneName)' in \(root) is damaged: its current version \(tag) (zone.json) has no file")
    }

    /// The record in `path` with its asset bytes, or nil when the file does not exist.
    func readRecord(at path: String, zone: RecordZoneID) throws(RecordStoreError) -> CloudRecord? {
        guard let bytes = try files.read(path) else { return nil }
        let record: CloudRecord
        do {
            record = try CloudRecord.record(fromJSON: bytes)
        } catch {
            throw RecordStoreError(.storageFailure, "record file \(path) is damaged: \(error)")
        }
        var loaded = record
        for (field, value) in record.fields {
            guard case .asset(var ref) = value.value else { continue }
            ref.bytes = try readAsset(ref, field: field, recordPath: path, recordName: record.recordName, zone: zone)
            loaded[field: field] = .asset(ref)
        }
        return loaded
    }

    /// The bytes of an asset this store wrote: `assets/<fileChecksum>`, read through the file
    /// layer and checked against the reference's size and checksum. A reference the store did not
    /// write (no local checksum) is damage, like a file that does not match.
    func readAsset(_ ref: AssetReference, field: String, recordPath path: String, recordName: String, zone: RecordZoneID) throws(RecordStoreError) -> [UInt8] {
        func damaged(_ message: String) -> RecordStoreError {
            RecordStoreError(.storageFailure, recordName: recordName, "record file \(path): asset of field '\(field)' \(message)")
        }
        guard let checksum = ref.fileChecksum, AssetChecksum.isLocalChecksum(checksum) else {
            throw damaged("has no checksum of this store's assets folder")
        }
        let file = assetsDirectory(zone) + "/" + checksum
        if let size = try files.size(file), size > Int64(NoteLimits.default.maximumAssetBytes) {
            throw damaged("is \(size) bytes in \(file), over the limit of \(NoteLimits.default.maximumAssetBytes)")
        }
        guard let bytes = try files.read(file) else { throw damaged("is missing: no file \(file)") }
        if let size = ref.size, size != Int64(bytes.count) {
            throw damaged("has \(bytes.count) bytes in \(file) but the record says \(size)")
        }
        guard AssetChecksum.fnv1a64Hex(bytes) == checksum else { throw damaged("does not match its checksum in \(file)") }
        return bytes
    }

    /// Writes asset bytes under their checksum (once) and returns the field's reference.
    func writeAsset(_ bytes: [UInt8], field: String, in record: CloudRecord, zone: RecordZoneID) throws(RecordStoreError) -> AssetReference {
        let checksum = AssetChecksum.fnv1a64Hex(bytes)
        let path = assetsDirectory(zone) + "/" + checksum
        if let existing = try files.read(path) {
            guard existing == bytes else {
                throw RecordStoreError(.storageFailure, recordName: record.recordName, "asset file \(path) holds other bytes with the same checksum")
            }
        } else {
            try files.makeDirectory(assetsDirectory(zone))
            try files.writeAtomically(bytes, to: path)
        }
        var extra = JSONObject()
        if case .asset(let old)? = record[field: field] { extra = old.extra }
        return AssetReference(fileChecksum: checksum, size: Int64(bytes.count), downloadURL: "../assets/" + checksum, bytes: bytes, extra: extra)
    }

    /// Keeps the newest `historyLimit` versions of a record up to its current one (`current`,
    /// the sequence number the index committed, always kept), and removes versions newer than it
    /// (written by a save that was killed before its commit) and temporary files of dead writers
    /// (call under the lock: no writer is at work). Best effort: a version that cannot be listed
    /// or removed stays (old versions only serve as conflict ancestors).
    func pruneHistory(of name: String, current: Int64, zone: RecordZoneID) {
        let dir = historyDirectory(name, zone)
        guard let all = try? files.files.contentsOfDirectory(at: dir) else { return }
        var versions: [(Int64, String)] = []
        for file in all {
            if file.hasPrefix("."), file.contains(".tmp-") {
                try? files.remove(dir + "/" + file)
                continue
            }
            guard file.hasSuffix(".json"), let dash = file.lastIndex(of: "-"),
                  let seq = Int64(file[file.index(after: dash)...].dropLast(5)) else { continue }
            if seq > current {
                try? files.remove(dir + "/" + file)
            } else {
                versions.append((seq, file))
            }
        }
        versions.sort { $0.0 < $1.0 }
        for (_, file) in versions.dropLast(historyLimit) { try? files.remove(dir + "/" + file) }
    }
}
