import CRDTNoteToolSupport
import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// The independent Python reader (`Tests/Fixtures/golden/second_reader.py`, written from
/// Docs/FORMAT.md alone) against the library on format 3 (FORMAT.md §4.7): compacted notes with
/// their ledgers decode to the same text, runs, state digest and ledger, and the refusals of
/// missing ids agree (kind and byte). Skipped without python3.
@Suite("Second reader (format 3)", .enabled(if: GoldenFixtureFactsTests.python != nil, "python3 is not installed"))
struct SecondReaderCompactionTests {
    typealias Dump = SecondReaderFormatTwoTests.Dump

    /// Notes of three replicas with random typing and deleting, merged, ledgers recorded and
    /// proposals made, then compacted.
    static func compactedNotes() throws -> [NoteText] {
        var out: [NoteText] = []
        for seed in [5, 17, 40] as [UInt64] {
            var rng = SplitMix64(seed: seed)
            var notes = (1...3).map { NoteText(replica: .test(UInt64($0))) }
            for _ in 0..<300 {
                let i = rng.below(3)
                let count = notes[i].scalarCount
                if count > 0 && rng.below(3) == 0 {
                    let lo = rng.below(count)
                    try notes[i].deleteScalars(in: lo..<min(count, lo + 1 + rng.below(8)))
                } else if rng.below(6) == 0 {
                    try notes[i].merge(notes[rng.below(3)])
                } else {
                    try notes[i].insert(RandomText.make(&rng), atScalarOffset: rng.below(count + 1))
                }
            }
            for i in 0..<3 {
                for j in 0..<3 { try notes[i].merge(notes[j]) }
                notes[i].recordSeen(by: notes[i].replica)
            }
            var note = notes[0]
            for other in notes { try note.merge(other) }
            try note.compact(settled: nil)
            try note.insert("x", atScalarOffset: 0)
            try note.deleteScalars(in: 0..<1)
            try note.compactIfSettled(devices: [[.test(1)], [.test(9)]])  // proposes; device 9 keeps it pending
            out.append(note)
        }
        return out
    }

    /// The ledger as the second reader dumps it.
    static func ledgerJSON(_ note: NoteText) -> String {
        guard let ledger = note.ledger else { return Dump.canonical(NSNull()) }
        func vector(_ v: [ReplicaID: HLCTimestamp]) -> [String: String] {
            Dictionary(uniqueKeysWithValues: v.filter { $0.value > .zero }.map { (String($0.key.rawValue), String($0.value.rawValue)) })
        }
        // In the order the ledger is written: by replica (table order), then id.
        var proposed: [[Any]] = []
        for id in note.index.replicas {
            for range in (ledger.proposed[id] ?? []).sorted(by: { $0.lowerBound < $1.lowerBound }) {
                proposed.append([String(id.rawValue), Int(range.lowerBound), range.count])
            }
        }
        let object: [String: Any] = [
            "seen": Dictionary(uniqueKeysWithValues: ledger.seen.map { (String($0.key.rawValue), vector($0.value)) }),
            "cut": vector(ledger.cut),
            "proposed": proposed,
        ]
        return Dump.canonical(object)
    }

    @Test func readsCompactedNotesAndTheirLedgers() throws {
        let notes = try Self.compactedNotes()
        let payloads = notes.map { $0.encodedSnapshot(format: .version3) }
        let dumps = try SecondReaderFormatTwoTests.dump(payloads)
        for (i, note) in notes.enumerated() {
            let dump = dumps[i]
            #expect(dump.ok, "note \(i): \(dump.json["error"] ?? "")")
            #expect(dump.json["minimumReaderVersion"] as? Int == 3)
            #expect(note.isCompacted, "note \(i) dropped tombstones")
            #expect(dump.text == note.string, "note \(i): text")
            #expect(dump.digest == String(NoteReplicaDerivation.digest(note)), "note \(i): state digest")
            #expect((dump.json["runs"] as? [Any])?.count == note.runCount, "note \(i): run count")
            #expect(Dump.canonical(dump.json["ledger"]) == Self.ledgerJSON(note), "note \(i): ledger")
        }
    }

