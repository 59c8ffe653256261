import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// The independent Python reader (`second_reader.py --dump-history`, written from FORMAT.md
/// §11.2) reads the history payloads the library writes, in both versions, raw and rANS-coded
/// columns alike, to the same events, and refuses truncated and damaged ones where the library
/// does. Skipped without python3.
@Suite(.enabled(if: GoldenFixtureFactsTests.python != nil, "python3 is not installed"))
struct SecondReaderHistoryTests {
    static func history(seed: UInt64, events count: Int) -> NoteHistory {
        var random = SplitMix64(seed: seed)
        let replicas = (0..<3).map { _ in ReplicaID(rawValue: random.next()) }
        let words = ["the ", "quick ", "brown ", "fox é ", "🙂\n"]
        var events: [DeletionEvent] = []
        for _ in 0..<count {
            let text = words.randomElement(using: &random)!
            let seq = UInt32.random(in: 0...100_000, using: &random)
            events.append(DeletionEvent(inserter: replicas.randomElement(using: &random)!, seqs: seq..<seq + UInt32(text.unicodeScalars.count),
                                        deleter: replicas.randomElement(using: &random)!,
                                        stamp: HLCTimestamp(rawValue: UInt64.random(in: 0...(1 << 62), using: &random)), text: Array(text.utf8)))
        }
        return NoteHistory(deletions: events)
    }

    @Test(arguments: [HistoryFormat.version1, .version2])
    func readsWhatTheLibraryWrites(format: HistoryFormat) throws {
        let histories = [Self.history(seed: 1, events: 0), Self.history(seed: 2, events: 3), Self.history(seed: 3, events: 400),
                         NoteHistory(deletions: HistoryColumnsTests.events(seed: 6, count: 500))]
        let payloads = histories.map { $0.encoded(format: format) }
        #expect(payloads.allSatisfy { PayloadHeader.requiredReaderVersion(of: $0) == format.minimumReader })
        let dumps = try SecondReaderFormatTwoTests.jsonLines(mode: "--dump-history", payloads)
        for (history, dump) in zip(histories, dumps) {
            #expect(dump["ok"] as? Bool == true)
            let events = try #require(dump["deletions"] as? [[String: Any]])
            let theirs = events.map { e in
                "\(e["stamp"] ?? "") \(e["deleter"] ?? "") \(e["inserter"] ?? "") \(e["seq"] ?? "") \(e["length"] ?? "") \(e["text"] ?? "")"
            }
            let ours = history.deletions.map { e in
                "\(e.stamp.rawValue) \(e.deleter.rawValue) \(e.inserter.rawValue) \(e.seqs.lowerBound) \(e.seqs.count) \(String(decoding: e.text, as: UTF8.self))"
            }
            #expect(theirs == ours)
        }
        // The long one's text column is rANS-coded (mode byte 1), so both modes are read.
        guard format == .version1 else { return }
        let text = histories[2].deletions.flatMap(\.text)
        var column = ByteWriter(reservingCapacity: text.count)
        CodedColumn.write(text, into: &column)
        #expect(column.bytes.first == CodedColumn.rans)
        #expect(payloads[2].suffix(column.bytes.count).elementsEqual(column.bytes))
    }

