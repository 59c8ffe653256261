import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

@Suite struct NoteSyncSimulationTests {
    @Test(arguments: [(UInt64(1), 0.0), (2, 0.2), (3, 0.4), (4, 0.3)])
    func devicesConvergeWithoutLosingEdits(seed: UInt64, faultRate: Double) async {
        let report = await NoteSyncSimulation(devices: 3, notes: 4, edits: 150, faultRate: faultRate, seed: seed).run()
        #expect(report.converged, "\(report) divergent: \(report.divergentNotes)")
        #expect(report.lostEdits == 0)
        #expect(report.setupFailures.isEmpty, "\(report.setupFailures)")
        #expect(report.edits > 100)
        // Devices that push before fetching meet newer server records: the merge path must run.
        #expect(report.conflictsMerged > 0)
        if faultRate > 0 {
            #expect(report.faultsInjected > 0)
            #expect(report.retries > 0)
        } else {
            #expect(report.faultsInjected == 0)
        }
    }

    /// Devices reading different formats: no record a device cannot read is written while it is
    /// active, writers move to format 6 once all are updated, nothing is lost (issue 28).
    @Test(arguments: [UInt64(2), 5])
    func mixedFleetsNeverWriteWhatADeviceCannotRead(seed: UInt64) async {
        let report = await NoteSyncSimulation(devices: 4, notes: 5, edits: 600, faultRate: 0.2, seed: seed, crashRate: 0.05,
                                              readerFormats: [2, 1, 2, 2], updateAt: 300).run()
        #expect(report.succeeded, "lost \(report.lostMarkers) divergent \(report.divergentNotes) \(report.setupFailures)")
        #expect(report.unreadableRecordsWritten == 0)
        #expect(report.recordsByFormatBeforeUpdate["2"] == nil && report.recordsByFormatBeforeUpdate["3"] == nil
                && report.recordsByFormatBeforeUpdate["6"] == nil)
        // Once all read this release's formats: format 6 where the clock logs pay for it.
        #expect((report.recordsByFormatAfterUpdate["6"] ?? 0) > 0)
        // Without a device that reads less, never format 1: format 6 where the clock logs pay for
        // it, else 2 or 3 (with a ledger).
        let current = await NoteSyncSimulation(devices: 3, notes: 3, edits: 100, faultRate: 0, seed: seed).run()
        #expect(current.succeeded)
        #expect(current.recordsByFormatBeforeUpdate["1"] == nil && (current.recordsByFormatBeforeUpdate["6"] ?? 0) > 0,
                "\(current.recordsByFormatBeforeUpdate)")
        // Compaction waits for the fleet (FORMAT.md §4.7): none while a device reads less than
        // format 3, every note compacted in an up-to-date fleet by the end.
        #expect(current.notesCompacted == 3, "\(current.notesCompacted) of 3 notes compacted")
        let waiting = await NoteSyncSimulation(devices: 3, notes: 3, edits: 300, faultRate: 0.1, seed: seed,
                                               readerFormats: [2, 2, 7]).run()
        #expect(waiting.succeeded, "lost \(waiting.lostMarkers) divergent \(waiting.divergentNotes) \(waiting.setupFailures)")
        #expect(waiting.notesCompacted == 0)
    }

    /// Every fault a client must survive (lost responses, cancellations, expired tokens, partial
    /// saved records, assets not downloaded, besides `.all`), each reaching the engines through
    /// `CloudKitStyleRecordStore` as a CloudKit failure.
    @Test(arguments: [UInt64(5), 6])
    func everyRecoverableFaultIsSurvived(seed: UInt64) async {
        let report = await NoteSyncSimulation(devices: 3, notes: 4, edits: 200, faultRate: 0.3, seed: seed,
                                              faultKinds: .recoverable, crashRate: 0.05).run()
        #expect(report.succeeded, "lost \(report.lostMarkers) resurrected \(report.resurrectedMarkers) divergent \(report.divergentNotes)")
        let counts = report.faultCounts
        #expect(counts.serverResponseLost + counts.operationCancelled + counts.changeTokenExpired > 0)
        #expect(counts.partialSavedRecords + counts.assetNotDownloaded > 0)
    }

    /// A step of the run that failed (an engine that did not start, a note not created) fails
    /// the run even when what did run converged.
    @Test func aFailedStepFailsTheRun() {
        var report = NoteSyncSimulationReport(devices: 2, notes: 1, edits: 0)
        report.converged = true
        #expect(report.succeeded)
        report.setupFailures.append("device 1 did not start: example")
        #expect(!report.succeeded)
    }

    @Test func conflictsHappenAndAreMerged() async {
        let report = await NoteSyncSimulation(devices: 4, notes: 2, edits: 200, faultRate: 0.1, seed: 11).run()
        #expect(report.succeeded)
        #expect(report.conflictsMerged > 0)
    }

    @Test func aRunIsDeterministicForASeed() async {
        let a = await NoteSyncSimulation(devices: 3, notes: 3, edits: 100, faultRate: 0.3, seed: 42).run()
        let b = await NoteSyncSimulation(devices: 3, notes: 3, edits: 100, faultRate: 0.3, seed: 42).run()
        #expect(a == b)
    }
}

