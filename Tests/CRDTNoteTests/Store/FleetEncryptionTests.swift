import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
import CRDTNoteDurableFiles
import CRDTNoteSupport

/// The encrypted record layout in a mixed fleet (Docs/FORMAT.md, "Mixed fleets"): written only
/// once every active device announces `encrypted-fields`; a device on an older release
/// (its record version gate at 2) meets it at the gate, keeps its edits and loses nothing.
@Suite struct FleetEncryptionTests {
    typealias Device = FleetFormatTests.Device
    static let zone = FleetFormatTests.zone
    static let day = FleetFormatTests.day

    /// A configuration playing a release before the encrypted layout.
    static var older: NoteSyncConfiguration {
        var configuration = NoteSyncConfiguration()
        configuration.readsEncryptedLayout = false
        return configuration
    }

    /// An empty in-memory database, a store on it and a shared manual clock (the server's
    /// modification times follow it).
    static func world() async -> (InMemoryCloudDatabase, CloudKitStyleRecordStore<InMemoryCloudDatabase>, ManualPhysicalClock) {
        let db = InMemoryCloudDatabase()
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        await db.setModificationClock(time.clock)
        return (db, CloudKitStyleRecordStore(database: db), time)
    }

    static func serverRecord(_ db: InMemoryCloudDatabase, _ name: String) async throws -> NoteRecord {
        NoteRecord(try #require(await db.allRecords(in: zone).first { $0.recordName == name }))
    }

    /// The layout of every note record on the server, and that no plain record holds an
    /// encrypted field nor an encrypted one a plain payload.
    static func layouts(_ db: InMemoryCloudDatabase) async -> [String: NoteRecordLayout] {
        var out: [String: NoteRecordLayout] = [:]
        for record in await db.allRecords(in: zone) where record.recordType == NoteSchema.recordType {
            let note = NoteRecord(record)
            out[record.recordName] = note.layout
            #expect(record.fields.values.contains { $0.isEncrypted } == (note.layout == .encrypted && record[field: "encryptedPayload"] != nil))
            #expect(record[field: note.layout == .encrypted ? "payload" : "encryptedPayload"] == nil)
        }
        return out
    }

    /// With one active device not announcing the capability nothing encrypted is written; once
    /// it updates, the next writes switch to the encrypted layout, and every device reads them.
    @Test func theLayoutSwitchesOnlyOnceEveryActiveDeviceReadsIt() async throws {
        let (db, store, time) = await Self.world()
        let a = try Device(store, replica: 1, time: time)
        let b = try Device(store, replica: 2, time: time)
        var c = try Device(store, replica: 3, time: time, configuration: Self.older)
        for device in [a, b, c, a, b] { try await device.engine.sync() }
        let announced = await FleetFormatTests.deviceRecords(db).map { $0[field: "capabilities"] }
        #expect(announced.filter { $0 == .list([.string("encrypted-fields")]) }.count == 2)
        #expect(announced.filter { $0 == nil }.count == 1)

        try a.library.create("n", text: "shared")
        try b.library.create("m", text: "from b")
        for device in [a, b, c] { try await device.engine.sync() }
        #expect(await Self.layouts(db) == ["n": .plain, "m": .plain])
        let held = try await a.engine.fleet()
        #expect(held.writtenLayout == .plain)
        #expect(held.heldBackBy.map(\.replicas) == [[.test(3)]])
        #expect(try c.library.text(of: "n") == "shared")

        c.configuration.readsEncryptedLayout = true // updated: its next sync announces the capability
        try c.relaunch()
        try await c.engine.sync()
        try await a.engine.sync()
        #expect(try await a.engine.fleet().writtenLayout == .encrypted)
        #expect(try await a.engine.fleet().heldBackBy.isEmpty)
        try a.library.setText("shared, now encrypted", of: "n")
        try await a.engine.sync()
        #expect(await Self.layouts(db)["n"] == .encrypted)
        #expect(try await Self.serverRecord(db, "n").record.fields["encryptedPayload"]?.isEncrypted == true)
        for device in [b, c] {
            try await device.engine.sync()
            #expect(try device.library.text(of: "n") == "shared, now encrypted")
        }
        // B writes the encrypted layout now, too.
        try b.library.setText("from b, again", of: "m")
        try await b.engine.sync()
        #expect(await Self.layouts(db) == ["n": .encrypted, "m": .encrypted])
    }

    /// A device on an older release, back after the activity window, meets an encrypted record:
    /// it reports it, leaves the server record exactly as it was, keeps its own edit; updated,
    /// it merges, and nothing typed on either side is lost.
    @Test func anOlderDeviceLeavesEncryptedRecordsAloneAndKeepsItsEdits() async throws {
        let (db, store, time) = await Self.world()
        let a = try Device(store, replica: 1, time: time)
        var c = try Device(store, replica: 3, time: time, configuration: Self.older)
        for device in [a, c, a, c] { try await device.engine.sync() }
        try a.library.create("n", text: "groceries")
        try await a.engine.sync()
        try await c.engine.sync()
        #expect(await Self.layouts(db) == ["n": .plain])

        try c.library.setText("groceries: milk", of: "n")
        time.advance(by: 31 * Self.day)
        try await a.engine.sync()
        try a.library.setText("groceries: eggs", of: "n")
        try await a.engine.sync()
        #expect(await Self.layouts(db) == ["n": .encrypted])
        let before = try await Self.serverRecord(db, "n")

        let report = try await c.engine.sync()
        #expect(report.failures["n"]?.code == .newerVersionAvailable)
        #expect(try await Self.serverRecord(db, "n") == before)
        #expect(try c.library.text(of: "n") == "groceries: milk")
        #expect(try c.library.summary(of: "n")?.unsaved == true)

        c.configuration.readsEncryptedLayout = true
        try c.relaunch()
        try await c.engine.sync()
        try await a.engine.sync()
        let merged = try a.library.text(of: "n")
        #expect(merged.contains("milk") && merged.contains("eggs"))
        #expect(try c.library.text(of: "n") == merged)
        #expect(await Self.layouts(db) == ["n": .encrypted])
    }

    /// The knob: `.never` writes the plain layout whatever the devices read (even over an
    /// encrypted record), `.always` the encrypted one even before the devices are known.
    @Test func thePolicyCanRequireOrForbidTheLayout() async throws {
        let (db, store, time) = await Self.world()
        var always = NoteSyncConfiguration()
        always.recordEncryption = .always
        let fresh = try Device(store, replica: 1, time: time, configuration: always)
        try fresh.library.create("first", text: "encrypted before any fetch")
        try await fresh.engine.pushLocalChanges()
        #expect(await Self.layouts(db) == ["first": .encrypted])
        #expect(try await fresh.engine.fleet().knowsDevices == false)

        var never = NoteSyncConfiguration()
        never.recordEncryption = .never
        let plain = try Device(store, replica: 2, time: time, configuration: never)
        for device in [fresh, plain, fresh, plain] { try await device.engine.sync() }
        #expect(try plain.library.text(of: "first") == "encrypted before any fetch")
        try plain.library.setText("plain again on purpose", of: "first")
        try plain.library.create("second", text: "plain")
        try await plain.engine.sync()
        #expect(await Self.layouts(db) == ["first": .plain, "second": .plain])
        #expect(try await plain.engine.fleet().writtenLayout == .plain)
        try await fresh.engine.sync()
        #expect(try fresh.library.text(of: "first") == "plain again on purpose")
    }
}
