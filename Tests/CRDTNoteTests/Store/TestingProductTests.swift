import CRDTNote
import CRDTNoteTesting
import Testing

/// What an app's own test target gets from a plain `import CRDTNoteTesting` (no `@testable`):
/// the in-memory CloudKit-like database and the device simulation.
@Suite("CRDTNoteTesting product")
struct TestingProductTests {
    @Test func anAppTestCanRunTheSimulatorThroughThePublicAPI() async {
        let report = await NoteSyncSimulation(devices: 3, notes: 2, edits: 40, faultRate: 0.2, seed: 7).run()
        #expect(report.succeeded)
        #expect(report.edits == 40)
        #expect(report.devices == 3)
    }
}
