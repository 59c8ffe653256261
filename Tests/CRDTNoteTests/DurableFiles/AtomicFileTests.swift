import Foundation
import Testing
@testable import CRDTNoteDurableFiles
@testable import CRDTNoteToolSupport

/// `AtomicFile` on the real file system (contents, permission bits, no temporary file left,
/// typed errors) and on the fault-injecting one (an error or a power loss at each of its steps
/// leaves the old or the new file, never a torn one; a returned write survives any crash).
@Suite struct AtomicFileTests {
    func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "crdtnote-atomic-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func replacesContentsAndLeavesNothingElse() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/note.json"
        try AtomicFile.write(Array("first".utf8), to: file)
        try AtomicFile.write(Array("second".utf8), to: file)
        #expect(FileManager.default.contents(atPath: file) == Data("second".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["note.json"])
    }

    @Test func keepsPermissionBitsOfAnExistingFile() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/private.json"
        try AtomicFile.write([1], to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        try AtomicFile.write([2], to: file)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)
        try AtomicFile.write([3], to: file)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o640)
    }

    @Test func aFailedRenameLeavesNoTemporaryFileAndNamesTheTarget() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A non-empty folder cannot be replaced by a file: the rename fails after the write.
        let target = dir + "/target"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        try Data([1]).write(to: URL(fileURLWithPath: target + "/keep"))
        do {
            try AtomicFile.write(Array("data".utf8), to: target)
            Issue.record("replacing a folder with a file succeeded")
        } catch {
            #expect(error.path == target)
            #expect(error.operation == .replace)
            #expect(error.errorNumber == EISDIR || error.errorNumber == ENOTEMPTY || error.errorNumber == EEXIST)
            #expect(error.message.contains("cannot rename the temporary file"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["target"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: target) == ["keep"])
    }

    @Test func aMissingDirectoryIsATypedErrorWithPathAndErrno() {
        let path = "/nonexistent-\(UUID().uuidString)/x"
        do {
            try AtomicFile.write([1], to: path)
            Issue.record("wrote into a missing folder")
        } catch {
            #expect(error.path == path)
            #expect(error.errorNumber == ENOENT)
            #expect(error.description.hasPrefix("cannot replace \(path): cannot write the temporary file"))
        }
    }

    /// The operations one replacement of an existing file takes on the fault-injecting file system.
    func operationsOfOneWrite() throws -> Int {
        let files = FaultInjectingFileSystem()
        try files.createDirectory(at: "/d")
        try AtomicFile.write(Array("old".utf8), to: "/d/note", on: files)
        let start = files.operationCount
        try AtomicFile.write(Array("new contents".utf8), to: "/d/note", on: files)
        return files.operationCount - start
    }

    /// A flushed folder holding `/d/note` = "old".
    func folderWithOldNote() throws -> FaultInjectingFileSystem {
        let files = FaultInjectingFileSystem()
        try files.createDirectories(at: "/d")
        try AtomicFile.write(Array("old".utf8), to: "/d/note", on: files)
        return files
    }

    @Test func anErrorAtAnyStepLeavesTheOldOrTheNewFileAndNoTemporaryFile() throws {
        let operations = try operationsOfOneWrite()
        // status, write, flush, rename, flush folder.
        #expect(operations == 5)
        for failing in 1...operations {
            let files = try folderWithOldNote()
            files.inject(.error(ENOSPC), onOperation: failing)
            var thrown: DurableFileError?
            do {
                try AtomicFile.write(Array("new contents".utf8), to: "/d/note", on: files)
            } catch {
                thrown = error
            }
            let contents = String(decoding: try files.readFile(at: "/d/note"), as: UTF8.self)
            #expect(try files.contentsOfDirectory(at: "/d") == ["note"], "error at step \(failing)")
            if failing == 1 {
                // Looking up the old permission bits is best effort: the write goes on.
                #expect(thrown == nil)
                #expect(contents == "new contents")
            } else {
                let error = try #require(thrown, "error at step \(failing)")
                #expect(error.path == "/d/note")
                #expect(error.operation == .replace)
                #expect(error.errorNumber == ENOSPC)
                // Only a failed flush of the folder comes after the rename.
                #expect(contents == (failing == operations ? "new contents" : "old"), "error at step \(failing)")
            }
        }
    }

    @Test func aPowerLossAtAnyStepLeavesTheOldOrTheNewFileNeverATornOne() throws {
        let operations = try operationsOfOneWrite()
        for cut in 1...(operations + 1) {
            for seed in 0..<20 as Range<UInt64> {
                var random = SplitMix64(seed: seed &* 7919 &+ UInt64(cut))
                let files = try folderWithOldNote()
                files.inject(.powerLoss, onOperation: cut)
                var returned = false
                do {
                    try AtomicFile.write(Array("new contents".utf8), to: "/d/note", on: files)
                    returned = true
                } catch {
                    #expect(error.errorNumber == EIO)
                }
                #expect(returned == (cut > operations))
                files.crash(using: &random)
                let contents = String(decoding: try files.readFile(at: "/d/note"), as: UTF8.self)
                #expect(contents == "old" || contents == "new contents", "cut at \(cut), seed \(seed): \(contents)")
                if returned { #expect(contents == "new contents", "a returned write was lost (seed \(seed))") }
            }
        }
    }

    @Test func aReturnedWriteOfANewFileInNewFoldersSurvivesAnyCrash() throws {
        // A new file (no old version): it exists after any crash once the write returned.
        for seed in 0..<50 as Range<UInt64> {
            var random = SplitMix64(seed: seed)
            let files = FaultInjectingFileSystem()
            try files.createDirectories(at: "/a/b")
            try AtomicFile.write(Array("fresh".utf8), to: "/a/b/new", on: files)
            try files.writeFile(at: "/a/b/unflushed", Array("maybe".utf8), mode: .truncate, permissions: nil, sync: false)
            files.crash(using: &random)
            #expect(try files.readFile(at: "/a/b/new") == Array("fresh".utf8))
        }
    }
}
