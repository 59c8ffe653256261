import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

@Suite("RecordMerger")
struct RecordMergerTests {
    /// Ancestor "Groceries", client appends ": milk", server prepends "Weekend ".
    static func conflict(clientAsset: Bool = false, serverAsset: Bool = false) throws -> (NoteRecord, NoteRecord, NoteRecord) {
        let base = try NoteText("Groceries", replica: .test(1), clock: NoteFixtures.clock(1_000))
        let ancestor = try NoteFixtures.v2(base)
        var phone = try ancestor.read(as: .test(10), clock: NoteFixtures.clock(2_000)).note
        try phone.insert(": milk", atScalarOffset: 9)
        var laptop = try ancestor.read(as: .test(20), clock: NoteFixtures.clock(3_000)).note
        try laptop.insert("Weekend ", atScalarOffset: 0)
        let client = try ancestor.writing(phone, limits: clientAsset ? NoteFixtures.assetLimits : .default)
        var server = try ancestor.writing(laptop, limits: serverAsset ? NoteFixtures.assetLimits : .default)
        server.record.recordChangeTag = "server-tag"
        return (ancestor, client, server)
    }

    @Test func v2UnionIsBuiltOnTheServerRecord() throws {
        let (ancestor, client, server) = try Self.conflict()
        let result = try RecordMerger().merge(ancestor: ancestor, client: client, server: server)
        #expect(result.note.string == "Weekend Groceries: milk")
        #expect(result.record.record.recordChangeTag == "server-tag")
        #expect(result.record.record[field: "modified"] == .timestamp(3_000))
        #expect(!result.serverUnchanged)
        #expect(result.notes.isEmpty)
        // The ancestor is not needed for v2/v2.
        #expect(try RecordMerger().merge(ancestor: nil, client: client, server: server).note.string == "Weekend Groceries: milk")
    }

    @Test(arguments: [(false, true), (true, false), (true, true)])
    func inlineAndAssetPayloadsMerge(clientAsset: Bool, serverAsset: Bool) throws {
        let (ancestor, client, server) = try Self.conflict(clientAsset: clientAsset, serverAsset: serverAsset)
        let result = try RecordMerger().merge(ancestor: ancestor, client: client, server: server)
        #expect(result.note.string == "Weekend Groceries: milk")
        // Small merged state: written inline again, the server's payload asset removed.
        #expect(result.record.record[field: "payload"] != nil)
        #expect(result.record.record[field: "payloadAsset"] == nil)
        #expect(result.record.record.assetBytes("payloadAsset") == nil)
        let big = try RecordMerger(limits: NoteFixtures.assetLimits).merge(ancestor: ancestor, client: client, server: server)
        #expect(big.record.record[field: "payload"] == nil)
        #expect(Set(big.record.assetsToSave.keys) == ["payloadAsset", "text"])
        #expect(try big.record.read(as: .test(1)).note.string == "Weekend Groceries: milk")
    }

    @Test func identicalClientAndServerLeaveTheServerRecordAlone() throws {
        let (ancestor, _, server) = try Self.conflict(serverAsset: true)
        let result = try RecordMerger().merge(ancestor: ancestor, client: server, server: server)
        #expect(result.serverUnchanged)
        #expect(result.record == server)
        #expect(result.record.assetsToSave.isEmpty == server.assetsToSave.isEmpty)
        // A client that only has the ancestor's state adds nothing either.
        #expect(try RecordMerger().merge(ancestor: ancestor, client: ancestor, server: server).serverUnchanged)
    }

    @Test func serverOnlyHavingTheAncestorTakesTheClientState() throws {
        let (ancestor, client, _) = try Self.conflict()
        let result = try RecordMerger().merge(ancestor: ancestor, client: client, server: ancestor)
        #expect(result.note.string == "Groceries: milk")
        #expect(!result.serverUnchanged)
    }

    @Test func unknownAndAppFieldsSurvive() throws {
        var (ancestor, client, server) = try Self.conflict()
        ancestor.record[field: "title"] = .string("Shopping")
        ancestor.record[field: "pinned"] = .int64(0)
        server.record[field: "title"] = .string("Shopping")
        server.record[field: "pinned"] = .int64(0)
        server.record[field: "color"] = .opaque(OpaqueFieldValue(typeName: "LOCATION", value: .object(JSONObject([("latitude", .number(JSONNumber(1.5)))]))))
        server.record.extra["pluginFields"] = .object(JSONObject())
        server.record.fields["color"]?.isEncrypted = true
        client.record[field: "title"] = .string("Shopping list")   // changed by the client only
        client.record[field: "pinned"] = .int64(0)
        client.record[field: "folder"] = .reference(RecordReference(recordName: "folder-1"))   // client-only field
        server.record[field: "pinned"] = .int64(1)   // changed by the server
        client.record[field: "pinned"] = .int64(2)   // and by the client: the server wins
        let merged = try RecordMerger().merge(ancestor: ancestor, client: client, server: server).record.record
        #expect(merged[field: "title"] == .string("Shopping list"))
        #expect(merged[field: "pinned"] == .int64(1))
        #expect(merged[field: "folder"] == .reference(RecordReference(recordName: "folder-1")))
        #expect(merged.fields["color"] == server.record.fields["color"])
        #expect(merged.extra == server.record.extra)
        #expect(merged.orderedFieldNames.last == "folder")
    }

