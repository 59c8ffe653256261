import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Snapshot format 2 (Docs/FORMAT.md, "Runs, version 2") against format 1 as the oracle: both
/// must load to the same note.
@Suite struct SnapshotFormatV2Tests {
    @Test(arguments: Array(1...40) as [UInt64])
    func formatTwoLoadsToTheSameNoteAsFormatOne(seed: UInt64) throws {
        let notes = FormatSamples.randomNotes(seed: seed, replicas: 2 + Int(seed % 5), edits: 40 + Int(seed % 7) * 30)
        for note in notes {
            let v1 = note.encodedSnapshot(format: .version1)
            let v2 = note.encodedSnapshot(format: .version2)
            #expect(v1 == note.encodedSnapshot(), "format 1 is the default")
            #expect(v2[4] == 2 && v2[6] == 2, "format 2 declares version 2 and minimum reader 2")
            #expect(v1[4] == 1 && v1[6] == 1)
            let fromV1 = try NoteText(snapshot: v1, replica: note.replica)
            let fromV2 = try NoteText(snapshot: v2, replica: note.replica)
            #expect(fromV2.string == note.string)
            #expect(fromV2.version == note.version)
            #expect(fromV2.lastModified == note.lastModified)
            #expect(fromV2.invariantViolations == [])
            #expect(fromV2.encodedSnapshot(format: .version1) == v1, "the same state, run for run")
            #expect(fromV2.encodedSnapshot(format: .version2) == v2, "format 2 encoding is deterministic")
            #expect(fromV1.encodedSnapshot(format: .version2) == v2)
            for other in notes {
                #expect(try fromV2.merging(other).string == note.merging(other).string)
            }
        }
    }

    /// The modes of a format 2 payload's seven columns, read by walking its body.
    static func columnModes(_ payload: [UInt8]) throws -> [UInt8] {
        var reader = ByteReader(payload, range: NoteFormat.headerSize..<payload.count)
        _ = try ClockTableCoding.read(&reader, withCounts: true, limits: .default)
        _ = try reader.readLengthPrefixed("text")
        _ = try reader.readVarUInt()
        var modes: [UInt8] = []
        for column in RunColumnsV2.Column.allCases {
            modes.append(payload[reader.offset])
            _ = try CodedColumn.read(&reader, maximumCount: Int.max, column.name)
        }
        #expect(reader.isAtEnd)
        return modes
    }

    /// A long-edited note from three replicas: thousands of runs, coded columns.
    static func largeNote() -> NoteText {
        var notes = FormatSamples.randomNotes(seed: 7, replicas: 3, edits: 3_000)
        for i in 1..<notes.count { try? notes[0].merge(notes[i]) }
        return notes[0]
    }

    @Test func largeNotesUseCodedColumnsAndShrink() throws {
        let note = Self.largeNote()
        let v1 = note.encodedSnapshot(format: .version1)
        let v2 = note.encodedSnapshot(format: .version2)
        let modes = try Self.columnModes(v2)
        #expect(modes[RunColumnsV2.Column.flags.rawValue] == CodedColumn.rans, "\(modes)")
        #expect(modes[RunColumnsV2.Column.lengths.rawValue] == CodedColumn.rans, "\(modes)")
        let text = note.utf8.count
        #expect(v2.count - text < (v1.count - text) * 3 / 4, "v1 \(v1.count) B, v2 \(v2.count) B, text \(text) B")
        let loaded = try NoteText(snapshot: v2, replica: note.replica)
        #expect(loaded.encodedSnapshot(format: .version1) == v1)
        #expect(loaded.invariantViolations == [])
    }