/// The simulation with process crashes, checked against its independent edit oracle.
@Suite struct NoteSyncCrashSimulationTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func crashingDevicesLoseNothingAndConverge(seed: UInt64) async {
        let report = await NoteSyncSimulation(devices: 4, notes: 4, edits: 300, faultRate: 0.2, seed: seed, crashRate: 0.1).run()
        #expect(report.succeeded, "lost \(report.lostMarkers) resurrected \(report.resurrectedMarkers) divergent \(report.divergentNotes)")
        #expect(report.lostEdits == 0 && report.resurrectedEdits == 0)
        #expect(report.crashes > 0)
        #expect(report.edits > 200)
    }

    @Test func theOracleSeesALostInsertionAndAnUndoneDeletion() {
        var oracle = EditOracle()
        oracle.count([.insert(note: "n", marker: "d1e1"), .insert(note: "n", marker: "d1e2"), .delete(note: "n", markers: ["d1e3"], replacement: nil)])
        oracle.deletionMade(["d1e3"])
        let good = "Note\n" + EditOracle.token(marker: "d1e1", word: "a") + EditOracle.token(marker: "d1e2", word: "b")
        #expect(oracle.check([["n": good], ["n": good]]).lost == 0)
        let missing = "Note\n" + EditOracle.token(marker: "d1e1", word: "a")
        #expect(oracle.check([["n": good], ["n": missing]]).lost == 1)
        let twice = good + EditOracle.token(marker: "d1e2", word: "b")
        #expect(oracle.check([["n": twice], ["n": good]]).lost == 1)
        let undone = good + EditOracle.token(marker: "d1e3", word: "c")
        #expect(oracle.check([["n": good], ["n": undone]]).resurrected == 1)
    }

    @Test func aCrashingRunIsDeterministicForASeed() async {
        let a = await NoteSyncSimulation(devices: 3, notes: 3, edits: 100, faultRate: 0.3, seed: 9, crashRate: 0.2).run()
        let b = await NoteSyncSimulation(devices: 3, notes: 3, edits: 100, faultRate: 0.3, seed: 9, crashRate: 0.2).run()
        #expect(a == b)
    }
}

/// Push-driven sync: notifications (some dropped) plus a slow poll, with faults and crashes.
@Suite struct NoteSyncPushSimulationTests {
    @Test(arguments: [UInt64(1), 2])
    func pushDrivenDevicesWithDroppedPushesAndCrashesConverge(seed: UInt64) async {
        let report = await NoteSyncSimulation(devices: 4, notes: 4, edits: 300, faultRate: 0.2, seed: seed, crashRate: 0.05,
                                              dropPushRate: 0.2, pollInterval: 100).run()
        #expect(report.succeeded, "lost \(report.lostMarkers) resurrected \(report.resurrectedMarkers) divergent \(report.divergentNotes)")
        #expect(report.notificationsDelivered > 0 && report.notificationsDropped > 0 && report.notificationSyncs > 0)
    }

    /// Issue 26's guarantee (`crdtnote simulate` keeps 0 lost, 0 resurrected and converges for 5
    /// seeds × 5 devices × 2,000 edits at 20% faults, 5% crashes and 20% dropped pushes), at a
    /// size `swift test` runs quickly: 5 seeds × 5 devices, the same rates. The full size is run
    /// with the CLI (see Docs/CLI.md, simulate).
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func issue26FiveDevicesWithFaultsCrashesAndDroppedPushesKeepTheGuarantees(seed: UInt64) async {
        let report = await NoteSyncSimulation(devices: 5, notes: 4, edits: 200, faultRate: 0.2, seed: seed, crashRate: 0.05,
                                              dropPushRate: 0.2, pollInterval: 100).run()
        #expect(report.succeeded, "lost \(report.lostMarkers) resurrected \(report.resurrectedMarkers) divergent \(report.divergentNotes) failed \(report.setupFailures)")
        #expect(report.lostEdits == 0 && report.resurrectedEdits == 0 && report.converged)
        #expect(report.edits > 100)
        #expect(report.faultsInjected > 0 && report.crashes > 0 && report.notificationsDropped > 0)
    }

    @Test func theEngineSubscribesOnceAndHandlesOnlyItsOwnNotifications() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        var config = NoteSyncConfiguration()
        config.subscriptionID = "notes-changes"
        let phone = try TestDevice(store, replica: 1, configuration: config)
        let laptop = try TestDevice(store, replica: 2, configuration: config)
        await db.registerForNotifications(device: "laptop")
        try phone.create("n", text: "hello")
        try await phone.engine.sync()
        #expect(await db.zoneSubscriptions == ["notes-changes": "Notes"])
        #expect(try await phone.engine.savedSubscriptionID == "notes-changes")
        // Saved in the library: the app started again reads it there.
        try phone.restart()
        #expect(try await phone.engine.savedSubscriptionID == "notes-changes")
        let ids = await db.takeNotifications(for: "laptop")
        #expect(ids == ["notes-changes"])
        #expect(try await laptop.engine.handleRemoteNotification(subscriptionID: "other") == nil)
        let report = try #require(try await laptop.engine.handleRemoteNotification(subscriptionID: ids[0]))
        #expect(report.receivedNewData)
        #expect(try laptop.text(of: "n") == "hello")
        // A zone reset takes the subscription with it; the engine saves it again.
        try await store.deleteZone(RecordZoneID(zoneName: "Notes"))
        #expect(await db.zoneSubscriptions.isEmpty)
        try await phone.engine.sync()
        #expect(await db.zoneSubscriptions == ["notes-changes": "Notes"])
    }
}
