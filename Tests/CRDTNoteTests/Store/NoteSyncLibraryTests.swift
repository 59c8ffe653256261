import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteSupport
import CRDTNoteToolSupport
import CRDTNoteDurableFiles

/// What syncing a library adds: app fields merged per field by stamp, a sync that loads only
/// the notes it touches.
@Suite struct NoteSyncEngineLibraryTests {
    let zone = NoteSyncConfiguration().zone

    /// Device A sets `folder` = "Work" at t1; device B, offline, sets "Home" at a later stamp.
    /// Both end with "Home" whichever syncs first; then a removal stamped later than a set wins.
    @Test(arguments: [true, false]) func theLaterFieldStampWinsWhicheverDeviceSyncsFirst(aFirst: Bool) async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try SyncTestDevice(store: store, replica: .test(1))
        let b = try SyncTestDevice(store: store, replica: .test(2))
        let timeA = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        let timeB = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        a.library.fieldClock = HybridLogicalClock(physicalClock: timeA.clock)
        b.library.fieldClock = HybridLogicalClock(physicalClock: timeB.clock)
        try a.library.create("n", text: "note")
        try await a.engine.sync()
        try await b.engine.sync()
        #expect(try b.text("n") == "note")
        let order = aFirst ? [a, b] : [b, a]
        func syncBoth() async throws {
            for device in order + order { try await device.engine.sync() }
        }

        timeA.set(1_800_000_001_000)
        try a.library.setField("folder", to: .string("Work"), of: "n")
        timeB.set(1_800_000_002_000) // B is offline: a later stamp, not yet seen by A
        try b.library.setField("folder", to: .string("Home"), of: "n")
        try await syncBoth()
        for device in [a, b] {
            #expect(try device.library.fields(of: "n") == ["folder": .string("Home")])
            #expect(try device.library.summary(of: "n")?.fields == ["folder": .string("Home")])
            #expect(try device.unsaved().isEmpty)
            #expect(try device.text("n") == "note")
        }
        let record = try #require(await db.allRecords(in: zone).notes.first)
        #expect(record[field: "folder"] == .string("Home"))

        // B sets "Office" at t2.5, A removes the field at t3: the removal is later and wins.
        timeB.set(1_800_000_002_500)
        try b.library.setField("folder", to: .string("Office"), of: "n")
        timeA.set(1_800_000_003_000)
        try a.library.setField("folder", to: nil, of: "n")
        try await syncBoth()
        for device in [a, b] {
            #expect(try device.library.fields(of: "n").isEmpty)
            #expect(try device.library.summary(of: "n")?.fields.isEmpty == true)
            #expect(try device.unsaved().isEmpty)
        }
        #expect(try #require(await db.allRecords(in: zone).notes.first)[field: "folder"] == nil)

        // And an older removal loses to a later set.
        timeA.set(1_800_000_004_000)
        try a.library.setField("folder", to: .string("Archive"), of: "n")
        try await syncBoth()
        timeA.set(1_800_000_005_000)
        try a.library.setField("folder", to: .string("Later"), of: "n")
        timeB.set(1_800_000_004_500)
        try b.library.setField("folder", to: nil, of: "n")
        try await syncBoth()
        for device in [a, b] {
            #expect(try device.library.fields(of: "n") == ["folder": .string("Later")])
        }
    }

    /// A device whose clock is behind sets a field after it received a later stamp from a
    /// device whose clock is ahead: its change is the later one (the field clock absorbs the
    /// stamps it receives) and both devices keep it, instead of diverging.
    @Test func aFieldSetAfterSeeingAStampFromAFastClockIsKept() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try SyncTestDevice(store: store, replica: .test(1))
        let b = try SyncTestDevice(store: store, replica: .test(2))
        let slow = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        let fast = ManualPhysicalClock(milliseconds: 1_800_000_060_000) // a minute ahead
        a.library.fieldClock = HybridLogicalClock(physicalClock: slow.clock)
        b.library.fieldClock = HybridLogicalClock(physicalClock: fast.clock)
        try a.library.create("n", text: "note")
        try await a.engine.sync()
        try await b.engine.sync()
        try b.library.setField("folder", to: .string("Home"), of: "n")
        try await b.engine.sync()
        try await a.engine.sync()
        #expect(try a.library.fields(of: "n") == ["folder": .string("Home")])
        slow.advance(by: 1_000)
        try a.library.setField("folder", to: .string("Work"), of: "n") // made after A saw "Home"
        try await a.engine.sync()
        try await b.engine.sync()
        try await a.engine.sync()
        #expect(try a.library.fields(of: "n") == ["folder": .string("Work")])
        #expect(try b.library.fields(of: "n") == ["folder": .string("Work")])
    }

    /// A sync of one note changed elsewhere, in a library of 200 notes, loads that note only;
    /// so does sending one local edit.
    @Test func aSyncOfOneChangedNoteLoadsOnlyThatNote() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try SyncTestDevice(store: store, replica: .test(1))
        let b = try SyncTestDevice(store: store, replica: .test(2))
        for i in 0..<200 { try a.library.create("note-\(i)", text: "Note \(i)\nbody \(i)") }
        try await a.engine.sync()
        try await b.engine.sync()
        try #require(try b.names().count == 200)
        try a.library.setText("Note 117\nchanged on a", of: "note-117")
        try await a.engine.sync()

        b.library.releaseCachedNotes()
        #expect(b.library.state.cache.isEmpty)
        let report = try await b.engine.sync()
        #expect(report.fetched == 1)
        #expect(report.changedNotes == ["note-117"])
        let changed = try #require(b.library.state.numbers["note-117"])
        #expect(Array(b.library.state.cache.keys) == [changed])
        #expect(try b.text("note-117") == "Note 117\nchanged on a")

        // Sending one local edit loads that note only.
        try b.library.setText("Note 3\nchanged on b", of: "note-3")
        b.library.releaseCachedNotes()
        let sent = try await b.engine.sync()
        #expect(sent.saved == 1)
        let three = try #require(b.library.state.numbers["note-3"])
        #expect(Array(b.library.state.cache.keys) == [three])
        try await a.engine.sync()
        #expect(try a.text("note-3") == "Note 3\nchanged on b")
    }
}

