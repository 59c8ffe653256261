import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
import CRDTNoteDurableFiles
import CRDTNoteSupport
import CRDTNoteToolSupport

/// Devices with note libraries compact notes on their own once every device runs a format 3
/// release (Docs/FORMAT.md §4.7, "When tombstones settle"): the sync engine records what each
/// device has seen and drops what all have seen, the library keeps it, and nothing typed is lost
/// or brought back, for devices that come back after a compaction too.
@Suite struct SyncCompactionTests {
    typealias Device = FleetFormatTests.Device
    static let zone = NoteSyncConfiguration().zone
    static let hour: UInt64 = 3_600_000
    /// What this release reads: a fleet of it compacts notes with history too (their records
    /// carry history version 2, which holds the shadows; a fleet reading 3 leaves them be).
    static let current = NoteFormat.readerVersion

    /// A shared database with modification times from `time`.
    static func database(_ time: ManualPhysicalClock) async -> (InMemoryCloudDatabase, any RecordStore) {
        let db = InMemoryCloudDatabase()
        await db.setModificationClock(time.clock)
        return (db, CloudKitStyleRecordStore(database: db))
    }

    /// The note record `name` on the server.
    static func record(_ db: InMemoryCloudDatabase, _ name: String) async throws -> CloudRecord {
        try #require(await db.allRecords(in: zone).first { $0.recordName == name })
    }

    /// The payload of note `name` on the server: its bytes and minimum reader.
    static func payload(_ db: InMemoryCloudDatabase, _ name: String) async throws -> (bytes: Int, reader: UInt16) {
        let record = try await record(db, name)
        let note = try NoteSyncCore.text(from: record, replica: .test(999))
        return (note.encodedSnapshot(format: .version3).count, NoteRecord(record).payloadReaderVersion ?? 0)
    }

    // MARK: The to-do workload, against an oracle of tokens typed and deleted

    /// Edits of a to-do-like note: lines `- [ ] {marker task}` typed at a line boundary, tokens
    /// typed inside a line next to a token, lines deleted whole. Every token's marker is unique;
    /// the ``EditOracle`` records what was typed and deleted, apart from any merge.
    struct Workload {
        var random: SplitMix64
        var oracle = EditOracle()
        var made = 0
        let note = "todo"

        init(seed: UInt64) { random = SplitMix64(seed: seed) }

        /// One random edit on `device` (`name` prefixes the marker): a line typed, a token typed
        /// inside a line, or a line deleted (lines kept at most `maximumLines`).
        mutating func edit(_ device: Device, name: String, maximumLines: Int = 12, inside: Double = 0.15) throws {
            let text = try device.library.text(of: note)
            let lines = Self.lines(of: text)
            let roll = random.unit()
            if !lines.isEmpty && (lines.count >= maximumLines || roll < 0.35) {
                try deleteLine(device, lines[random.below(lines.count)], text: text)
            } else if !lines.isEmpty && roll > 1 - inside {
                try typeInside(device, name: name, text: text)
            } else {
                let boundaries = [0] + lines.map(\.upperBound)
                try typeLine(device, name: name, at: boundaries[random.below(boundaries.count)])
            }
        }

        /// Types a line `- [ ] {marker task}` at scalar offset `at` (a line boundary).
        mutating func typeLine(_ device: Device, name: String, at: Int) throws {
            made += 1
            let marker = "\(name)\(made)"
            try device.library.edit(note) { note in
                try note.insert("- [ ] " + EditOracle.token(marker: marker, word: "task") + "\n", atScalarOffset: at)
            }
            oracle.count([.insert(note: note, marker: marker)])
        }

        /// Types a token right after a token of the text (inside its line).
        mutating func typeInside(_ device: Device, name: String, text: String) throws {
            let tokens = EditOracle.tokens(in: text)
            guard let token = tokens.isEmpty ? nil : tokens[random.below(tokens.count)] else { return }
            made += 1
            let marker = "\(name)\(made)"
            try device.library.edit(note) { note in
                try note.insert(" " + EditOracle.token(marker: marker, word: "more"), atScalarOffset: token.end)
            }
            oracle.count([.insert(note: note, marker: marker)])
        }

