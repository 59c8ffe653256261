import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Issue 29, item 5: a body cut off inside a varint. FORMAT.md §2 says every varint error names
/// the varint's first byte, a truncated one included; the library and the second reader
/// (`Tests/Fixtures/golden/second_reader.py`) must name the same byte. Every prefix of real
/// snapshot bodies (formats 1 and 2), re-framed with a correct header so the body itself is what
/// is cut off, is read by both: same verdict, same error kind, same offset. Skipped without python3.
@Suite("Second reader (truncated bodies)", .enabled(if: GoldenFixtureFactsTests.python != nil, "python3 is not installed"))
struct SecondReaderTruncationTests {
    /// `payload`'s first 10 header bytes (magic, versions, kind, flags) with `body` and its
    /// length and CRC-32C, so only the body is damaged.
    static func reframed(_ payload: [UInt8], body: ArraySlice<UInt8>) -> [UInt8] {
        var out = Array(payload[0..<10])
        for value in [UInt32(body.count), CRC32C.checksum(Array(body))] {
            for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        return out + body
    }

    /// Offsets at which a multi-byte varint starts in `body` and is cut off by the prefix of
    /// length `cut`: the oracle for where a truncated varint must be reported, computed from the
    /// bytes alone (a run of bytes with 0x80 set reaching the cut, preceded by a byte without it
    /// or the body's start) — used to check that the corpus really exercises the case.
    static func endsInsideAVarint(_ body: ArraySlice<UInt8>, cut: Int) -> Bool {
        let start = body.startIndex
        return cut > 0 && body[start + cut - 1] & 0x80 != 0
    }

    @Test func aTruncatedVarintIsReportedAtItsFirstByteByBothReaders() throws {
        var payloads: [[UInt8]] = []
        var notes = FormatSamples.randomNotes(seed: 2929, replicas: 3, edits: 40)
        for i in 1..<notes.count { try notes[0].merge(notes[i]) }
        for format in [SnapshotFormat.version1, .version2] {
            payloads.append(notes[0].encodedSnapshot(format: format))
        }
        var cases: [[UInt8]] = []
        var insideVarint = 0
        for payload in payloads {
            let body = payload[NoteFormat.headerSize...]
            for cut in 0..<body.count {
                let prefix = body.prefix(cut)
                cases.append(Self.reframed(payload, body: prefix))
                if Self.endsInsideAVarint(body, cut: cut) { insideVarint += 1 }
            }
        }
        #expect(insideVarint > 20, "the corpus cuts few varints: \(insideVarint)")
        let dumps = try SecondReaderFormatTwoTests.dump(cases)
        var mismatches: [String] = []
        var truncations = 0
        for (index, (payload, dump)) in zip(cases, dumps).enumerated() {
            let library = SecondReaderFormatTwoTests.libraryVerdict(payload)
            #expect(library.text == nil, "case \(index): a cut body was accepted")
            if library.kind == "truncated" { truncations += 1 }
            if dump.ok || dump.kind != library.kind || dump.offset != library.offset {
                mismatches.append("case \(index) (\(payload.count - NoteFormat.headerSize) body bytes): library \(library.kind ?? "-") at \(library.offset ?? -1), second reader \(dump.json)")
            }
        }
        #expect(truncations > 20)
        #expect(mismatches.isEmpty, "\(mismatches.count) disagreements, first: \(mismatches.prefix(3))")
    }
}
