import Foundation
import Testing
@testable import CRDTNote
@testable import CRDTNoteFiles
@testable import CRDTNoteDurableFiles

/// The folder store's file names (issue 29, item 5: `Note` and `note` shared one file on a
/// case-insensitive file system), the move of layout 1 folders, and the zone index as the commit
/// point of deletes.
@Suite struct DirectoryRecordStoreLayoutTests {
    let zone = StoreFixtures.zone

    /// Names that differ only in case, and names whose escapes could be confused.
    static let names = ["Note", "note", "NOTE", "nOtE", "%4Eote", "%4eote", "a", "A", "%41", "%61", "Ä", "ä",
                        String(repeating: "Long", count: 70), String(repeating: "long", count: 70)]

    @Test func fileNamesDifferWhenCaseFolded() async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try DirectoryRecordStore(root: root)
        let zones = [RecordZoneID(zoneName: "Notes"), RecordZoneID(zoneName: "notes")]
        for zone in zones {
            try store.createZone(zone)
            _ = try store.saveRecords(Self.names.map { StoreFixtures.note($0, text: "\(zone.zoneName)/\($0)") }, in: zone)
        }
        // Compared case-folded, as APFS compares names: every file name is distinct.
        let zoneFolders = try FileManager.default.contentsOfDirectory(atPath: root + "/zones")
        #expect(Set(zoneFolders.map { $0.lowercased() }).count == 2, "\(zoneFolders)")
        for zone in zones {
            let files = try FileManager.default.contentsOfDirectory(atPath: store.recordsDirectory(zone))
            #expect(files.count == Self.names.count)
            #expect(Set(files.map { $0.lowercased() }).count == Self.names.count, "\(files.sorted())")
            let histories = try FileManager.default.contentsOfDirectory(atPath: store.zoneDirectory(zone) + "/history")
            #expect(Set(histories.map { $0.lowercased() }).count == Self.names.count)
            let fetched = try store.fetchRecords(named: Self.names, in: zone)
            for name in Self.names { #expect(StoreFixtures.text(fetched[name]) == "\(zone.zoneName)/\(name)") }
        }
        // The only uppercase characters of a file name are hex digits of its escapes.
        for name in Self.names { #expect(!StoreFileName.mayBeLegacy(StoreFileName.escape(name)), "\(name)") }
    }

    /// A folder as releases before layout 2 wrote it: zone and record files named keeping case.
    @Test func aLayoutOneFolderIsMovedAndStillReads() async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let names = ["Note", "plain", "Mixed Case/é"]
        do {
            let store = try DirectoryRecordStore(root: root)
            try store.createZone(zone)
            _ = try store.saveRecords(names.map { StoreFixtures.note($0, text: "text of \($0)") }, in: zone)
        }
        // Turn it into layout 1: the names those releases gave, and no layout marker.
        let fm = FileManager.default
        try fm.moveItem(atPath: root + "/zones/%4Eotes", toPath: root + "/zones/Notes")
        let zoneFolder = root + "/zones/Notes"
        for (new, old) in [("%4Eote", "Note"), ("%4Dixed%20%43ase%2F%C3%A9", "Mixed%20Case%2F%C3%A9")] {
            try fm.moveItem(atPath: "\(zoneFolder)/records/\(new).json", toPath: "\(zoneFolder)/records/\(old).json")
            try fm.moveItem(atPath: "\(zoneFolder)/history/\(new)", toPath: "\(zoneFolder)/history/\(old)")
        }
        try fm.removeItem(atPath: root + "/layout.json")

        let reopened = try DirectoryRecordStore(root: root)
        let fetched = try reopened.fetchRecords(named: names, in: zone)
        for name in names { #expect(StoreFixtures.text(fetched[name]) == "text of \(name)") }
        #expect(try fm.contentsOfDirectory(atPath: root + "/zones") == ["%4Eotes"])
        #expect(try fm.contentsOfDirectory(atPath: reopened.recordsDirectory(zone)).sorted()
                == ["%4Dixed%20%43ase%2F%C3%A9.json", "%4Eote.json", "plain.json"])
        #expect(fm.fileExists(atPath: root + "/layout.json"))
        // And goes on: a save with the tag it had conflicts with nothing.
        let saved = try await reopened.save(StoreFixtures.edited(try #require(fetched["Note"]), text: "v2"), in: zone)
        #expect(StoreFixtures.text(saved) == "v2")
    }

    /// A layout 1 record file that is not a record moves by the name its layout 1 file name
    /// spells; one whose name spells none stops the move with an error naming it, the folder left
    /// in layout 1 (no marker), never a record left where layout 2 does not look.
    @Test func aLayoutOneFileThatIsNotARecordMovesByItsNameOrStopsTheMove() throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        do {
            let store = try DirectoryRecordStore(root: root)
            try store.createZone(zone)
            _ = try store.saveRecords([StoreFixtures.note("Note", text: "one")], in: zone)
        }
        let fm = FileManager.default
        let records = root + "/zones/%4Eotes/records"
        try fm.removeItem(atPath: root + "/layout.json")
        // The copy in records/ under its layout 1 name, its bytes damaged.
        try fm.moveItem(atPath: records + "/%4Eote.json", toPath: records + "/Note.json")
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: records + "/Note.json"))
        let reopened = try DirectoryRecordStore(root: root)
        #expect(try fm.contentsOfDirectory(atPath: records) == ["%4Eote.json"])
        #expect(StoreFixtures.text(try reopened.fetchRecords(named: ["Note"], in: zone)["Note"]) == "one")