        /// Deletes a whole line (scalar range, newline included) and every token in it.
        mutating func deleteLine(_ device: Device, _ line: Range<Int>, text: String) throws {
            let markers = EditOracle.tokens(in: text).filter { $0.start >= line.lowerBound && $0.end <= line.upperBound }.map(\.marker)
            oracle.deletionMade(markers)
            try device.library.edit(note) { note in try note.deleteScalars(in: line) }
            oracle.count([.delete(note: note, markers: markers, replacement: nil)])
        }

        /// The lines of `text` as scalar ranges, each with its newline.
        static func lines(of text: String) -> [Range<Int>] {
            var out: [Range<Int>] = []
            var start = 0
            var offset = 0
            for scalar in text.unicodeScalars {
                offset += 1
                if scalar == "\n" {
                    out.append(start..<offset)
                    start = offset
                }
            }
            if start < offset { out.append(start..<offset) }
            return out
        }

        /// Tokens lost or brought back on any device: empty when every device holds exactly the
        /// tokens typed and not deleted, once each.
        func problems(_ devices: [Device]) throws -> [String] {
            let texts = try devices.map { [note: try $0.library.text(of: note)] }
            let check = oracle.check(texts)
            return check.lostMarkers.map { "lost \($0)" } + check.resurrectedMarkers.map { "resurrected \($0)" }
        }
    }

    /// Two devices of a fresh zone, synced twice, and workload `seed` with its note created on
    /// the first ("Todo\n", not synced yet).
    static func twoDevicesWithANote(seed: UInt64) async throws
        -> (time: ManualPhysicalClock, db: InMemoryCloudDatabase, devices: [Device], work: Workload) {
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        let (db, store) = await database(time)
        let devices = try (1...2).map { try Device(store, replica: UInt64($0), time: time) }
        try await syncAll(devices, times: 2, time: time)
        let work = Workload(seed: seed)
        try devices[0].library.create(work.note, text: "Todo\n")
        return (time, db, devices, work)
    }

    /// Every device syncs, then two devices take 150 turns (edit, 30 s, sync) on the workload's
    /// note, lines named with `tag`, then every device syncs three times.
    static func takeTurns(_ devices: [Device], _ work: inout Workload, tag: String, time: ManualPhysicalClock) async throws {
        try await syncAll(devices, time: time)
        for round in 0..<150 {
            let i = round % 2
            try work.edit(devices[i], name: "d\(i)\(tag)")
            time.advance(by: 30_000)
            try await devices[i].engine.sync()
        }
        try await syncAll(devices, times: 3, time: time)
    }

    /// Every device syncs, `times` times over, the clock moving `step` before each.
    static func syncAll(_ devices: [Device], times: Int = 1, time: ManualPhysicalClock, step: UInt64 = 60_000) async throws {
        for _ in 0..<times {
            for device in devices {
                time.advance(by: step)
                try await device.engine.sync()
            }
        }
    }

    // MARK: (a) three devices compact on their own

    /// Runs the to-do workload on library devices, device i reading `reads[i]` (`setUp` runs
    /// once they have synced, before the note is made); returns the devices, the database and
    /// the workload.
    static func todoRun(reads: [UInt16], rounds: Int, seed: UInt64, options: NoteLibrary.Options = NoteLibrary.Options(),
                        configuration: NoteSyncConfiguration = NoteSyncConfiguration(),
                        setUp: (InMemoryCloudDatabase, any RecordStore, ManualPhysicalClock) async throws -> Void = { _, _, _ in })
        async throws -> ([Device], InMemoryCloudDatabase, Workload) {
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        let (db, store) = await database(time)
        let devices = try reads.enumerated().map {
            try Device(store, replica: UInt64($0.offset + 1), time: time, reads: $0.element, configuration: configuration, options: options)
        }
        try await syncAll(devices, times: 2, time: time)
        try await setUp(db, store, time)
        var work = Workload(seed: seed)
        try devices[0].library.create(work.note)
        try await syncAll(devices, time: time)
        for round in 0..<rounds {
            let i = work.random.below(devices.count)
            for _ in 0..<(1 + work.random.below(3)) { try work.edit(devices[i], name: "d\(i)e") }
            time.advance(by: 30_000)
            try await devices[i].engine.sync()
            if round % 5 == 4 { try await syncAll(devices, time: time) }
        }
        try await syncAll(devices, times: 4, time: time)
        return (devices, db, work)
    }

