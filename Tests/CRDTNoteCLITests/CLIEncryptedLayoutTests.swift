import Foundation
import Testing

/// `show`, `verify` and `merge` on a record in the encrypted layout (record `version` 3,
/// Tests/Fixtures/encrypted/README.md); `merge` keeps the newest layout among its inputs.
@Suite struct CLIEncryptedLayoutTests {
    static let encrypted = CLIFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/encrypted/ascii-encrypted.json").path
    static let plain = CLIFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/golden/ascii.json").path

    @Test func showAndVerifyReadTheEncryptedLayout() throws {
        let shown = try CLIHarness.showJSON(Self.encrypted)
        #expect(shown["schemaVersion"] as? Int == 3)
        let payloads = try #require(shown["payloads"] as? [[String: Any]])
        #expect(payloads.map { $0["field"] as? String } == ["encryptedPayload"])
        let verify = try CLIHarness.run(["verify", Self.encrypted])
        #expect(verify.status == 0, "\(verify.stderr)")
        let expected = try String(contentsOfFile: CLIFixtures.repositoryRoot
            .appendingPathComponent("Tests/Fixtures/encrypted/ascii-encrypted.txt").path, encoding: .utf8)
        #expect(try CLIHarness.text(of: Self.encrypted) == expected)
    }

    /// An encrypted and a plain version of one note merge, in either order, into the encrypted
    /// layout with the same text; two plain versions stay plain.
    @Test func mergeKeepsTheNewestLayout() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var texts: Set<String> = []
        for (i, order) in [[Self.plain, Self.encrypted], [Self.encrypted, Self.plain]].enumerated() {
            let result = try CLIHarness.run(["merge"] + order + ["-o", "m\(i).json"], in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            let shown = try CLIHarness.showJSON("m\(i).json", in: folder.url)
            #expect(shown["schemaVersion"] as? Int == 3)
            let json = try String(contentsOfFile: folder.path("m\(i).json"), encoding: .utf8)
            #expect(json.contains("\"isEncrypted\": true") && !json.contains("\"payload\""))
            texts.insert(try CLIHarness.text(of: "m\(i).json", in: folder.url))
        }
        #expect(texts.count == 1)
        let plainOnly = try CLIHarness.run(["merge", Self.plain, Self.plain, "-o", "p.json"], in: folder.url)
        #expect(plainOnly.status == 0, "\(plainOnly.stderr)")
        #expect(try CLIHarness.showJSON("p.json", in: folder.url)["schemaVersion"] as? Int == 2)
    }
}
