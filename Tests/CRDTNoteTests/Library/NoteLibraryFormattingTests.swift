import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteDurableFiles
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// A note library stores formatting (Docs/LIBRARY.md, "Formatting"): the operations an edit
/// makes are journaled in the frame of its text change, go into the pack with the note at
/// compaction, and read back after reopening exactly as they were; a plain note's files are what
/// they were before formatting. The oracle of attributes is `FormattingOracle`, a model of the
/// rules written apart from `NoteFormatting`.
@Suite struct NoteLibraryFormattingTests {
    typealias Model = LibraryFormattingModel

    static func library(_ disk: FaultInjectingFileSystem, create: Bool = false) throws -> NoteLibrary {
        create ? try NoteLibrary.create(folder: "/library", replica: .test(1), fileSystem: disk)
            : try NoteLibrary(folder: "/library", replica: .test(1), fileSystem: disk)
    }

    /// The kind bytes of the journal's frames.
    static func frameKinds(_ disk: FaultInjectingFileSystem, _ library: NoteLibrary) throws -> [UInt8] {
        let bytes = try disk.readFile(at: "/library/" + library.locked { library.state.journalName })
        return JournalFraming.scan(bytes, from: JournalFraming.headerSize).bodies.map { bytes[$0.lowerBound] }
    }

    /// Seeded: random text edits, marks, unmarks, paragraph attributes and undos on two notes,
    /// with random flushes, compactions and reopenings (the process dying first). After each
    /// reopening or compaction, every note's text equals a plain `String` model, its operations
    /// and every character's attributes equal those before, and those equal the oracle's.
    @Test(arguments: Array(1...30) as [UInt64])
    func attributesSurviveReopeningAndCompaction(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let disk = FaultInjectingFileSystem()
        var library = try Self.library(disk, create: true)
        var model = Model()
        var texts: [String: String] = [:]
        for name in ["a", "b"] {
            let text = RandomText.make(&rng, maxPieces: 6) + "\n" + RandomText.make(&rng, maxPieces: 4)
            try library.create(name, text: text)
            texts[name] = text
        }
        var checks = 0
        for _ in 0..<60 {
            let name = rng.next() % 2 == 0 ? "a" : "b"
            switch rng.next() % 12 {
            case 0..<3:
                let count = texts[name]?.unicodeScalars.count ?? 0
                let at = Int(rng.next() % UInt64(count + 1))
                let text = rng.next() % 4 == 0 ? "\n" : RandomText.make(&rng, maxPieces: 2)
                try model.edit(library, name) { note in try note.insert(text, atScalarOffset: at) }
                var scalars = Array(texts[name]?.unicodeScalars ?? "".unicodeScalars)
                scalars.insert(contentsOf: text.unicodeScalars, at: at)
                texts[name] = String(String.UnicodeScalarView(scalars))
            case 3:
                var scalars = Array(texts[name]?.unicodeScalars ?? "".unicodeScalars)
                let from = Int(rng.next() % UInt64(scalars.count + 1))
                let range = from..<min(scalars.count, from + Int(rng.next() % 6))
                try model.edit(library, name) { note in try note.deleteScalars(in: range) }
                scalars.removeSubrange(range)
                texts[name] = String(String.UnicodeScalarView(scalars))
            case 4..<9:
                var copy = rng
                try model.edit(library, name) { note in
                    try Model.format(&note, &copy)
                    // Undo may bring text back or take it away: the model follows the note.
                    texts[name] = note.string
                }
                rng = copy
            case 9: try library.flush()
            default:
                let before = try ["a", "b"].map { try library.note($0) }
                if rng.next() % 2 == 0 {
                    try library.compact()
                } else {
                    disk.crashProcess()  // the process dies; the kernel keeps its writes
                    library = try Self.library(disk)
                }
                for (name, old) in zip(["a", "b"], before) {
                    let note = try library.note(name)
                    #expect(note.string == texts[name], "seed \(seed), \(name)")
                    #expect(note.formatting == old.formatting, "seed \(seed), \(name): operations changed")
                    let characters = try Model.characters(note)
                    #expect(characters == (try Model.characters(old)), "seed \(seed), \(name)")
                    #expect(characters == (try model.oracle(note)), "seed \(seed), \(name): the oracle disagrees")
                }
                checks += 1
            }
        }
        #expect(checks > 0 || seed > 25, "seed \(seed) checked nothing")
        #expect(try library.verify().isEmpty)
        #expect(try ["a", "b"].map { try library.note($0).formatting.isEmpty } != [true, true], "seed \(seed) formatted nothing")
    }

