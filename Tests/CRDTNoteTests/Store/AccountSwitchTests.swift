import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteToolSupport
import CRDTNoteDurableFiles

/// Accounts (Docs/CloudKit.md, "Accounts"): one library, two in-memory databases standing for
/// two iCloud accounts. Nothing of account A is ever saved in account B unless the app adopts it.
@Suite struct AccountSwitchTests {
    let zone = NoteSyncConfiguration().zone

    /// Two accounts' databases and one device's library.
    struct World {
        let dbA = InMemoryCloudDatabase()
        let dbB = InMemoryCloudDatabase()
        let storeA: CloudKitStyleRecordStore<InMemoryCloudDatabase>
        let storeB: CloudKitStyleRecordStore<InMemoryCloudDatabase>
        let library: NoteLibrary

        init() throws {
            storeA = CloudKitStyleRecordStore(database: dbA)
            storeB = CloudKitStyleRecordStore(database: dbB)
            library = try NoteLibrary.create(folder: "/notes", replica: .test(1), fileSystem: FaultInjectingFileSystem())
        }

        func engine(_ store: CloudKitStyleRecordStore<InMemoryCloudDatabase>) -> NoteSyncEngine {
            NoteSyncEngine(library: library, store: store, retryClock: RecordingClock())
        }
    }

    /// The texts of the note records of `db`'s notes zone, by name (read as a device would).
    func serverTexts(_ db: InMemoryCloudDatabase) async throws -> [String: String] {
        try await db.noteTexts(in: zone)
    }

    /// Account A's notes (texts marked "A-secret"), edits and unsent deletes; a switch to B
    /// keeping them locally; edits in B to kept and new notes while another device of B adds
    /// its own. Whatever the order, no record B holds is one of A's notes or carries A's text,
    /// a delete made in A never reaches B's note of the same name, and the kept notes stay on
    /// this device with every edit. Adopting them then sends them (the oracle can see it).
    @Test(arguments: 1...10 as ClosedRange<UInt64>)
    func switchingNeverSendsTheOldAccountsNotes(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let world = try World()
        let engineA = world.engine(world.storeA)
        #expect(try await engineA.accountChanged(to: "A", localNotes: .keep).kind == .signedIn)
        // B's other device writes a note named like one this device will delete in A.
        let other = try NoteLibrary.create(folder: "/other", replica: .test(2), fileSystem: FaultInjectingFileSystem())
        let otherEngine = NoteSyncEngine(library: other, store: world.storeB, retryClock: RecordingClock())
        try other.create("shared", text: "B's own shared note")
        try await otherEngine.sync()

        var expected: [String: String] = [:] // this device's notes and texts
        try world.library.create("shared", text: "A-secret shared")
        expected["shared"] = "A-secret shared"
        for step in 0..<Int.random(in: 6...14, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0, 1:
                let name = "a\(step)"
                try world.library.create(name, text: "A-secret \(step)")
                expected[name] = "A-secret \(step)"
            case 2:
                guard let name = expected.keys.sorted().randomElement(using: &random) else { continue }
                expected[name, default: ""] += " A-secret edit"
                try world.library.setText(expected[name, default: ""], of: name)
            default:
                try await engineA.sync()
            }
        }
        try await engineA.sync()
        // Unsent work of A: a delete of "shared" and an edit.
        try world.library.delete("shared")
        expected["shared"] = nil
        if let name = expected.keys.sorted().randomElement(using: &random) {
            expected[name, default: ""] += " unsent A-secret"
            try world.library.setText(expected[name, default: ""], of: name)
        }
        let aNotes = Set(expected.keys)

        let engineB = world.engine(world.storeB)
        let change = try await engineB.accountChanged(to: "B", localNotes: .keep)
        #expect(change.kind == .switched && change.previousAccount == "A" && change.account == "B")
        #expect(change.keptLocally == aNotes.sorted())
        #expect(change.transportMustReset)
        #expect(try await engineB.localOnlyNoteNames() == aNotes.sorted())

