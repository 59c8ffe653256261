import CRDTNote
import CRDTNoteFiles
import CRDTNoteDurableFiles
import Foundation

/// The asset files an in-place `edit` leaves behind: the note asset files the record's previous
/// version referenced that the new version no longer does. Only files crdtnote names itself are
/// candidates — a note field's (`text`, `payloadAsset`) reference whose `downloadURL` is exactly
/// `<field>-<checksum>.bin` with a local checksum, a regular file directly in the record's folder
/// — and only once the new record is in place; any other file, a link, or an asset the new version
/// still references is never touched.
enum EditedAssets {
    /// Whether the two paths name the same file (`edit RECORD -o RECORD` is an edit in place).
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        var first = stat()
        var second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// File names (in the record's folder) of the note assets `before` wrote, as crdtnote names them.
    static func crdtnoteAssetNames(of record: CloudRecord) -> Set<String> {
        var names: Set<String> = []
        for field in NoteSchema.Field.written {
            guard case .asset(let ref)? = record[field: field], let checksum = ref.fileChecksum,
                  AssetChecksum.isLocalChecksum(checksum), ref.downloadURL == "\(field)-\(checksum).bin"
            else { continue }
            names.insert("\(field)-\(checksum).bin")
        }
        return names
    }

    /// Every `downloadURL` of an ASSET field of `record` (app fields included).
    static func referencedNames(of record: CloudRecord) -> Set<String> {
        var names: Set<String> = []
        for (_, value) in record.fields {
            if case .asset(let ref) = value.value, let url = ref.downloadURL { names.insert(url) }
        }
        return names
    }

    /// Removes, from `folder`, the asset files of `before` that `after` no longer references, then
    /// flushes the folder. The edit has already succeeded: a file that cannot be removed is named
    /// in a note on standard error and left (it is only a stale copy), the exit status unchanged.
    static func removeReplaced(before: CloudRecord, after: CloudRecord, folder: String) {
        let stale = crdtnoteAssetNames(of: before).subtracting(referencedNames(of: after)).sorted()
        guard !stale.isEmpty else { return }
        let files = PosixFileSystem()
        var removed = false
        for name in stale {
            let path = DurablePath.join(folder, name)
            do {
                guard try files.status(at: path)?.kind == .regularFile else { continue }
                try files.removeFile(at: path)
                removed = true
            } catch {
                OutputWriter.writeToStandardError("crdtnote: note: \(path): old asset file not removed: \(error.message)\n")
            }
        }
        guard removed else { return }
        do {
            try files.syncDirectory(at: folder)
        } catch {
            OutputWriter.writeToStandardError("crdtnote: note: \(folder): removal of old asset files not flushed to disk: \(error.message)\n")
        }
    }
}
