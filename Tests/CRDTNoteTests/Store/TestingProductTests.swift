import CRDTNote
import CRDTNoteTesting
import Foundation
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

    @Test func progressIsReportedWithoutChangingTheRun() async {
        let simulation = NoteSyncSimulation(devices: 3, notes: 2, edits: 100, faultRate: 0.2, seed: 11, crashRate: 0.05)
        let seen = ProgressLog()
        let withProgress = await simulation.run(progress: { seen.append($0) })
        let without = await simulation.run()
        #expect(withProgress == without)
        let steps = seen.all
        #expect(steps.last?.editsDone == 100)
        #expect(steps.map(\.editsDone) == steps.map(\.editsDone).sorted())
        #expect(steps.allSatisfy { $0.edits == 100 })
        #expect((steps.last?.crashes ?? 0) <= without.crashes)   // later crashes happen while settling
    }
}

/// Collects progress reports (the callback is `@Sendable`).
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [NoteSyncSimulationProgress] = []
    func append(_ item: NoteSyncSimulationProgress) { lock.lock(); items.append(item); lock.unlock() }
    var all: [NoteSyncSimulationProgress] { lock.lock(); defer { lock.unlock() }; return items }
}
