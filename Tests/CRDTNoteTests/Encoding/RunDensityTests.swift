import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// A version 2 run table holds at most 4 runs per byte after its run count (FORMAT.md §4.5, §7):
/// issue 29, finding 3, where 190 bytes declared 2^21 runs that every reader decoded in full
/// (207 MB, half a second; a trap under a 200 MB address-space limit).
@Suite("Run density (FORMAT.md §4.5, §7)")
struct RunDensityTests {
    /// One replica whose `runs` one-id runs are all tombstones without origins, in id order (the
    /// rule's order), as a format 2 payload written from the spec: the flag, delta and length
    /// columns each rANS-coded with a single-symbol table, so whatever their length they take
    /// 13 bytes (a state that decodes to itself, frequency 4096: the stream is its 4-byte state).
    static func bomb(runs: Int) -> [UInt8] { bombAndTable(runs: runs).payload }

    /// ``bomb(runs:)`` and the bytes of its run table after the run count.
    static func bombAndTable(runs: Int) -> (payload: [UInt8], tableBytes: Int) {
        var body: [UInt8] = [1]                                   // one replica
        body += [0x29, 0, 0, 0, 0, 0, 0, 0]                       // ReplicaID 0x29
        SpecState.varuint(UInt64(runs), into: &body)               // nextSeq: one id per run
        body += [0, 0]                                            // latest stamp 0, no clock log
        body += [0]                                               // no text
        SpecState.varuint(UInt64(runs), into: &body)               // run count
        let tableStart = body.count
        func constant(_ symbol: UInt8) -> [UInt8] {
            var column: [UInt8] = [1]                             // rANS
            SpecState.varuint(UInt64(runs), into: &column)         // decoded length
            column += [0, symbol, 0x80, 0x20]                     // one symbol, frequency 4096
            column += [4, 0x00, 0x00, 0x80, 0x00]                  // the 4-byte stream: state 2^23
            return column
        }
        // Flag: deleted, left none (mode 1), right none (mode 2), sequence code 0 (a delta).
        body += constant(0x01 | 1 << 1 | 2 << 3)                  // flags
        body += [0, 0]                                            // codes: empty, raw
        body += constant(0)                                       // deltas: 0 (seq continues)
        body += constant(0)                                       // lengths: 1
        body += [0, 0, 0, 0, 0, 0]                                // replicas, lefts, rights: empty
        return (SpecState.payload(body: body, minimumReader: 2), body.count - tableStart)
    }

    @Test func twoToTheTwentyOneRunsInEightyBytesAreRefusedUpFront() throws {
        let payload = Self.bomb(runs: 1 << 21)
        #expect(payload.count < 100)
        let (cpu, refusal) = ThreadCPUTime.measure { () -> PayloadError? in
            do throws(PayloadError) {
                _ = try NoteText(snapshot: payload, replica: .test(1))
                return nil
            } catch {
                return error
            }
        }
        let error = try #require(refusal, "the bomb was accepted")
        let decoding = try #require(error.decodingError)
        #expect(decoding.code == .lengthTooLarge)
        // Header 18, replica table 1 + 8 + 4 + 2, text length 1: the run count is at byte 34.
        #expect(decoding.offset == 34, "\(decoding)")
        #expect(decoding.message.contains("more than 4 runs per byte"), "\(decoding)")
        #expect(cpu < .milliseconds(50))
    }

    /// The bytes of a payload's run table after its run count, read through the decoder's prologue.
    static func tableBytes(_ payload: [UInt8], layout: UInt16) throws -> (runs: Int, bytes: Int) {
        var body = try PayloadHeader.body(of: payload, expecting: .snapshot).1
        var table = try SnapshotDecoder.prologue(&body, layout: layout, limits: .default).runTable
        let runs = try table.readVarUInt(max: UInt64(Int32.max), "run count")
        return (runs, table.remaining)
    }

    /// The same construction with 100 to 300 runs is accepted exactly when it holds at most 4
    /// runs per byte after its count (the columns grow a byte as their counts pass 127), and
    /// then decodes to its tombstones.
    @Test func theBoundIsFourRunsPerByte() throws {
        var accepted = 0
        for runs in 100...300 {
            let (payload, bytes) = Self.bombAndTable(runs: runs)
            do {
                let note = try NoteText(snapshot: payload, replica: .test(1))
                try note.checkLoadedSnapshot()
                #expect(runs <= 4 * bytes && note.runCount == runs && note.string.isEmpty)
                accepted += 1
            } catch {
                #expect(runs > 4 * bytes, "\(runs) runs in \(bytes) bytes: \(error)")
            }
        }
        #expect(accepted > 10 && accepted < 201)
    }

    /// A note typed and deleted one character at a time at its start (each character its own
    /// tombstone run, every column constant) is written in format 2 within the bound, with the
    /// length column raw, and reads back to the same state; below the bound the writer's choice
    /// of modes is unchanged.
    @Test func theWriterKeepsDenseNotesWithinTheBound() throws {
        var note = NoteText(replica: .test(7))
        for _ in 0..<3_000 {
            try note.insert("x", atScalarOffset: 0)
            try note.deleteScalars(in: 0..<1)
        }
        #expect(note.runCount == 3_000)
        let payload = note.encodedSnapshot(format: .version2)
        let tableBytes = try Self.tableBytes(payload, layout: 2).bytes
        #expect(note.runCount <= 4 * tableBytes, "\(note.runCount) runs in \(tableBytes) bytes")
        let modes = try SnapshotFormatV2Tests.columnModes(payload)
        #expect(modes[RunColumnsV2.Column.lengths.rawValue] == CodedColumn.raw)
        #expect(modes[RunColumnsV2.Column.flags.rawValue] == CodedColumn.rans)
        let back = try NoteText(snapshot: payload, replica: .test(8))
        try back.checkLoadedSnapshot()
        #expect(back.elementOrder == note.elementOrder)
    }
}
