import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Lazily loaded snapshots (`NoteText(snapshot:)` reads text and clock table up front, builds
/// the index on first need): the same behaviour as the note that wrote the snapshot, copies that
/// stay independent, and corrupt runs reported as typed errors by every edit and merge.
@Suite struct LazySnapshotTests {
    static let clock = HybridLogicalClock(physicalClock: .fixed(1_700_000_000_000))

    /// One random step applied to both notes alike. `others` are notes to merge in (some
    /// loaded lazily themselves).
    static func step(_ a: inout NoteText, _ b: inout NoteText, others: [NoteText], rng: inout SplitMix64) throws {
        #expect(a.scalarCount == b.scalarCount)
        let n = a.scalarCount
        switch Int.random(in: 0..<9, using: &rng) {
        case 0, 1:
            let text = RandomText.make(&rng)
            let at = Int.random(in: 0...n, using: &rng)
            try a.insert(text, atScalarOffset: at)
            try b.insert(text, atScalarOffset: at)
        case 2 where n > 0:
            let lo = Int.random(in: 0..<n, using: &rng)
            let range = lo..<min(n, lo + Int.random(in: 1...5, using: &rng))
            try a.deleteScalars(in: range)
            try b.deleteScalars(in: range)
        case 3:
            let units = a.utf16Count
            #expect(units == b.utf16Count)
            let at = try a.scalarRange(forUTF16: 0..<0).lowerBound + Int.random(in: 0...n, using: &rng)
            let u = try a.utf16Offset(forScalar: min(at, n))
            #expect(try b.utf16Offset(forScalar: min(at, n)) == u)
            try a.replaceUTF16(in: u..<u, with: "é🙂")
            try b.replaceUTF16(in: u..<u, with: "é🙂")
        case 4:
            let other = others[Int.random(in: 0..<others.count, using: &rng)]
            let pa = try a.merge(other)
            let pb = try b.merge(other)
            #expect(pa == pb)
        case 5:
            let other = others[Int.random(in: 0..<others.count, using: &rng)]
            let changes = other.changes(since: a.version)
            #expect(changes == other.changes(since: b.version))
            try a.apply(changes)
            try b.apply(changes)
        case 6:
            var scalars = Array(a.string.unicodeScalars)
            if !scalars.isEmpty { scalars.remove(at: Int.random(in: 0..<scalars.count, using: &rng)) }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            try a.setText(String(text) + "!")
            try b.setText(String(text) + "!")
        case 7:
            let at = Int.random(in: 0...n, using: &rng)
            let anchor = try a.anchor(atScalar: at, bias: Bool.random(using: &rng) ? .before : .after)
            #expect(try b.anchor(atScalar: at, bias: anchor.bias) == anchor)
            #expect(a.utf16Offset(of: anchor) == b.utf16Offset(of: anchor))
        default:
            // Another copy's view: the other side merges this one (both notes, both ways).
            var x = others[0]
            var y = others[0]
            try x.merge(a)
            try y.merge(b)
            #expect(NoteReplicaDerivation.digest(x) == NoteReplicaDerivation.digest(y))
        }
    }

    /// A note loaded lazily behaves exactly as the note that wrote the snapshot, under random
    /// edits, merges (with eager and lazy others), changes and anchors: same text, counts,
    /// version, clock and canonical state after every step.
    @Test(arguments: [11, 22, 33, 44, 55] as [UInt64])
    func lazyNotesBehaveLikeTheirWriter(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let notes = FormatSamples.randomNotes(seed: seed, replicas: 3, edits: 80)
        let writer = ReplicaID.test(500)
        var oracle = notes[0].forked(as: writer, clock: Self.clock)
        let payload = notes[0].encodedSnapshot()
        var lazy = try NoteText(snapshot: payload, replica: writer, clock: Self.clock)
        // Before anything is built: the cheap reads, and the payload handed back unchanged.
        #expect(lazy.deferred != nil)
        #expect(lazy.string == oracle.string && lazy.utf8 == oracle.utf8)
        #expect(lazy.scalarCount == oracle.scalarCount && lazy.utf16Count == oracle.utf16Count)
        #expect(lazy.isEmpty == oracle.isEmpty && lazy.version == oracle.version)
        #expect(lazy.lastModified == oracle.lastModified && lazy.elementCount == oracle.elementCount)
        #expect(lazy.replicaHistories == oracle.replicaHistories)
        #expect(lazy.encodedSnapshot() == payload)
        #expect(lazy.deferred != nil, "reads that need no index must not build it")
        let others = [notes[1], try NoteText(snapshot: notes[2].encodedSnapshot(), replica: .test(501), clock: Self.clock),
                      NoteText(replica: .test(502))]
        // Each trial starts from a fresh lazy load of the oracle's state, so every kind of
        // step meets a note whose index is not built yet.
        for trial in 0..<12 {
            if trial > 0 {
                // Both notes come from a load (the oracle an eager one): both clocks see the state's stamps.
                lazy = try NoteText(snapshot: oracle.encodedSnapshot(), replica: writer, clock: oracle.clock)
                oracle = oracle.forked(as: writer, clock: oracle.clock)
                #expect(lazy.deferred != nil && lazy.encodedSnapshot() == oracle.encodedSnapshot())
            }
            for _ in 0..<4 {
                try Self.step(&lazy, &oracle, others: others, rng: &rng)
                #expect(lazy.string == oracle.string)
                #expect(lazy.utf16Count == oracle.utf16Count && lazy.version == oracle.version)
                #expect(lazy.lastModified == oracle.lastModified && lazy.clock.latest == oracle.clock.latest)
                #expect(NoteReplicaDerivation.digest(lazy) == NoteReplicaDerivation.digest(oracle))
            }
            #expect(lazy.invariantViolations.isEmpty)
        }
    }

    /// Copies of a loaded note (assignment, `forked`) share the one decode but never each other's edits.
    @Test func copiesOfALoadedNoteStayIndependent() throws {
        let source = try NoteText("shared text", replica: .test(1), clock: Self.clock)
        let payload = source.encodedSnapshot()
        let loaded = try NoteText(snapshot: payload, replica: .test(2), clock: Self.clock)
        var copy = loaded
        let fork = loaded.forked(as: .test(3))
        try copy.insert("my ", atScalarOffset: 0)
        #expect(copy.string == "my shared text")
        #expect(loaded.string == "shared text" && fork.string == "shared text")
        #expect(loaded.encodedSnapshot() == payload && fork.encodedSnapshot() == payload)
        // A read that builds the index (shared), then edits on both sides.
        #expect(loaded.utf16Offset(of: try loaded.anchor(atScalar: 7, bias: .after)) == 7)
        var second = loaded
        try second.deleteScalars(in: 0..<7)
        var third = fork
        try third.insert("!", atScalarOffset: third.scalarCount)
        #expect(second.string == "text" && third.string == "shared text!" && copy.string == "my shared text")
        #expect(loaded.string == "shared text" && fork.string == "shared text")
        #expect(loaded.invariantViolations.isEmpty && second.invariantViolations.isEmpty && third.invariantViolations.isEmpty)
        try second.merge(third)
        try second.merge(copy)
        #expect(second.string == "my text!")
    }

    /// A valid snapshot whose flag column is damaged (reserved bits), checksum recomputed.
    static func corruptPayload() throws -> (payload: [UInt8], text: String, flagOffset: Int) {
        var note = try NoteText("héllo 🙂 wörld", replica: .test(1), clock: Self.clock)
        try note.deleteScalars(in: 2..<4)
        var payload = note.encodedSnapshot()
        var reader = ByteReader(payload, range: NoteFormat.headerSize..<payload.count)
        let prologue = try SnapshotDecoder.prologue(&reader, layout: 1, limits: .default)
        var runTable = prologue.runTable
        let flagOffset = try RunColumnsV1.frame(&runTable, limits: .default).flags.offset
        payload[flagOffset] |= SnapshotFlags.reservedMask
        return (FormatSamples.resealed(payload), note.string, flagOffset)
    }

    /// Corrupt runs behind a sound header, checksum, text and clock table: the note loads and
    /// reads, every edit and merge throws the typed error with the decoder's offset, and
    /// nothing changes.
    @Test func corruptRunsLoadThenEveryMutationThrows() throws {
        let (payload, text, flagOffset) = try Self.corruptPayload()
        let note = try NoteText(snapshot: payload, replica: .test(2), clock: Self.clock)
        #expect(note.string == text && note.scalarCount == text.unicodeScalars.count && note.utf16Count == text.utf16.count)
        #expect(throws: BinaryDecodingError.self) { try note.checkLoadedSnapshot() }

        func expectEditRefused(_ body: (inout NoteText) throws(NoteTextError) -> Void) {
            var copy = note
            do throws(NoteTextError) {
                try body(&copy)
                Issue.record("an edit of a corrupt snapshot succeeded")
            } catch {
                #expect(error.code == .corruptSnapshot)
                #expect(error.decodingError?.offset == flagOffset)
            }
            #expect(copy.string == text && copy.version == note.version && copy.encodedSnapshot() == payload)
        }
        expectEditRefused { n throws(NoteTextError) in try n.insert("x", atScalarOffset: 0) }
        expectEditRefused { n throws(NoteTextError) in try n.insert("x", atUTF16Offset: 1) }
        expectEditRefused { n throws(NoteTextError) in try n.deleteScalars(in: 0..<1) }
        expectEditRefused { n throws(NoteTextError) in try n.deleteUTF16(in: 0..<1) }
        expectEditRefused { n throws(NoteTextError) in try n.replaceScalars(in: 0..<0, with: "") }
        expectEditRefused { n throws(NoteTextError) in try n.replaceUTF16(in: 0..<2, with: "y") }
        expectEditRefused { n throws(NoteTextError) in try n.setText("other") }
        expectEditRefused { n throws(NoteTextError) in _ = try n.anchor(atUTF16: 1, bias: .before) }
        expectEditRefused { n throws(NoteTextError) in _ = try n.anchor(atScalar: 1, bias: .after) }
        expectEditRefused { n throws(NoteTextError) in _ = try n.selection(utf16Range: 0..<1) }
        expectEditRefused { n throws(NoteTextError) in _ = try n.scalarRange(forUTF16: 0..<1) }
        expectEditRefused { n throws(NoteTextError) in _ = try n.utf16Offset(forScalar: 1) }

        func expectMergeRefused(_ body: (inout NoteText) throws(ChangeSetError) -> Void, changing receiver: NoteText) {
            var copy = receiver
            do throws(ChangeSetError) {
                try body(&copy)
                Issue.record("a merge with a corrupt snapshot succeeded")
            } catch {
                #expect(error.code == .corruptSnapshot)
                #expect(error.decodingError?.offset == flagOffset)
            }
            #expect(copy.string == receiver.string && copy.version == receiver.version)
        }
        let sound = try NoteText("other", replica: .test(3), clock: Self.clock)
        expectMergeRefused({ n throws(ChangeSetError) in try n.merge(sound) }, changing: note)
        expectMergeRefused({ n throws(ChangeSetError) in try n.apply(sound.changes(since: VersionVector())) }, changing: note)
        expectMergeRefused({ n throws(ChangeSetError) in try n.merge(note) }, changing: sound)
        expectMergeRefused({ n throws(ChangeSetError) in n = try n.merging(note) }, changing: sound)

        // Reads that cannot throw: documented fallbacks, and the state stays as loaded.
        let anchor = try sound.anchor(atScalar: 1, bias: .after)
        #expect(note.utf16Offset(of: anchor) == nil && note.utf16Offset(of: .end) == text.utf16.count)
        #expect(note.changes(since: VersionVector()).isEmpty)
        var undoing = note
        #expect(try undoing.undo() == nil)
        #expect(note.encodedSnapshot() == payload)
    }

    /// Records: reading stays lazy, but writing, verified reading and merging report the damage
    /// as `.corruptPayload`.
    @Test func corruptRunsInARecordAreReportedWhereTheyAreUsed() throws {
        let (payload, text, _) = try Self.corruptPayload()
        var record = NoteRecord(recordName: "n")
        record.record[field: NoteSchema.Field.version] = .int64(NoteSchema.currentVersion)
        record.record[field: NoteSchema.Field.payload] = .bytes(payload)
        record.record[field: NoteSchema.Field.text] = .string(text)
        let reading = try record.read(as: .test(4))
        #expect(reading.note.string == text)
        #expect(throws: NoteRecordError.self) { _ = try record.readVerified(as: .test(4)) }
        do throws(NoteRecordError) {
            _ = try record.readVerified(as: .test(4))
        } catch {
            #expect(error.code == .corruptPayload)
        }
        var target = NoteRecord(recordName: "n")
        do throws(NoteRecordError) {
            try target.write(reading.note)
            Issue.record("a corrupt loaded note was written")
        } catch {
            #expect(error.code == .corruptPayload)
        }
        let sound = try NoteRecord(recordName: "n", note: try NoteText("other", replica: .test(5), clock: Self.clock))
        for records in [[record, sound], [sound, record], [record]] {
            do throws(NoteRecordError) {
                _ = try RecordMerger().merge(records: records)
                Issue.record("records with a corrupt payload were merged")
            } catch {
                #expect(error.code == .corruptPayload)
            }
        }
    }
}
