import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// The encrypted record layout (Docs/RECORD-FORMAT.md, "Schema"): record `version` 3, the
/// inline snapshot in the encrypted BYTES field `encryptedPayload`, no STRING text mirror.
@Suite struct EncryptedLayoutTests {
    static let fixture = RepositoryPaths.fixtures + "/encrypted/ascii-encrypted.json"

    static func load(_ path: String) throws -> CloudRecord {
        try CloudRecord.record(fromJSON: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// A note of random text typed and partly deleted by a few replicas.
    static func randomNote(_ rng: inout SplitMix64) throws -> NoteText {
        var note = try NoteText("", replica: .test(1), clock: NoteFixtures.clock(1_700_000_000_000))
        let words = ["milk", "eggs", "é", "🍞", "\n", " ", "tea", "€"]
        for step in 0..<Int.random(in: 0...40, using: &rng) {
            if step % 7 == 6 { note = note.forked(as: .test(UInt64(step)), clock: NoteFixtures.clock(1_700_000_000_000 + UInt64(step))) }
            let count = note.scalarCount
            if count > 0, Int.random(in: 0..<4, using: &rng) == 0 {
                let at = Int.random(in: 0..<count, using: &rng)
                try note.deleteScalars(in: at..<min(count, at + Int.random(in: 1...3, using: &rng)))
            } else {
                try note.insert(words[Int.random(in: 0..<words.count, using: &rng)], atScalarOffset: Int.random(in: 0...count, using: &rng))
            }
        }
        return note
    }

    /// Written in the encrypted layout, every random note reads back, through the typed record
    /// and through its Web Services JSON, in one fixed shape: `version` 3, the snapshot in an
    /// encrypted `encryptedPayload` or in `payloadAsset`, never in `payload`, no STRING `text`.
    @Test func encryptedRecordsRoundTripThroughTheWriterAndJSON() throws {
        var rng = SplitMix64(seed: 0xE1C)
        for round in 0..<120 {
            let note = try Self.randomNote(&rng)
            let mirror = [NoteTextMirror.asset, .string, .off][round % 3]
            let limits = round % 4 == 3 ? NoteFixtures.assetLimits : .default
            let record = try NoteRecord(recordName: "n\(round)", note: note, limits: limits, mirror: mirror, layout: .encrypted)
            let fields = record.record
            #expect(fields[field: "version"] == .int64(3))
            #expect(record.layout == .encrypted)
            #expect(fields[field: "payload"] == nil)
            if limits == .default {
                #expect(fields.fields["encryptedPayload"]?.isEncrypted == true)
                #expect(fields[field: "payloadAsset"] == nil)
            } else {
                #expect(fields[field: "encryptedPayload"] == nil)
                #expect(fields.assetBytes("payloadAsset") != nil)
            }
            #expect(fields[field: "text"]?.scalarKind != .string)
            #expect((mirror == .asset) == (fields[field: "text"] != nil))
            #expect(try record.read(as: .test(9)).note.string == note.string)

            let json = fields.jsonBytes()
            let back = try CloudRecord.record(fromJSON: json)
            var withoutBytes = fields
            for name in ["text", "payloadAsset"] {
                if case .asset(var ref)? = withoutBytes[field: name] { ref.bytes = nil; withoutBytes[field: name] = .asset(ref) }
            }
            #expect(back == withoutBytes, "round \(round)")
            #expect(back.jsonBytes() == json)
            if limits == .default && mirror != .asset { // nothing in an asset, whose bytes JSON does not carry
                #expect(try NoteRecord(back).read(as: .test(9)).note.string == note.string)
            }
        }
    }

    /// The encrypted field's JSON is CloudKit Web Services' field dictionary with
    /// `"isEncrypted": true`; a plain field and `"isEncrypted": false` read as plain and write
    /// back unchanged; anything but a boolean is refused where it is.
    @Test func theJSONMarksEncryptedFieldsAsWebServicesDoes() throws {
        let record = try Self.load(Self.fixture)
        #expect(record.fields["encryptedPayload"]?.isEncrypted == true)
        #expect(record.fields["version"]?.isEncrypted == false)
        let text = String(decoding: record.jsonBytes(), as: UTF8.self)
        #expect(text.contains("\"isEncrypted\": true"))
        #expect(text.components(separatedBy: "isEncrypted").count == 2)

        let plainFalse = #"{"recordName": "r", "recordType": "Note", "fields": {"t": {"value": "x", "isEncrypted": false}}}"#
        let read = try CloudRecord.record(fromJSON: Array(plainFalse.utf8))
        #expect(read.fields["t"]?.isEncrypted == false)
        #expect(String(decoding: read.jsonBytes(pretty: false), as: UTF8.self).contains(#""isEncrypted":false"#))

        // An encrypted field always spells its type, even one a reader would infer.
        var inferable = CloudRecord(recordName: "r", recordType: "Note")
        inferable.fields["title"] = RecordField(.string("secret"), typeName: nil)
        inferable.fields["title"]?.isEncrypted = true
        let spelled = String(decoding: inferable.jsonBytes(pretty: false), as: UTF8.self)
        #expect(spelled.contains(#""title":{"value":"secret","type":"STRING","isEncrypted":true}"#))

        let bad = #"{"recordName": "r", "recordType": "Note", "fields": {"t": {"value": "x", "isEncrypted": "yes"}}}"#
        do {
            _ = try CloudRecord.record(fromJSON: Array(bad.utf8))
            Issue.record("a non-boolean isEncrypted was accepted")
        } catch {
            #expect(error.code == .wrongType)
            #expect(error.path == "fields.t.isEncrypted")
        }
    }

    /// The hand-written fixture (Tests/Fixtures/encrypted/README.md) is what the writer writes
    /// for the golden note in the encrypted layout with a STRING mirror, and it reads as the
    /// golden text; rewriting the note in the plain layout gives the golden record's fields back.
    @Test func theFixtureIsWhatTheWriterWrites() throws {
        let fixture = try Self.load(Self.fixture)
        let golden = NoteRecord(try Self.load(RepositoryPaths.fixtures + "/golden/ascii.json"))
        let expectedText = try String(contentsOfFile: RepositoryPaths.fixtures + "/encrypted/ascii-encrypted.txt", encoding: .utf8)
        let reading = try NoteRecord(fixture).read(as: .test(3), clock: NoteFixtures.clock(1_795_262_400_000))
        #expect(reading.note.string == expectedText)
        #expect(reading.origin == .payload)

        let note = try golden.read(as: .test(3), clock: NoteFixtures.clock(1_795_262_400_000)).note
        let written = try golden.writing(note, mirror: .string, layout: .encrypted)
        #expect(written.record == fixture)
        let plainAgain = try written.writing(note, mirror: .string, layout: .plain)
        #expect(plainAgain.record.fields == golden.record.fields)
        // With no layout given, a writer keeps the record's own.
        #expect(try NoteRecord(fixture).writing(note, mirror: .string).record == fixture)
    }

    /// The version gate: a reader of an older release (schema version 2) refuses the record,
    /// naming `version`, before decoding anything, and writes nothing over it.
    @Test func olderReadersRefuseTheEncryptedLayout() throws {
        let fixture = NoteRecord(try Self.load(Self.fixture))
        #expect(throws: Never.self) { try fixture.checkReadable(by: NoteFormat.readerVersion) }
        do {
            try fixture.checkReadable(by: NoteFormat.readerVersion, recordVersion: 2)
            Issue.record("a schema version 2 reader accepted the encrypted layout")
        } catch {
            #expect(error.code == .newerVersion)
            #expect(error.field == "version")
            #expect(error.newerVersion?.recordVersion == 3)
        }
        // Without a `version` field an encrypted payload still says which layout it is.
        var unversioned = fixture
        unversioned.record[field: "version"] = nil
        #expect(try unversioned.schemaVersion() == 3)
        #expect(unversioned.layout == .encrypted)
    }

    /// Encrypted and plain versions of one note, with random edits on both sides, merge without
    /// losing a character, in either direction, three-way and as versions; the result is in the
    /// newest layout among them (or the one asked).
    @Test func mergingEncryptedAndPlainVersionsLosesNothing() throws {
        typealias Property = RecordMergePropertyTests
        var rng = SplitMix64(seed: 0x3E4C)
        for round in 0..<48 {
            var alphabet = Property.Alphabet()
            let base = (0..<Int.random(in: 0...10, using: &rng)).map { _ in alphabet.fresh() }
            let ancestorLayout: NoteRecordLayout = round % 2 == 0 ? .plain : .encrypted
            let ancestor = try NoteRecord(recordName: "n", note: NoteText(String(base), replica: .test(77), clock: NoteFixtures.clock(1_700_000_000_000)),
                                          layout: ancestorLayout)
            let a = Property.randomEdits(from: base, alphabet: &alphabet, rng: &rng)
            let b = Property.randomEdits(from: base, alphabet: &alphabet, rng: &rng)
            let layouts: [NoteRecordLayout] = [[.plain, .encrypted], [.encrypted, .plain], [.encrypted, .encrypted], [.plain, .plain]][round % 4]
            var sides: [NoteRecord] = []
            for (i, edits) in [a, b].enumerated() {
                var note = try ancestor.read(as: .test(UInt64(1000 + i)), clock: NoteFixtures.clock(1_700_000_000_100)).note
                for op in edits.ops {
                    if op.delete > 0 { try note.deleteScalars(in: op.at..<op.at + op.delete) }
                    if !op.insert.isEmpty { try note.insert(String(op.insert), atScalarOffset: op.at) }
                }
                let limits = (round / 4) % 3 == i ? NoteFixtures.assetLimits : NoteLimits.default
                sides.append(try ancestor.writing(note, limits: limits, layout: layouts[i]))
            }
            let expectedLayout: NoteRecordLayout = layouts.contains(.encrypted) ? .encrypted : .plain
            let live = Set(base).subtracting(a.deleted).subtracting(b.deleted)
            let expected = live.union(a.inserted.subtracting(a.deleted)).union(b.inserted.subtracting(b.deleted))
            let merges = [
                try RecordMerger().merge(ancestor: ancestor, client: sides[0], server: sides[1]),
                try RecordMerger().merge(ancestor: nil, client: sides[1], server: sides[0]),
                try RecordMerger().merge(records: sides),
            ]
            for merged in merges {
                let text = merged.note.string
                #expect(Set(text) == expected && text.count == expected.count, "round \(round): \(text)")
                #expect(merged.record.layout == expectedLayout)
                #expect(try merged.record.read(as: .test(5)).note.string == text)
                if expectedLayout == .encrypted { #expect(merged.record.record[field: "payload"] == nil) }
                else { #expect(merged.record.record[field: "encryptedPayload"] == nil) }
            }
            let asked = try RecordMerger(layout: .plain).merge(records: sides)
            #expect(asked.record.layout == .plain && asked.note.string == merges[2].note.string)
        }
    }

    /// CloudKit fixes a field's encryption with its type: both stand-in stores refuse an
    /// encrypted field where a plain one of the same name was saved (and the reverse), with the
    /// `ENCRYPTED_` type names CloudKit uses; the folder store keeps the flag through its files.
    @Test(arguments: RecordSchemaTests.StoreKind.allCases)
    func anEncryptedAndAPlainFieldOfOneNameConflict(_ kind: RecordSchemaTests.StoreKind) async throws {
        for encryptedFirst in [true, false] {
            let root = StoreFixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: root) }
            let store = try await RecordSchemaTests.store(kind, root: root)
            var first = CloudRecord(recordName: "a", recordType: "Note")
            first[field: "encryptedPayload"] = .bytes([1, 2])
            first.fields["encryptedPayload"]?.isEncrypted = encryptedFirst
            var second = first
            second.recordName = "b"
            second.fields["encryptedPayload"]?.isEncrypted = !encryptedFirst
            _ = try await store.save(first, in: RecordSchemaTests.zone)
            #expect(try await RecordSchemaTests.fieldTypes(store)["encryptedPayload"] == (encryptedFirst ? "ENCRYPTED_BYTES" : "BYTES"))
            let fetched = try await store.fetchRecord(named: "a", in: RecordSchemaTests.zone)
            #expect(fetched?.fields["encryptedPayload"]?.isEncrypted == encryptedFirst)
            let error = try #require(await StoreFixtures.storeError { try await store.save(second, in: RecordSchemaTests.zone) })
            #expect(error.code == .invalidArguments)
            #expect(error.fieldTypeMismatch?.field == "encryptedPayload")
            #expect(error.fieldTypeMismatch?.recordFieldType == (encryptedFirst ? "BYTES" : "ENCRYPTED_BYTES"))
        }
    }
}
