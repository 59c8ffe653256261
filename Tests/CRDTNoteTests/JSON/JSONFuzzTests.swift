import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport


@Suite("JSON fuzz")
struct JSONFuzzTests {
    static let seedDocument = #"""
    {"records": [{"recordName": "n1", "recordType": "Note", "fields": {"payload": {"value": "AAEC/w==", "type": "BYTES"},
     "version": {"value": 2, "type": "INT64"}, "loc": {"value": {"latitude": 1.5e1, "longitude": -0.25}, "type": "LOCATION"},
     "text": {"value": "h\u00e9llo \ud83d\ude00 \"q\" \\ \n", "type": "STRING"}, "l": {"value": [true, false, null, []], "type": "X"}}}]}
    """#

    @Test func mutationsNeverTrapAndValidOutputRoundTrips() throws {
        let base = Array(Self.seedDocument.utf8)
        let original = try JSONValue(parsing: base)
        #expect(try JSONValue(parsing: original.serialized()) == original)
        var rng = SplitMix64(seed: 0xC0FFEE)
        var accepted = 0
        for _ in 0..<3000 {
            var bytes = base
            switch rng.next() % 4 {
            case 0: bytes = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count))))
            case 1:
                for _ in 0..<(1 + rng.next() % 4) { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            case 2:
                let structural = Array(#"{}[],:"\0123456789eE.-+tfn "#.utf8)
                bytes[Int(rng.next() % UInt64(bytes.count))] = structural[Int(rng.next() % UInt64(structural.count))]
            default:
                bytes.remove(at: Int(rng.next() % UInt64(bytes.count)))
            }
            do {
                let v = try JSONValue(parsing: bytes)
                accepted += 1
                // Whatever parses must serialize to something that parses to the same value.
                #expect(try JSONValue(parsing: v.serialized()) == v)
                _ = try? CloudRecord.records(fromJSON: v)
            } catch {
                #expect(error.offset >= 0 && error.offset <= bytes.count)
                #expect(error.line >= 1 && error.column >= 1)
            }
        }
        #expect(accepted > 0)
    }
}
