import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// The note library on the real file system: what it lists, what survives reopening and
/// compaction, what one edit writes, torn journal ends, two openers of one folder.
@Suite struct NoteLibraryTests {
    static func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "crdtnote-library-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path + "/notes"
    }

    static func remove(_ folder: String) {
        try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent)
    }

    static func journalSize(_ folder: String) throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("journal-") }
        #expect(names.count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + (names.first ?? ""))
        return (attributes[.size] as? Int) ?? -1
    }

    @Test func createsListsEditsAndReopens() throws {
        let folder = try Self.scratch()
        defer { Self.remove(folder) }
        let library = try NoteLibrary.create(folder: folder, replica: .test(1))
        try library.create("groceries", text: "\n  Groceries  \nmilk")
        try library.create("todo", text: "call Anna")
        try library.edit("groceries") { (note: inout NoteText) throws(NoteTextError) in
            try note.insert(", eggs", atScalarOffset: note.scalarCount)
        }
        try library.setTitle("Shopping", of: "todo")
        try library.flush()

        let reopened = try NoteLibrary(folder: folder, replica: .test(2))
        #expect(try reopened.text(of: "groceries") == "\n  Groceries  \nmilk, eggs")
        #expect(try reopened.text(of: "todo") == "call Anna")
        let list = try reopened.list()
        #expect(Set(list.map(\.name)) == ["groceries", "todo"])
        #expect(list.first { $0.name == "groceries" }?.title == "Groceries")
        #expect(list.first { $0.name == "todo" }?.title == "Shopping")
        #expect(list.allSatisfy { $0.unsaved })
        #expect(zip(list, list.dropFirst()).allSatisfy { $0.modified >= $1.modified })
        #expect(reopened.openReport == NoteLibrary.OpenReport())
    }

    @Test func appFieldsAreListedKeptAndStamped() throws {
        let folder = try Self.scratch()
        defer { Self.remove(folder) }
        let library = try NoteLibrary.create(folder: folder, replica: .test(1))
        try library.create("a", text: "x")
        try library.setField("folder", to: .string("Work"), of: "a")
        try library.setField("pinned", to: .bool(true), of: "a")
        try library.setField("tags", to: .strings(["urgent", "home"]), of: "a")
        try library.setField("priority", to: .int(-3), of: "a")
        try library.setField("pinned", to: nil, of: "a")
        let expected: [String: NoteFieldValue] = ["folder": .string("Work"), "tags": .strings(["urgent", "home"]), "priority": .int(-3)]
        #expect(try library.fields(of: "a") == expected)
        #expect(try library.summary(of: "a")?.fields == expected)
        let stamps = try #require(library.state.notes.values.first?.fields.mapValues { $0.stamp })
        #expect(Set(stamps.values).count == 3)  // each change its own stamp
        try library.flush()
        #expect(try NoteLibrary(folder: folder, replica: .test(2)).fields(of: "a") == expected)
        try library.compact()
        let reopened = try NoteLibrary(folder: folder, replica: .test(2))
        #expect(try reopened.fields(of: "a") == expected)
        #expect(reopened.state.notes.values.first?.fields.mapValues { $0.stamp } == stamps)
        for (key, value) in [("", NoteFieldValue.bool(true)), ("with space", .bool(true)),
                             ("long", .string(String(repeating: "x", count: 1025))),
                             ("many", .strings(Array(repeating: "t", count: 65)))] {
            #expect { try reopened.setField(key, to: value, of: "a") } throws: { ($0 as? NoteLibraryError)?.code == .editRefused }
        }
        #expect(try reopened.fields(of: "a") == expected)
    }

    @Test func deletesKeepTheNameForTheServer() throws {
        let folder = try Self.scratch()
        defer { Self.remove(folder) }
        let library = try NoteLibrary.create(folder: folder, replica: .test(1))
        try library.create("a", text: "x")
        try library.delete("a")
        #expect(try library.summary(of: "a") == nil)
        #expect(try library.pendingDeletes == ["a"])
        #expect(throws: NoteLibraryError.self) { try library.text(of: "a") }
        try library.compact()
        let reopened = try NoteLibrary(folder: folder, replica: .test(1))
        #expect(try reopened.list().isEmpty)
        #expect(try reopened.pendingDeletes == ["a"])
    }

    @Test func oneSmallEditAppendsAFewDozenBytes() throws {
        let folder = try Self.scratch()
        defer { Self.remove(folder) }
        let library = try NoteLibrary.create(folder: folder, replica: .test(1))
        let text = String(repeating: "A line of a longer note, typed over several days.\n", count: 60)
        try library.create("long", text: text)
        try library.flush()
        for i in 0..<20 {
            let before = try Self.journalSize(folder)
            try library.edit("long") { (note: inout NoteText) throws(NoteTextError) in
                try note.insert("x", atScalarOffset: 100 + i)
            }
            try library.flush()
            let written = try Self.journalSize(folder) - before
            #expect(written > 0 && written <= 100, "edit \(i) appended \(written) bytes")
        }
        #expect(try library.text(of: "long").count == text.count + 20)
    }

    @Test func compactionKeepsEveryNoteAndRemovesWhatItReplaced() throws {
        let folder = try Self.scratch()
        defer { Self.remove(folder) }
        let library = try NoteLibrary.create(folder: folder, replica: .test(1))
        var model: [String: String] = [:]
        var rng = SplitMix64(seed: 30)
        for i in 0..<30 {
            let text = RandomText.make(&rng, maxPieces: 40)
            try library.create("n\(i)", text: text)
            model["n\(i)"] = text
        }
        try library.compact()
        for i in stride(from: 0, to: 30, by: 10) {
            try library.setText("changed \(i)", of: "n\(i)")
            model["n\(i)"] = "changed \(i)"
        }
        try library.delete("n1")
        model["n1"] = nil
        try library.compact()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == ["index", "journal-3", "lock", "notes"])
        // The first pack still holds the 26 notes not changed since (within the repack ratio);
        // the second the other three.
        let packs = try FileManager.default.contentsOfDirectory(atPath: folder + "/notes").sorted()
        #expect(packs == ["pack-2", "pack-3"], "\(packs)")
        let reopened = try NoteLibrary(folder: folder, replica: .test(3))
        #expect(try reopened.list().count == 29)
        for (name, text) in model { #expect(try reopened.text(of: name) == text) }
    }

    @Test func aTornJournalEndIsCutAndReported() throws {
        let folder = try Self.scratch()
        defer { Self.remove(folder) }
        let library = try NoteLibrary.create(folder: folder, replica: .test(1))
        try library.create("a", text: "kept")
        try library.flush()
        let journal = folder + "/journal-1"
        let handle = try #require(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data([40, 0, 0, 0, 1, 2, 3, 4, 9, 9]))  // a frame header promising 40 bytes, 2 follow
        handle.closeFile()
        let reopened = try NoteLibrary(folder: folder, replica: .test(1))
        #expect(reopened.openReport.tornBytesCut == 10)
        #expect(try reopened.text(of: "a") == "kept")
        try reopened.edit("a") { (note: inout NoteText) throws(NoteTextError) in try note.insert("!", atScalarOffset: 4) }
        try reopened.flush()
        #expect(try NoteLibrary(folder: folder, replica: .test(1)).text(of: "a") == "kept!")
    }

    @Test func aDamagedSnapshotIsThatNotesErrorOnly() throws {
        let folder = try Self.scratch()
        defer { Self.remove(folder) }
        let library = try NoteLibrary.create(folder: folder, replica: .test(1))
        try library.create("good", text: "still here")
        try library.create("bad", text: "about to be damaged")
        try library.close()
        let packs = try FileManager.default.contentsOfDirectory(atPath: folder + "/notes").sorted()
        #expect(packs == ["pack-2"])
        let damaged = folder + "/notes/pack-2"
        var bytes = try #require(FileManager.default.contents(atPath: damaged)).map { $0 }
        bytes[bytes.count - 3] ^= 0xFF  // in the last blob, "bad"'s (notes are packed in number order)
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))

        let reopened = try NoteLibrary(folder: folder, replica: .test(1))
        #expect(try reopened.list().count == 2)
        #expect(try reopened.text(of: "good") == "still here")
        #expect { try reopened.text(of: "bad") } throws: { error in
            guard let error = error as? NoteLibraryError else { return false }
            return error.code == .corrupt && error.note == "bad" && error.path == damaged
        }
        try reopened.edit("good") { (note: inout NoteText) throws(NoteTextError) in try note.insert("!", atScalarOffset: 10) }
        let problems = try reopened.verify()
        #expect(problems.count == 1 && problems[0].contains("\"bad\""), "\(problems)")
    }

    @Test func twoOpenersOfOneFolderSeeEachOthersEdits() throws {
        let folder = try Self.scratch()
        defer { Self.remove(folder) }
        let app = try NoteLibrary.create(folder: folder, replica: .test(1))
        // The extension uses the same replica id by mistake: its edits still build on the app's.
        let widget = try NoteLibrary(folder: folder, replica: .test(1))
        try app.create("shared", text: "")
        var expected = ""
        for i in 0..<40 {
            let writer = i % 3 == 0 ? widget : app
            try writer.edit("shared") { (note: inout NoteText) throws(NoteTextError) in
                try note.insert("\(i);", atScalarOffset: note.scalarCount)
            }
            expected += "\(i);"
        }
        try widget.compact()  // the app's next call reads the index again
        try app.edit("shared") { (note: inout NoteText) throws(NoteTextError) in try note.insert("end", atScalarOffset: note.scalarCount) }
        try app.flush()
        #expect(try widget.text(of: "shared") == expected + "end")
        #expect(try NoteLibrary(folder: folder, replica: .test(2)).text(of: "shared") == expected + "end")
    }

    @Test func observersHearEveryChange() async throws {
        let folder = try Self.scratch()
        defer { Self.remove(folder) }
        let library = try NoteLibrary.create(folder: folder, replica: .test(1))
        let stream = library.changes()
        try library.create("a", text: "1")
        try library.setText("2", of: "a")
        try library.delete("a")
        try library.close()
        var seen: [NoteLibraryChange] = []
        for await change in stream { seen.append(change) }
        #expect(seen == [.created("a"), .changed("a"), .deleted("a")])
    }

    @Test func refusesWhatIsNotALibraryAndNamesCloudKitRefuses() throws {
        let folder = try Self.scratch()
        defer { Self.remove(folder) }
        #expect { try NoteLibrary(folder: folder, replica: .test(1)) } throws: { ($0 as? NoteLibraryError)?.code == .notALibrary }
        let library = try NoteLibrary.create(folder: folder, replica: .test(1))
        for bad in ["", "_x", "with space", "é", String(repeating: "a", count: 256)] {
            #expect { try library.create(bad) } throws: { ($0 as? NoteLibraryError)?.code == .invalidName }
        }
        #expect { try NoteLibrary.create(folder: folder, replica: .test(1)) } throws: { ($0 as? NoteLibraryError)?.code == .alreadyExists }
    }

    @Test func aNewerLibraryIsLeftAlone() throws {
        let folder = try Self.scratch()
        defer { Self.remove(folder) }
        _ = try NoteLibrary.create(folder: folder, replica: .test(1))
        let indexPath = folder + "/index"
        var bytes = try #require(FileManager.default.contents(atPath: indexPath)).map { $0 }
        bytes[6] = 9  // minimum reader version 9
        try Data(bytes).write(to: URL(fileURLWithPath: indexPath))
        #expect { try NoteLibrary(folder: folder, replica: .test(1)) } throws: { ($0 as? NoteLibraryError)?.code == .newerFormat }
        #expect(try FileManager.default.contents(atPath: indexPath).map { [UInt8]($0) } == bytes)
    }
}