    @Test func threeDevicesCompactATodoListOnceEveryDeviceHasSeenTheDeletions() async throws {
        let (devices, db, work) = try await Self.todoRun(reads: [Self.current, Self.current, Self.current], rounds: 600, seed: 31)
        let (control, controlDB, _) = try await Self.todoRun(reads: [2, 2, 2], rounds: 600, seed: 31)
        let texts = try devices.map { try $0.library.text(of: work.note) }
        #expect(Set(texts).count == 1)
        #expect(try work.problems(devices) == [])
        // The same edits without compaction (a format 2 fleet) give the same text.
        #expect(try control[0].library.text(of: work.note) == texts[0])

        let compacted = try await Self.payload(db, work.note)
        let uncompacted = try await Self.payload(controlDB, work.note)
        // Format 6, or 7 once a compaction re-pointed a group chain (the fleet reads 7).
        #expect(compacted.reader >= SnapshotFormat.version6.rawValue && compacted.reader <= SnapshotFormat.newest(readableBy: Self.current).rawValue)
        #expect(uncompacted.reader <= 2)
        // Measured: 725 B compacted against 3,406 B uncompacted (248 B of visible text).
        #expect(compacted.bytes * 4 < uncompacted.bytes, "compacted \(compacted.bytes) B, uncompacted \(uncompacted.bytes) B")
        #expect(compacted.bytes < 1_500, "compacted \(compacted.bytes) B")
        for device in devices {
            let note = try device.library.note(work.note)
            #expect(note.isCompacted, "device \(device.library.replica) did not compact")
            #expect(note.encodedSnapshot(format: .version3).count < 1_500)
        }
    }

    /// A fleet reading format 7 whose libraries keep no history:
    /// compactions re-point group chains (Docs/FORMAT.md §4.7, "Re-pointed right origins"), the
    /// server's payload is format 7 with the list, and every device ends with the tokens typed
    /// and not deleted and the text a fleet reading format 6 (which never re-points) gets from the
    /// same edits, with fewer tombstones.
    @Test func aFleetReadingFormatSevenRepointsChainsAndLosesNothing() async throws {
        var options = NoteLibrary.Options()
        options.historyRetention = nil
        let (devices, db, work) = try await Self.todoRun(reads: [Self.current, Self.current, Self.current], rounds: 600, seed: 44,
                                                         options: options)
        let (control, controlDB, _) = try await Self.todoRun(reads: [6, 6, 6], rounds: 600, seed: 44, options: options)
        let texts = try devices.map { try $0.library.text(of: work.note) }
        #expect(Set(texts).count == 1)
        #expect(try work.problems(devices) == [])
        #expect(try control[0].library.text(of: work.note) == texts[0])
        #expect(try await Self.payload(db, work.note).reader == 7)
        #expect(try await Self.payload(controlDB, work.note).reader == 6)
        let tombstones = { (note: NoteText) in note.sequence.runsInOrder().filter(\.isDeleted).count }
        for (device, other) in zip(devices, control) {
            let note = try device.library.note(work.note)
            #expect(note.ledger?.repointed.isEmpty == false, "device \(device.library.replica) holds no list")
            #expect(note.invariantViolations.isEmpty)
            let plain = try other.library.note(work.note)
            #expect(plain.ledger?.repointed.isEmpty ?? true)
            #expect(tombstones(note) < tombstones(plain), "re-pointed \(tombstones(note)), kept \(tombstones(plain))")
        }
        // Reopened, a library holds the same note (its journal kept the re-pointed state whole).
        for device in devices {
            let reopened = try NoteLibrary(folder: "/device/notes", replica: device.library.replica, fileSystem: device.disk)
            #expect(try GroupChainsTests.elements(of: reopened.note(work.note)) == GroupChainsTests.elements(of: device.library.note(work.note)))
        }
    }

