import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
import CRDTNoteDurableFiles
import CRDTNoteSupport
import CRDTNoteFiles

/// Devices announce what they read; writers write the newest format every active device reads
/// (Docs/FORMAT.md, "Mixed fleets").
@Suite struct FleetFormatTests {
    static let zone = NoteSyncConfiguration().zone
    static let day: UInt64 = 86_400_000

    /// One app install on its own simulated disk, dated by a shared manual clock, reading up to
    /// `reads` (what an older release would).
    struct Device {
        let disk = FaultInjectingFileSystem()
        let store: any RecordStore
        let time: ManualPhysicalClock
        var configuration: NoteSyncConfiguration
        /// The library's options, kept across relaunches.
        let options: NoteLibrary.Options
        var library: NoteLibrary
        var engine: NoteSyncEngine

        init(_ store: any RecordStore, replica: UInt64, time: ManualPhysicalClock, reads: UInt16 = NoteFormat.readerVersion,
             configuration: NoteSyncConfiguration = NoteSyncConfiguration(), options: NoteLibrary.Options = NoteLibrary.Options()) throws {
            self.store = store
            self.time = time
            self.configuration = configuration
            self.configuration.readerVersion = reads
            self.options = options
            library = try NoteLibrary.create(folder: "/device/notes", replica: .test(replica), options: options, fileSystem: disk)
            engine = NoteSyncEngine(library: library, store: store, configuration: self.configuration, retryClock: RecordingClock(),
                                    wallClock: time.clock)
        }

        /// The app updated (or restarted) with `reads` and `replica`: the same library, a new engine.
        mutating func relaunch(reads: UInt16? = nil, replica: UInt64? = nil) throws {
            if let reads { configuration.readerVersion = reads }
            if let replica { library = try NoteLibrary(folder: "/device/notes", replica: .test(replica), options: options, fileSystem: disk) }
            engine = NoteSyncEngine(library: library, store: store, configuration: configuration, retryClock: RecordingClock(),
                                    wallClock: time.clock)
        }
    }

    /// The format of note `name`'s payload on the server.
    static func serverFormat(_ db: InMemoryCloudDatabase, _ name: String) async throws -> UInt16? {
        let record = try #require(await db.allRecords(in: zone).first { $0.recordName == name })
        return NoteRecord(record).payloadReaderVersion
    }

    static func deviceRecords(_ db: InMemoryCloudDatabase) async -> [CloudRecord] {
        await db.allRecords(in: zone).filter { $0.recordType == DeviceSchema.recordType }
    }

    @Test func devicesAnnounceThemselvesAndListEachOther() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        var named = NoteSyncConfiguration()
        named.deviceName = "Anna's iPhone"
        let a = try Device(store, replica: 1, time: time, configuration: named)
        let b = try Device(store, replica: 2, time: time)
        for device in [a, b, a] { try await device.engine.sync() }

        let records = await Self.deviceRecords(db)
        #expect(records.count == 2)
        for record in records {
            #expect(record.recordName.hasPrefix(DeviceSchema.recordNamePrefix))
            #expect(record[field: "version"] == .int64(DeviceSchema.version))
            #expect(record[field: "reads"] == .int64(Int64(NoteFormat.readerVersion)))
            #expect(record[field: "release"] == .string(CRDTNoteRelease.version))
        }
        let fleet = try await a.engine.fleet()
        #expect(fleet.devices.count == 2)
        #expect(fleet.devices.first?.isThisDevice == true)
        #expect(fleet.devices.first?.name == "Anna's iPhone")
        #expect(fleet.devices.first?.replicas == [.test(1)])
        #expect(fleet.knowsDevices)
        #expect(fleet.heldBackBy.isEmpty)
        #expect(fleet.writtenFormat == .version7)
        let seenByB = try await b.engine.fleet()
        #expect(seenByB.devices.map(\.name).contains("Anna's iPhone"))
        #expect(Set(seenByB.devices.map(\.id)) == Set(fleet.devices.map(\.id)))

