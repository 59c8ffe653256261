import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Format 3 (Docs/FORMAT.md §4.7): compacted notes and their ledger written and read back, what
/// readers refuse, and changes payloads that carry compacted ids.
@Suite("Compacted notes in format 3")
struct CompactedFormatTests {
    /// "one\nthree\n" typed by replica 1, then "two\n" typed after "one\n" and deleted again: a
    /// tombstone nothing visible names. With `named`, "X" is typed after "tw" first and stays:
    /// it names "w" and "o" as its origins, so they must stay.
    static func noteWithDeletedLine(named: Bool = false) throws -> NoteText {
        var note = try NoteText("one\nthree\n", replica: .test(1))
        try note.insert("two\n", atScalarOffset: 4)
        if named {
            try note.insert("X", atScalarOffset: 6)      // "one\ntwXo\nthree\n"
            try note.deleteScalars(in: 7..<9)            // "o\n"
            try note.deleteScalars(in: 4..<6)            // "tw"
        } else {
            try note.deleteScalars(in: 4..<8)
        }
        return note
    }

    /// A format 3 payload of `sequence` without any of its tombstones, even those its visible
    /// text names as origins: what no compaction writes.
    static func withoutTombstones(_ sequence: TextSequence) -> [UInt8] {
        let runs = sequence.runsInOrder().filter { !$0.isDeleted }
        let forged = TextSequence(replicas: sequence.replicas, nextSeq: sequence.nextSeq, latest: sequence.latestStamp,
                                  logs: sequence.clockLog.map(\.entries), content: sequence.content, runs: runs,
                                  index: IDIndex(runs, byID: RunsByID(runs, replicaCount: sequence.replicas.count),
                                                 nextSeq: sequence.nextSeq, slot: { Int32($0 / TextSequence.bulkLeafFill) }))
        return PayloadHeader.wrap(SnapshotEncoder.encode(forged, format: .version3), kind: .snapshot, version: 3)
    }

    @Test func aCompactedNoteIsWrittenInFormatThreeAndReadsBack() throws {
        var note = try Self.noteWithDeletedLine()
        let uncompacted = note.encodedSnapshot(format: .version3)
        #expect(PayloadHeader.requiredReaderVersion(of: uncompacted) == 2, "nothing compacted: format 2")
        #expect(uncompacted == note.encodedSnapshot(format: .version2))
        try note.compact(settled: nil)
        #expect(note.isCompacted)
        #expect(note.index.runsInOrder().allSatisfy { !$0.isDeleted }, "the deleted line went")
        for asked in [SnapshotFormat.version1, .version2, .version3] {
            let payload = note.encodedSnapshot(format: asked)
            #expect(PayloadHeader.requiredReaderVersion(of: payload) == 3, "compacted: format 3 whatever is asked")
            let read = try NoteText(snapshot: payload, replica: .test(2))
            try read.checkLoadedSnapshot()
            #expect(read.string == "one\nthree\n")
            #expect(read.isCompacted)
            #expect(read.encodedSnapshot(format: asked) == payload, "read back and written again unchanged")
            #expect(read.version == note.version)
        }
        #expect(note.invariantViolations.isEmpty)
    }

    @Test func compactionKeepsWhatVisibleTextNames() throws {
        var note = try Self.noteWithDeletedLine(named: true)
        #expect(note.string == "one\nXthree\n")
        try note.compact(settled: nil)
        let tombstones = note.index.runsInOrder().filter(\.isDeleted)
        // "X" names "w" as its left origin ("tw" stays: "w"'s own left origin is "t") and "o",
        // the character after it when it was typed, as its right origin; "\n" goes.
        #expect(tombstones.map(\.length) == [2, 1])
        #expect(note.string == "one\nXthree\n")
        let read = try NoteText(snapshot: note.encodedSnapshot(format: .version3), replica: .test(2))
        try read.checkLoadedSnapshot()
        #expect(read.string == "one\nXthree\n")
    }