    /// Missing ids in format 2, and an origin naming a compacted id in format 3: both readers
    /// refuse with `invalidValue` at the same byte.
    @Test func refusesWhatTheLibraryRefuses() throws {
        var note = try CompactedFormatTests.noteWithDeletedLine(named: true)
        try note.compact(settled: nil)
        let sequence = note.index
        let asTwo = PayloadHeader.wrap(SnapshotEncoder.encode(sequence, format: .version2), kind: .snapshot, version: 2)
        let asThree = CompactedFormatTests.withoutTombstones(sequence)
        let dumps = try SecondReaderFormatTwoTests.dump([asTwo, asThree])
        for (payload, dump) in zip([asTwo, asThree], dumps) {
            var offset: Int? = nil
            let loaded = try NoteText(snapshot: payload, replica: .test(2))
            do {
                try loaded.checkLoadedSnapshot()
            } catch {
                offset = error.offset
            }
            #expect(!dump.ok && dump.kind == "invalidValue", "\(dump.json)")
            #expect(offset != nil && dump.offset == offset, "library at \(offset ?? -1), second reader at \(dump.offset ?? -1)")
        }
    }
}

/// The second reader against the library on format 6 (FORMAT.md §4.8): notes compacted or not,
/// written with their clock logs in columns, decode to the same text, runs, digest and clock logs,
/// and the damaged sections of ``SnapshotFormatSixTests`` are refused alike (kind and byte).
@Suite("Second reader (format 6)", .enabled(if: GoldenFixtureFactsTests.python != nil, "python3 is not installed"))
struct SecondReaderFormatSixTests {
    typealias Dump = SecondReaderFormatTwoTests.Dump

    /// The clock logs as the second reader dumps them: per replica, `[seq, stamp]` pairs.
    static func logs(_ dump: Dump) -> [[[String]]] {
        ((dump.json["replicas"] as? [[String: Any]]) ?? []).map { replica in
            ((replica["log"] as? [[Any]]) ?? []).map { pair in pair.map { "\($0)" } }
        }
    }

    @Test func readsFormatSixNotesLikeTheLibrary() throws {
        var notes = try SecondReaderCompactionTests.compactedNotes()
        notes += try SecondReaderFormatTwoTests.notes()
        let payloads = try notes.map(SnapshotFormatSixTests.formatSix)
        let dumps = try SecondReaderFormatTwoTests.dump(payloads)
        for (i, (note, dump)) in zip(notes, dumps).enumerated() {
            #expect(dump.ok, "note \(i): \(dump.json["error"] ?? "")")
            #expect(dump.json["minimumReaderVersion"] as? Int == 6)
            #expect(dump.text == note.string, "note \(i): text")
            #expect(dump.digest == String(NoteReplicaDerivation.digest(note)), "note \(i): state digest")
            let library = try note.loadedSequence().clockLog.map { log in log.entries.map { ["\($0.seq)", "\($0.stamp.rawValue)"] } }
            #expect(Self.logs(dump) == library, "note \(i): clock logs")
        }
    }

    @Test func refusesDamagedSectionsLikeTheLibrary() throws {
        let payloads = SnapshotFormatSixTests.cases.map { SnapshotFormatSixTests.payload(SnapshotFormatSixTests.body(entries: $0.entries, section: $0.section)) }
        let dumps = try SecondReaderFormatTwoTests.dump(payloads)
        for (c, (payload, dump)) in zip(SnapshotFormatSixTests.cases, zip(payloads, dumps)) {
            let library = SecondReaderFormatTwoTests.libraryVerdict(payload)
            if let refusal = c.refusal {
                #expect(!dump.ok && dump.kind == refusal.rawValue, "\(c): second reader \(dump.json)")
                #expect(dump.offset == library.offset, "\(c): offset, second reader \(dump.json), library \(library)")
            } else {
                #expect(dump.ok && dump.text == "abc", "\(c): second reader \(dump.json)")
            }
        }
    }
}