        // Nothing changed and less than a day passed: no second announcement.
        try await a.engine.pushLocalChanges()
        #expect(await Self.deviceRecords(db).map(\.recordChangeTag) == records.map(\.recordChangeTag))
        // A day later the record is refreshed.
        time.advance(by: Self.day + 1)
        try await a.engine.pushLocalChanges()
        #expect(await Self.deviceRecords(db).map(\.recordChangeTag) != records.map(\.recordChangeTag))
    }

    /// The device id is made once per library: it survives a restart with a new replica, a
    /// compaction and a crash right after it was made.
    @Test func theDeviceIDOutlivesRestartsAndCompaction() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        var a = try Device(store, replica: 1, time: time)
        let id = try await a.engine.fleet().devices[0].id
        a.disk.crashProcess()
        try a.relaunch(replica: 11)
        try await a.engine.sync()
        try a.library.compact()
        try a.relaunch(replica: 12)
        try await a.engine.sync()
        let fleet = try await a.engine.fleet()
        #expect(fleet.devices.count == 1)
        #expect(fleet.devices[0].id == id)
        #expect(fleet.devices[0].replicas == [.test(1), .test(11), .test(12)])
        let records = await Self.deviceRecords(db)
        #expect(records.map(\.recordName) == [id])
        #expect(records.first?[field: "replicas"] == .list([1, 11, 12].map { .string(String(ReplicaID.test($0).rawValue)) }))
    }

    /// A device reading only format 1 holds the others at format 1 until it is updated.
    @Test func writersWaitForTheSlowestActiveDevice() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        let a = try Device(store, replica: 1, time: time)
        let b = try Device(store, replica: 2, time: time)
        var c = try Device(store, replica: 3, time: time, reads: 1)
        for device in [a, b, c, a, b] { try await device.engine.sync() }
        try a.library.create("n", text: "shared")
        try await a.engine.sync()
        #expect(try await Self.serverFormat(db, "n") == 1)
        let fleet = try await a.engine.fleet()
        #expect(fleet.writtenFormat == .version1)
        #expect(fleet.heldBackBy.map(\.replicas) == [[.test(3)]])
        try await c.engine.sync()
        #expect(try c.library.text(of: "n") == "shared")

        try c.relaunch(reads: NoteFormat.readerVersion) // updated: its next sync announces the newest format
        try await c.engine.sync()
        try await a.engine.sync()
        #expect(try await a.engine.fleet().heldBackBy.isEmpty)
        try a.library.setText("shared, now smaller", of: "n")
        try await a.engine.sync()
        #expect(try await Self.serverFormat(db, "n") == 2)
        for device in [b, c] {
            try await device.engine.sync()
            #expect(try device.library.text(of: "n") == "shared, now smaller")
        }
    }

    /// A device that reads only format 1, offline past the activity window, edits a note the
    /// others meanwhile wrote in format 7: it keeps its edit, reports the note, and leaves the
    /// server record byte for byte as it was; the fleet does not go back to format 1 for it.
    @Test func aDeviceReturningAfterTheWindowKeepsItsEditsAndLeavesNewerRecordsAlone() async throws {
        let db = InMemoryCloudDatabase()
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        await db.setModificationClock(time.clock)
        let store = CloudKitStyleRecordStore(database: db)
        let a = try Device(store, replica: 1, time: time)
        let b = try Device(store, replica: 2, time: time)
        let c = try Device(store, replica: 3, time: time, reads: 1)
        for device in [a, b, c, a, b, c] { try await device.engine.sync() }
        try a.library.create("n", text: "groceries")
        try await a.engine.sync()
        try await c.engine.sync()
        #expect(try await Self.serverFormat(db, "n") == 1)

        // C goes offline and edits; 31 days pass; A and B keep syncing.
        try c.library.setText("groceries: milk", of: "n")
        time.advance(by: 31 * Self.day)
        try await a.engine.sync()
        try await b.engine.sync()
        try await a.engine.sync()
        #expect(try await a.engine.fleet().devices.filter { !$0.isActive }.count == 1)
        try a.library.setText("groceries: eggs", of: "n")
        try a.library.create("m", text: "written while C was away")
        try await a.engine.sync()
        #expect(try await Self.serverFormat(db, "n") == 2)
        #expect(try await Self.serverFormat(db, "m") == 2)
        let before = try #require(await db.allRecords(in: Self.zone).first { $0.recordName == "n" })

        // C comes back.
        let report = try await c.engine.sync()
        #expect(report.failures["n"]?.code == .newerVersionAvailable)
        #expect(report.failures["m"]?.code == .newerVersionAvailable)
        #expect(try c.library.list().map(\.name) == ["n"])
        let after = try #require(await db.allRecords(in: Self.zone).first { $0.recordName == "n" })
        #expect(after == before)
        #expect(try c.library.text(of: "n") == "groceries: milk")
        #expect(try c.library.summary(of: "n")?.unsaved == true)

        // C announced itself again: it holds the fleet back, but the fleet stays at format 7.
        try await a.engine.sync()
        let fleet = try await a.engine.fleet()
        #expect(fleet.heldBackBy.map(\.replicas) == [[.test(3)]])
        #expect(fleet.writtenFormat == .version7)
        try a.library.setText("groceries: eggs, tea", of: "n")
        try await a.engine.sync()
        #expect(try await Self.serverFormat(db, "n") == 2)

        // Updated, C merges its kept edit: nothing typed on either side is lost.
        var updated = c
        try updated.relaunch(reads: NoteFormat.readerVersion)
        try await updated.engine.sync()
        try await a.engine.sync()
        let merged = try a.library.text(of: "n")
        #expect(merged.contains("milk") && merged.contains("eggs") && merged.contains("tea"))
        #expect(try updated.library.text(of: "n") == merged)
        // The note it passed over, which the change feed will not bring again, is fetched again.
        #expect(try updated.library.text(of: "m") == "written while C was away")
    }

    /// More records passed over than the library remembers: once the device reads more, it
    /// reads the whole change feed again and gets every one of them.
    @Test func tooManyRecordsPassedOverMeanReadingTheFeedAgain() async throws {
        let db = InMemoryCloudDatabase()
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        await db.setModificationClock(time.clock)
        let store = CloudKitStyleRecordStore(database: db)
        let a = try Device(store, replica: 1, time: time)
        var remembersTwo = NoteSyncConfiguration()
        remembersTwo.maximumRecordsRemembered = 2
        var c = try Device(store, replica: 3, time: time, reads: 1, configuration: remembersTwo)
        for device in [a, c, a, c] { try await device.engine.sync() }
        time.advance(by: 31 * Self.day) // C is quiet past the window: A writes the newest format
        try await a.engine.sync()
        for i in 0..<5 { try a.library.create("n\(i)", text: "note \(i)") }
        try await a.engine.sync()
        #expect(try await Self.serverFormat(db, "n4") == 2)
        let report = try await c.engine.sync()
        #expect(report.failedNotes == ["n0", "n1", "n2", "n3", "n4"])
        #expect(try c.library.list().isEmpty)
        try c.relaunch(reads: NoteFormat.readerVersion)
        try await c.engine.sync()
        #expect(await c.engine.statistics.fullRefetches == 0) // a token dropped on purpose, not expired
        // Sorted: list() puts the most recently modified first, and A's notes were stamped by the
        // real clock, one millisecond or several apart.
        #expect(try c.library.list().map(\.name).sorted() == ["n0", "n1", "n2", "n3", "n4"])
        #expect(try c.library.text(of: "n3") == "note 3")
        #expect(try await c.engine.sync().fetched == 0) // nothing left to fetch again
    }

    /// A device that has not yet seen the zone's devices writes format 1; a pinned format is
    /// written whatever the fleet reads.
    @Test func unknownFleetsGetFormatOneAndPinnedFormatsAreKept() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        let fresh = try Device(store, replica: 1, time: time)
        try fresh.library.create("first", text: "pushed before any fetch")
        try await fresh.engine.pushLocalChanges()
        #expect(try await Self.serverFormat(db, "first") == 1)
        #expect(try await fresh.engine.fleet().knowsDevices == false)

        var pinned = NoteSyncConfiguration()
        pinned.payloadFormat = .pinned(.version1)
        let old = try Device(store, replica: 2, time: time, configuration: pinned)
        for device in [fresh, old, fresh, old] { try await device.engine.sync() }
        try old.library.create("pinned", text: "format 1 on purpose")
        try await old.engine.sync()
        #expect(try await Self.serverFormat(db, "pinned") == 1)
        try fresh.library.create("automatic", text: "every device reads 2")
        try await fresh.engine.sync()
        #expect(try await Self.serverFormat(db, "automatic") == 2)
    }

    /// Device records are skipped by note readers: a record of the fixture is refused by the
    /// record type check and by the `version` gate every release applies, and read back by the
    /// device reader.
    @Test func olderReadersLeaveDeviceRecordsAlone() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.fixtures + "/device-record/device.json")))
        let record = try CloudRecord(json: JSONValue(parsing: bytes))
        #expect(record.recordType == DeviceSchema.recordType)
        do {
            _ = try NoteRecord(record).read(as: .test(1))
            Issue.record("a device record was read as a note")
        } catch {
            #expect(error.code == .newerVersion)
        }
        let announcement = try DeviceAnnouncement(record: record)
        #expect(announcement.reads == 2)
        var rewritten = CloudRecord(recordName: record.recordName, recordType: "x")
        announcement.write(into: &rewritten)
        #expect(try DeviceAnnouncement(record: rewritten) == announcement)
    }

    /// Hostile device records are refused whole, naming the field; what the writer writes
    /// always reads back.
    @Test(arguments: [
        ("reads", RecordFieldValue.int64(0)), ("reads", .string("2")), ("version", .int64(2)),
        ("replicas", .list([.string("x")])), ("replicas", .list(Array(repeating: .string("1"), count: 65))),
        ("capabilities", .list([.string("")])), ("name", .string(String(repeating: "n", count: 257))),
        ("lastSync", .int64(0)), ("release", .string("")),
    ])
    func malformedDeviceRecordsAreRefused(field: String, value: RecordFieldValue) throws {
        var record = CloudRecord(recordName: "CRDTNoteDevice-1", recordType: DeviceSchema.recordType)
        DeviceAnnouncement(release: "0.2.0", reads: 2, capabilities: ["x"], lastSync: 1, name: "n", replicas: [1]).write(into: &record)
        #expect(throws: Never.self) { try DeviceAnnouncement(record: record) }
        record[field: field] = value
        do {
            _ = try DeviceAnnouncement(record: record)
            Issue.record("accepted \(field) = \(value)")
        } catch {
            #expect(error.code == .invalidField)
            #expect(error.field == field)
        }
        let long = DeviceAnnouncement(release: String(repeating: "r", count: 100), reads: 2,
                                      capabilities: (0..<40).map { "c\($0)" }, lastSync: 1,
                                      name: String(repeating: "é", count: 200), replicas: Array(0..<100))
        var written = CloudRecord(recordName: "CRDTNoteDevice-2", recordType: "x")
        long.write(into: &written)
        let read = try DeviceAnnouncement(record: written)
        #expect(read.name?.utf8.count == 256)
        #expect(read.replicas == Array(36..<100))
        #expect(read.capabilities.count == DeviceSchema.maximumCapabilities)
    }
}
