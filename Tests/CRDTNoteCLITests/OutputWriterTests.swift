import Foundation
import Testing

@testable import CRDTNoteCLI

/// In-process checks of atomic output writing and input reading.
@Suite struct OutputWriterTests {
    @Test func writesNewFileAndReplacesExistingOneKeepingItsMode() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.path("note.json")
        try OutputWriter.writeAtomically(Array("first".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try OutputWriter.writeAtomically(Data("second, longer".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second, longer")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try folder.contents() == ["note.json"])
    }

    @Test func writesEmptyFile() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try OutputWriter.writeAtomically([UInt8](), to: folder.path("empty"))
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("empty")).isEmpty)
    }

    @Test func failedRenameLeavesNoTemporaryFile() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // A non-empty directory cannot be replaced by a file: the rename fails after the write.
        let target = folder.url.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try Data().write(to: target.appendingPathComponent("keep"))
        do {
            try OutputWriter.writeAtomically(Array("data".utf8), to: target.path)
            Issue.record("writing over a directory succeeded")
        } catch {
            #expect(error.code == .cannotWrite)
            #expect(error.exitStatus.rawValue == 73)
            #expect(error.file == target.path)
        }
        #expect(try folder.contents() == ["target"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["keep"])
    }

    @Test func missingDirectoryIsCannotWrite() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.path("nope/out.json")
        #expect(throws: CLIError.self) { try OutputWriter.writeAtomically(Array("x".utf8), to: path) }
        #expect(throws: CLIError.self) { try OutputWriter.checkWritable(.file(path)) }
        try OutputWriter.checkWritable(.file(folder.path("fine.json")))
        try OutputWriter.checkWritable(.standardOutput)
        #expect(try folder.contents().isEmpty)
    }

    @Test func directoryOfPath() {
        #expect(OutputWriter.directory(of: "out.json") == ".")
        #expect(OutputWriter.directory(of: "a/b/out.json") == "a/b")
        #expect(OutputWriter.directory(of: "/out.json") == "/")
    }

    @Test func readerTellsMissingFromDirectoryAndEnforcesLimit() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.path("r.json")
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try InputReader.read(file) == Data("0123456789".utf8))
        #expect(try InputReader.read(file, limit: 10).count == 10)

        func failure(_ body: () throws -> Void) -> CLIError? {
            do { try body() } catch { return error as? CLIError ?? CLIError(code: .internalFailure, message: "\(error)") }
            return nil
        }
        let tooBig = failure { _ = try InputReader.read(file, limit: 9) }
        #expect(tooBig?.code == .dataError)
        #expect(tooBig?.file == file)

        let missing = failure { _ = try InputReader.read(folder.path("none.json")) }
        #expect(missing?.code == .noInput)
        #expect(missing?.message == "no such file")

        let directory = failure { _ = try InputReader.read(folder.url.path) }
        #expect(directory?.code == .noInput)
        #expect(directory?.message.contains("is a directory") == true)

        let notDirectory = failure { try InputReader.checkReadableDirectory(file) }
        #expect(notDirectory?.code == .noInput)
        #expect(failure { try InputReader.checkReadableDirectory(folder.url.path) } == nil)
    }
}
