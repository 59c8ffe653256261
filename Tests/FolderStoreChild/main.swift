// The child process of FolderStoreProcessTests: one of several processes writing to the same
// folder record store (`DirectoryRecordStore`) at once, as `crdtnote library sync` processes do
// with one server folder. It saves new records "w<writer>-<n>" (one per save, or two per save
// when n is even, so batches are exercised), deletes every third one it saved, and acknowledges
// each change on standard output only after the store returned: "saved <name> <tag>" and
// "deleted <name>" — until it has made <count> saves or is killed.
//
// Usage: FolderStoreChild <root> <writer> <count>
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CRDTNote
import CRDTNoteFiles

/// Writes a whole line to standard output, unbuffered; false when it cannot.
func emit(_ line: String) -> Bool {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress.map { $0 + offset }, bytes.count - offset) }
        if written < 0 {
            if errno == EINTR { continue }
            return false
        }
        offset += written
    }
    return true
}

func fail(_ message: String) -> Never {
    let bytes = Array("FolderStoreChild: \(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, bytes.count) }
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    fail("usage: FolderStoreChild <root> <writer> <count>")
}
let root = arguments[1]
let writer = arguments[2]
let zone = RecordZoneID(zoneName: "Notes")

func record(_ n: Int) -> CloudRecord {
    var record = CloudRecord(recordName: "w\(writer)-\(n)", recordType: "Note")
    record[field: "version"] = .int64(2)
    record[field: "text"] = .string("writer \(writer), record \(n)")
    return record
}

do throws(RecordStoreError) {
    let store = try DirectoryRecordStore(root: root)
    try store.createZone(zone)
    var n = 0
    while n < count {
        let batch = n % 2 == 0 && n + 1 < count ? [record(n), record(n + 1)] : [record(n)]
        let saved = try store.saveRecords(batch, in: zone)
        for version in saved {
            guard emit("saved \(version.recordName) \(version.recordChangeTag ?? "-")") else { exit(1) }
        }
        for version in batch {
            let index = Int(version.recordName.split(separator: "-").last ?? "") ?? 0
            if index % 3 == 2 {
                try store.deleteRecords(named: [version.recordName], in: zone)
                guard emit("deleted \(version.recordName)") else { exit(1) }
            }
        }
        n += batch.count
    }
} catch {
    fail("\(error)")
}
exit(0)
