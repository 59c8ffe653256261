import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteFiles
import Foundation

/// Formatting in note records (Docs/RECORD-FORMAT.md, "Formatting"): its own `formatting` field,
/// kept verbatim by copies that cannot read it, united wherever the text is merged.
@Suite struct FormattingRecordTests {
    static let text = "Title\nsome bold words and a link"

    /// A note with a heading, a bold word and a link, edited as replica 1.
    static func formattedNote() throws -> NoteText {
        var note = try NoteText(text, replica: .test(1), clock: NoteFixtures.clock(1_700_000_000_000))
        try note.setParagraphAttribute(.heading(1), utf16Range: 0..<5)
        try note.setMark(.bold, utf16Range: 11..<15)
        try note.setMark(.link("https://example.com"), utf16Range: 28..<32)
        return note
    }

    /// Each span as `text[marks]` with `#` for a heading: compact to compare.
    static func shape(_ note: NoteText) throws -> [String] {
        try note.formattedSpans().map { span in
            (span.paragraph.heading > 0 ? "#" : "") + span.text + (span.marks.isEmpty ? "" : "\(span.marks)")
        }
    }

    /// What a release that cannot read formatting writes: only the note fields it knows
    /// (release 0.1.0's `NoteSchema.Field.all`), every other field of the record kept as it was.
    static func writtenByAnOldRelease(_ note: NoteText, onto record: NoteRecord) throws -> NoteRecord {
        let oldFields: Set<String> = ["version", "text", "modified", "payload", "payloadAsset", "mirroredBytes"]
        var plain = note
        plain.formatting = NoteFormatting()   // its NoteText holds no formatting
        let fresh = try NoteRecord(recordName: record.recordName, note: plain)
        var out = record
        for name in oldFields { out.record[field: name] = fresh.record[field: name] }
        return out
    }

    @Test func aFormattedNoteRoundTripsThroughItsRecord() throws {
        let note = try Self.formattedNote()
        let record = try NoteRecord(recordName: "n", note: note)
        guard case .bytes? = record.record[field: NoteSchema.Field.formatting] else {
            Issue.record("no inline formatting field")
            return
        }
        #expect(record.record[field: NoteSchema.Field.formattingAsset] == nil)
        let read = try record.read(as: .test(2))
        #expect(read.formattingError == nil)
        #expect(try Self.shape(read.note) == ["#Title\n", "some ", "bold[bold]", " words and a ", "link[link=https://example.com]"])
        #expect(read.note.formatting == note.formatting)
    }

    @Test func aPlainNoteWritesNoFormattingField() throws {
        let record = try NoteRecord(recordName: "n", note: try NoteText(Self.text, replica: .test(1)))
        #expect(Set(record.record.fields.keys).isDisjoint(with: NoteSchema.Field.formattingFields))
        #expect(try record.read(as: .test(2)).note.formatting.isEmpty)
    }

