import CRDTNoteSupport
import CRDTNote
import Foundation

/// Reading records, writing assets, pruning history.
extension DirectoryRecordStore {
    func loadIndex(_ zone: RecordZoneID) throws(RecordStoreError) -> DirectoryZoneIndex {
        let path = indexPath(zone)
        guard let bytes = try StoreFileSystem.read(path) else {
            throw RecordStoreError(.zoneNotFound, "zone '\(zone.zoneName)' does not exist in \(root)")
        }
        return try DirectoryZoneIndex(bytes: bytes, path: path)
    }

    /// The record in `path` with its asset bytes, or nil when the file does not exist.
    func readRecord(at path: String, zone: RecordZoneID) throws(RecordStoreError) -> CloudRecord? {
        guard let bytes = try StoreFileSystem.read(path) else { return nil }
        let record: CloudRecord
        do {
            record = try CloudRecord.record(fromJSON: bytes)
        } catch {
            throw RecordStoreError(.storageFailure, "record file \(path) is damaged: \(error)")
        }
        let locator = AssetLocator(jsonDirectory: recordsDirectory(zone), assetsDirectory: assetsDirectory(zone))
        var loaded = record
        for (field, value) in record.fields {
            guard case .asset(var ref) = value.value else { continue }
            do {
                ref.bytes = try locator.readAsset(ref, field: field)
            } catch {
                throw RecordStoreError(.storageFailure, recordName: record.recordName, "record file \(path): \(error)")
            }
            loaded[field: field] = .asset(ref)
        }
        return loaded
    }

    /// Writes asset bytes under their checksum (once) and returns the field's reference.
    func writeAsset(_ bytes: [UInt8], field: String, in record: CloudRecord, zone: RecordZoneID) throws(RecordStoreError) -> AssetReference {
        let checksum = AssetChecksum.fnv1a64Hex(bytes)
        let path = assetsDirectory(zone) + "/" + checksum
        if let existing = try StoreFileSystem.read(path) {
            guard existing == bytes else {
                throw RecordStoreError(.storageFailure, recordName: record.recordName, "asset file \(path) holds other bytes with the same checksum")
            }
        } else {
            try StoreFileSystem.makeDirectory(assetsDirectory(zone))
            try StoreFileSystem.writeAtomically(bytes, to: path, fault: writeFault)
        }
        var extra = JSONObject()
        if case .asset(let old)? = record[field: field] { extra = old.extra }
        return AssetReference(fileChecksum: checksum, size: Int64(bytes.count), downloadURL: "../assets/" + checksum, bytes: bytes, extra: extra)
    }

    /// Keeps the newest `historyLimit` versions of a record. Best effort: a version that cannot
    /// be listed or removed stays (old versions only serve as conflict ancestors).
    func pruneHistory(of name: String, zone: RecordZoneID) {
        let dir = historyDirectory(name, zone)
        let files = StoreFileSystem.list(dir).compactMap { file -> (Int64, String)? in
            guard file.hasSuffix(".json"), let dash = file.lastIndex(of: "-"),
                  let seq = Int64(file[file.index(after: dash)...].dropLast(5)) else { return nil }
            return (seq, file)
        }.sorted { $0.0 < $1.0 }
        for (_, file) in files.dropLast(historyLimit) { try? StoreFileSystem.remove(dir + "/" + file) }
    }
}
