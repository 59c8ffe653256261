import Testing
@testable import CRDTNote

/// Format 7 (re-pointed right origins listed in the ledger, Docs/FORMAT.md §4.7) read by the
/// second reader (`Tests/Fixtures/golden/second_reader.py`) as the library reads it: the same
/// text, state digest, runs and re-pointed ids; and a damaged list refused by both.
@Suite("Second reader (format 7)", .enabled(if: GoldenFixtureFactsTests.python != nil, "python3 is not installed"))
struct SecondReaderRepointedTests {
    /// A note whose lines were typed at the top by three devices, all deleted but the newest,
    /// re-pointed: its ledger lists the run that names the chain's last member.
    static func repointedNote() throws -> NoteText {
        try #require(try RepointedMergeTests.repointed(try chainedNote()))
    }

    /// The note before: its deleted lines make a chain.
    static func chainedNote() throws -> NoteText {
        var note = try GroupChainsTests.linesTypedAtTheTop(9)
        try note.insert("kept\n", atScalarOffset: 0)
        try note.deleteScalars(in: 5..<note.string.unicodeScalars.count)
        return note
    }

    @Test func readsFormatSevenLikeTheLibrary() throws {
        let note = try Self.repointedNote()
        let payload = note.encodedSnapshot(format: .version6)
        #expect(PayloadHeader.requiredReaderVersion(of: payload) == 7)
        let dump = try #require(try SecondReaderFormatTwoTests.dump([payload]).first)
        #expect(dump.ok, "\(dump.json["error"] ?? "")")
        #expect(dump.json["minimumReaderVersion"] as? Int == 7)
        #expect(dump.text == note.string)
        #expect(dump.digest == String(NoteReplicaDerivation.digest(note)))
        #expect((dump.json["runs"] as? [Any])?.count == note.runCount)
        let listed = try #require((dump.json["ledger"] as? [String: Any])?["repointed"] as? [[Any]])
        var expected: [[String]] = []
        for id in note.index.replicas {
            for range in note.ledger?.repointed[id] ?? [] { expected.append([String(id.rawValue), "\(range.lowerBound)", "\(range.count)"]) }
        }
        #expect(listed.map { $0.map { "\($0)" } } == expected)
        #expect(!expected.isEmpty)
    }

    /// A re-pointed range past the replica's ids: both readers refuse it at the same byte.
    @Test func refusesAListPastTheIds() throws {
        var note = try Self.repointedNote()
        var ledger = try #require(note.ledger)
        let id = try #require(ledger.repointed.keys.first)
        ledger.repointed[id] = [0..<UInt32.max - 1]
        note.ledger = ledger
        let payload = note.encodedSnapshot(format: .version6)
        var library: BinaryDecodingError?
        do { _ = try NoteText(snapshot: payload, replica: .test(5)) } catch { library = error.decodingError }
        let dump = try #require(try SecondReaderFormatTwoTests.dump([payload]).first)
        #expect(!dump.ok)
        #expect(dump.json["kind"] as? String == "invalidValue")
        let refused = try #require(library)
        #expect(refused.code == .invalidValue)
        #expect(dump.json["offset"] as? Int == refused.offset)
    }
}