        // A layout 1 name that spells no record name ("~" marked cut names), over damaged bytes.
        try fm.removeItem(atPath: root + "/layout.json")
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: records + "/Cut~1f2e.json"))
        #expect {
            _ = try DirectoryRecordStore(root: root)
        } throws: { error in
            (error as? RecordStoreError)?.code == .storageFailure && "\(error)".contains("Cut~1f2e.json")
        }
        #expect(!fm.fileExists(atPath: root + "/layout.json"))
    }

    /// A folder of a zone that cannot be listed stops the move with the file system's error.
    @Test func aZoneFolderThatCannotBeListedStopsTheMove() throws {
        let files = FaultInjectingFileSystem()
        do {
            let store = try DirectoryRecordStore(root: "/store", fileSystem: files)
            try store.createZone(zone)
            _ = try store.saveRecords([StoreFixtures.note("Note", text: "one")], in: zone)
        }
        try files.removeFile(at: "/store/layout.json")
        // The second listing of records/: the first is the sweep of dead writers' temporary
        // files, which is best effort.
        files.inject(.error(EIO), onOperation: 2, of: .listDirectory, onPath: { $0.hasSuffix("/records") })
        #expect {
            _ = try DirectoryRecordStore(root: "/store", fileSystem: files)
        } throws: { error in
            (error as? RecordStoreError)?.code == .storageFailure
        }
        #expect(try files.status(at: "/store/layout.json") == nil)
        // Once the folder lists again, the move completes.
        _ = try DirectoryRecordStore(root: "/store", fileSystem: files)
        #expect(try files.status(at: "/store/layout.json") != nil)
    }

    @Test func aNewerLayoutIsRefused() throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try DirectoryRecordStore(root: root)
        try Data("{\"format\": \"crdtnote-directory-layout\", \"formatVersion\": 3}\n".utf8).write(to: URL(fileURLWithPath: root + "/layout.json"))
        #expect(throws: RecordStoreError.self) { _ = try DirectoryRecordStore(root: root) }
    }

    /// A writer killed after committing a delete but before removing the files: the record is
    /// deleted for fetches and the feed, files or not.
    @Test func aDeleteCommittedBeforeItsFilesWereRemovedIsADelete() async throws {
        let files = FaultInjectingFileSystem()
        let store = try DirectoryRecordStore(root: "/store", fileSystem: files)
        try store.createZone(zone)
        let a = try await store.save(StoreFixtures.note("a", text: "one"), in: zone)
        let start = try await store.fetchAllChanges(in: zone, since: nil).token
        files.inject(.powerLoss, of: .removeFile, onPath: { $0.hasSuffix("/a.json") })
        let error = await StoreFixtures.storeError { try store.deleteRecords(named: ["a"], in: zone) }
        #expect(error?.code == .storageFailure)
        files.crash()
        let restarted = try DirectoryRecordStore(root: "/store", fileSystem: files)
        #expect(try files.exists(at: restarted.recordPath("a", zone)), "the copy in records/ is still there")
        #expect(try await restarted.fetchRecord(named: "a", in: zone) == nil)
        let feed = try await restarted.fetchAllChanges(in: zone, since: start)
        #expect(feed.changed.isEmpty)
        #expect(feed.deletedRecordNames == ["a"])
        let fromStart = try await restarted.fetchAllChanges(in: zone, since: nil)
        #expect(fromStart.changed.isEmpty && fromStart.deletedRecordNames == ["a"])
        // Saving it again as new works (the delete is what the server holds).
        #expect(a.recordChangeTag != nil)
        let again = StoreFixtures.note("a", text: "two")
        #expect(StoreFixtures.text(try await restarted.save(again, in: zone)) == "two")
    }
}
