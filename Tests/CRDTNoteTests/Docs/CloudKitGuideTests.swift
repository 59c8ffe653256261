import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteTesting
import Foundation
import Testing

/// Docs/CloudKit.md's testing code (§7), compiled and run with the imports an app's test target
/// has (no `@testable`): the block marked `<!-- run by: ... -->` must appear line for line in
/// this file.
@Suite("CloudKit.md")
struct CloudKitGuideTests {
    /// §7: two devices, each a note library in a temporary folder, sync through the in-memory
    /// database, reached through the CloudKit-shaped store, while it injects faults.
    @Test func testingWithoutCloudKit() async throws {
        let db = InMemoryCloudDatabase(faults: FaultPlan(rate: 0.2, kinds: .all, seed: 42))
        let store = CloudKitStyleRecordStore(database: db)   // as CloudKitRecordStore is over CKDatabase
        let folder = NSTemporaryDirectory() + "notes-test-" + UUID().uuidString
        let phoneNotes = try NoteLibrary.create(folder: folder + "/phone", replica: ReplicaID(rawValue: 1))   // fixed ids: repeatable tests
        let phone = NoteSyncEngine(library: phoneNotes, store: store, retryClock: RecordingClock())
        try phoneNotes.create("n", text: "written on the phone")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let laptopNotes = try NoteLibrary.create(folder: folder + "/laptop", replica: ReplicaID(rawValue: 2))
        let laptop = NoteSyncEngine(library: laptopNotes, store: store, retryClock: RecordingClock())
        try laptopNotes.create("m", text: "written on the laptop")
        for _ in 0..<4 {
            _ = try? await phone.sync()
            _ = try? await laptop.sync()
        }
        #expect(await db.faultCounts.total > 0)
        await db.setFaultPlan(.none)
        try await phone.sync()
        try await laptop.sync()
        try await phone.sync()
        #expect(try laptopNotes.text(of: "n") == "written on the phone")
        #expect(try phoneNotes.text(of: "m") == "written on the laptop")
        #expect(try phoneNotes.list().allSatisfy { !$0.unsaved } && laptopNotes.list().allSatisfy { !$0.unsaved })
        #expect(await db.allRecords(in: NoteSyncConfiguration().zone).notes.map(\.recordName).sorted() == ["m", "n"])
    }

    /// §7: a CKSyncEngine app's test: the model of CKSyncEngine drives the library's adapter.
    @Test func testingACKSyncEngineApp() async throws {
        let db = InMemoryCloudDatabase()
        try await db.saveZone(NoteSyncConfiguration().zone)
        let folder = NSTemporaryDirectory() + "notes-test-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = try NoteLibrary.create(folder: folder, replica: ReplicaID(rawValue: 1))
        try library.create("n", text: "written before the engine started")
        let saved = try ExternalSyncAdapter.savedEngineState(in: library)   // nil on a first launch
        let adapter = ExternalSyncAdapter(library: library, startedWithoutState: saved == nil)
        let engine = try SyncEngineModel(adapter: adapter, database: db, account: "alice",
                                         zone: NoteSyncConfiguration().zone, stateSerialization: saved)
        await engine.launch()   // fills its queue from the library, as CloudKitNoteSync.start does
        try await engine.fetchChanges()
        try await engine.sendChanges()
        #expect(await db.allRecords(in: NoteSyncConfiguration().zone).notes.map(\.recordName) == ["n"])
        #expect(await adapter.takeReport().isClean)
    }

    /// Every block marked as run by this file stands in it, line for line (indentation aside).
    @Test func everyMarkedBlockIsHere() throws {
        let guide = try String(contentsOfFile: RepositoryPaths.docs + "/CloudKit.md", encoding: .utf8)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let lines = guide.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var checked = 0
        for (index, line) in lines.enumerated() where line == "<!-- run by: Tests/CRDTNoteTests/Docs/CloudKitGuideTests.swift -->" {
            guard index + 1 < lines.count, lines[index + 1] == "```swift" else {
                Issue.record("the marker on line \(index + 1) of CloudKit.md is not followed by a ```swift block")
                continue
            }
            let block = lines[(index + 2)...].prefix { $0 != "```" }.map { $0.trimmingCharacters(in: .whitespaces) }
            checked += 1
            let found = sourceLines.indices.contains { start in
                start + block.count <= sourceLines.count && Array(sourceLines[start..<start + block.count]) == block
            }
            #expect(found, "CloudKit.md block not run by this file:\n\(block.joined(separator: "\n"))")
        }
        #expect(checked == 2)
    }
}
