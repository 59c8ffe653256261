import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// The `text` mirror in one type per container (`NoteTextMirror`): what each type writes for
/// small and large notes, what an old plain-text client is shown and what happens to what it
/// writes back, and that the records written give every field one type.
@Suite("Text mirror")
struct TextMirrorTests {
    static let small = "0123456789"                                   // 10 bytes
    static let large = String(repeating: "a line of a long note, 40 bytes long.\n", count: 10_500)   // 399,000 bytes

    static func note(_ text: String, replica: UInt64 = 1) throws -> NoteText {
        try NoteText(text, replica: .test(replica), clock: NoteFixtures.clock(1_700_000_000_000))
    }

    @Test func largeTextIsFourHundredKilobytes() {
        #expect(Self.large.utf8.count == 399_000)
        #expect(Self.large.utf8.count > NoteLimits.default.maxInlineText)
    }

    @Test(arguments: NoteTextMirror.allCases)
    func eachMirrorTypeWritesOneTypeWhateverTheSize(_ mirror: NoteTextMirror) throws {
        var written: [CloudRecord] = []
        var grown = NoteRecord(recordName: "grown")
        for (i, text) in [Self.small, Self.large, Self.small].enumerated() {
            // A fresh record per size, and one record that grows and shrinks again.
            let fresh = try NoteRecord(recordName: "fresh-\(i)", note: Self.note(text), mirror: mirror)
            grown = try grown.writing(Self.note(text), mirror: mirror)
            for record in [fresh, grown] {
                written.append(record.record)
                #expect(try record.read(as: .test(9)).note.string == text)
                #expect(try record.read(as: .test(9)).origin == .payload)
                let field = record.record[field: NoteSchema.Field.text]
                let marker = record.record[field: NoteSchema.Field.mirroredBytes]
                switch (mirror, text == Self.small) {
                case (.asset, _):
                    #expect(record.record.assetBytes(NoteSchema.Field.text) == Array(text.utf8))
                    #expect(marker == nil)
                case (.string, true):
                    #expect(field == .string(text))
                    #expect(marker == nil)
                case (.string, false), (.off, _):
                    #expect(field == nil)
                    #expect(marker == .int64(0))
                }
                #expect(record.record[field: NoteSchema.Field.version] == .int64(2))
                #expect(NoteTextMirror(of: record) == (mirror == .string && text != Self.small ? .off : mirror))
            }
        }
        #expect(FieldTypeScan.mismatches(in: written) == [])
        let types = FieldTypeScan.types(in: written)
        #expect(types["text"] == (mirror == .off ? nil : [mirror == .asset ? "ASSET" : "STRING"]))
        #expect(types["version"] == ["INT64"])
        #expect(types["modified"] == ["TIMESTAMP"])
        #expect(types["payload"] == ["BYTES"])
    }

    @Test func theRecordBudgetNeverTurnsAStringMirrorIntoAnAsset() throws {
        let limits = NoteLimits(maxInlinePayload: 512_000, maxInlineText: 196_608, recordBudget: 150_000)
        let text = String(repeating: "x", count: 100_000)
        let record = try NoteRecord(recordName: "n", note: Self.note(text), limits: limits, mirror: .string)
        #expect(record.record[field: NoteSchema.Field.text] == nil)
        #expect(record.record[field: NoteSchema.Field.mirroredBytes] == .int64(0))
        #expect(record.record[field: NoteSchema.Field.payload] != nil)
    }

    // MARK: What an old client sees and writes back

    @Test(arguments: [NoteTextMirror.asset, .string])
    func anOldClientsChangeToACompleteMirrorIsFoldedIn(_ mirror: NoteTextMirror) throws {
        let base = try Self.note("shopping list")
        let record = try NoteRecord(recordName: "n", note: base, mirror: mirror)
        let clobbered = NoteFixtures.clobbered(record, text: "my shopping list!", modified: 1_700_000_100_000)
        #expect(NoteTextMirror(of: clobbered) == mirror)
        let read = try clobbered.read(as: .test(3))
        #expect(read.origin == .payloadWithFoldedText)
        #expect(read.note.string == "my shopping list!")
        // The old client's deletion is kept too: it was shown the whole note.
        let deleted = try NoteFixtures.clobbered(record, text: "list", modified: 1_700_000_100_000).read(as: .test(3))
        #expect(deleted.note.string == "list")
        // Written back in the container's type, the fold is part of the payload and the mirror matches.
        let rewritten = try clobbered.writing(read.note, mirror: mirror)
        #expect(try rewritten.read(as: .test(4)).origin == .payload)
        #expect(FieldTypeScan.mismatches(in: [record.record, clobbered.record, rewritten.record]) == [])
    }

