import CRDTNoteSupport
import CRDTNote

/// The folder's layout version (`<root>/layout.json`) and the one-time move of a layout 1 folder
/// to layout 2's file names (``StoreFileName``), done under the lock when a store is opened.
///
/// Layout 1 (releases before this file existed) named files after record and zone names keeping
/// their case, so `Note` and `note` shared one file on a case-insensitive file system. Opening
/// such a folder renames every zone folder, record file and history folder whose name layout 2
/// spells differently, taking each record's name from the record file itself (so a file two
/// names shared goes to the record it holds), then writes `layout.json`. Every step is a rename
/// and the marker is written last, so a process killed during the move leaves a folder the next
/// open moves on from. A layout newer than this release is refused.
extension DirectoryRecordStore {
    /// The layout this release writes.
    static let layoutVersion: Int64 = 2

    /// The layout marker's path.
    var layoutPath: String { root + "/layout.json" }

    /// Checks the folder's layout under the lock; moves a layout 1 folder to layout 2, and
    /// removes temporary files of writers that died (no writer is at work under the lock).
    func openLayout() throws(RecordStoreError) {
        try files.withLock(lockPath) { () throws(RecordStoreError) in
            removeDeadWritersTemporaries()
            if let bytes = try files.read(layoutPath) {
                let version = try Self.layoutVersion(fromJSON: bytes, path: layoutPath)
                guard version <= Self.layoutVersion else {
                    throw RecordStoreError(.storageFailure, "folder store \(root) has layout \(version), newer than this release's \(Self.layoutVersion): update crdtnote")
                }
                guard version < Self.layoutVersion else { return }
            }
            try moveToLayoutTwo()
            let marker = "{\"format\": \"crdtnote-directory-layout\", \"formatVersion\": \(Self.layoutVersion)}\n"
            try files.writeAtomically(Array(marker.utf8), to: layoutPath)
        }
    }

    /// Removes the temporary files (`.<name>.tmp-…`) that writers killed mid-write left in the
    /// folder, its zones, their records and assets (history folders are swept when pruned). Call
    /// under the lock. Best effort: a leftover is never read, it only takes space.
    private func removeDeadWritersTemporaries() {
        var folders = [root, root + "/zones"]
        for zone in files.list(root + "/zones") {
            let folder = root + "/zones/" + zone
            folders += [folder, folder + "/records", folder + "/assets"]
        }
        for folder in folders {
            guard let names = try? files.files.contentsOfDirectory(at: folder) else { continue }
            for name in names where name.hasPrefix(".") && name.contains(".tmp-") { try? files.remove(folder + "/" + name) }
        }
    }

    /// Renames layout 1 names in every zone.
    private func moveToLayoutTwo() throws(RecordStoreError) {
        let zones = root + "/zones"
        for folder in try files.listAll(zones) {
            var zoneFolder = zones + "/" + folder
            if StoreFileName.mayBeLegacy(folder) {
                var spelled = StoreFileName.unescapeLegacy(folder)
                if spelled == nil { spelled = try zoneName(inFolder: zoneFolder) }
                guard let name = spelled else {
                    throw RecordStoreError(.storageFailure, "zone folder \(zoneFolder) has a layout 1 name that cannot be read back, and no record names its zone: rename it to the zone's layout 2 name")
                }
                zoneFolder = try move(zoneFolder, to: zones + "/" + StoreFileName.escape(name))
            }
            let records = zoneFolder + "/records"
            for file in try files.listAll(records) where file.hasSuffix(".json") && StoreFileName.mayBeLegacy(file) {
                let name = try recordName(inFile: records + "/" + file, legacyName: String(file.dropLast(5)))
                _ = try move(records + "/" + file, to: records + "/" + StoreFileName.escape(name) + ".json")
            }
            let history = zoneFolder + "/history"
            for folder in try files.listAll(history) where StoreFileName.mayBeLegacy(folder) {
                let versions = history + "/" + folder
                guard let first = try files.listAll(versions).first(where: { $0.hasSuffix(".json") }) else { continue }
                let name = try recordName(inFile: versions + "/" + first, legacyName: folder)
                _ = try move(versions, to: history + "/" + StoreFileName.escape(name))
            }
        }
    }

    /// Renames `from` to `to` (nothing to do when they are the same); the target must be free.
    private func move(_ from: String, to target: String) throws(RecordStoreError) -> String {
        guard from != target else { return target }
        guard try !files.exists(target) else {
            throw RecordStoreError(.storageFailure, "cannot move \(from) to its layout 2 name: \(target) exists")
        }
        try files.rename(from, to: target)
        return target
    }

    /// The record name a layout 1 record file holds, or (when the file cannot be read as a
    /// record) the one its layout 1 name `legacyName` spells. Throws when neither tells: the move
    /// stops, the marker unwritten, rather than leave a record under a name layout 2 never looks up.
    private func recordName(inFile path: String, legacyName: String) throws(RecordStoreError) -> String {
        let bytes = try files.read(path) ?? []
        do {
            return try CloudRecord.record(fromJSON: bytes).recordName
        } catch {
            guard let name = StoreFileName.unescapeLegacy(legacyName) else { throw Self.unmovable(path, error) }
            return name
        }
    }

    /// The error for a layout 1 record file that cannot be read as a record.
    private static func unmovable(_ path: String, _ error: RecordJSONError) -> RecordStoreError {
        RecordStoreError(.storageFailure, "layout 1 record file \(path) cannot be read, so the folder cannot be moved to layout 2 (repair or remove the file): \(error)")
    }

    /// The zone name the records of a zone folder carry, for a folder whose name was cut (nil
    /// when no readable record names one).
    private func zoneName(inFolder folder: String) throws(RecordStoreError) -> String? {
        for file in try files.listAll(folder + "/records") where file.hasSuffix(".json") {
            let path = folder + "/records/" + file
            guard let bytes = try files.read(path) else { continue }
            // A file that is not a record says nothing: another may; when none does, the caller
            // stops the move with an error.
            guard let record = try? CloudRecord.record(fromJSON: bytes) else { continue }
            if let zone = record.zoneID?.zoneName { return zone }
        }
        return nil
    }

    /// Reads a layout marker.
    static func layoutVersion(fromJSON bytes: [UInt8], path: String) throws(RecordStoreError) -> Int64 {
        guard case .object(let object)? = try? JSONValue(parsing: bytes),
              object["format"]?.stringValue == "crdtnote-directory-layout",
              let version = object["formatVersion"]?.numberValue?.int64Value, version >= 1
        else { throw RecordStoreError(.storageFailure, "layout file \(path) is damaged: expected {\"format\": \"crdtnote-directory-layout\", \"formatVersion\": N}") }
        return version
    }
}