    // MARK: (b) devices offline across compactions

    /// 2–5 devices, random edits and sync order; the last device goes offline past the activity
    /// window (so it no longer counts) after typing next to and inside the text of the moment,
    /// the others delete every line there was and keep editing while their notes compact, then
    /// it comes back with its edits. Every device ends with exactly the tokens typed and not
    /// deleted (the oracle), once each, and the same text.
    ///
    /// Without history (`keepsHistory` false) the others' compactions
    /// also re-point group chains (Docs/FORMAT.md §4.7, "Re-pointed right origins"), so the
    /// device comes back holding right origins they changed.
    @Test(arguments: Array(1...10) as [UInt64], [true, false])
    func devicesComingBackAfterCompactionsLoseAndResurrectNothing(seed: UInt64, keepsHistory: Bool) async throws {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9)
        let count = 2 + random.below(4)
        var configuration = NoteSyncConfiguration()
        configuration.activityWindow = .seconds(2 * 86_400)
        var options = NoteLibrary.Options()
        if !keepsHistory { options.historyRetention = nil }
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        let (_, store) = await Self.database(time)
        let devices = try (1...count).map {
            try Device(store, replica: UInt64($0), time: time, configuration: configuration, options: options)
        }
        try await Self.syncAll(devices, times: 2, time: time)
        var work = Workload(seed: seed)
        try devices[0].library.create(work.note)
        try await Self.syncAll(devices, time: time)

        /// Whether some device's note listed re-pointed ids after a sync while the last was away.
        var listed = false
        /// Random edits by random devices of `online`, each syncing after its edits; returns
        /// how many syncs dropped runs from a device's note (compactions).
        func play(_ online: [Int], rounds: Int, step: UInt64) async throws -> Int {
            var compactions = 0
            for round in 0..<rounds {
                let i = online[work.random.below(online.count)]
                for _ in 0..<(1 + work.random.below(3)) { try work.edit(devices[i], name: "d\(i)e", inside: 0.25) }
                let synced = round % 4 == 3 ? online : [i]
                for j in synced {
                    time.advance(by: step)
                    let before = try devices[j].library.note(work.note).runCount
                    try await devices[j].engine.sync()
                    if try devices[j].library.note(work.note).runCount < before { compactions += 1 }
                    if try devices[j].library.note(work.note).ledger?.repointed.isEmpty == false { listed = true }
                }
            }
            return compactions
        }

        let all = Array(0..<count)
        _ = try await play(all, rounds: 40, step: 60_000)
        try await Self.syncAll(devices, time: time)

