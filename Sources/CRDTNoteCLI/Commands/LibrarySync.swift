import CRDTNote
import CRDTNoteFiles
import CRDTNoteSupport

/// `crdtnote library sync DIR --server SERVERDIR`: one sync of the library with a folder record
/// store acting as the server, as the app's `NoteSyncEngine` runs against CloudKit. Prints what
/// it did (`--json`: `fetched`, `saved`, `deleted`, `conflictsMerged`, `changedNotes`,
/// `failedNotes`). Exits 0 when every note synced, 1 when a note failed (the others synced).
func runLibrarySync(_ library: NoteLibrary, folder: String, server: String, json: Bool) async throws(CLIError) {
    let store: DirectoryRecordStore
    do {
        store = try DirectoryRecordStore(root: server)
    } catch {
        throw CLIError(code: .cannotWrite, message: "cannot open the server folder: \(error)", file: server)
    }
    // Retries are quick: the folder store fails only when busy or on I/O.
    let configuration = NoteSyncConfiguration(maxAttempts: 6, baseBackoff: .milliseconds(20), maxBackoff: .milliseconds(500))
    let engine = NoteSyncEngine(library: library, store: store, configuration: configuration)
    let report: NoteSyncReport
    do {
        report = try await engine.sync()
    } catch {
        if let libraryError = error.libraryError { throw .library(libraryError, folder: folder) }
        let transient = error.storeError?.isTransient == true || error.code == .attemptsExhausted
        throw CLIError(code: transient ? .busy : .operationFailed, message: "sync failed: \(error)", file: server)
    }
    try libraryCall(folder) { () throws(NoteLibraryError) in try library.flush() }
    let output: [UInt8]
    if json {
        var object = JSONObject()
        object["fetched"] = .number(JSONNumber(report.fetched))
        object["saved"] = .number(JSONNumber(report.saved))
        object["deleted"] = .number(JSONNumber(report.deleted))
        object["conflictsMerged"] = .number(JSONNumber(report.conflictsMerged))
        object["changedNotes"] = .array(report.changedNotes.map { .string($0) })
        var failed = JSONObject()
        for name in report.failedNotes { failed[name] = .string(report.failures[name].map { "\($0)" } ?? "") }
        object["failedNotes"] = .object(failed)
        output = JSONValue.object(object).serialized(pretty: true) + [0x0A]
    } else {
        var text = "fetched \(report.fetched), saved \(report.saved), deleted \(report.deleted), conflicts merged \(report.conflictsMerged)\n"
        for name in report.changedNotes { text += "changed\t\(name)\n" }
        for name in report.failedNotes { text += "failed\t\(name)\t\(report.failures[name].map { "\($0)" } ?? "")\n" }
        output = Array(text.utf8)
    }
    try OutputWriter.writeToStandardOutput(output)
    if !report.failures.isEmpty {
        throw CLIError(code: .operationFailed, message: "\(report.failures.count) note(s) failed to sync (see failedNotes)", file: server)
    }
}