        // B's notes arrive, among them B's own "shared".
        try await engineB.sync()
        expected["shared"] = "B's own shared note"
        var namesInB: Set<String> = ["shared"]
        for step in 0..<Int.random(in: 6...14, using: &random) {
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                let name = "b\(step)"
                try world.library.create(name, text: "written in B \(step)")
                expected[name] = "written in B \(step)"
                namesInB.insert(name)
            case 1, 2:
                guard let name = expected.keys.sorted().randomElement(using: &random) else { continue }
                let text = expected[name, default: ""] + (aNotes.contains(name) ? " A-secret edited in B" : " edited in B")
                try world.library.setText(text, of: name)
                expected[name] = text
            case 3:
                guard let name = expected.keys.sorted().randomElement(using: &random) else { continue }
                try world.library.delete(name)
                expected[name] = nil
                namesInB.remove(name)
            default:
                try await engineB.sync()
                try await otherEngine.sync()
            }
        }
        try await engineB.sync()
        try await otherEngine.sync()
        try await engineB.sync()

        let inB = try await serverTexts(world.dbB)
        #expect(Set(inB.keys) == namesInB)
        #expect(inB.values.allSatisfy { !$0.contains("A-secret") })
        for name in namesInB { #expect(inB[name] == expected[name]) }
        for (name, text) in expected { #expect(try world.library.text(of: name) == text) }
        #expect(try world.library.list().map(\.name).sorted() == expected.keys.sorted())

        // Adopting sends the kept notes: the oracle above would have seen them.
        let kept = Set(expected.keys).intersection(aNotes)
        #expect(try await engineB.adoptLocalNotes() == kept.sorted())
        try await engineB.sync()
        let adopted = try await serverTexts(world.dbB)
        for name in kept { #expect(adopted[name] == expected[name]) }
    }

    /// What the switch prevents: the same library synced with B's store without telling the
    /// engine about the account sends every note of A into B (zone recovery re-creates them).
    @Test func withoutTheAccountChangeTheOldNotesWouldLeak() async throws {
        let world = try World()
        let engineA = world.engine(world.storeA)
        try world.library.create("diary", text: "A-secret")
        try await engineA.sync()
        try await world.engine(world.storeB).sync()
        #expect(try await serverTexts(world.dbB) == ["diary": "A-secret"])
    }

    /// `.remove`: the old account's notes leave this device (the old account keeps them) and
    /// nothing is sent into B; B's notes arrive.
    @Test func removingLocalNotesOnASwitch() async throws {
        let world = try World()
        let engineA = world.engine(world.storeA)
        try await engineA.accountChanged(to: "A", localNotes: .remove)
        try world.library.create("x", text: "A-secret x")
        try world.library.create("y", text: "A-secret y")
        try await engineA.sync()
        try world.library.setText("A-secret y, unsent", of: "y")
        let other = try NoteLibrary.create(folder: "/other", replica: .test(2), fileSystem: FaultInjectingFileSystem())
        try other.create("z", text: "B's z")
        try await NoteSyncEngine(library: other, store: world.storeB, retryClock: RecordingClock()).sync()

        let engineB = world.engine(world.storeB)
        let change = try await engineB.accountChanged(to: "B", localNotes: .remove)
        #expect(change.kind == .switched && change.removed == ["x", "y"] && change.keptLocally.isEmpty)
        #expect(try world.library.list().isEmpty)
        try await engineB.sync()
        #expect(try await serverTexts(world.dbB) == ["z": "B's z"])
        #expect(try world.library.text(of: "z") == "B's z")
        #expect(try await serverTexts(world.dbA) == ["x": "A-secret x", "y": "A-secret y"])
    }

    /// A sign-out keeps the notes, sends nothing (`.signedOut`); the same account signing in
    /// again takes its notes back, with the edits made meanwhile; a note written while signed
    /// out goes into the account that signs in.
    @Test func signingOutAndBackIn() async throws {
        let world = try World()
        let engine = world.engine(world.storeA)
        try await engine.accountChanged(to: "A", localNotes: .keep)
        try world.library.create("n", text: "one")
        try await engine.sync()
        let out = try await engine.accountChanged(to: nil, localNotes: .keep)
        #expect(out.kind == .signedOut && out.keptLocally == ["n"] && out.account == nil)
        #expect(try await engine.account() == nil)
        try world.library.setText("one, edited offline", of: "n")
        try world.library.create("m", text: "written while signed out")
        let error = await #expect(throws: NoteSyncError.self) { try await engine.sync() }
        #expect(error?.code == .signedOut)
        #expect(try await serverTexts(world.dbA) == ["n": "one"])

        let back = try await engine.accountChanged(to: "A", localNotes: .keep)
        #expect(back.kind == .signedIn && back.readopted == ["n"])
        try await engine.sync()
        #expect(try await serverTexts(world.dbA) == ["n": "one, edited offline", "m": "written while signed out"])
        #expect(try await engine.localOnlyNoteNames().isEmpty)
    }

    /// A → B → A: each account's notes are kept when it goes and sync with it again when it
    /// comes back (merged with what it holds), never with the other one.
    @Test func switchingBackReadoptsTheNotesOfThatAccount() async throws {
        let world = try World()
        let engineA = world.engine(world.storeA)
        try await engineA.accountChanged(to: "A", localNotes: .keep)
        try world.library.create("a", text: "A-secret")
        try await engineA.sync()
        let engineB = world.engine(world.storeB)
        #expect(try await engineB.accountChanged(to: "B", localNotes: .keep).keptLocally == ["a"])
        try world.library.create("b", text: "written in B")
        try world.library.setText("A-secret, edited while B was signed in", of: "a")
        try await engineB.sync()
        let back = try await engineA.accountChanged(to: "A", localNotes: .keep)
        #expect(back.kind == .switched && back.readopted == ["a"] && back.keptLocally == ["b"])
        try await engineA.sync()
        #expect(try await serverTexts(world.dbA) == ["a": "A-secret, edited while B was signed in"])
        #expect(try await serverTexts(world.dbB) == ["b": "written in B"])
        #expect(try await engineA.localOnlyNoteNames() == ["b"])
    }

    /// A fresh library adopts the first account: notes written before it go into it; telling
    /// the same account again changes nothing.
    @Test func aFreshLibraryAdoptsTheFirstAccount() async throws {
        let world = try World()
        let engine = world.engine(world.storeA)
        try world.library.create("n", text: "before any account")
        let change = try await engine.accountChanged(to: "A", localNotes: .remove)
        #expect(change.kind == .signedIn && change.previousAccount == nil && change.removed.isEmpty)
        #expect(try await engine.accountChanged(to: "A", localNotes: .remove).kind == .unchanged)
        try await engine.sync()
        #expect(try await serverTexts(world.dbA) == ["n": "before any account"])
        #expect(try world.library.text(of: "n") == "before any account")
    }

    /// Through the core, as a `CKSyncEngine` adapter drives it: after a switch the transport
    /// state is gone, nothing is pending, a kept note builds no record, a save of the old
    /// account confirmed late leaves no change tag behind, and a delete made in the old account
    /// is forgotten.
    @Test func theCoreForgetsTheOldAccountsServerState() async throws {
        let world = try World()
        try await world.storeA.createZone(zone)
        var core = NoteSyncCore(library: world.library)
        try core.accountChanged(to: "A", localNotes: .keep)
        try world.library.create("n", text: "A-secret")
        try world.library.create("gone", text: "to delete")
        for name in try core.pendingChanges().recordsToSave {
            let record = try #require(try core.recordToSend(for: name))
            try core.recordWasSaved(try await world.storeA.save(record, in: zone))
        }
        try core.saveTransportState([1, 2, 3])
        try world.library.delete("gone")
        try world.library.setText("A-secret, more", of: "n")
        #expect(try core.pendingChanges().recordsToDelete == ["gone"])
        // A save in flight when the account changes, confirmed after the switch.
        let inFlight = try #require(try core.recordToSend(for: "n"))
        let savedLate = try await world.storeA.save(inFlight, in: zone)

        let change = try core.accountChanged(to: "B", localNotes: .keep)
        try core.recordWasSaved(savedLate)
        #expect(change.transportMustReset && change.keptLocally == ["n"])
        #expect(try core.transportState() == nil)
        #expect(try core.account() == "B")
        let pending = try core.pendingChanges()
        #expect(pending.recordsToDelete.isEmpty)
        #expect(!pending.recordsToSave.contains("n"))
        #expect(try core.recordToSend(for: "n") == nil)
        #expect(try core.deleteToSend(for: "gone") == false)
        #expect(try core.zoneStatus() == .needsSaving)
        // Adopted, the note is a new record: no change tag or system fields of A's server.
        try core.adoptLocalNotes(["n"])
        let record = try #require(try core.recordToSend(for: "n"))
        #expect(record.recordChangeTag == nil && record.systemFields == nil && record.modified == nil)
    }
}
