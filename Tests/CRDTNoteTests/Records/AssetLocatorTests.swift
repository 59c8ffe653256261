import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

private func makeTempDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "crdtnote-assets-\(UInt64.random(in: 0...UInt64.max))"
    try FileManager.default.createDirectory(atPath: path + "/assets", withIntermediateDirectories: true)
    return path
}

/// The `.assetOutsideFolder` error `locator` gives for `ref`, or nil when it gives another result.
private func outsideError(_ locator: AssetLocator, _ ref: AssetReference, field: String = "text") -> RecordJSONError? {
    do {
        _ = try locator.readAsset(ref, field: field)
        return nil
    } catch {
        return error.code == .assetOutsideFolder ? error : nil
    }
}

/// The error `locator` gives for `ref`, or nil when it reads it.
private func readError(_ locator: AssetLocator, _ ref: AssetReference) -> RecordJSONError? {
    do {
        _ = try locator.readAsset(ref, field: "text")
        return nil
    } catch {
        return error
    }
}

@Suite("AssetLocator")
struct AssetLocatorTests {
    @Test func writeThenReadByRelativePath() throws {
        let dir = try makeTempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes: [UInt8] = Array("crdt payload".utf8)
        let ref = try AssetLocator.writeAsset(bytes, named: "payload.bin", in: dir)
        #expect(ref.downloadURL == "payload.bin")
        #expect(ref.size == 12)
        #expect(ref.fileChecksum == AssetChecksum.fnv1a64Hex(bytes))
        #expect(ref.fileChecksum?.count == 16)
        #expect(AssetChecksum.fnv1a64Hex([]) == "cbf29ce484222325")
        let locator = AssetLocator(jsonDirectory: dir)
        #expect(try locator.readAsset(ref, field: "payloadAsset") == bytes)
        // Round trip through the record JSON.
        var record = CloudRecord(recordName: "n", recordType: "Note")
        record[field: "payloadAsset"] = .asset(ref)
        let again = try CloudRecord.record(fromJSON: record.jsonBytes())
        guard case .asset(let readRef)? = again[field: "payloadAsset"] else {
            Issue.record("no asset")
            return
        }
        #expect(try locator.readAsset(readRef, field: "payloadAsset") == bytes)
        #expect(throws: RecordJSONError.self) { try AssetLocator.writeAsset(bytes, named: "../x", in: dir) }
    }

    @Test func fileURLAndChecksumLookup() throws {
        let dir = try makeTempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes: [UInt8] = [1, 2, 3]
        _ = try AssetLocator.writeAsset(bytes, named: "elsewhere.bin", in: dir + "/assets")
        let viaURL = AssetReference(downloadURL: URL(fileURLWithPath: dir + "/assets/elsewhere.bin").absoluteString)
        #expect(viaURL.downloadURL?.hasPrefix("file://") == true)
        #expect(try AssetLocator(jsonDirectory: dir).readAsset(viaURL, field: "f") == bytes)
        #expect(try AssetLocator(jsonDirectory: "/nonexistent", assetsDirectory: dir + "/assets").readAsset(viaURL, field: "f") == bytes)
        // Pointing outside the given folders, it is refused.
        #expect(outsideError(AssetLocator(jsonDirectory: "/nonexistent"), viaURL) != nil)

        // A base64 checksum with '/' is looked up with '/' replaced by '_'.
        _ = try AssetLocator.writeAsset(bytes, named: "AbC_dE+f==", in: dir + "/assets")
        let viaChecksum = AssetReference(fileChecksum: "AbC/dE+f==", size: 3, downloadURL: "https://cvws.icloud-content.com/B/x")
        let locator = AssetLocator(jsonDirectory: dir, assetsDirectory: dir + "/assets")
        #expect(try locator.readAsset(viaChecksum, field: "payloadAsset") == bytes)
        #expect(locator.candidatePaths(for: viaChecksum).first == dir + "/assets/AbC_dE+f==")
    }

