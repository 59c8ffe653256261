import Foundation
import Testing
@testable import CRDTNote
@testable import CRDTNoteDurableFiles
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// Pack files: a compaction writes one file and flushes it once whatever the number of notes,
/// reading a note reads only its blob, damage stays the note's, old packs go once nothing
/// refers to them, repacking bounds the space, server metadata blobs, index format 2, and a
/// format 1 library opened and moved to packs.
@Suite struct NoteLibraryPackTests {
    static let folder = "/library"

    static func texts(_ library: NoteLibrary) throws -> [String: String] {
        var out: [String: String] = [:]
        for summary in try library.list() { out[summary.name] = try library.text(of: summary.name) }
        return out
    }

    /// The files in the notes folder.
    static func notesFiles(_ files: any DurableFileSystem) throws -> [String] {
        try files.contentsOfDirectory(at: folder + "/notes")
    }

    /// Bytes of every pack in the notes folder.
    static func packBytes(_ files: any DurableFileSystem) throws -> Int {
        var total = 0
        for name in try notesFiles(files) where name.hasPrefix("pack-") {
            total += Int(try files.status(at: folder + "/notes/" + name)?.size ?? 0)
        }
        return total
    }

    /// Bytes of the blob records the index refers to, plus one pack header.
    static func liveBytes(_ library: NoteLibrary) -> Int {
        library.locked {
            library.state.index.notes.reduce(PackFormat.headerSize) { sum, note in
                sum + (note.snapshot?.blob?.recordBytes ?? 0) + (note.server?.recordBytes ?? 0) + (note.history?.recordBytes ?? 0)
            }
        }
    }

    static func library(notes: Int, _ files: any DurableFileSystem, seed: UInt64 = 1) throws -> (NoteLibrary, [String: String]) {
        let library = try NoteLibrary.create(folder: folder, replica: .test(1), fileSystem: files)
        var rng = SplitMix64(seed: seed)
        var model: [String: String] = [:]
        for i in 0..<notes {
            let text = RandomText.make(&rng, maxPieces: 12)
            try library.create("n\(i)", text: text)
            model["n\(i)"] = text
        }
        return (library, model)
    }

    @Test func aCompactionFlushesOnePackOnceWhateverTheNumberOfNotes() throws {
        var flushes: [Int] = []
        for count in [3, 40, 400] {
            let files = CountingFileSystem()
            let (library, model) = try Self.library(notes: count, files)
            try library.flush()
            files.reset()
            try library.compact()
            flushes.append(files.count(.syncFile))
            #expect(try Self.notesFiles(files) == ["pack-2"])
            #expect(files.count(.write) <= 4, "\(files.count(.write)) writes for \(count) notes")
            let reopened = try NoteLibrary(folder: Self.folder, replica: .test(2), fileSystem: files)
            #expect(try Self.texts(reopened) == model)
        }
        // The pack, the new journal, the superseded mark, the index: the same for 3 notes or 400.
        #expect(flushes.count == 3 && Set(flushes).count == 1 && flushes[0] <= 5, "\(flushes)")
    }

    @Test func readingANoteReadsOnlyItsBlob() throws {
        let files = CountingFileSystem()
        let (library, model) = try Self.library(notes: 30, files)
        try library.compact()
        let reopened = try NoteLibrary(folder: Self.folder, replica: .test(2), fileSystem: files)
        let refs = reopened.locked { reopened.state.notes.values.compactMap(\.snapshot?.blob) }
        #expect(refs.count == 30 && Set(refs.map(\.generation)) == [2])
        #expect(Set(refs.map(\.offset)).count == 30)
        files.reset()
        #expect(try reopened.text(of: "n7") == model["n7"])
        let ref = try #require(reopened.locked { reopened.state.notes.values.first { $0.name == "n7" }?.snapshot?.blob })
        #expect(files.reads == [Read(path: Self.folder + "/notes/pack-2", offset: ref.offset, count: ref.length + 8)])
    }