    /// A format 2 payload must hold every id; a format 3 one may leave ids out, but never one a
    /// run names as an origin.
    @Test func readersRefuseMissingIDsTheFormatDoesNotAllow() throws {
        var note = try Self.noteWithDeletedLine(named: true)
        try note.compact(settled: nil)
        let sequence = note.index
        // The same runs declared as format 2: the compacted ids are "in no run".
        let asTwo = PayloadHeader.wrap(SnapshotEncoder.encode(sequence, format: .version2), kind: .snapshot, version: 2)
        let two = try NoteText(snapshot: asTwo, replica: .test(2))
        #expect(throws: BinaryDecodingError.self) { try two.checkLoadedSnapshot() }
        do {
            try two.checkLoadedSnapshot()
        } catch {
            #expect("\(error)".contains("are in no run"), "\(error)")
        }
        // Format 3 without the tombstones "X" names: an origin naming a compacted id.
        let asThree = Self.withoutTombstones(sequence)
        let loaded = try NoteText(snapshot: asThree, replica: .test(2))
        #expect(loaded.string == "one\nXthree\n", "the prologue reads")
        #expect(throws: BinaryDecodingError.self) { try loaded.checkLoadedSnapshot() }
        do {
            try loaded.checkLoadedSnapshot()
        } catch {
            #expect(error.message.contains("which is compacted (held by no run)"), "\(error)")
        }
        // And a reader of format 2 refuses format 3 at the gate, before reading anything.
        #expect(throws: PayloadError.newerFormat(requiredReader: 3, supportedReader: 2)) {
            _ = try PayloadHeader.read(asThree, supportedReader: 2)
        }
    }

    /// A copy that never saw the compacted ids learns them from a changes payload (format 3) and
    /// counts them as compacted too.
    @Test func changesCarryCompactedIDsInFormatThree() throws {
        var sender = try NoteText("keep this line\n", replica: .test(1))
        let receiver = sender.forked(as: .test(2))
        try sender.insert("gone soon\n", atScalarOffset: 15)
        try sender.deleteScalars(in: 15..<25)
        try sender.compact(settled: nil)
        let changes = sender.changes(since: receiver.version)
        let bytes = changes.encoded()
        #expect(PayloadHeader.requiredReaderVersion(of: bytes) == 3)
        let decoded = try NoteChanges(encoded: bytes)
        var applied = receiver
        try applied.apply(decoded)
        #expect(applied.string == "keep this line\n")
        #expect(applied.version == sender.version)
        #expect(applied.isCompacted)
        #expect(applied.invariantViolations.isEmpty)
        // Changes without compacted ids keep format 1.
        var plain = receiver
        try plain.insert("!", atScalarOffset: 0)
        #expect(PayloadHeader.requiredReaderVersion(of: plain.changes(since: receiver.version).encoded()) == 1)
    }

    /// A compacted range that spans the receiver's count (not what crdtnote writes, but what a
    /// changes payload can say): the part the receiver holds is deleted there, the rest counted as
    /// compacted; a range naming a replica the set does not list is refused, nothing changed.
    @Test func compactedRangesAcrossTheReceiversCountAndBadOnes() throws {
        let receiver = try NoteText("abc", replica: .test(1))
        var set = ChangeSet()
        set.replicas = [.test(1)]
        set.compacted = [.init(replica: 0, seq: 2, length: 3)]
        var applied = receiver
        try applied.apply(NoteChanges(changeSet: set))
        #expect(applied.string == "ab")
        #expect(applied.isCompacted && applied.version[.test(1)] == 5)
        #expect(applied.invariantViolations.isEmpty)
        set.compacted = [.init(replica: 9, seq: 3, length: 1)]
        var refused = receiver
        #expect(throws: ChangeSetError.self) { try refused.apply(NoteChanges(changeSet: set)) }
        #expect(refused.string == "abc" && !refused.isCompacted)
    }

    /// Changes sent on their own that name a character the receiver compacted cannot be placed:
    /// refused with `compactedOrigin`, nothing changed. (Merging the sender's whole state brings
    /// the character back; see CompactedMergePropertyTests.)
    @Test func changesNamingACompactedCharacterAreRefused() throws {
        var server = try NoteText("alpha\nbeta\n", replica: .test(1))
        var offline = server.forked(as: .test(2))
        try server.deleteScalars(in: 6..<11)
        try server.compact(settled: nil)
        let before = offline.version
        try offline.insert("BB", atScalarOffset: 8)  // inside "beta", which the server dropped
        let delta = offline.changes(since: before)
        var target = server
        #expect(throws: ChangeSetError.self) { try target.apply(delta) }
        do {
            try target.apply(delta)
        } catch {
            #expect(error.code == .compactedOrigin, "\(error)")
        }
        #expect(target.string == server.string && target.version == server.version)
        try target.merge(offline)
        #expect(target.string == "alpha\nBB")
    }

    @Test func theLedgerIsWrittenAndReadBack() throws {
        var note = try Self.noteWithDeletedLine()
        note.recordSeen(by: .test(1))
        try note.compactIfSettled(devices: [[.test(1)], [.test(7)]])
        let ledger = try #require(note.ledger)
        #expect(!ledger.proposed.isEmpty && !ledger.cut.isEmpty && ledger.seen.count == 1)
        let payload = note.encodedSnapshot(format: .version2)
        #expect(PayloadHeader.requiredReaderVersion(of: payload) == 3, "a ledger needs format 3")
        let read = try NoteText(snapshot: payload, replica: .test(2))
        #expect(read.ledger == ledger)
        #expect(read.encodedSnapshot(format: .version3) == payload)
    }

    /// A device id as the ledger stores it (UInt64, little-endian).
    static func id(_ n: UInt8) -> [UInt8] { [n, 0, 0, 0, 0, 0, 0, 0] }

    /// What a ledger reader refuses, each with a message naming what is wrong.
    @Test(arguments: [
        ("devices out of order", [2] + id(2) + [0] + id(1) + [0, 0, 0], "out of order"),
        ("vector names a replica outside the table", [1] + id(1) + [1, 5, 9, 0, 0], "5 exceeds maximum 1"),
        ("proposed range past the ids", [0, 0, 1, 0, 0, 40], "lie past"),
        ("proposed ranges overlapping", [0, 0, 2, 0, 0, 3, 0, 0, 0], "overlap"),
        ("fewer bytes than the device count needs", [1, 1, 0, 0], "bytes remain"),
    ] as [(String, [UInt8], String)])
    func ledgerReaderRefuses(_ name: String, _ bytes: [UInt8], _ message: String) {
        var reader = ByteReader(bytes)
        #expect(throws: BinaryDecodingError.self, "\(name)") {
            _ = try CompactionLedgerCoding.read(&reader, replicas: [.test(1), .test(2)], nextSeq: [10, 10], limits: .default)
        }
        reader = ByteReader(bytes)
        do {
            _ = try CompactionLedgerCoding.read(&reader, replicas: [.test(1), .test(2)], nextSeq: [10, 10], limits: .default)
        } catch {
            #expect("\(error)".contains(message), "\(name): \(error)")
        }
    }
}