    @Test func errorsSayWhatWasTried() throws {
        let dir = try makeTempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let locator = AssetLocator(jsonDirectory: dir, assetsDirectory: dir + "/assets", maxAssetSize: 4)
        do {
            _ = try locator.readAsset(AssetReference(fileChecksum: "abc", downloadURL: "missing.bin"), field: "payloadAsset")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .assetNotFound)
            #expect(error.message.contains("payloadAsset"))
            #expect(error.message.contains(dir + "/missing.bin"))
            #expect(error.message.contains(dir + "/assets/abc"))
        }
        let big = try AssetLocator.writeAsset([1, 2, 3, 4, 5], named: "big", in: dir)
        #expect(throws: RecordJSONError.self) { try locator.readAsset(big, field: "f") }
        let small = try AssetLocator.writeAsset([1, 2], named: "small", in: dir)
        var wrongSize = small
        wrongSize.size = 3
        do {
            _ = try locator.readAsset(wrongSize, field: "f")
            Issue.record("expected a size error")
        } catch {
            #expect(error.code == .assetMismatch)
        }
        var wrongSum = small
        wrongSum.fileChecksum = "0000000000000000"
        #expect(throws: RecordJSONError.self) { try locator.readAsset(wrongSum, field: "f") }
        do {
            _ = try AssetLocator(jsonDirectory: dir).readAsset(AssetReference(fileChecksum: "abc"), field: "text")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .assetNotFound)
            #expect(error.message.contains("no assets directory"))
        }
    }

    @Test func referencesStayInsideTheFolders() throws {
        let dir = try makeTempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/records/sub", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/outside", withIntermediateDirectories: true)
        let secret: [UInt8] = Array("secret".utf8)
        try Data(secret).write(to: URL(fileURLWithPath: dir + "/outside/secret.txt"))
        try Data(secret).write(to: URL(fileURLWithPath: dir + "/records/sub/inside.txt"))
        let locator = AssetLocator(jsonDirectory: dir + "/records", assetsDirectory: dir + "/assets")

        // Inside: subfolders, `..` that stays inside, a file:// URL or absolute path inside,
        // and a symbolic link that stays inside (relative or absolute).
        for url in ["sub/inside.txt", "sub/../sub/./inside.txt", "../records/sub/inside.txt",
                    "file://" + dir + "/records/sub/inside.txt", dir + "/records/sub/inside.txt"] {
            #expect(try locator.readAsset(AssetReference(downloadURL: url), field: "text") == secret, "\(url)")
        }
        try fm.createSymbolicLink(atPath: dir + "/records/in-rel", withDestinationPath: "sub/../sub/inside.txt")
        try fm.createSymbolicLink(atPath: dir + "/records/in-abs", withDestinationPath: dir + "/records/sub/inside.txt")
        try fm.createSymbolicLink(atPath: dir + "/records/subdir", withDestinationPath: "sub")
        for url in ["in-rel", "in-abs", "subdir/inside.txt"] {
            #expect(try locator.readAsset(AssetReference(downloadURL: url), field: "text") == secret, "\(url)")
        }

        // Outside: the same message for an existing and a missing target, no size, no path tried.
        try fm.createSymbolicLink(atPath: dir + "/records/out-rel", withDestinationPath: "../outside/secret.txt")
        try fm.createSymbolicLink(atPath: dir + "/records/out-abs", withDestinationPath: dir + "/outside/secret.txt")
        try fm.createSymbolicLink(atPath: dir + "/records/out-missing", withDestinationPath: dir + "/outside/missing.txt")
        try fm.createSymbolicLink(atPath: dir + "/records/out-dir", withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: dir + "/records/loop", withDestinationPath: "loop")
        let pairs: [(String, String)] = [
            ("../outside/secret.txt", "../outside/missing.txt"),
            (dir + "/outside/secret.txt", dir + "/outside/missing.txt"),
            ("file://" + dir + "/outside/secret.txt", "file://" + dir + "/outside/missing.txt"),
            ("../../../../../../../../etc/hostname", "../../../../../../../../etc/no-such-file"),
            ("file:///etc/hostname", "file:///etc/no-such-file"),
            ("/proc/self/environ", "/proc/self/no-such-file"),
            ("file://otherhost" + dir + "/records/sub/inside.txt", "file://otherhost/missing"),
            ("file://" + dir + "/records/%2e%2e/outside/secret.txt", "file://" + dir + "/records/%2e%2e/outside/missing.txt"),
        ]
        for (existing, missing) in pairs {
            let a = try #require(outsideError(locator, AssetReference(downloadURL: existing)), "\(existing)")
            let b = try #require(outsideError(locator, AssetReference(downloadURL: missing)), "\(missing)")
            #expect(a.path == "fields.text.value.downloadURL")
            #expect(a.message.replacingOccurrences(of: existing, with: "X") == b.message.replacingOccurrences(of: missing, with: "X"))
            #expect(!a.message.contains("bytes") && !a.message.contains("tried"))
        }
        for link in ["out-rel", "out-abs", "out-missing", "out-dir/outside/secret.txt"] {
            let error = try #require(outsideError(locator, AssetReference(downloadURL: link)), "\(link)")
            #expect(error.message == "downloadURL '\(link)' of field 'text' leads outside the record's folder and the assets folder; asset files must be inside")
        }
        #expect(readError(locator, AssetReference(downloadURL: "loop"))?.code == .assetIO)
        // A checksum name in the assets folder that is a link out is refused the same way.
        try fm.createSymbolicLink(atPath: dir + "/assets/0123456789abcdef", withDestinationPath: dir + "/outside/secret.txt")
        #expect(outsideError(locator, AssetReference(fileChecksum: "0123456789abcdef", downloadURL: "https://example.com/x"))?.path
                == "fields.text.value.fileChecksum")

        // Special files are refused before they are opened (a FIFO would block a read).
        #expect(mkfifo(dir + "/records/fifo", 0o600) == 0)
        #expect(readError(locator, AssetReference(downloadURL: "fifo"))?.code == .assetNotRegularFile)
        #expect(readError(locator, AssetReference(downloadURL: "sub"))?.code == .assetNotRegularFile)
        #expect(readError(locator, AssetReference(downloadURL: "sub/.."))?.code == .assetNotRegularFile)
        // Missing inside the folder: not found, with the paths tried.
        #expect(readError(locator, AssetReference(downloadURL: "sub/missing.txt"))?.code == .assetNotFound)
        #expect(readError(locator, AssetReference(downloadURL: "sub/inside.txt/x"))?.code == .assetNotFound)
    }

    /// The check and the read are separate steps: a folder on the resolved path that becomes a
    /// symbolic link out between them must fail the read, never follow the link.
    @Test func aFolderSwappedForALinkAfterTheCheckIsNotFollowed() throws {
        let dir = try makeTempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/records/sub", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/outside", withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: URL(fileURLWithPath: dir + "/records/sub/a.txt"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: dir + "/outside/a.txt"))
        let locator = AssetLocator(jsonDirectory: dir + "/records")
        let target = try #require(locator.candidates(for: AssetReference(downloadURL: "sub/a.txt")).first).target
        guard case .file(let root, let components) = Confinement.resolve(target, roots: locator.confinementRoots()) else {
            Issue.record("sub/a.txt did not resolve to a file")
            return
        }
        #expect(components == ["sub", "a.txt"])
        // Before the swap the resolved file opens and holds the inside bytes.
        let before = try Confinement.openFile(components, beneath: root).get()
        #expect(try FileHandle(fileDescriptor: before, closeOnDealloc: true).readToEnd() == Data("inside".utf8))
        // Swap the folder for a link out, then the file itself for a link out.
        try fm.moveItem(atPath: dir + "/records/sub", toPath: dir + "/records/moved")
        try fm.createSymbolicLink(atPath: dir + "/records/sub", withDestinationPath: dir + "/outside")
        #expect(throws: Confinement.OpenFailure.self) { try Confinement.openFile(components, beneath: root).get() }
        try fm.removeItem(atPath: dir + "/records/sub")
        try fm.createDirectory(atPath: dir + "/records/sub", withIntermediateDirectories: false)
        try fm.createSymbolicLink(atPath: dir + "/records/sub/a.txt", withDestinationPath: dir + "/outside/a.txt")
        #expect(throws: Confinement.OpenFailure.self) { try Confinement.openFile(components, beneath: root).get() }
        // Through readAsset, the link is caught by the walk (outside) as before.
        #expect(outsideError(locator, AssetReference(downloadURL: "sub/a.txt")) != nil)
    }
}
