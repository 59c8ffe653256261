import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// A note library stores text changes only (Docs/LIBRARY.md, "Formatting"): a change of
/// formatting is refused with a typed error and changes nothing, on disk or in memory, rather
/// than being kept in memory and lost at the next launch.
@Suite struct NoteLibraryFormattingTests {
    static func spans(_ library: NoteLibrary, _ name: String) throws -> [FormattedSpan] {
        try library.note(name).formattedSpans()
    }

    @Test func settingAMarkInAnEditIsRefusedAndChangesNothing() throws {
        let folder = try NoteLibraryTests.scratch()
        defer { NoteLibraryTests.remove(folder) }
        let library = try NoteLibrary.create(folder: folder, replica: .test(1))
        try library.create("a", text: "hello world")
        let before = try Self.spans(library, "a")
        let journal = try NoteLibraryTests.journalSize(folder)
        // A mark alone, and a text edit that also sets a paragraph attribute.
        for withText in [false, true] {
            #expect {
                try library.edit("a") { (note: inout NoteText) throws(NoteTextError) in
                    if withText { try note.insert("!", atScalarOffset: 11) }
                    if withText {
                        try note.setParagraphAttribute(.heading(1), utf16Range: 0..<1)
                    } else {
                        try note.setMark(.bold, utf16Range: 0..<5)
                    }
                }
            } throws: { error in
                (error as? NoteLibraryError)?.code == .editRefused
                    && "\(error)".contains("does not store formatting")
            }
        }
        #expect(try Self.spans(library, "a") == before)
        #expect(try library.text(of: "a") == "hello world")
        #expect(try NoteLibraryTests.journalSize(folder) == journal)
        // Text edits go on as before, and what is in memory is what a later launch reads.
        try library.edit("a") { (note: inout NoteText) throws(NoteTextError) in try note.insert("!", atScalarOffset: 11) }
        try library.close()
        let reopened = try NoteLibrary(folder: folder, replica: .test(1))
        #expect(try reopened.text(of: "a") == "hello world!")
        #expect(try Self.spans(reopened, "a").allSatisfy { $0.marks.isEmpty })
    }

    @Test func savingAFormattedCopyIsRefusedAndCreatesNothing() throws {
        let folder = try NoteLibraryTests.scratch()
        defer { NoteLibraryTests.remove(folder) }
        let library = try NoteLibrary.create(folder: folder, replica: .test(1))
        try library.create("a", text: "plain")
        var copy = try library.note("a").forked(as: .test(2))
        try copy.insert(" text", atScalarOffset: 5)
        try copy.setMark(.italic, utf16Range: 0..<5)
        for name in ["a", "b"] {
            #expect {
                try library.save(copy, as: name)
            } throws: { error in
                (error as? NoteLibraryError)?.code == .editRefused
            }
        }
        #expect(try library.text(of: "a") == "plain")
        #expect(try library.list().map(\.name) == ["a"])
        // The same copy without formatting saves.
        var plain = try library.note("a").forked(as: .test(2))
        try plain.insert(" text", atScalarOffset: 5)
        try library.save(plain, as: "a")
        #expect(try library.text(of: "a") == "plain text")
    }
}
