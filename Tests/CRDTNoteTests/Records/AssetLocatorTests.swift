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
        #expect(try AssetLocator(jsonDirectory: "/nonexistent").readAsset(viaURL, field: "f") == bytes)

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
}
