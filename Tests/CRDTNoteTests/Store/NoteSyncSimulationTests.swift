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