    @Test func aDamagedBlobIsThatNotesErrorOnly() throws {
        let files = FaultInjectingFileSystem()
        let (library, model) = try Self.library(notes: 5, files)
        try library.close()
        let pack = Self.folder + "/notes/pack-2"
        var bytes = try files.readFile(at: pack)
        let reader = try NoteLibrary(folder: Self.folder, replica: .test(2), fileSystem: files)
        let ref = try #require(reader.locked { reader.state.notes.values.first { $0.name == "n3" }?.snapshot?.blob })
        bytes[ref.offset + 8 + ref.length / 2] ^= 0x5A
        try files.writeFile(at: pack, bytes, mode: .truncate, permissions: nil, sync: true)

        let reopened = try NoteLibrary(folder: Self.folder, replica: .test(2), fileSystem: files)
        #expect(try reopened.list().count == 5)
        #expect { try reopened.text(of: "n3") } throws: { error in
            guard let error = error as? NoteLibraryError else { return false }
            return error.code == .corrupt && error.note == "n3" && error.path == pack && error.message.contains("checksum")
        }
        for name in ["n0", "n1", "n2", "n4"] { #expect(try reopened.text(of: name) == model[name]) }
        #expect(reopened.openReport.damagedNotes.keys.sorted() == ["n3"])
        let problems = try reopened.verify()
        #expect(problems.count == 1 && problems[0].contains("\"n3\""), "\(problems)")

        // A pack cut short: the notes whose records are gone report it, the others are read.
        let last = try #require(reopened.locked { reopened.state.notes.values.compactMap(\.snapshot?.blob).max { $0.offset < $1.offset } })
        try files.writeFile(at: pack, Array(bytes[..<(last.offset + 4)]), mode: .truncate, permissions: nil, sync: true)
        let cut = try NoteLibrary(folder: Self.folder, replica: .test(2), fileSystem: files)
        #expect(try cut.verify().count == 2)
        #expect(cut.openReport.damagedNotes.count == 2)
    }

    @Test func oldPacksStayWhileReferencedAndRepackingBoundsTheSpace() throws {
        let files = FaultInjectingFileSystem()
        let (library, baseline) = try Self.library(notes: 10, files, seed: 7)
        var model = baseline
        try library.compact()
        #expect(try Self.notesFiles(files) == ["pack-2"])
        // One note changed: its blob goes to pack-3, pack-2 still holds the other nine.
        try library.setText("first change", of: "n0")
        model["n0"] = "first change"
        try library.compact()
        #expect(try Self.notesFiles(files) == ["pack-2", "pack-3"])
        // Again: pack-3 is no longer referenced and goes.
        try library.setText("second change", of: "n0")
        model["n0"] = "second change"
        try library.compact()
        #expect(try Self.notesFiles(files) == ["pack-2", "pack-4"])
        #expect(Double(try Self.packBytes(files)) <= NoteLibrary.repackRatio * Double(Self.liveBytes(library)))
        // Six more changed: pack-2 would be mostly dead, so the compaction copies the live
        // blobs into pack-5 and every older pack goes.
        for i in 1...6 {
            try library.setText("changed \(i)", of: "n\(i)")
            model["n\(i)"] = "changed \(i)"
        }
        try library.compact()
        #expect(try Self.notesFiles(files) == ["pack-5"])
        #expect(try Self.packBytes(files) == Self.liveBytes(library))
        let refs = library.locked { library.state.notes.values.compactMap(\.snapshot?.blob) }
        #expect(refs.count == 10 && refs.allSatisfy { $0.generation == 5 })
        let reopened = try NoteLibrary(folder: Self.folder, replica: .test(2), fileSystem: files)
        #expect(try Self.texts(reopened) == model)
        #expect(try reopened.verify().isEmpty)
    }

