import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Damaged input never traps: a merge ends in a record or a typed error.
@Suite("RecordMerger robustness")
struct RecordMergerRobustnessTests {
    @Test func damagedPayloadsEndInTypedErrors() throws {
        let (ancestor, client, server) = try RecordMergerTests.conflict()
        guard case .bytes(let original)? = client.record[field: "payload"] else { Issue.record("no payload"); return }
        var rng = SplitMix64(seed: 0x5EED)
        var errors = 0
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: NoteFormat.headerSize..<bytes.count, using: &rng)
                bytes[i] = UInt8.random(in: 0...255, using: &rng)
            }
            if Bool.random(using: &rng) { bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng))) }
            var damaged = client
            damaged.record[field: "payload"] = .bytes(FormatSamples.resealed(bytes))
            do {
                let result = try RecordMerger().merge(ancestor: ancestor, client: damaged, server: server)
                #expect(try result.record.read(as: .test(1)).note.string == result.note.string)
            } catch {
                errors += 1
                #expect([.corruptPayload, .inconsistentStates, .newerVersion].contains(error.code), "\(error)")
            }
        }
        #expect(errors > 0)
    }

    @Test func damagedAncestorFallsBackToTwoWay() throws {
        let ancestor = try NoteFixtures.v2(NoteText("Groceries", replica: .test(1)))
        var phone = try ancestor.read(as: .test(10)).note
        try phone.insert(": milk", atScalarOffset: 9)
        var broken = ancestor
        broken.record[field: "payload"] = .bytes([1, 2, 3])
        let result = try RecordMerger().merge(ancestor: broken, client: try ancestor.writing(phone), server: NoteFixtures.v1("Groceries!"))
        #expect(result.note.string == "Groceries: milk!" || result.note.string == "Groceries!: milk")
        #expect(result.notes.contains { $0.hasPrefix("ancestor not used") })
    }

    @Test func newerPayloadAssetIsRefusedBeforeTheInlinePayloadIsDecoded() throws {
        var record = try NoteFixtures.v2(NoteText("x", replica: .test(1)))
        var newer = try NoteText("y", replica: .test(2)).encodedSnapshot()
        newer[6] = UInt8(NoteFormat.readerVersion + 1)
        record.record[field: "payloadAsset"] = .asset(AssetReference(size: Int64(newer.count), bytes: newer))
        record.record[field: "payload"] = .bytes([9, 9, 9])   // would be corrupt if decoded
        do { _ = try record.read(as: .test(3)); Issue.record("read") } catch {
            #expect(error.code == .newerVersion)
            #expect(error.field == "payloadAsset")
        }
    }
}