    @Test func aFormattingOnlyEditAndItsUndoAreOneFrameEach() throws {
        let disk = FaultInjectingFileSystem()
        var library = try Self.library(disk, create: true)
        try library.create("n", text: "hello world")
        try library.edit("n") { (note: inout NoteText) throws(NoteTextError) in
            note.undoLimit = 10
            try note.setMark(.bold, utf16Range: 0..<5)
        }
        try library.edit("n") { (note: inout NoteText) throws(NoteTextError) in try note.setParagraphAttribute(.heading(1), utf16Range: 0..<0) }
        // Kind 1 (created), then two formatted frames (16): no text change beside them.
        #expect(try Self.frameKinds(disk, library) == [1, 16, 16])
        #expect(try library.summary(of: "n")?.unsaved == true)
        try library.edit("n") { (note: inout NoteText) throws(NoteTextError) in try note.undo() }  // the heading
        try library.edit("n") { (note: inout NoteText) throws(NoteTextError) in try note.undo() }  // the bold
        #expect(try Self.frameKinds(disk, library) == [1, 16, 16, 16, 16])
        library = try Self.library(disk)
        let spans = try library.note("n").formattedSpans()
        #expect(spans.map(\.text) == ["hello world"])
        #expect(spans.allSatisfy { $0.marks.isEmpty && $0.paragraph == ParagraphAttributes() })
        // A text edit and a mark in one call: one frame holding both.
        try library.edit("n") { (note: inout NoteText) throws(NoteTextError) in
            try note.insert("!", atUTF16Offset: 11)
            try note.setMark(.italic, utf16Range: 6..<12)
        }
        #expect(try Self.frameKinds(disk, library).last == 16)
        library = try Self.library(disk)
        #expect(try library.note("n").formattedSpans().map(\.marks) == [[], [.italic]])
    }

    /// Another process's formatting reaches this one at its next call, also into the copy it
    /// holds in memory, and its later edits build on it.
    @Test func anotherProcessesFormattingReachesTheNoteInMemory() throws {
        let disk = FaultInjectingFileSystem()
        let library = try Self.library(disk, create: true)
        try library.create("n", text: "hello world")
        _ = try library.note("n")  // held in memory here
        let other = try NoteLibrary(folder: "/library", replica: .test(2), fileSystem: disk)
        try other.edit("n") { (note: inout NoteText) throws(NoteTextError) in try note.setMark(.bold, utf16Range: 0..<5) }
        #expect(try library.note("n").formattedSpans().map(\.marks) == [[.bold], []])
        try library.edit("n") { (note: inout NoteText) throws(NoteTextError) in try note.removeMark(.bold, utf16Range: 0..<2) }
        #expect(try other.note("n").formattedSpans().map(\.marks) == [[], [.bold], []])
        #expect(try Self.library(disk).note("n").formatting == (try library.note("n").formatting))
    }

    @Test func aSavedFormattedCopyIsKept() throws {
        let disk = FaultInjectingFileSystem()
        var library = try Self.library(disk, create: true)
        try library.create("a", text: "plain")
        var copy = try library.note("a").forked(as: .test(2))
        try copy.insert(" text", atScalarOffset: 5)
        try copy.setMark(.italic, utf16Range: 0..<5)
        try library.save(copy, as: "a")
        try library.save(copy, as: "b")
        library = try Self.library(disk)
        for name in ["a", "b"] {
            #expect(try library.text(of: name) == "plain text")
            #expect(try library.note(name).formattedSpans().map(\.marks) == [[.italic], []])
        }
        try library.compact()
        #expect(try Self.library(disk).note("b").formatting == copy.formatting)
    }