    @Test func legacyOnEitherSideIsFoldedIn() throws {
        let ancestor = NoteFixtures.v1("Groceries", modified: 1_000)
        var phone = try ancestor.read(as: .test(10), clock: NoteFixtures.clock(2_000)).note
        try phone.insert(": milk", atScalarOffset: 9)
        let client = try ancestor.writing(phone)
        let server = NoteFixtures.v1("Weekend Groceries", modified: 3_000)
        for (c, s) in [(client, server), (server, client)] {
            let result = try RecordMerger().merge(ancestor: ancestor, client: c, server: s)
            #expect(result.note.string == "Weekend Groceries: milk")
            #expect(result.record.record[field: "version"] == .int64(2))
            #expect(result.notes.contains { $0.contains("legacy text") })
        }
        // v1 / v1.
        let other = NoteFixtures.v1("Groceries and eggs", modified: 4_000)
        let both = try RecordMerger().merge(ancestor: ancestor, client: other, server: server)
        #expect(both.note.string == "Weekend Groceries and eggs")
    }

    @Test func withoutAncestorPlainTextKeepsBothSidesText() throws {
        let client = NoteFixtures.v1("milk eggs bread")
        let server = NoteFixtures.v1("milk bread butter")
        let forward = try RecordMerger().merge(ancestor: nil, client: client, server: server)
        let backward = try RecordMerger().merge(ancestor: nil, client: server, server: client)
        #expect(forward.note.string == backward.note.string)
        for word in ["milk", "eggs", "bread", "butter"] { #expect(forward.note.string.contains(word)) }
        #expect(forward.notes.contains { $0.contains("two-way") })
    }

    @Test func emptyTextOnOneSide() throws {
        let ancestor = try NoteFixtures.v2(NoteText("", replica: .test(1)))
        var phone = try ancestor.read(as: .test(10), clock: NoteFixtures.clock(2_000)).note
        try phone.insert("first words", atScalarOffset: 0)
        let client = try ancestor.writing(phone)
        #expect(try RecordMerger().merge(ancestor: ancestor, client: client, server: ancestor).note.string == "first words")
        #expect(try RecordMerger().merge(ancestor: nil, client: NoteFixtures.v1(""), server: client).note.string == "first words")
        // Server emptied the note; the client's concurrent insertion survives.
        let full = try NoteFixtures.v2(NoteText("old text", replica: .test(1)))
        var emptied = try full.read(as: .test(20)).note
        try emptied.setText("")
        var added = try full.read(as: .test(30)).note
        try added.insert("new ", atScalarOffset: 0)
        let merged = try RecordMerger().merge(ancestor: full, client: try full.writing(added), server: try full.writing(emptied))
        #expect(merged.note.string == "new ")
    }

    @Test func newerRecordsMakeTheMergeRefuse() throws {
        let (ancestor, client, server) = try Self.conflict()
        var newer = server
        newer.record[field: "version"] = .int64(4) // 3 is the encrypted layout, which this release reads
        var newerPayload = client
        if case .bytes(var b)? = client.record[field: "payload"] {
            b[6] = UInt8(NoteFormat.readerVersion + 1)
            newerPayload.record[field: "payload"] = .bytes(b)
        }
        let cases: [(NoteRecord, NoteRecord, NoteRecord)] = [
            (ancestor, client, newer), (ancestor, newer, server), (newer, client, server),
            (ancestor, newerPayload, server), (ancestor, client, newerPayload),
        ]
        for (a, c, s) in cases {
            do {
                _ = try RecordMerger().merge(ancestor: a, client: c, server: s)
                Issue.record("expected the merge to refuse")
            } catch {
                #expect(error.code == .newerVersion)
                #expect(error.newerVersion != nil)
            }
        }
        #expect(throws: NoteRecordError.self) { try RecordMerger().merge(records: [client, newer]) }
    }

    @Test func mismatchedOrDeletedRecordsAreRefused() throws {
        let (ancestor, client, server) = try Self.conflict()
        var elsewhere = client
        elsewhere.record.recordName = "another-note"
        do { _ = try RecordMerger().merge(ancestor: ancestor, client: elsewhere, server: server); Issue.record("merged") }
        catch { #expect(error.code == .mismatchedRecords) }
        var gone = server
        gone.record.deleted = true
        do { _ = try RecordMerger().merge(ancestor: ancestor, client: client, server: gone); Issue.record("merged") }
        catch { #expect(error.code == .deletedRecord) }
        do { _ = try RecordMerger().merge(records: []); Issue.record("merged") }
        catch { #expect(error.code == .noRecords) }
    }

    @Test func severalVersionsMergeInAnyOrder() throws {
        let (ancestor, client, server) = try Self.conflict()
        var tablet = try ancestor.read(as: .test(30), clock: NoteFixtures.clock(4_000)).note
        try tablet.setText("Groceries!")
        let third = try ancestor.writing(tablet)
        let legacy = NoteFixtures.v1("Groceries and bread", modified: 5_000)
        let all = [client, server, third, legacy]
        let result = try RecordMerger().merge(records: all)
        #expect(result.note.string.hasPrefix("Weekend Groceries"))
        for piece in ["milk", "!", "bread", "Weekend"] { #expect(result.note.string.contains(piece)) }
        #expect(try RecordMerger().merge(records: all.reversed()).note.string == result.note.string)
        #expect(try RecordMerger().merge(records: [server]).serverUnchanged)
    }
}