        // The last device leaves, typing inside the lines there are and a line of its own.
        let away = count - 1
        let others = Array(0..<away)
        for _ in 0..<3 { try work.typeInside(devices[away], name: "d\(away)e", text: try devices[away].library.text(of: work.note)) }
        try work.edit(devices[away], name: "d\(away)e", inside: 0)
        // The others delete every line there was, then edit on for three days.
        for _ in 0..<40 {
            let device = devices[others[work.random.below(others.count)]]
            let text = try device.library.text(of: work.note)
            guard let line = Workload.lines(of: text).first else { break }
            try work.deleteLine(device, line, text: text)
        }
        // They type lines at the top in turn, each seeing the line before (a group chain), and
        // delete all but the newest.
        for k in 0..<6 {
            let device = devices[others[k % others.count]]
            try work.typeLine(device, name: "d\(others[k % others.count])t", at: 0)
            try await Self.syncAll(others.map { devices[$0] }, time: time)
        }
        for _ in 0..<5 {
            let device = devices[others[0]]
            let text = try device.library.text(of: work.note)
            let lines = Workload.lines(of: text)
            guard lines.count >= 2 else { break }
            try work.deleteLine(device, lines[1], text: text)
        }
        // Whether that made a chain to re-point: one a compaction of every tombstone leaves.
        var everything = try devices[others[0]].library.note(work.note)
        try everything.compact(settled: nil)
        let runs = everything.sequence.runsInOrder()
        let chained = GroupChains.repointed(runs, replicaCount: everything.sequence.replicas.count, replicaIDs: everything.sequence.replicas,
                                            droppable: { runs[$0].isDeleted }).map { $0.dropped > 0 } ?? false
        // They add a line at the end twice a day for five days, the away device's record going
        // stale after two: the chain's deletions settle and, without history, the chain is
        // re-pointed (a compaction happens when a device writes the note).
        for half in 0..<10 {
            let device = devices[others[half % others.count]]
            try work.typeLine(device, name: "d\(others[half % others.count])b", at: try device.library.text(of: work.note).unicodeScalars.count)
            try await Self.syncAll(others.map { devices[$0] }, time: time, step: 43_200_000 / UInt64(others.count))
        }
        listed = try others.contains { try devices[$0].library.note(work.note).ledger?.repointed.isEmpty == false }
        let compactions = try await play(others, rounds: 48, step: 10_800_000)
        #expect(compactions >= 2, "\(compactions) compactions while device \(away) was away")
        #expect(keepsHistory ? !listed : listed == chained, "seed \(seed): chain \(chained), re-pointed while device \(away) was away: \(listed)")
        // Meanwhile it typed more next to its own text.
        for _ in 0..<2 { try work.typeInside(devices[away], name: "d\(away)e", text: try devices[away].library.text(of: work.note)) }

