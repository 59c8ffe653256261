import CRDTNoteToolSupport
import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteSupport

/// The second reader (Tests/Fixtures/golden/second_reader.py, FORMAT.md alone) against the library
/// on what issue 29 added to the format: the rule-order check of §4.4 (the second reader builds
/// the rule's order from the right and compares; the library checks the stored order in one pass)
/// and the run density bound of §4.5. Both accept or both refuse, with the same kind at the same
/// byte. Skipped without python3.
@Suite("Second reader (rule order, run density)", .enabled(if: GoldenFixtureFactsTests.python != nil, "python3 is not installed"))
struct SecondReaderRuleOrderTests {
    @Test func agreesOnCraftedPayloads() throws {
        func siblings(_ order: [Int]) -> SpecState {
            let runs = [SpecState.Run(replica: 0, seq: 0, length: 1, deleted: false, left: nil, right: nil, text: "b"),
                        SpecState.Run(replica: 1, seq: 0, length: 1, deleted: false, left: nil, right: nil, text: "a")]
            return SpecState(replicas: [.init(id: 9, nextSeq: 1), .init(id: 7, nextSeq: 1)], runs: order.map { runs[$0] })
        }
        var payloads = [siblings([0, 1]).formatOne(), siblings([0, 1]).formatTwo(), siblings([1, 0]).formatOne(), siblings([1, 0]).formatTwo(),
                        RunDensityTests.bomb(runs: 1 << 21)]
        for runs in [176, 177, 300] { payloads.append(RunDensityTests.bomb(runs: runs)) }
        let sibling = MergeCostTests.siblings(replicas: 30, runsPerReplica: 3, seed: 5)
        payloads += [sibling.formatOne(), sibling.formatTwo()]
        var reversed = sibling
        reversed.runs.reverse()
        payloads += [reversed.formatOne(), reversed.formatTwo()]
        try Self.compare(payloads, expectRefusals: 6)
    }

    /// The structure-aware fuzz states of `IntegrationOrderTests`, in both formats.
    @Test func agreesOnRandomWellFramedStates() throws {
        var rng = SplitMix64(seed: 41)
        var payloads: [[UInt8]] = []
        for _ in 0..<300 {
            let state = RandomStates.make(&rng)
            payloads += [state.formatOne(), state.formatTwo()]
        }
        try Self.compare(payloads, expectRefusals: 100)
    }

    /// Runs the second reader over `payloads` and checks it agrees with the library on each.
    static func compare(_ payloads: [[UInt8]], expectRefusals: Int) throws {
        let dumps = try SecondReaderFormatTwoTests.dump(payloads)
        var refusals = 0
        for (i, (payload, dump)) in zip(payloads, dumps).enumerated() {
            let library = SecondReaderFormatTwoTests.libraryVerdict(payload)
            if let text = library.text {
                #expect(dump.ok && dump.text == text, "payload \(i): library accepts, second reader \(dump.json)")
            } else {
                refusals += 1
                #expect(!dump.ok && dump.kind == library.kind && dump.offset == library.offset,
                        "payload \(i): library \(library), second reader \(dump.json)")
            }
        }
        #expect(refusals >= expectRefusals, "\(refusals) refusals")
    }
}