    /// Formatted on a new device, its text edited on a device that cannot read formatting,
    /// merged back in a conflict with more formatting: the formatting of untouched text survives.
    @Test func formattingSurvivesAnEditOnADeviceThatCannotReadIt() throws {
        let ancestor = try NoteRecord(recordName: "n", note: try Self.formattedNote())
        // The old device: reads the payload, edits the text, writes only the fields it knows.
        var old = try ancestor.read(as: .test(2)).note
        try old.insert("Draft: ", atUTF16Offset: 0)
        try old.deleteUTF16(in: 22..<28)   // " words" of the edited text
        let server = try Self.writtenByAnOldRelease(old, onto: ancestor)
        #expect(server.record[field: NoteSchema.Field.formatting] == ancestor.record[field: NoteSchema.Field.formatting])
        // The new device meanwhile: italic on "and".
        var mine = try ancestor.read(as: .test(3)).note
        try mine.setMark(.italic, utf16Range: 22..<25)
        let client = try ancestor.writing(mine)
        for (a, b) in [(client, server), (server, client)] {
            let merged = try RecordMerger().merge(ancestor: ancestor, client: a, server: b)
            let note = try merged.record.read(as: .test(4)).note
            #expect(note.string == "Draft: Title\nsome bold and a link")
            #expect(try Self.shape(note) == ["#Draft: Title\n", "some ", "bold[bold]", " ", "and[italic]", " a ",
                                             "link[link=https://example.com]"])
        }
        // The old device edits the merged note again: still nothing is lost.
        let merged = try RecordMerger().merge(ancestor: ancestor, client: client, server: server).record
        var later = try merged.read(as: .test(2)).note
        try later.insert("!", atUTF16Offset: later.utf16Count)
        let again = try Self.writtenByAnOldRelease(later, onto: merged)
        #expect(Array(try Self.shape(try again.read(as: .test(5)).note).suffix(2)) == ["link[link=https://example.com]", "!"])
        #expect(try Self.shape(try again.read(as: .test(5)).note).contains("and[italic]"))
    }

    @Test func aCorruptFormattingFieldIsReportedAndTheTextKept() throws {
        let good = try NoteRecord(recordName: "n", note: try Self.formattedNote())
        guard case .bytes(let bytes)? = good.record[field: NoteSchema.Field.formatting] else { return }
        var flipped = bytes
        flipped[bytes.count - 3] ^= 0x40
        let damaged: [(RecordFieldValue, NoteRecordError.Code)] = [
            (.bytes(flipped), .corruptPayload), (.bytes(Array(bytes.prefix(20))), .corruptPayload),
            (.bytes([]), .corruptPayload), (.string("bold"), .invalidField),
        ]
        for (value, code) in damaged {
            var record = good
            record.record[field: NoteSchema.Field.formatting] = value
            let read = try record.read(as: .test(2))
            #expect(read.note.string == Self.text)
            #expect(read.formattingError?.code == code)
            #expect(read.formattingError?.field == NoteSchema.Field.formatting)
            // A plain edit keeps the field as it is; merging with a good copy keeps the text and
            // writes the good copy's formatting.
            var edited = read.note
            try edited.insert("!", atUTF16Offset: edited.utf16Count)
            let written = try record.writing(edited)
            #expect(written.record[field: NoteSchema.Field.formatting] == value)
            let merged = try RecordMerger().merge(records: [good, written])
            let note = try merged.record.read(as: .test(3))
            #expect(note.formattingError == nil)
            #expect(note.note.string == Self.text + "!")
            #expect(try Self.shape(note.note).contains("bold[bold]"))
        }
    }

    @Test func formattingFromANewerReleaseIsLeftAlone() throws {
        let good = try NoteRecord(recordName: "n", note: try Self.formattedNote())
        guard case .bytes(var bytes)? = good.record[field: NoteSchema.Field.formatting] else { return }
        bytes[6] = 99   // minimum reader version 99 (the header's bytes are not in the checksum)
        var record = good
        record.record[field: NoteSchema.Field.formatting] = .bytes(bytes)
        let read = try record.read(as: .test(2))
        #expect(read.formattingError?.code == .newerVersion)
        var plainEdit = read.note
        try plainEdit.insert("!", atUTF16Offset: 0)
        #expect(try record.writing(plainEdit).record[field: NoteSchema.Field.formatting] == .bytes(bytes))
        var formatted = plainEdit
        try formatted.setMark(.italic, utf16Range: 0..<3)
        #expect(throws: NoteRecordError.self) { try record.writing(formatted) }
        #expect((try? record.writing(formatted)) == nil)
    }

    @Test func largeFormattingMovesToAnAssetAndReadsBack() throws {
        let note = try Self.formattedNote()
        let record = try NoteRecord(recordName: "n", note: note, limits: NoteFixtures.assetLimits)
        #expect(record.record[field: NoteSchema.Field.formatting] == nil)
        guard case .asset? = record.record[field: NoteSchema.Field.formattingAsset] else {
            Issue.record("no formatting asset")
            return
        }
        #expect(record.assetsToSave[NoteSchema.Field.formattingAsset] != nil)
        #expect(try record.read(as: .test(2)).note.formatting == note.formatting)
        // Back inline: the asset goes.
        let inline = try record.writing(note)
        #expect(inline.record[field: NoteSchema.Field.formattingAsset] == nil)
        #expect(inline.record[field: NoteSchema.Field.formatting] != nil)
    }

    /// A formatting asset goes out with the other note assets and comes back on loading.
    @Test func theFormattingAssetIsSavedAndLoadedWithTheOtherAssets() throws {
        let note = try Self.formattedNote()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formatting-assets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = AssetLocator(jsonDirectory: folder.path)
        let saved = try NoteRecord(recordName: "n", note: note, limits: NoteFixtures.assetLimits).savingAssets(to: storage)
        var fetched = saved.record
        for (name, field) in fetched.fields {
            if case .asset(var ref) = field.value {
                ref.bytes = nil
                fetched.fields[name]?.value = .asset(ref)
            }
        }
        var onlyFormattingMissing = saved.record
        if case .asset(var ref)? = onlyFormattingMissing[field: NoteSchema.Field.formattingAsset] {
            ref.bytes = nil
            onlyFormattingMissing[field: NoteSchema.Field.formattingAsset] = .asset(ref)
        }
        let withoutFormatting = try NoteRecord(onlyFormattingMissing).read(as: .test(2))
        #expect(withoutFormatting.formattingError?.code == .assetUnavailable)
        #expect(withoutFormatting.note.string == Self.text)
        let loaded = try NoteRecord(fetched, loadingAssetsFrom: storage)
        #expect(try loaded.read(as: .test(2)).note.formatting == note.formatting)
    }

    @Test func readersAndWritersShareTheOperationLimit() throws {
        let note = try Self.formattedNote()   // 3 operations
        let limits = NoteLimits(maximumFormattingOperations: 2)
        #expect(throws: NoteRecordError.self) { try NoteRecord(recordName: "n", note: note, limits: limits) }
        #expect(throws: PayloadError.self) { try NoteFormatting(encoded: note.formatting.encoded(), limits: limits) }
        #expect(try NoteFormatting(encoded: note.formatting.encoded(), limits: NoteLimits(maximumFormattingOperations: 3)) == note.formatting)
    }
}