    @Test(arguments: [HistoryFormat.version1, .version2])
    func refusesDamagedHistoriesLikeTheLibrary(format: HistoryFormat) throws {
        let bytes = format == .version1 ? Self.history(seed: 4, events: 20).encoded(format: format)
            : NoteHistory(deletions: HistoryColumnsTests.events(seed: 7, count: 60)).encoded(format: format)
        var random = SplitMix64(seed: 5)
        // Every cut of the body, with the header's length and checksum made to match.
        var damaged: [[UInt8]] = (18..<bytes.count).map { cut in
            var copy = Array(bytes[..<cut])
            HistoryColumnsTests.refreshChecksum(&copy)
            return copy
        }
        for _ in 0..<(format == .version1 ? 200 : 600) {
            var copy = bytes
            copy[Int.random(in: 18..<copy.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            let crc = CRC32C.checksum(Array(copy[18...]))
            for k in 0..<4 { copy[14 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
            damaged.append(copy)
        }
        let dumps = try SecondReaderFormatTwoTests.jsonLines(mode: "--dump-history", damaged)
        for (payload, dump) in zip(damaged, dumps) {
            do throws(PayloadError) {
                _ = try NoteHistory(encoded: payload)
                #expect(dump["ok"] as? Bool == true)
            } catch {
                #expect(dump["ok"] as? Bool == false)
                #expect(dump["kind"] as? String == error.decodingError?.code.rawValue, "\(error) vs \(dump)")
                #expect(dump["offset"] as? Int == error.decodingError?.offset, "\(error) vs \(dump)")
            }
        }
    }

    /// The pinned fixtures of both versions (Tests/Fixtures/history) read to the events listed
    /// beside them.
    @Test func readsThePinnedFixtures() throws {
        let folder = RepositoryPaths.fixtures + "/history/"
        let payloads = try ["session.v1.bin", "session.v2.bin"].map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + $0))) }
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "session.events.json"))) as? NSArray)
        for dump in try SecondReaderFormatTwoTests.jsonLines(mode: "--dump-history", payloads) {
            #expect(dump["ok"] as? Bool == true)
            #expect((dump["deletions"] as? NSArray) == listed)
        }
    }

    /// Version 2 histories with shadows (Docs/FORMAT.md §11.6): the second reader reads the same
    /// shadows and clock entries, and refuses damaged ones with the same kind at the same offset.
    @Test func readsAndRefusesShadowsLikeTheLibrary() throws {
        let histories = (0..<6 as Range<UInt64>).map { ShadowCodingTests.randomHistory(seed: $0) }.filter { !$0.shadows.isEmpty }
        let payloads = histories.map { $0.encoded(format: .version2) }
        for (history, dump) in zip(histories, try SecondReaderFormatTwoTests.jsonLines(mode: "--dump-history", payloads)) {
            #expect(dump["ok"] as? Bool == true)
            let shadows = try #require(dump["shadows"] as? [[String: Any]])
            func origin(_ o: Any?) -> String { (o as? [Any]).map { "\($0[0]):\($0[1])" } ?? "-" }
            #expect(shadows.map { "\($0["inserter"] ?? "") \($0["seq"] ?? "") \($0["length"] ?? "") \(origin($0["left"])) \(origin($0["right"]))" }
                    == history.shadows.map { s in
                        "\(s.inserter.rawValue) \(s.seqs.lowerBound) \(s.seqs.count) \(s.left.map { "\($0.replica.rawValue):\($0.seq)" } ?? "-") \(s.right.map { "\($0.replica.rawValue):\($0.seq)" } ?? "-")"
                    })
            let stamps = try #require(dump["shadowStamps"] as? [String: [[Any]]])
            #expect(Dictionary(uniqueKeysWithValues: stamps.map { ($0.key, $0.value.map { "\($0[0])@\($0[1])" }) })
                    == Dictionary(uniqueKeysWithValues: history.shadowStamps.map { ("\($0.key.rawValue)", $0.value.map { "\($0.seq)@\($0.stamp.rawValue)" }) }))
        }
        var random = SplitMix64(seed: 11)
        var damaged: [[UInt8]] = []
        for bytes in payloads {
            for cut in 18..<bytes.count {
                var copy = Array(bytes[..<cut])
                HistoryColumnsTests.refreshChecksum(&copy)
                damaged.append(copy)
            }
            for _ in 0..<100 {
                var copy = bytes
                copy[Int.random(in: 18..<copy.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                HistoryColumnsTests.refreshChecksum(&copy)
                damaged.append(copy)
            }
        }
        for (payload, dump) in zip(damaged, try SecondReaderFormatTwoTests.jsonLines(mode: "--dump-history", damaged)) {
            do throws(PayloadError) {
                _ = try NoteHistory(encoded: payload)
                #expect(dump["ok"] as? Bool == true, "\(dump)")
            } catch {
                #expect(dump["ok"] as? Bool == false)
                #expect(dump["kind"] as? String == error.decodingError?.code.rawValue, "\(error) vs \(dump)")
                #expect(dump["offset"] as? Int == error.decodingError?.offset, "\(error) vs \(dump)")
            }
        }
    }
}
