import Testing
@testable import CRDTNote
import CRDTNoteDurableFiles
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
import CRDTNoteToolSupport

/// Formatting through library sync (Docs/LIBRARY.md, "Formatting"): libraries converge on text
/// and attributes; a record write unites the note's formatting with the record's; a device that
/// does not read formatting (an older release) keeps the formatting of the text it did not touch;
/// formatting a newer release wrote is never replaced and never blocks the text.
@Suite struct LibraryFormattingSyncTests {
    typealias Model = LibraryFormattingModel
    let zone = NoteSyncConfiguration().zone

    /// Seeded: two or three libraries make random text edits and formatting commands on one note,
    /// sync in random order and restart at random; when all have synced twice in turn they hold
    /// the same text, the same operations, and every character's attributes equal the oracle's.
    @Test(arguments: Array(1...12) as [UInt64])
    func librariesConvergeOnTextAndAttributes(seed: UInt64) async throws {
        var rng = SplitMix64(seed: seed &+ 500)
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        var devices = try (1...(2 + Int(seed % 2))).map { try SyncTestDevice(store: store, replica: .test(UInt64($0))) }
        var model = Model()
        try devices[0].library.create("n", text: "Title\nfirst line\nsecond")
        try await devices[0].engine.sync()
        for i in devices.indices.dropFirst() { try await devices[i].engine.sync() }
        for _ in 0..<40 {
            let i = Int(rng.next() % UInt64(devices.count))
            let library = devices[i].library
            switch rng.next() % 10 {
            case 0..<3:
                let count = try library.text(of: "n").unicodeScalars.count
                let at = Int(rng.next() % UInt64(count + 1))
                let text = rng.next() % 4 == 0 ? "\n" : RandomText.make(&rng, maxPieces: 2)
                try model.edit(library, "n") { note in try note.insert(text, atScalarOffset: at) }
            case 3:
                let count = try library.text(of: "n").unicodeScalars.count
                let from = Int(rng.next() % UInt64(count + 1))
                try model.edit(library, "n") { note in try note.deleteScalars(in: from..<min(count, from + 4)) }
            case 4..<7:
                var copy = rng
                try model.edit(library, "n") { note in try Model.format(&note, &copy) }
                rng = copy
            case 7:
                try devices[i].restart(replica: .test(UInt64(i + 1)))
            default:
                try await devices[i].engine.sync()
            }
        }
        for _ in 0..<2 {
            for i in devices.indices { try await devices[i].engine.sync() }
        }
        let notes = try devices.map { try $0.library.note("n") }
        let characters = try Model.characters(notes[0])
        for (i, note) in notes.enumerated() {
            #expect(note.string == notes[0].string, "seed \(seed), device \(i)")
            #expect(note.formatting == notes[0].formatting, "seed \(seed), device \(i)")
            #expect(try Model.characters(note) == characters, "seed \(seed), device \(i)")
            #expect(try devices[i].unsaved().isEmpty, "seed \(seed), device \(i)")
        }
        #expect(characters == (try model.oracle(notes[0])), "seed \(seed): the oracle disagrees")
        // The server's record holds the same: every operation, and the text.
        let stored = try #require(await store.database.allRecords(in: zone).notes.first)
        let reading = try NoteRecord(stored).read(as: .test(99))
        #expect(reading.formattingError == nil)
        #expect(reading.note.string == notes[0].string)
        #expect(reading.note.formatting == notes[0].formatting)
        // And a device starting from the record (reopened from its disk) shows the same.
        try devices[0].restart(replica: .test(1))
        #expect(try Model.characters(devices[0].library.note("n")) == characters)
    }

    /// A device of an older release: reads the record's text and ignores its formatting (a copy
    /// without it), edits the text, and writes the record back, which keeps the `formatting`
    /// field as it was (a field it does not know).
    func olderReleaseEdits(_ db: InMemoryCloudDatabase, _ edit: (inout NoteText) throws -> Void) async throws {
        let stored = try #require(await db.allRecords(in: zone).notes.first)
        var note = try NoteRecord(stored).read(as: .test(50)).note
        note.formatting = NoteFormatting()
        try edit(&note)
        let written = try NoteRecord(stored).writing(note).record
        let answer = try await db.modifyRecords(saving: [written], deleting: [], in: zone)
        _ = try #require(answer.saveResults[written.recordName]).get()
    }