    @Test(arguments: [NoteTextMirror.string, .off])
    func whatAnOldClientWritesIntoANoteItWasNotShownIsAddedNeverDeleting(_ mirror: NoteTextMirror) throws {
        let text = mirror == .string ? Self.large : "a note of an app without plain-text clients\n"
        let record = try NoteRecord(recordName: "n", note: Self.note(text), mirror: mirror)
        #expect(record.record[field: NoteSchema.Field.text] == nil)
        // The old client saw no text and typed some (as a STRING, the type it knows).
        var typed = record
        typed.record[field: NoteSchema.Field.text] = .string("typed by an old app\n")
        typed.record[field: NoteSchema.Field.modified] = .timestamp(1_700_000_200_000)
        let read = try typed.read(as: .test(3))
        #expect(read.origin == .payloadWithFoldedText)
        #expect(read.note.string == "typed by an old app\n" + text)
        // Every device folds it identically, and a concurrent crdtnote edit still merges in.
        #expect(NoteReplicaDerivation.digest(try typed.read(as: .test(4)).note) == NoteReplicaDerivation.digest(read.note))
        var other = try record.read(as: .test(7)).note
        try other.insert("!", atScalarOffset: other.scalarCount)
        #expect(try read.note.merging(other).string == "typed by an old app\n" + text + "!")
        // Rewritten, the note has the old client's text and the record is clean again.
        let rewritten = try typed.writing(read.note, mirror: mirror)
        #expect(try rewritten.read(as: .test(5)).origin == .payload)
        #expect(try rewritten.read(as: .test(5)).note.string == read.note.string)
        // An empty `text` changes nothing: the old client was shown nothing and removed nothing.
        var empty = record
        empty.record[field: NoteSchema.Field.text] = .string("")
        #expect(try empty.read(as: .test(3)).origin == .payload)
        #expect(try empty.read(as: .test(3)).note.string == text)
    }

    @Test func aMirrorOfTheFirstBytesFoldsEditsThereAndKeepsTheRest() throws {
        let text = "line one\nline two\nhidden three\n"
        var record = try NoteRecord(recordName: "n", note: Self.note(text), mirror: .string)
        let shown = "line one\nline two\n"
        record.record[field: NoteSchema.Field.text] = .string(shown)
        record.record[field: NoteSchema.Field.mirroredBytes] = .int64(Int64(shown.utf8.count))
        // Unchanged: nothing to fold, though the mirror is not the whole text.
        #expect(try record.read(as: .test(2)).origin == .payload)
        #expect(try record.read(as: .test(2)).note.string == text)
        // The old client deleted a line it was shown and added one: the hidden line stays.
        let edited = NoteFixtures.clobbered(record, text: "line one\nline 2.5\n", modified: 1_700_000_300_000)
        let read = try edited.read(as: .test(2))
        #expect(read.origin == .payloadWithFoldedText)
        #expect(read.note.string == "line one\nline 2.5\nhidden three\n")
    }

    @Test func aDamagedMirroredBytesFieldIsATypedError() throws {
        let text = "héllo"   // é is two bytes: 1..<3
        let record = try NoteRecord(recordName: "n", note: Self.note(text), mirror: .off)
        func code(_ value: RecordFieldValue, text: String? = "x") -> NoteRecordError.Code? {
            var r = record
            r.record[field: NoteSchema.Field.mirroredBytes] = value
            r.record[field: NoteSchema.Field.text] = text.map { .string($0) }
            do { _ = try r.read(as: .test(2)); return nil } catch {
                #expect(error.field == NoteSchema.Field.mirroredBytes)
                return error.code
            }
        }
        #expect(code(.string("0")) == .invalidField)
        #expect(code(.int64(-1)) == .invalidField)
        #expect(code(.int64(2)) == .invalidField)      // inside é
        #expect(code(.int64(7)) == .invalidField)      // past the end
        #expect(code(.int64(3)) == nil)
        #expect(code(.int64(6)) == nil)
        #expect(code(.int64(7), text: nil) == nil)     // no `text`: nothing shown, nothing to check against
    }

