import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// The independent Python reader (`second_reader.py --dump-formatting`, written from FORMAT.md
/// §10.7) against the library on formatting payloads: the same operations from what the library
/// writes, and the same refusals (error kind and byte) of damaged ones. Skipped without python3.
@Suite("Second reader (formatting)", .enabled(if: GoldenFixtureFactsTests.python != nil, "python3 is not installed"))
struct SecondReaderFormattingTests {
    /// The reader's JSON line for each payload.
    static func dump(_ payloads: [[UInt8]]) throws -> [[String: Any]] {
        try SecondReaderFormatTwoTests.jsonLines(mode: "--dump-formatting", payloads)
    }

    /// Canonical JSON text of a value, to compare.
    static func canonical(_ value: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func id(_ id: ElementID) -> [Any] { [String(id.replica.rawValue), Int(id.seq)] }

    static func boundary(_ boundary: MarkBoundary) -> [Any] {
        switch boundary {
        case .documentStart: return ["documentStart"]
        case .documentEnd: return ["documentEnd"]
        case .before(let element): return ["before"] + id(element)
        case .after(let element): return ["after"] + id(element)
        }
    }

    /// The operations as the reader prints them, each as canonical JSON, sorted.
    static func expected(_ formatting: NoteFormatting) -> (marks: [String], paragraphs: [String]) {
        let marks = formatting.marks.map { mark -> String in
            var version: [String: Int] = [:]
            for (replica, count) in mark.coreVersion { version[String(replica.rawValue)] = Int(count) }
            return canonical(["name": mark.name, "value": mark.value.map { $0 as Any } ?? NSNull(), "start": boundary(mark.start),
                              "end": boundary(mark.end), "first": id(mark.first), "last": id(mark.last), "coreVersion": version,
                              "stamp": String(mark.stamp.rawValue), "replica": String(mark.replica.rawValue)] as [String: Any])
        }
        let paragraphs = formatting.paragraphs.map { paragraph -> String in
            let key: [Any]
            switch paragraph.key {
            case .documentStart: key = ["documentStart"]
            case .newline(let element): key = ["newline"] + id(element)
            }
            return canonical(["key": key, "name": paragraph.attribute.name, "value": paragraph.attribute.value,
                              "stamp": String(paragraph.stamp.rawValue), "replica": String(paragraph.replica.rawValue)] as [String: Any])
        }
        return (marks.sorted(), paragraphs.sorted())
    }

    @Test func theReaderDecodesWhatTheLibraryWrites() throws {
        let formattings = try (1...12 as ClosedRange<UInt64>).map { try FormattingEncodingTests.randomFormatting(seed: $0).0 }
        let dumps = try Self.dump(formattings.map { $0.encoded() })
        for (formatting, dump) in zip(formattings, dumps) {
            #expect(dump["ok"] as? Bool == true, "\(dump)")
            let marks = ((dump["marks"] as? [Any]) ?? []).map(Self.canonical).sorted()
            let paragraphs = ((dump["paragraphs"] as? [Any]) ?? []).map(Self.canonical).sorted()
            let expected = Self.expected(formatting)
            #expect(marks == expected.marks)
            #expect(paragraphs == expected.paragraphs)
            #expect(!expected.marks.isEmpty)
        }
    }

    /// Damaged payloads behind valid checksums: the reader and the library refuse the same ones,
    /// with the same error kind at the same byte.
    @Test func theReaderRefusesWhatTheLibraryRefusesAtTheSameByte() throws {
        var rng = SplitMix64(seed: 77)
        var payloads: [[UInt8]] = []
        for seed in 1...4 as ClosedRange<UInt64> {
            let good = try FormattingEncodingTests.randomFormatting(seed: seed).0.encoded()
            for _ in 0..<150 {
                var bytes = good
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[Int.random(in: 18..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.removeLast(Int.random(in: 1...min(8, bytes.count - 18), using: &rng))
                default: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 18...bytes.count, using: &rng))
                }
                FormattingEncodingTests.reseal(&bytes)
                payloads.append(bytes)
            }
        }
        let dumps = try Self.dump(payloads)
        var refused = 0
        for (payload, dump) in zip(payloads, dumps) {
            do {
                _ = try NoteFormatting(encoded: payload)
                #expect(dump["ok"] as? Bool == true, "library accepts, reader refuses: \(dump)")
            } catch {
                refused += 1
                let mine = error.decodingError
                #expect(dump["ok"] as? Bool == false, "library refuses (\(error)), reader accepts")
                #expect(dump["kind"] as? String == mine?.code.rawValue && dump["offset"] as? Int == mine?.offset,
                        "library: \(error); reader: \(dump["error"] ?? "")")
            }
        }
        #expect(refused > 100)
    }
}
