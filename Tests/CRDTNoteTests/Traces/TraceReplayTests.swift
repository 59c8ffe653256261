import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

private func replayError(_ body: () throws(TraceError) -> NoteText) -> TraceError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

@Suite("Trace replay")
struct TraceReplayTests {
    @Test func sequentialSmallTraceWithUnicode() throws {
        let trace = SequentialTrace(startContent: "ab", endContent: "a😀\u{301}c\r\n", transactions: [
            [TracePatch(position: 1, deleteCount: 1, insert: "😀c")],
            [TracePatch(position: 2, deleteCount: 0, insert: "\u{301}"), TracePatch(position: 4, deleteCount: 0, insert: "\r\n")],
        ])
        let note = try TraceReplay.replay(trace, replica: .test(7))
        #expect(note.string == trace.endContent)
        #expect(note.replica == .test(7))
        #expect(note.scalarCount == 6)
    }

    @Test func flatSequentialStorage() throws {
        let a = TracePatch(position: 0, deleteCount: 0, insert: "a")
        let b = TracePatch(position: 1, deleteCount: 0, insert: "b")
        let trace = SequentialTrace(startContent: "", endContent: "ab", transactions: [[a], [], [b]])
        #expect(trace.transactionCount == 3)
        #expect(trace.transactionStarts == [0, 1, 1])
        #expect(Array(trace.transaction(1)).isEmpty)
        #expect(trace.transactions == [[a], [], [b]])
        // Out-of-order or out-of-range starts are clamped, never trap.
        let clamped = SequentialTrace(startContent: "", endContent: "ab", patches: [a, b], transactionStarts: [1, 0, 9])
        #expect(clamped.transactionStarts == [1, 1, 2])
        #expect(clamped.transaction(0).count == 0)

        // A transaction without "patches" still counts; "patches" twice is refused.
        let json = #"{"endContent": "ab", "txns": [{"patches": [[0, 0, "a"]]}, {"time": "t"}, {"patches": [[1, 0, "b"]]}]}"#
        guard case .sequential(let parsed) = try EditingTrace(jsonBytes: Array(json.utf8)) else {
            Issue.record("expected a sequential trace")
            return
        }
        #expect(parsed.transactions == [[a], [], [b]])
        #expect(try TraceReplay.replay(parsed).string == "ab")
        let twice = #"{"endContent": "", "txns": [{"patches": [], "patches": []}]}"#
        #expect(throws: TraceError.self) { try EditingTrace(jsonBytes: Array(twice.utf8)) }
    }

    @Test func patchOutsideTheDocumentIsATypedError() {
        let trace = SequentialTrace(startContent: "", endContent: "", transactions: [
            [TracePatch(position: 0, deleteCount: 0, insert: "abc")],
            [TracePatch(position: 1, deleteCount: 1, insert: ""), TracePatch(position: 2, deleteCount: 1, insert: "x")],
        ])
        let error = replayError { () throws(TraceError) in try TraceReplay.replay(trace) }
        #expect(error?.message.hasPrefix("txns[1].patches[1]:") == true)

        let huge = SequentialTrace(startContent: "abc", endContent: "", transactions: [
            [TracePatch(position: 1, deleteCount: Int.max, insert: "")],
        ])
        #expect(replayError { () throws(TraceError) in try TraceReplay.replay(huge) }?.message.hasPrefix("txns[0].patches[0]:") == true)
    }

