import CRDTNote
import CRDTNoteTestSupport
import Foundation
import Testing

/// Docs/LIBRARY.md's Swift code, compiled and run: every ```swift block of the guide must appear
/// line for line in this file, where it runs with the few names it needs defined around it.
@Suite("LIBRARY.md")
struct LibraryGuideTests {
    @Test func inAnApp() async throws {
        let applicationSupport = NSTemporaryDirectory() + "crdtnote-guide-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: applicationSupport) }
        let replica = ReplicaID.random()
        let folder = applicationSupport + "/Notes"              // a folder of the library's own
        let library = try NoteLibrary.create(folder: folder, replica: replica)   // the first launch
        try library.create("groceries", text: "Groceries\nmilk")
        try library.edit("groceries") { note in
            try note.insert(", eggs", atScalarOffset: note.scalarCount)
        }
        try library.flush()                                      // durable when it returns
        for summary in try library.list() {                      // most recently modified first
            print(summary.name, summary.title, summary.unsaved)  // "groceries Groceries true"
        }
        #expect(try library.list().map(\.title) == ["Groceries"])
        #expect(try library.text(of: "groceries") == "Groceries\nmilk, eggs")

        let watcher = Task {
            for await change in library.changes() {
                print(change)                                    // e.g. changed("groceries")
            }
        }
        let check = library.changes()
        try library.setText("Groceries\nbread", of: "groceries")
        try library.close()
        await watcher.value
        var seen: [NoteLibraryChange] = []
        for await change in check { seen.append(change) }
        #expect(seen == [.changed("groceries")])
    }

    /// Section 1, "Formatting".
    @Test func formatting() throws {
        let folder = NSTemporaryDirectory() + "crdtnote-guide-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = try NoteLibrary.create(folder: folder, replica: .random())
        try library.create("letter", text: "Dear Anna,\nsee you Monday.")
        try library.edit("letter") { note in
            try note.setParagraphAttribute(.heading(1), utf16Range: 0..<0)
            try note.setMark(.bold, utf16Range: 19..<25)            // "Monday"
        }
        print(try library.note("letter").formattedSpans().map(\.text))  // ["Dear Anna,\n", "see you ", "Monday", "."]
        let spans = try NoteLibrary(folder: folder, replica: .random()).note("letter").formattedSpans()
        #expect(spans.map(\.text) == ["Dear Anna,\n", "see you ", "Monday", "."])
        #expect(spans.map(\.marks) == [[], [], [.bold], []])
        #expect(spans.map(\.paragraph.heading) == [1, 0, 0, 0])
    }

    /// Section 8, a library that keeps history.
    @Test func history() throws {
        let folder = NSTemporaryDirectory() + "crdtnote-guide-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let replica = ReplicaID.random()
        var options = NoteLibrary.Options()
        options.historyRetention = .default                      // the default: 30 days, max(64 KB, 2 × the text)
        let library = try NoteLibrary.create(folder: folder, replica: replica, options: options)
        try library.create("letter", text: "Dear Anna, see you Monday.")
        try library.setText("Dear Anna, see you soon.", of: "letter")
        let versions = try library.note("letter").versions()     // who edited when
        #expect(versions.map(\.replica) == [replica] && versions.first?.deleted == 6)
    }

    /// Every compiled block of the guide stands in this file, line for line (indentation aside).
    @Test func everyBlockOfTheGuideIsHere() throws {
        let (missing, checked) = try GuideCodeBlocks.missing(fromGuide: "LIBRARY.md", in: #filePath)
        for block in missing { Issue.record("LIBRARY.md block not compiled by this file:\n\(block.joined(separator: "\n"))") }
        #expect(checked >= 3)
    }
}
