import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteFiles

/// Mixed releases folding the same plain text (Docs/RECORD-FORMAT.md, "Folding plain text: the
/// diff, version 2"): the fold's replica id depends on the diff's version, so a record folded by
/// release e04db0a (diff version 1, golden fixtures `legacy-v1-upgraded` and `clobbered-folded`)
/// and the same inputs folded again now carry the change under *different* ids. Merging the two
/// gives the change twice, each copy intact, and a valid note: never two characters under one id.
@Suite("Fold versioning across releases")
struct FoldVersionTests {
    static let directory = GoldenFixtureTests.directory

    static func record(_ file: String) throws -> NoteRecord {
        let json = try [UInt8](Data(contentsOf: directory.appendingPathComponent(file)))
        return try NoteRecord(CloudRecord.record(fromJSON: json), loadingAssetsFrom: AssetLocator(jsonDirectory: directory.path))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var fixture: String
        var inputs: String
        /// The text both releases produce on their own.
        var text: String
        /// The text when the old and the new result meet: the folded change twice.
        var doubled: String
        var testDescription: String { fixture }
    }

    static let cases = [
        // The server is a v1 record ("2 " and "- salt" added by an old app), folded against the
        // ancestor's legacy upgrade.
        Case(fixture: "legacy-v1-upgraded", inputs: "legacy-v1",
             text: "Pancakes\n- flour\n- 2 eggs\n- oat milk\n- salt\n",
             doubled: "Pancakes\n- flour\n- 2 2 eggs\n- oat milk\n- salt\n- salt\n"),
        // The client's text mirror was overwritten by an old app ("- sunscreen" added).
        Case(fixture: "clobbered-folded", inputs: "clobbered",
             text: "Packing list\n- passport\n- charger\n- sunscreen\n",
             doubled: "Packing list\n- passport\n- charger\n- sunscreen\n- sunscreen\n"),
    ]

    @Test(arguments: cases)
    func oldAndNewFoldsMeetAsTheChangeTwice(_ c: Case) throws {
        let ancestor = try Self.record("inputs/\(c.inputs)-ancestor.json")
        let client = try Self.record("inputs/\(c.inputs)-client.json")
        let server = try Self.record("inputs/\(c.inputs)-server.json")
        let old = try Self.record("\(c.fixture).json").read(as: .test(1)).note
        let now = try RecordMerger().merge(ancestor: ancestor, client: client, server: server)
        #expect(old.string == c.text)
        #expect(now.note.string == c.text)

        // Exactly one replica differs: the fold's. Same count of characters, other id.
        let oldOnly = old.version.counts.filter { now.note.version[$0.key] == 0 }
        let newOnly = now.note.version.counts.filter { old.version[$0.key] == 0 }
        #expect(oldOnly.count == 1 && newOnly.count == 1)
        #expect(Array(oldOnly.values) == Array(newOnly.values))
        let shared = old.version.counts.filter { now.note.version[$0.key] != 0 }
        for (replica, count) in shared { #expect(now.note.version[replica] == count) }

        // The ids come from the versioned derivation: diff version 1 reproduces the old
        // release's replica, version 2 the new one.
        let (base, folded) = try foldInputs(c, ancestor: ancestor, client: client, server: server)
        #expect(NoteReplicaDerivation.fold(recordName: base.recordName, base: base.state, text: folded.text, mode: .diff,
                                           diffVersion: 1) == oldOnly.first?.key)
        #expect(NoteReplicaDerivation.fold(recordName: base.recordName, base: base.state, text: folded.text, mode: .diff)
                == newOnly.first?.key)

        // Old meets new, in both orders and through the record merger: the change twice,
        // each copy whole, everything else once.
        var oldThenNew = old
        try oldThenNew.merge(now.note)
        var newThenOld = now.note
        try newThenOld.merge(old)
        #expect(oldThenNew.string == c.doubled)
        #expect(newThenOld.string == c.doubled)
        #expect(NoteReplicaDerivation.digest(oldThenNew) == NoteReplicaDerivation.digest(newThenOld))
        let oldRecord = try Self.record("\(c.fixture).json")
        for (client, server) in [(now.record, oldRecord), (oldRecord, now.record)] {
            let met = try RecordMerger().merge(ancestor: nil, client: client, server: server)
            #expect(met.note.string == c.doubled)
            // A valid note: the merged record reads back to the same state, its payload
            // decodes, and merging it with either side again changes nothing.
            let reread = try met.record.read(as: .test(9)).note
            #expect(reread.string == c.doubled)
            #expect(NoteReplicaDerivation.digest(reread) == NoteReplicaDerivation.digest(oldThenNew))
            let decoded = try NoteText(snapshot: met.note.encodedSnapshot(), replica: .test(9))
            #expect(decoded.string == c.doubled)
            for side in [old, now.note] {
                var again = met.note
                try again.merge(side)
                #expect(NoteReplicaDerivation.digest(again) == NoteReplicaDerivation.digest(met.note))
            }
        }
    }

    /// The base state and plain text each fixture's fold started from.
    private func foldInputs(_ c: Case, ancestor: NoteRecord, client: NoteRecord, server: NoteRecord) throws
        -> (base: (recordName: String, state: NoteText), folded: (text: String, modified: Int64?)) {
        if c.inputs == "legacy-v1" {
            let base = try ancestor.read(as: .test(1)).note
            return ((server.recordName, base), (try #require(plainText(server)), server.modifiedMilliseconds))
        }
        // The clobbered client: its payload without the mirror's change.
        var payloadOnly = client
        payloadOnly.record[field: NoteSchema.Field.text] = ancestor.record[field: NoteSchema.Field.text]
        let base = try payloadOnly.read(as: .test(1)).note
        return ((client.recordName, base), (try #require(plainText(client)), client.modifiedMilliseconds))
    }

    private func plainText(_ r: NoteRecord) -> String? {
        if case .string(let s)? = r.record[field: NoteSchema.Field.text] { return s }
        return nil
    }

    /// Every diff version gets its own tag; version 1 keeps the tag releases before version 2 used.
    @Test func tagsAreVersioned() {
        #expect(NoteReplicaDerivation.foldTag(.diff) == "crdtnote.fold.diff.v\(TextDiff.version)")
        #expect(NoteReplicaDerivation.foldTag(.insertions) == "crdtnote.fold.insertions.v\(TextDiff.version)")
        #expect(NoteReplicaDerivation.foldTag(.diff, diffVersion: 1) == "crdtnote.fold.diff")
        #expect(TextDiff.version == 2)
        let base = NoteText(replica: .test(1))
        let ids = Set((1...3).map { NoteReplicaDerivation.fold(recordName: "r", base: base, text: "x", mode: .diff, diffVersion: $0) })
        #expect(ids.count == 3)
    }
}
