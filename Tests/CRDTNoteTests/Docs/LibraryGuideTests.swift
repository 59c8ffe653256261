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
            var seen: [NoteLibraryChange] = []
            for await change in library.changes() {
                print(change)                                    // e.g. changed("groceries")
                seen.append(change)
            }
            return seen
        }
        // The observer registers when the task starts: wait for it, then change a note.
        try await Task.sleep(for: .milliseconds(50))
        try library.setText("Groceries\nbread", of: "groceries")
        try library.close()
        #expect(await watcher.value.contains(.changed("groceries")))
    }

    /// Every compiled block of the guide stands in this file, line for line (indentation aside).
    @Test func everyBlockOfTheGuideIsHere() throws {
        let guide = try String(contentsOfFile: RepositoryPaths.docs + "/LIBRARY.md", encoding: .utf8)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let lines = guide.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var checked = 0
        var i = 0
        while i < lines.count {
            guard lines[i] == "```swift" else { i += 1; continue }
            let skipped = i > 0 && lines[i - 1].hasPrefix("<!-- not compiled:")
            var block: [String] = []
            i += 1
            while i < lines.count && lines[i] != "```" { block.append(lines[i].trimmingCharacters(in: .whitespaces)); i += 1 }
            while let first = block.first, first.hasPrefix("import ") || first.isEmpty { block.removeFirst() }
            // A block may stand inside a longer statement here (the watching loop collects what it sees).
            block.removeAll { $0.isEmpty }
            if skipped { continue }
            checked += 1
            let found = block.allSatisfy { line in sourceLines.contains(line) }
                && sourceLines.indices.contains { start in start + 1 < sourceLines.count && sourceLines[start] == block[0] }
            #expect(found, "LIBRARY.md block not compiled by this file:\n\(block.joined(separator: "\n"))")
        }
        #expect(checked >= 2)
    }
}