    @Test func packsStayBoundedUnderRandomEdits() throws {
        let files = FaultInjectingFileSystem()
        let (library, _) = try Self.library(notes: 25, files, seed: 11)
        var model = try Self.texts(library)
        var rng = SplitMix64(seed: 12)
        var repacks = 0
        for round in 0..<40 {
            let changed = 1 + Int(rng.next() % 6)
            for _ in 0..<changed {
                let name = "n\(rng.next() % 25)"
                let text = RandomText.make(&rng, maxPieces: 12)
                try library.setText(text, of: name)
                model[name] = text
            }
            try library.compact()
            let packs = try Self.notesFiles(files)
            if packs.count == 1 && round > 0 { repacks += 1 }
            #expect(Double(try Self.packBytes(files)) <= NoteLibrary.repackRatio * Double(Self.liveBytes(library)) + 64,
                    "round \(round): \(packs)")
        }
        #expect(repacks > 0)
        let reopened = try NoteLibrary(folder: Self.folder, replica: .test(2), fileSystem: files)
        #expect(try Self.texts(reopened) == model)
    }

    @Test func serverMetadataIsKeptInPacksAndFromTheJournal() throws {
        let files = FaultInjectingFileSystem()
        let (library, model) = try Self.library(notes: 10, files, seed: 3)
        func server(_ name: String, of library: NoteLibrary) throws -> [UInt8]? {
            try library.withAccess { () throws(NoteLibraryError) -> [UInt8]? in try library.serverBlob(of: library.number(of: name)) }
        }
        #expect(try server("n2", of: library) == nil)
        let first: [UInt8] = Array("system fields, tag 1".utf8)
        try library.setServerBlobForTesting(first, of: "n2")
        #expect(try server("n2", of: library) == first)
        try library.compact()
        let ref = try #require(library.locked { library.state.notes.values.first { $0.name == "n2" }?.server })
        #expect(ref.generation == 2 && ref.length == first.count)
        #expect(try server("n2", of: library) == first)
        #expect(try server("n3", of: library) == nil)

        // Kept through compactions that do not touch it, read from a fresh open.
        try library.setText("other", of: "n5")
        try library.compact()
        var reopened = try NoteLibrary(folder: Self.folder, replica: .test(2), fileSystem: files)
        #expect(try server("n2", of: reopened) == first)
        #expect(reopened.locked { reopened.state.notes.values.first { $0.name == "n2" }?.server?.generation } == 2)

        // A newer one in the journal wins until the compaction moves it into the pack.
        let second: [UInt8] = Array("system fields, tag 2, longer than before".utf8)
        try reopened.setServerBlobForTesting(second, of: "n2")
        #expect(try server("n2", of: reopened) == second)
        try reopened.compact()
        #expect(try server("n2", of: reopened) == second)

        // Copied when repacking, as bytes.
        for i in 0..<8 where i != 2 { try reopened.setText("changed \(i)", of: "n\(i)") }
        try reopened.compact()
        #expect(try Self.notesFiles(files).count == 1)
        reopened = try NoteLibrary(folder: Self.folder, replica: .test(3), fileSystem: files)
        #expect(try server("n2", of: reopened) == second)
        #expect(try reopened.text(of: "n9") == model["n9"])

        // A damaged one is the note's error.
        let serverRef = try #require(reopened.locked { reopened.state.notes.values.first { $0.name == "n2" }?.server })
        let pack = Self.folder + "/notes/pack-\(serverRef.generation)"
        var bytes = try files.readFile(at: pack)
        bytes[serverRef.offset + 8] ^= 1
        try files.writeFile(at: pack, bytes, mode: .truncate, permissions: nil, sync: true)
        reopened = try NoteLibrary(folder: Self.folder, replica: .test(3), fileSystem: files)
        #expect { try server("n2", of: reopened) } throws: { ($0 as? NoteLibraryError)?.note == "n2" }
        #expect(try reopened.text(of: "n9") == model["n9"])
    }

    @Test func theIndexStoresBlobReferencesUnderTheirFlags() throws {
        var index = LibraryIndex()
        index.generation = 9
        index.nextNote = 6
        index.notes = [
            LibraryNote(number: 1, name: "a", derivedTitle: "A", created: 1, modified: 2, unsaved: false,
                        snapshot: .blob(BlobRef(generation: 9, offset: 16, length: 300)),
                        server: BlobRef(generation: 4, offset: 70_000, length: 12)),
            LibraryNote(number: 2, name: "b", derivedTitle: "B", created: 1, modified: 2, unsaved: true, snapshot: .file(generation: 3)),
            LibraryNote(number: 4, name: "c", derivedTitle: "C", created: 1, modified: 2, unsaved: true, snapshot: nil,
                        server: BlobRef(generation: 9, offset: 316, length: 0)),
            LibraryNote(number: 5, name: "d", derivedTitle: "D", created: 1, modified: 2, unsaved: false,
                        snapshot: .blob(BlobRef(generation: 9, offset: 400, length: 30)), history: BlobRef(generation: 8, offset: 16, length: 44)),
            LibraryNote(number: 3, name: "e", derivedTitle: "E", created: 1, modified: 2, unsaved: false,
                        snapshot: .blob(BlobRef(generation: 9, offset: 430, length: 30)), formatting: BlobRef(generation: 9, offset: 468, length: 40)),
        ]
        let bytes = index.encoded()
        #expect(try LibraryIndex.decode(bytes) == index)
        // Writer version 7, minimum reader 7: format 1 to 6 readers refuse it as newer.
        #expect(Array(bytes[4..<8]) == [7, 0, 7, 0])
        // The flags: a: snapshot blob (16) + server blob (32); b: snapshot file (4) + unsaved (1).
        let a = try #require(Self.flags(of: "a", in: bytes))
        #expect(a == 16 | 32)
        let b = try #require(Self.flags(of: "b", in: bytes))
        let c = try #require(Self.flags(of: "c", in: bytes))
        #expect(try #require(Self.flags(of: "d", in: bytes)) == 16 | 64)  // snapshot blob + history blob
        // Snapshot blob + further flags (128), whose VarUInt (the next byte) says formatting blob (1).
        #expect(try #require(Self.flags(of: "e", in: bytes)) == 16 | 128)
        #expect(try #require(Self.flagsOffset(of: "e", in: bytes).map { bytes[$0 + 1] }) == 1)
        // A further flag this reader does not know is damage, not ignored.
        var unknown = index
        unknown.notes = [index.notes[4]]
        var bad = unknown.encoded()
        let at = try #require(Self.flagsOffset(of: "e", in: bad)) + 1
        bad[at] = 2
        Self.reseal(&bad)
        #expect(throws: LibraryFileError.self) { try LibraryIndex.decode(bad) }
        #expect(b == 4 | 1)
        #expect(c == 32 | 1)

        // Bits this reader does not know, both snapshot kinds at once, and references to packs
        // of later generations are damage.
        for (flags, why) in [(a | 64, "an unknown bit"), (a | 4, "two snapshots")] {
            var changed = bytes
            changed[try #require(Self.flagsOffset(of: "a", in: bytes))] = flags
            Self.reseal(&changed)
            #expect(throws: LibraryFileError.self, "\(why)") { try LibraryIndex.decode(changed) }
        }
        var later = index
        later.notes[0].server = BlobRef(generation: 10, offset: 16, length: 1)
        #expect(throws: LibraryFileError.self) { try LibraryIndex.decode(later.encoded()) }
        later.notes[0].server = BlobRef(generation: 9, offset: 3, length: 1)
        #expect(throws: LibraryFileError.self) { try LibraryIndex.decode(later.encoded()) }
    }

    static func flagsOffset(of name: String, in bytes: [UInt8]) -> Int? {
        // number, name (length-prefixed), derived title (one byte long here), then the flags.
        let needle = [UInt8(name.utf8.count)] + Array(name.utf8)
        guard let at = (0..<bytes.count - needle.count).first(where: { Array(bytes[$0..<$0 + needle.count]) == needle }) else { return nil }
        return at + needle.count + 2
    }

    static func flags(of name: String, in bytes: [UInt8]) -> UInt8? {
        flagsOffset(of: name, in: bytes).map { bytes[$0] }
    }

    /// Recomputes an index's trailing checksum after a test changed it.
    static func reseal(_ bytes: inout [UInt8]) {
        let crc = CRC32C.checksum(bytes[..<(bytes.count - 4)])
        for k in 0..<4 { bytes[bytes.count - 4 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
    }

    @Test func aFormat1LibraryOpensAndItsNextCompactionMovesItToPacks() throws {
        let fixture = RepositoryPaths.fixtures + "/library-v1"
        let scratch = NSTemporaryDirectory() + "crdtnote-library-v1-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let folder = scratch + "/notes-library"
        try FileManager.default.copyItem(atPath: fixture, toPath: folder)
        try FileManager.default.removeItem(atPath: folder + "/README.md")
        let expected = ["groceries": "Milk\neggs, bread", "todo": "call Anna", "draft": "just typed"]

        let library = try NoteLibrary(folder: folder, replica: .test(9))
        #expect(library.openReport == NoteLibrary.OpenReport())
        #expect(try Self.texts(library) == expected)
        #expect(try library.pendingDeletes == ["old"])
        #expect(try library.summary(of: "todo")?.title == "Calls")
        #expect(try library.fields(of: "todo") == ["pinned": .bool(true)])
        #expect(library.locked { library.state.index.notes.allSatisfy { if case .file? = $0.snapshot { true } else { false } } })
        #expect(try library.verify().isEmpty)

        try library.compact()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/notes") == ["pack-3"])
        let index = try #require(FileManager.default.contents(atPath: folder + "/index")).map { $0 }
        #expect(Array(index[4..<8]) == [7, 0, 7, 0])
        let reopened = try NoteLibrary(folder: folder, replica: .test(9))
        #expect(try Self.texts(reopened) == expected)
        #expect(try reopened.fields(of: "todo") == ["pinned": .bool(true)])
        #expect(try reopened.pendingDeletes == ["old"])
        #expect(reopened.locked { reopened.state.index.notes.allSatisfy { $0.snapshot?.blob?.generation == 3 } })
        #expect(try reopened.verify().isEmpty)
    }
}

extension NoteLibrary {
    /// Stands in for the sync engine's journal entries (not written yet): appends `bytes` as a
    /// frame of the journal and makes them the note's latest server metadata.
    func setServerBlobForTesting(_ bytes: [UInt8], of name: String) throws(NoteLibraryError) {
        try withAccess { () throws(NoteLibraryError) in
            let number = try number(of: name)
            let frame = JournalFraming.frame(bytes)
            let start = state.journal.count
            try disk.append(frame, to: state.journalName)
            state.journal.append(contentsOf: frame)
            let range = start + JournalFraming.frameHeaderSize..<state.journal.count
            state.notes[number]?.serverJournal = range
        }
    }
}

/// A ranged read, as a test sees it.
struct Read: Hashable {
    var path: String
    var offset: Int
    var count: Int
}

/// The fault-injecting file system, counting the operations of each kind and noting ranged reads.
final class CountingFileSystem: DurableFileSystem, @unchecked Sendable {
    let inner = FaultInjectingFileSystem()
    private let lock = NSLock()
    private var counts: [DurableFileOperation: Int] = [:]
    private var ranged: [Read] = []

    func reset() {
        lock.lock()
        defer { lock.unlock() }
        counts = [:]
        ranged = []
    }

    func count(_ operation: DurableFileOperation) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[operation] ?? 0
    }

    var reads: [Read] {
        lock.lock()
        defer { lock.unlock() }
        return ranged
    }

    private func note(_ operation: DurableFileOperation) {
        lock.lock()
        defer { lock.unlock() }
        counts[operation, default: 0] += 1
    }

    func status(at path: String) throws(DurableFileError) -> DurableFileStatus? { note(.status); return try inner.status(at: path) }
    func readFile(at path: String) throws(DurableFileError) -> [UInt8] { note(.read); return try inner.readFile(at: path) }
    func readBytes(at path: String, offset: Int, count: Int) throws(DurableFileError) -> [UInt8] {
        lock.lock()
        ranged.append(Read(path: path, offset: offset, count: count))
        lock.unlock()
        return try inner.readBytes(at: path, offset: offset, count: count)
    }
    func writeFile(at path: String, _ bytes: [UInt8], mode: DurableWriteMode, permissions: UInt16?, sync: Bool) throws(DurableFileError) {
        note(mode == .append ? .append : .write)
        if sync { note(.syncFile) }
        try inner.writeFile(at: path, bytes, mode: mode, permissions: permissions, sync: sync)
    }
    func syncFile(at path: String) throws(DurableFileError) { note(.syncFile); try inner.syncFile(at: path) }
    func syncDirectory(at path: String) throws(DurableFileError) { note(.syncDirectory); try inner.syncDirectory(at: path) }
    func rename(_ source: String, to destination: String) throws(DurableFileError) { note(.rename); try inner.rename(source, to: destination) }
    func removeFile(at path: String) throws(DurableFileError) { note(.removeFile); try inner.removeFile(at: path) }
    func removeDirectory(at path: String) throws(DurableFileError) { note(.removeDirectory); try inner.removeDirectory(at: path) }
    func createDirectory(at path: String) throws(DurableFileError) { note(.createDirectory); try inner.createDirectory(at: path) }
    func contentsOfDirectory(at path: String) throws(DurableFileError) -> [String] { note(.listDirectory); return try inner.contentsOfDirectory(at: path) }
    func lockFile(at path: String, waiting: Bool) throws(DurableFileError) -> DurableFileLock { try inner.lockFile(at: path, waiting: waiting) }
    func temporaryPath(beside path: String) -> String { inner.temporaryPath(beside: path) }
}