    @Test func anOlderReleaseEditingTheTextKeepsTheFormattingOfUntouchedText() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try SyncTestDevice(store: store, replica: .test(1))
        try a.library.create("n", text: "one two three\nfour")
        try a.library.edit("n") { (note: inout NoteText) throws(NoteTextError) in
            try note.setMark(.bold, utf16Range: 0..<3)
            try note.setMark(.italic, utf16Range: 8..<13)
            try note.setParagraphAttribute(.list(.check), utf16Range: 14..<18)
        }
        try await a.engine.sync()
        try await olderReleaseEdits(db) { note in
            try note.replaceUTF16(in: 4..<7, with: "2")            // "two" replaced: untouched text around it
            try note.insert("zero ", atUTF16Offset: 0)
        }
        // Meanwhile a formats again without having fetched: its save meets the older device's.
        try a.library.edit("n") { (note: inout NoteText) throws(NoteTextError) in try note.setMark(.underline, utf16Range: 14..<18) }
        try await a.engine.sync()
        try await a.engine.sync()
        let spans = try a.library.note("n").formattedSpans()
        #expect(spans.map(\.text).joined() == "zero one 2 three\nfour")
        #expect(spans.first { $0.text.contains("one") }?.marks == [.bold])
        #expect(spans.first { $0.text.contains("three") }?.marks == [.italic])
        #expect(spans.first { $0.text.contains("four") }?.marks == [.underline])
        #expect(spans.first { $0.text.contains("four") }?.paragraph.list == .check)
        // The server's record: the same text and attributes, read by any formatting device.
        let stored = try #require(await db.allRecords(in: zone).notes.first)
        #expect(try NoteRecord(stored).read(as: .test(9)).note.formattedSpans() == spans)
        #expect(try a.unsaved().isEmpty)
    }

    /// A record write unites: a note library's record never holds a subset of the operations
    /// the server's record held, even when the library did not hold them (they were written
    /// onto the server metadata by an earlier release of the library, which kept them verbatim).
    @Test func aRecordWriteUnitesTheNotesFormattingWithTheRecords() throws {
        var base = try NoteText("alpha beta", replica: .test(1))
        try base.setMark(.bold, utf16Range: 0..<5)
        let record = try NoteRecord(recordName: "n", note: base)
        var note = base.forked(as: .test(2))
        note.formatting = NoteFormatting()  // a copy that does not hold the record's formatting
        try note.setMark(.italic, utf16Range: 6..<10)
        let written = try record.writing(note)
        let read = try written.read(as: .test(3)).note
        #expect(base.formatting.marks.allSatisfy { read.formatting.marks.contains($0) })
        #expect(note.formatting.marks.allSatisfy { read.formatting.marks.contains($0) })
        #expect(try read.formattedSpans().map(\.marks) == [[.bold], [], [.italic]])
    }

    /// Formatting a newer release wrote (its payload needs a newer reader): the library's text
    /// edits and its own formatting still save; the field is never replaced; the note is not left
    /// unsaved; the local formatting is kept in the library.
    @Test func formattingFromANewerReleaseIsKeptAndNeverBlocksTheText() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try SyncTestDevice(store: store, replica: .test(1))
        try a.library.create("n", text: "one two")
        try await a.engine.sync()
        var stored = try #require(await db.allRecords(in: zone).notes.first)
        var newer = NoteFormatting().encoded()
        newer[6] = 9  // minimum reader version 9 (the header's bytes are not in the checksum)
        stored[field: NoteSchema.Field.formatting] = .bytes(newer)
        _ = try #require(try await db.modifyRecords(saving: [stored], deleting: [], in: zone).saveResults[stored.recordName]).get()
        try await a.engine.sync()
        try a.library.edit("n") { (note: inout NoteText) throws(NoteTextError) in
            try note.insert("!", atUTF16Offset: 7)
            try note.setMark(.bold, utf16Range: 0..<3)
        }
        let report = try await a.engine.sync()
        #expect(report.failures.isEmpty, "\(report)")
        let after = try #require(await db.allRecords(in: zone).notes.first)
        #expect(try NoteRecord(after).read(as: .test(9)).note.string == "one two!")
        #expect(after[field: NoteSchema.Field.formatting] == .bytes(newer))
        #expect(try a.unsaved().isEmpty)
        #expect(try a.library.note("n").formattedSpans().first?.marks == [.bold])
    }

    /// Records carrying formatting arrive at a library that has never seen the note: it is
    /// created with its formatting; the server metadata keeps none of it (the note holds it).
    @Test func aNoteSyncedInKeepsItsFormattingAndTheMetadataNoCopy() async throws {
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        let a = try SyncTestDevice(store: store, replica: .test(1))
        var b = try SyncTestDevice(store: store, replica: .test(2))
        try a.library.create("n", text: "Heading\nbody")
        try a.library.edit("n") { (note: inout NoteText) throws(NoteTextError) in
            try note.setParagraphAttribute(.heading(1), utf16Range: 0..<0)
            try note.setMark(.link("https://example.com"), utf16Range: 8..<12)
        }
        try await a.engine.sync()
        try await b.engine.sync()
        try b.restart(replica: .test(2))
        let spans = try b.library.note("n").formattedSpans()
        #expect(spans == (try a.library.note("n").formattedSpans()))
        #expect(spans.first?.paragraph.heading == 1)
        let metadata = try b.library.withSyncAccess({ $0 }) { (access) throws(NoteLibraryError) in try access.server(of: "n") }
        #expect(try #require(metadata).fields[NoteSchema.Field.formatting] == nil)
    }
}
