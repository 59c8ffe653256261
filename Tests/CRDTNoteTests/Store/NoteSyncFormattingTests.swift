import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting

/// Formatting made on a device that writes records directly survives library devices editing
/// the text, one of them before it fetched the formatting: libraries hold the formatting they
/// sync in, and record writes and conflicts unite it (RECORD-FORMAT.md, "Formatting").
@Suite struct NoteSyncFormattingTests {
    let zone = NoteSyncConfiguration().zone

    @Test func formattingSurvivesLibraryDevicesEditingTheText() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try SyncTestDevice(store: store, replica: .test(1))
        let b = try SyncTestDevice(store: store, replica: .test(2))
        try a.library.create("n", text: "one two")
        try await a.engine.sync()
        try await b.engine.sync()

        // A device that formats: "one" bold, written straight into the server's record.
        let stored = try #require(await db.allRecords(in: zone).notes.first)
        var note = try NoteRecord(stored).read(as: .test(9)).note
        try note.setMark(.bold, utf16Range: 0..<3)
        let formatted = try NoteRecord(stored).writing(note).record
        let answer = try await db.modifyRecords(saving: [formatted], deleting: [], in: zone)
        _ = try #require(answer.saveResults[formatted.recordName]).get()

        // Both library devices edit the text; b has not fetched the formatting before editing.
        try b.library.setText("one two three", of: "n")
        try await b.engine.sync()
        try a.library.setText("zero one two", of: "n")
        try await a.engine.sync()
        try await b.engine.sync()

        let final = try #require(await db.allRecords(in: zone).notes.first)
        let reading = try NoteRecord(final).read(as: .test(10))
        #expect(reading.formattingError == nil)
        #expect(reading.note.string == "zero one two three")
        #expect(try reading.note.formattedSpans().map(\.text) == ["zero ", "one", " two three"])
        #expect(try reading.note.formattedSpans().map(\.marks) == [[], [.bold], []])
    }
}