    @Test func concurrentSmallTrace() throws {
        // 0: agent 0 types "ac"; 1 and 2 branch from it; 3 merges both.
        let trace = ConcurrentTrace(numAgents: 2, endContent: "XabcY!", transactions: [
            .init(parents: [], agent: 0, patches: [TracePatch(position: 0, deleteCount: 0, insert: "ac")]),
            .init(parents: [0], agent: 0, patches: [TracePatch(position: 1, deleteCount: 0, insert: "b"), TracePatch(position: 3, deleteCount: 0, insert: "Y")]),
            .init(parents: [0], agent: 1, patches: [TracePatch(position: 0, deleteCount: 0, insert: "X")]),
            .init(parents: [1, 2], agent: 1, patches: [TracePatch(position: 5, deleteCount: 0, insert: "!")]),
        ])
        #expect(try TraceReplay.replay(trace).string == "XabcY!")

        // Without the merging transaction, the two tips are merged at the end.
        var tips = trace
        tips.transactions.removeLast()
        #expect(try TraceReplay.replay(tips).string == "XabcY")

        // A branch that only deletes must still be merged (version vectors count insertions only).
        let deleteOnly = ConcurrentTrace(numAgents: 2, endContent: "bcd", transactions: [
            .init(parents: [], agent: 0, patches: [TracePatch(position: 0, deleteCount: 0, insert: "abc")]),
            .init(parents: [0], agent: 1, patches: [TracePatch(position: 0, deleteCount: 1, insert: "")]),
            .init(parents: [0], agent: 0, patches: [TracePatch(position: 3, deleteCount: 0, insert: "d")]),
            .init(parents: [2, 1], agent: 0, patches: []),
        ])
        #expect(try TraceReplay.replay(deleteOnly).string == "bcd")

        var bad = trace
        bad.transactions[2].patches = [TracePatch(position: 3, deleteCount: 0, insert: "X")]
        #expect(replayError { () throws(TraceError) in try TraceReplay.replay(bad) }?.message.hasPrefix("txns[2].patches[0]:") == true)
        var forward = trace
        forward.transactions[1].parents = [1]
        #expect(replayError { () throws(TraceError) in try TraceReplay.replay(forward) }?.message.hasPrefix("txns[1]:") == true)
    }

    @Test func loadReportsMissingAndMalformedFiles() throws {
        #expect(throws: TraceError.self) { try EditingTrace.load(contentsOf: "/nonexistent/trace.json") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("crdtnote-trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("t.json").path
        try Data(#"{"endContent": "hi", "txns": [{"patches": [[0, 0, "hi"]]}]}"#.utf8).write(to: URL(fileURLWithPath: plain))
        guard case .sequential(let trace) = try EditingTrace.load(contentsOf: plain) else {
            Issue.record("expected a sequential trace")
            return
        }
        #expect(try TraceReplay.replay(trace).string == "hi")
        let corrupt = dir.appendingPathComponent("t.json.gz").path
        try Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 0xFF, 0xFF]).write(to: URL(fileURLWithPath: corrupt))
        do {
            _ = try EditingTrace.load(contentsOf: corrupt)
            Issue.record("corrupt gzip was accepted")
        } catch {
            #expect(error.message.contains("gzip"))
        }
    }

    @Test(.enabled(if: SharedTraces.isInstalled("automerge-paper.json.gz"), "needs ../shared/traces/automerge-paper.json.gz"))
    func automergePaperReplaysToEndContent() throws {
        let loaded = try SharedTraces.load("automerge-paper.json.gz")
        guard case .sequential(let trace) = loaded else {
            Issue.record("expected a sequential trace")
            return
        }
        let note = try TraceReplay.replay(trace)
        #expect(note.scalarCount == 104_852)
        #expect(note.string == trace.endContent)
        NoteText.expectSound([note])
    }

    @Test(.enabled(if: SharedTraces.isInstalled("seph-blog1.json.gz"), "needs ../shared/traces/seph-blog1.json.gz"))
    func sephBlogReplaysToEndContent() throws {
        let loaded = try SharedTraces.load("seph-blog1.json.gz")
        guard case .sequential(let trace) = loaded else {
            Issue.record("expected a sequential trace")
            return
        }
        let note = try TraceReplay.replay(trace)
        #expect(note.scalarCount == 56_769)
        #expect(note.string == trace.endContent)
        NoteText.expectSound([note])
    }

    @Test(.enabled(if: SharedTraces.isInstalled("clownschool.concurrent.json.gz"), "needs ../shared/traces/clownschool.concurrent.json.gz"))
    func clownschoolReplaysToEndContent() throws {
        let loaded = try SharedTraces.load("clownschool.concurrent.json.gz")
        guard case .concurrent(let trace) = loaded else {
            Issue.record("expected a concurrent trace")
            return
        }
        let note = try TraceReplay.replay(trace)
        #expect(note.scalarCount == 21_148)
        #expect(note.string == trace.endContent)
        #expect(Set(note.version.counts.keys) == [.test(1), .test(2), .test(3)])
        NoteText.expectSound([note])
    }
}
