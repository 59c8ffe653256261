import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteDurableFiles

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
    }

    @Test func aCrashMidWriteLeavesTheOldFileIntact() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/note.json"
        try AtomicFile.write(Array("old".utf8), to: file)
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write(Array("new contents".utf8), to: file, crashAfter: 3) }
        #expect(FileManager.default.contents(atPath: file) == Data("old".utf8))
    }

    @Test func aMissingDirectoryIsATypedError() {
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write([1], to: "/nonexistent-\(UUID().uuidString)/x") }
    }
}