        // It comes back; everyone syncs and edits a little more.
        try await Self.syncAll(devices, times: 2, time: time)
        _ = try await play(all, rounds: 12, step: 60_000)
        try await Self.syncAll(devices, times: 3, time: time)
        let texts = try devices.map { try $0.library.text(of: work.note) }
        #expect(Set(texts).count == 1, "devices disagree: \(texts)")
        #expect(try work.problems(devices) == [])
    }

    // MARK: (c) a device that cannot be accounted for, (d) a fleet below format 3

    /// A device record whose device never writes the note (no seen vector) keeps every
    /// tombstone alive; once its record is gone, the others compact.
    @Test func aDeviceThatNeverWritesTheNoteKeepsTombstonesAlive() async throws {
        let silent = DeviceSchema.recordNamePrefix + "00000000000000ff0000000000000001"
        let (devices, db, work) = try await Self.todoRun(reads: [Self.current, Self.current], rounds: 200, seed: 5) { _, store, time in
            var record = CloudRecord(recordName: silent, recordType: DeviceSchema.recordType)
            record.zoneID = Self.zone
            DeviceAnnouncement(release: CRDTNoteRelease.version, reads: NoteFormat.readerVersion, capabilities: [],
                               lastSync: Int64(time.milliseconds), name: "tablet", replicas: [ReplicaID.test(99).rawValue]).write(into: &record)
            _ = try await store.saveRecords([record], in: Self.zone)
        }
        #expect(try await devices[0].engine.fleet().devices.count == 3)
        for device in devices {
            let note = try device.library.note(work.note)
            #expect(!note.isCompacted)
            #expect(note.ledger?.proposed.isEmpty == false) // proposed, never settled
        }
        let kept = try await Self.payload(db, work.note)

        // The tablet's record goes: the two devices that remain settle and compact.
        try await devices[0].store.deleteRecords(named: [silent], in: Self.zone)
        var work2 = work
        for round in 0..<30 {
            try work2.edit(devices[round % 2], name: "d\(round % 2)x")
            try await Self.syncAll(devices, time: devices[0].time)
        }
        try await Self.syncAll(devices, times: 2, time: devices[0].time)
        for device in devices { #expect(try device.library.note(work.note).isCompacted) }
        let compacted = try await Self.payload(db, work.note)
        #expect(compacted.bytes < kept.bytes, "compacted \(compacted.bytes) B, kept \(kept.bytes) B")
        #expect(try work2.problems(devices) == [])
    }

    /// One device reads only format 2: nothing compacts, no ledger is written, and every
    /// payload stays readable by it.
    @Test func aFleetBelowFormatThreeNeverCompacts() async throws {
        let (devices, db, work) = try await Self.todoRun(reads: [3, 3, 2], rounds: 200, seed: 8)
        #expect(try await Self.payload(db, work.note).reader <= 2)
        for device in devices {
            let note = try device.library.note(work.note)
            #expect(!note.isCompacted)
            #expect(note.ledger == nil)
        }
        #expect(try work.problems(devices) == [])
        #expect(Set(try devices.map { try $0.library.text(of: work.note) }).count == 1)
    }

    // MARK: (e) the library keeps compacted notes across reopening, power loss and compaction

    /// A compacted note and its ledger read back the same from the journal after a restart, a
    /// power loss and a library compaction, and in a second process catching up.
    /// Without history (`keepsHistory` false) the compactions re-point group chains,
    /// so the journal also holds notes kept whole after merges that reconciled right origins.
    @Test(arguments: [true, false])
    func compactedNotesReadBackAfterRestartsPowerLossAndLibraryCompaction(keepsHistory: Bool) async throws {
        var options = NoteLibrary.Options()
        if !keepsHistory { options.historyRetention = nil }
        let (devices, _, work) = try await Self.todoRun(reads: [Self.current, Self.current, Self.current], rounds: 300, seed: 12,
                                                         options: options)
        var device = devices[1]
        let other = try NoteLibrary(folder: "/device/notes", replica: .test(50), fileSystem: device.disk)
        _ = try other.note(work.note) // held in memory: it must follow what the engine writes
        // More edits, compactions and ledger changes after the last library compaction.
        var more = work
        for round in 0..<60 {
            try more.edit(devices[round % 3], name: "d\(round % 3)y")
            try await Self.syncAll(devices, time: device.time)
        }
        let expected = try device.library.note(work.note)
        #expect(expected.isCompacted)
        #expect(expected.ledger != nil)
        #expect(expected.ledger?.repointed.isEmpty == keepsHistory, "re-pointed ids listed: \(!keepsHistory)")

        func same(_ library: NoteLibrary, _ what: String) throws {
            let note = try library.note(work.note)
            #expect(note.string == expected.string, "\(what): text")
            #expect(note.ledger == expected.ledger, "\(what): ledger")
            #expect(note.encodedSnapshot(format: .version3) == expected.encodedSnapshot(format: .version3), "\(what): state")
            #expect(try library.verify() == [], "\(what): verify")
        }
        try same(other, "second process")
        device.disk.crashProcess()
        try device.relaunch(replica: 2)
        try same(device.library, "restart")
        device.disk.crash()
        try device.relaunch(replica: 2)
        try same(device.library, "power loss")
        try device.library.compact()
        try device.relaunch(replica: 2)
        try same(device.library, "library compaction")
        // And it goes on syncing from there.
        try more.edit(device, name: "d1z")
        try await Self.syncAll(devices, times: 2, time: device.time)
        #expect(try more.problems(devices) == [])
    }

    // MARK: formatting

    /// A note whose record carries formatting (written by a device that formats): library
    /// devices hold formatting they read, so they compact the note, keeping every element the
    /// formatting names (Docs/FORMAT.md §10.6); formatting a newer release wrote, which they
    /// cannot read, they keep verbatim and never compact under, since they cannot tell which
    /// tombstones it names. The formatting survives either way.
    @Test(arguments: [false, true])
    func notesWithFormattingTheLibraryCannotReadAreNotCompacted(newer: Bool) async throws {
        let (time, db, devices, firstWork) = try await Self.twoDevicesWithANote(seed: 3)
        var work = firstWork
        try await Self.syncAll(devices, time: time)
        let stored = try await Self.record(db, work.note)
        var formatted = try NoteRecord(stored).read(as: .test(9)).note
        try formatted.setMark(.bold, utf16Range: 0..<4)
        var record = try NoteRecord(stored).writing(formatted).record
        var newerBytes: [UInt8] = []
        if newer, case .bytes(var bytes)? = record[field: NoteSchema.Field.formatting] {
            bytes[6] = 9  // minimum reader version 9 (the header's bytes are not in the checksum)
            record[field: NoteSchema.Field.formatting] = .bytes(bytes)
            newerBytes = bytes
        }
        _ = try #require(try await db.modifyRecords(saving: [record], deleting: [], in: Self.zone).saveResults[record.recordName]).get()
        try await Self.takeTurns(devices, &work, tag: "f", time: time)
        let final = try await Self.record(db, work.note)
        let reading = try NoteRecord(final).read(as: .test(10))
        if newer {
            for device in devices {
                let note = try device.library.note(work.note)
                #expect(!note.isCompacted)
                #expect(note.ledger?.proposed.isEmpty ?? true)
                #expect(note.formatting.isEmpty)
            }
            #expect(final[field: NoteSchema.Field.formatting] == .bytes(newerBytes))
        } else {
            var compacted = false
            for device in devices {
                let note = try device.library.note(work.note)
                compacted = compacted || note.isCompacted
                #expect(note.formatting == formatted.formatting)
                #expect(try LibraryFormattingModel.namesOnlyItsElements(note))
            }
            #expect(compacted)
            // The mark stays (its text, the first line, may have been deleted by the workload).
            #expect(reading.formattingError == nil)
            #expect(reading.note.formatting == formatted.formatting)
        }
        #expect(try work.problems(devices) == [])
    }

    /// History a newer release wrote (a history payload needing reader 9), which these devices
    /// cannot read: they keep it verbatim and never compact the note, since its events and
    /// shadows may place text among the tombstones they would drop (Docs/FORMAT.md §4.7). The
    /// control run, the same without the newer history, compacts.
    @Test(arguments: [false, true])
    func notesWithHistoryTheLibraryCannotReadAreNotCompacted(newer: Bool) async throws {
        let (time, db, devices, firstWork) = try await Self.twoDevicesWithANote(seed: 4)
        var work = firstWork
        try devices[0].library.edit(work.note) { (note: inout NoteText) throws(NoteTextError) in
            try note.insert("x", atScalarOffset: 0)
            try note.deleteScalars(in: 0..<1)
        }
        // Only the writer has synced the note: nothing can have settled yet.
        try await devices[0].engine.sync()
        var record = try await Self.record(db, work.note)
        // The encrypted layout carries history in an asset.
        guard var bytes = record.assetBytes(NoteSchema.Field.historyAsset) else {
            Issue.record("the record carries no history asset: \(record.fields.keys.sorted())")
            return
        }
        if newer {
            bytes[6] = 9  // minimum reader version 9 (the header's bytes are not in the checksum)
            record[field: NoteSchema.Field.historyAsset] = .asset(AssetReference(bytes: bytes))
            _ = try #require(try await db.modifyRecords(saving: [record], deleting: [], in: Self.zone).saveResults[record.recordName]).get()
        }
        try await Self.takeTurns(devices, &work, tag: "h", time: time)
        let final = try await Self.record(db, work.note)
        let compacted = try devices.map { try $0.library.note(work.note).isCompacted }
        if newer {
            #expect(compacted == [false, false])
            #expect(final.assetBytes(NoteSchema.Field.historyAsset) == bytes)
        } else {
            #expect(compacted.contains(true))
        }
        #expect(try work.problems(devices) == [])
    }
}