/// The change token is saved only after the notes of its page are durable: a power cut at any
/// file operation of a fetch loses no note for good.
@Suite struct NoteSyncCrashFetchTests {
    let zone = NoteSyncConfiguration().zone

    @Test func aPowerCutAtAnyOperationOfAFetchLosesNoNote() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        var configuration = NoteSyncConfiguration()
        configuration.pageLimit = 4 // 10 notes: three pages
        let writer = try SyncTestDevice(store: store, replica: .test(1), configuration: configuration)
        for i in 0..<10 { try writer.library.create("note-\(i)", text: "Note \(i)\n" + String(repeating: "line \(i)\n", count: i + 1)) }
        try await writer.engine.sync()
        var expected: [String: String] = [:]
        for record in await db.allRecords(in: zone).notes {
            expected[record.recordName] = try NoteSyncCore.text(from: record, replica: ReplicaID(rawValue: 999)).string
        }
        try #require(expected.count == 10)

        // A clean fetch, to count its file operations (and check the oracle).
        let probe = try SyncTestDevice(store: store, replica: .test(2), configuration: configuration)
        let start = probe.disk.operationCount
        try await probe.engine.fetchRemoteChanges()
        let operations = probe.disk.operationCount - start
        try #require(operations > 10)
        #expect(try probe.names() == expected.keys.sorted())

        var random = SplitMix64(seed: 0x27)
        var restarts: UInt64 = 100
        for cut in 1...operations {
            for torn in [false, true] {
                var device = try SyncTestDevice(store: store, replica: .test(2), configuration: configuration)
                device.disk.inject(.powerLoss, onOperation: cut)
                let outcome: Void? = try? await device.engine.fetchRemoteChanges()
                let failed = outcome == nil
                #expect(failed, "cut \(cut)/\(operations): the fetch did not notice the power cut")
                #expect(device.disk.isPoweredOff, "cut \(cut)/\(operations) never fired")
                restarts += 1
                try device.restart(replica: ReplicaID(rawValue: restarts)) { disk in
                    if torn { disk.crash(using: &random) } else { disk.crash() }
                }
                try await device.engine.sync()
                let names = try device.names()
                #expect(names == expected.keys.sorted(), "cut \(cut)/\(operations) torn \(torn): \(names.count) notes")
                for (name, text) in expected {
                    #expect(try device.text(name) == text, "cut \(cut)/\(operations) torn \(torn): \(name)")
                }
                #expect(try device.unsaved().isEmpty)
            }
        }
        // The server was left as it was.
        #expect(await db.allRecords(in: zone).notes.count == 10)
        for record in await db.allRecords(in: zone).notes {
            #expect(try NoteSyncCore.text(from: record, replica: ReplicaID(rawValue: 999)).string == expected[record.recordName])
        }
    }
}