    /// A reader of version 1 (the releases before format 2) refuses format 2 at the header
    /// gate, before reading anything else; it reads format 1 as before.
    @Test func aVersionOneReaderRefusesFormatTwo() throws {
        let note = try NoteText("hello", replica: .test(1))
        let v2 = note.encodedSnapshot(format: .version2)
        #expect(throws: PayloadError.newerFormat(requiredReader: 2, supportedReader: 1)) {
            _ = try PayloadHeader.read(v2, supportedReader: 1)
        }
        #expect(try PayloadHeader.read(note.encodedSnapshot(), supportedReader: 1).minimumReaderVersion == 1)
        #expect(PayloadHeader.requiredReaderVersion(of: v2) == 2)
    }

    @Test func onlyWritableFormatsExist() {
        #expect(SnapshotFormat(rawValue: 0) == nil)
        #expect(SnapshotFormat(rawValue: 1) == .version1)
        #expect(SnapshotFormat(rawValue: 2) == .version2)
        #expect(SnapshotFormat(rawValue: 3) == .version3)
        #expect(SnapshotFormat(rawValue: 4) == nil && SnapshotFormat(rawValue: 5) == nil && SnapshotFormat(rawValue: 8) == nil)
        #expect(SnapshotFormat(rawValue: 6) == .version6)
        #expect(SnapshotFormat(rawValue: 7) == .version7)
        #expect(NoteFormat.version == 7 && NoteFormat.readerVersion == 7)
        // What a fleet's reader version lets it write: versions 4 and 5 add no snapshot format;
        // format 7, asked of fleets that read it, lets compactions re-point (only a note listing
        // re-pointed ids is written in it).
        #expect([1, 2, 3, 4, 5, 6, 7, 9].map { SnapshotFormat.newest(readableBy: $0) }
                == [.version1, .version2, .version3, .version3, .version3, .version6, .version7, .version7])
        #expect([SnapshotFormat.version1, .version2, .version3, .version6, .version7].map(\.allowsRepointing)
                == [false, false, false, false, true])
    }

    @Test func recordsAreWrittenInTheFormatAsked() throws {
        let note = try NoteText("a note", replica: .test(3))
        var plain = try NoteRecord(recordName: "n", note: note)
        var smaller = plain
        try plain.write(note)
        try smaller.write(note, format: .version2)
        guard case .bytes(let b1)? = plain.record[field: NoteSchema.Field.payload],
              case .bytes(let b2)? = smaller.record[field: NoteSchema.Field.payload] else {
            Issue.record("no inline payload"); return
        }
        #expect(b1 == note.encodedSnapshot(format: .version1))
        #expect(b2 == note.encodedSnapshot(format: .version2))
        #expect(try smaller.read(as: .test(4)).note.string == "a note")
    }

    /// Damaged format 2 payloads (resealed, so the body decoder sees the damage): every prefix
    /// and random byte changes end in a typed error (on load or, for the runs, on first edit or
    /// merge) or a consistent note, never a trap.
    @Test(arguments: [21, 22] as [UInt64])
    func damagedFormatTwoPayloadsNeverTrap(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let notes = FormatSamples.randomNotes(seed: seed, replicas: 3, edits: 400)
        let sample = notes[1].encodedSnapshot(format: .version2)
        var variants: [[UInt8]] = stride(from: 0, to: sample.count, by: max(1, sample.count / 400)).map { Array(sample[0..<$0]) }
        for _ in 0..<3_000 {
            var m = sample
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                m[Int.random(in: NoteFormat.headerSize..<m.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            }
            variants.append(m)
        }
        for v in variants.map(FormatSamples.resealed) {
            do {
                let loaded = try NoteText(snapshot: v, replica: .test(77))
                // Loading is lazy: the runs decode in full (consistent, mergeable) or every edit and
                // merge refuses them with `corruptSnapshot`, changing nothing.
                #expect(PayloadFuzzTests().checkLoaded(loaded, v, against: notes[0]))
            } catch {
                #expect(error.code == .corrupt)
                if let offset = error.decodingError?.offset { #expect(offset >= 0 && offset <= v.count) }
            }
        }
    }

    /// Tests/Fixtures/format2 (see the README there): format 2 payloads pinned byte for byte.
    /// Each `NAME.v2.bin` loads to the state of `NAME.v1.bin`, and that state written in format 2
    /// is the fixture again: a change to the format 2 encoding fails here.
    @Test(arguments: ["multi-replica", "edited"])
    func formatTwoFixturesArePinned(name: String) throws {
        let directory = RepositoryPaths.fixtures + "/format2/"
        let v1 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + name + ".v1.bin")))
        let v2 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + name + ".v2.bin")))
        let text = try String(contentsOfFile: directory + name + ".txt", encoding: .utf8)
        let fromV2 = try NoteText(snapshot: v2, replica: .test(1))
        let fromV1 = try NoteText(snapshot: v1, replica: .test(1))
        #expect(fromV2.string == text)
        #expect(fromV2.encodedSnapshot(format: .version1) == v1)
        #expect(fromV1.encodedSnapshot(format: .version2) == v2)
        #expect(Array(v2[4..<8]) == [2, 0, 2, 0], "format version 2, minimum reader 2")
        if name == "edited" {
            #expect(try Self.columnModes(v2).contains(CodedColumn.rans), "the larger fixture pins the rANS coder too")
        }
    }
}