    /// A plain note writes exactly the frames and blobs it wrote before formatting: no formatted
    /// frame, no further flags in the index, nothing in its pack but its snapshot.
    @Test func aPlainNoteWritesWhatItDidBefore() throws {
        let disk = FaultInjectingFileSystem()
        let library = try Self.library(disk, create: true)
        try library.create("p", text: "P")  // a one-byte title, where `flags(of:in:)` expects it
        try library.edit("p") { (note: inout NoteText) throws(NoteTextError) in try note.insert("\nplain text", atScalarOffset: 1) }
        #expect(try Self.frameKinds(disk, library) == [1, 2])
        try library.compact()
        let index = try disk.readFile(at: "/library/index")
        let flags = try #require(NoteLibraryPackTests.flags(of: "p", in: index))
        #expect(flags & 128 == 0 && flags == 16 | 1)
        let entry = try #require(library.locked { library.state.index.notes.first })
        #expect(entry.formatting == nil)
        let pack = try disk.readFile(at: "/library/" + LibraryFormat.packFile(try #require(entry.snapshot?.blob).generation))
        #expect(pack.count == PackFormat.headerSize + PackFormat.recordPrefixSize + (try library.note("p").encodedSnapshot().count))
    }

    /// A library an older crdtnote wrote (format 1) is compacted to this format before its first
    /// formatted frame, so an older reader never meets one in a file that claims it can read it.
    @Test func anOlderLibraryIsUpgradedBeforeItsFirstFormattedFrame() throws {
        let scratch = NSTemporaryDirectory() + "crdtnote-library-formatting-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let folder = scratch + "/notes-library"
        try FileManager.default.copyItem(atPath: RepositoryPaths.fixtures + "/library-v1", toPath: folder)
        try FileManager.default.removeItem(atPath: folder + "/README.md")
        func minimumReader() throws -> UInt8 { try #require(FileManager.default.contents(atPath: folder + "/index"))[6] }
        #expect(try minimumReader() == 1)
        var library = try NoteLibrary(folder: folder, replica: .test(9))
        let name = try #require(try library.list().first?.name)
        try library.edit(name) { (note: inout NoteText) throws(NoteTextError) in try note.insert("x", atScalarOffset: 0) }
        #expect(try minimumReader() == 1)  // a text edit writes a frame every format reads
        try library.edit(name) { (note: inout NoteText) throws(NoteTextError) in try note.setMark(.bold, utf16Range: 0..<1) }
        #expect(try minimumReader() == UInt8(LibraryFormat.minimumReader))
        library = try NoteLibrary(folder: folder, replica: .test(9))
        #expect(try library.note(name).formattedSpans().first?.marks == [.bold])
        #expect(try library.note(name).formattedSpans().first?.text == "x")
        #expect(try library.verify().isEmpty)
    }

    /// A library an older crdtnote wrote (before format 6) kept a synced record's formatting in
    /// the note's server metadata, unparsed: its first compaction in this format moves the
    /// formatting into the note (without making it unsaved: the server has it), and the metadata
    /// keeps no copy.
    @Test func formattingAnOlderLibraryKeptInServerMetadataMovesIntoTheNote() throws {
        let disk = FaultInjectingFileSystem()
        var library = try Self.library(disk, create: true)
        try library.create("n", text: "one two")
        var formatted = try library.note("n").forked(as: .test(2))
        try formatted.setMark(.bold, utf16Range: 0..<3)
        var server = try NoteRecord(recordName: "n", note: formatted).record
        for name in NoteSchema.Field.all { server.fields[name] = nil }  // as an older library kept it
        let metadata = try ServerMetadata(record: server).encoded()
        try library.withAccess { () throws(NoteLibraryError) in
            let number = try library.number(of: "n")
            try library.append(.synced(note: number, at: 1, title: nil, confirms: 1, fields: [], server: 0..<0, changes: 0..<0),
                               blob: metadata)
        }
        try library.compact()
        // The index as an older crdtnote wrote it: minimum reader 5 (nothing else differs here).
        var index = try disk.readFile(at: "/library/index")
        index[6] = 5
        NoteLibraryPackTests.reseal(&index)
        try disk.writeFile(at: "/library/index", index, mode: .truncate, permissions: nil, sync: true)
        library = try Self.library(disk)
        #expect(try library.note("n").formatting.isEmpty)
        try library.compact()
        #expect(try disk.readFile(at: "/library/index")[6] == UInt8(LibraryFormat.minimumReader))
        library = try Self.library(disk)
        #expect(try library.note("n").formattedSpans().map(\.marks) == [[.bold], []])
        #expect(try library.summary(of: "n")?.unsaved == false)
        let kept = try library.withSyncAccess({ $0 }) { (access) throws(NoteLibraryError) in try access.server(of: "n") }
        #expect(try #require(kept).fields[NoteSchema.Field.formatting] == nil)
        #expect(try #require(kept).recordName == "n")
    }

    /// A formatting frame or blob that does not decode is that note's damage (typed, naming the
    /// file); the other notes read.
    @Test func damagedFormattingIsTheNotesDamage() throws {
        let disk = FaultInjectingFileSystem()
        var library = try Self.library(disk, create: true)
        try library.create("a", text: "alpha")
        try library.create("b", text: "beta")
        try library.edit("a") { (note: inout NoteText) throws(NoteTextError) in try note.setMark(.bold, utf16Range: 0..<5) }
        try library.compact()
        let ref = try #require(library.locked { library.state.notes.values.first { $0.name == "a" }?.formatting })
        let path = "/library/" + LibraryFormat.packFile(ref.generation)
        var pack = try disk.readFile(at: path)
        pack[ref.offset + PackFormat.recordPrefixSize + ref.length / 2] ^= 0xFF
        try disk.writeFile(at: path, pack, mode: .truncate, permissions: nil, sync: true)
        library = try Self.library(disk)
        #expect { try library.note("a") } throws: { error in
            (error as? NoteLibraryError)?.code == .corrupt && "\(error)".contains("formatting")
        }
        #expect(try library.text(of: "b") == "beta")
        #expect(try library.verify().count == 1)
    }
}