    // MARK: Old shapes, the version gate, the merger

    @Test func legacyRecordsReadWithTextAsAStringOrAnAsset() throws {
        let text = "Packing list\n- passport\n"
        var asset = NoteFixtures.v1(text)
        asset.record[field: NoteSchema.Field.text] = .asset(AssetReference(size: Int64(text.utf8.count), bytes: Array(text.utf8)))
        for record in [NoteFixtures.v1(text), asset] {
            let read = try record.read(as: .test(3))
            #expect(read.origin == .legacyText)
            #expect(read.note.string == text)
        }
        // Both shapes upgrade to the same state: the legacy replica depends on the text, not its type.
        #expect(NoteReplicaDerivation.digest(try asset.read(as: .test(3)).note)
                == NoteReplicaDerivation.digest(try NoteFixtures.v1(text).read(as: .test(3)).note))
        #expect(NoteTextMirror(of: asset) == .asset)
        #expect(NoteTextMirror(of: NoteFixtures.v1(text)) == .string)
        var bare = NoteFixtures.v1(text)
        bare.record[field: NoteSchema.Field.text] = nil
        #expect(NoteTextMirror(of: bare) == nil)
    }

    @Test(arguments: NoteTextMirror.allCases)
    func theVersionGateRefusesToOverwriteNewerRecordsWhateverTheMirror(_ mirror: NoteTextMirror) throws {
        var newer = try NoteRecord(recordName: "n", note: Self.note("from the future"), mirror: .string)
        newer.record[field: NoteSchema.Field.version] = .int64(NoteSchema.encryptedVersion + 1)
        let before = newer
        let past = try Self.note("past", replica: 2)
        do {
            try newer.write(past, mirror: mirror)
            Issue.record("a newer record was overwritten")
        } catch {
            #expect(error.code == .newerVersion)
        }
        #expect(newer == before)
        let merger = RecordMerger(mirror: mirror)
        let client = try NoteRecord(recordName: "n", note: Self.note("past", replica: 2), mirror: mirror)
        #expect(throws: NoteRecordError.self) { try merger.merge(ancestor: nil, client: client, server: newer) }
    }

    @Test(arguments: NoteTextMirror.allCases)
    func theMergerWritesItsMirrorType(_ mirror: NoteTextMirror) throws {
        let base = try Self.note("base\n")
        let ancestor = try NoteRecord(recordName: "n", note: base, mirror: mirror)
        var phone = try ancestor.read(as: .test(2)).note
        try phone.insert("phone\n", atScalarOffset: phone.scalarCount)
        var laptop = try ancestor.read(as: .test(3)).note
        try laptop.insert(Self.large, atScalarOffset: 0)
        let client = try ancestor.writing(phone, mirror: mirror)
        let server = try ancestor.writing(laptop, mirror: mirror)
        let result = try RecordMerger(mirror: mirror).merge(ancestor: ancestor, client: client, server: server)
        #expect(result.note.string == Self.large + "base\nphone\n")
        #expect(NoteTextMirror(of: result.record) == (mirror == .string ? .off : mirror))
        // Merged again with what it already holds, the record is left alone.
        let again = try RecordMerger(mirror: mirror).merge(ancestor: nil, client: client, server: result.record)
        #expect(again.serverUnchanged)
        #expect(FieldTypeScan.mismatches(in: [ancestor, client, server, result.record, again.record].map(\.record)) == [])
    }

    @Test func currentReleaseRecordsWithAStringMirrorStillRead() throws {
        // What the previous release wrote by default: a STRING mirror, no `mirroredBytes`.
        var record = try NoteRecord(recordName: "n", note: Self.note("written before\n"), mirror: .string)
        #expect(record.record[field: NoteSchema.Field.mirroredBytes] == nil)
        #expect(try record.read(as: .test(2)).origin == .payload)
        // A clean server record is not rewritten by a merge, whatever the merger's type.
        let merged = try RecordMerger(mirror: .asset).merge(ancestor: nil, client: record, server: record)
        #expect(merged.serverUnchanged)
        record.record[field: NoteSchema.Field.text] = .string("written before, edited by an old app\n")
        #expect(try record.read(as: .test(2)).note.string == "written before, edited by an old app\n")
    }
}
