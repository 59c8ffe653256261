import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// The decompressed JSON of a shared trace (tests using it are enabled only when it is installed).
private func loadTrace(_ name: String) throws -> [UInt8] {
    try SharedTraces.jsonBytes(name + ".json.gz")
}

/// The naive test oracle: splice patches into a scalar array.
private func replay(_ trace: SequentialTrace) -> String {
    var doc = Array(trace.startContent.unicodeScalars)
    for txn in trace.transactions {
        for p in txn {
            doc.replaceSubrange(p.position..<(p.position + p.deleteCount), with: p.insert.unicodeScalars)
        }
    }
    var out = String.UnicodeScalarView()
    out.append(contentsOf: doc)
    return String(out)
}

private func traceError(_ json: String) -> TraceError? {
    do {
        _ = try EditingTrace(jsonBytes: Array(json.utf8))
        return nil
    } catch {
        return error
    }
}

@Suite("Editing traces")
struct EditingTraceTests {
    @Test func smallSequentialTraceWithUnicode() throws {
        let json = #"{"startContent": "ab", "endContent": "a😀\u0301c\r\n", "txns": [{"time": "x", "patches": [[1, 1, "😀c"]]}, {"patches": [[2, 0, "\u0301"], [4, 0, "\r\n"]]}]}"#
        guard case .sequential(let trace) = try EditingTrace(jsonBytes: Array(json.utf8)) else {
            Issue.record("expected a sequential trace")
            return
        }
        #expect(trace.transactions.count == 2)
        #expect(trace.transactions[1][1] == TracePatch(position: 4, deleteCount: 0, insert: "\r\n"))
        #expect(replay(trace) == trace.endContent)
    }

    @Test func concurrentValidation() throws {
        let ok = #"{"kind": "concurrent", "endContent": "ab", "numAgents": 2, "txns": [{"parents": [], "numChildren": 2, "agent": 0, "patches": [[0, 0, "a"]]}, {"parents": [0], "agent": 1, "patches": [[1, 0, "b"]]}]}"#
        guard case .concurrent(let trace) = try EditingTrace(jsonBytes: Array(ok.utf8)) else {
            Issue.record("expected a concurrent trace")
            return
        }
        #expect(trace.numAgents == 2)
        #expect(trace.transactions[1].parents == [0])
        #expect(trace.transactions[1].agent == 1)

        let forwardParent = ok.replacingOccurrences(of: #""parents": [0]"#, with: #""parents": [1]"#)
        #expect(traceError(forwardParent)?.message == "txns[1].parents[0]: parent 1 is not an earlier transaction")
        let badAgent = ok.replacingOccurrences(of: #""agent": 1"#, with: #""agent": 2"#)
        #expect(traceError(badAgent)?.message.hasPrefix("txns[1]: agent 2") == true)
        let negative = ok.replacingOccurrences(of: "[1, 0, \"b\"]", with: "[-1, 0, \"b\"]")
        #expect(traceError(negative)?.message.hasPrefix("txns[1].patches[0]") == true)
        #expect(traceError(ok.replacingOccurrences(of: "\"concurrent\"", with: "\"other\"")) != nil)
        #expect(traceError(#"{"endContent": "", "txns": [{"patches": [[0, 0]]}]}"#) != nil)
        #expect(traceError(#"{"endContent": "", "txns": [{"patches": [[0.5, 0, ""]]}]}"#) != nil)
        #expect(traceError(#"{"endContent": ""}"#)?.message == "missing \"txns\"")
        #expect(traceError(#"{"endContent": "", "txns": []"#)?.message.contains("invalid trace JSON") == true)
    }

    @Test func decompressedSizeIsLimited() throws {
        #expect(EditingTrace.maximumTraceBytes == 64 << 20)
        // The bomb is real DEFLATE: within a large limit it inflates fully (258,001 spaces)
        // and only the trailer's CRC (left 0 by the builder) is wrong.
        let small = GzipBomb.spaces(matches: 1000)
        #expect(throws: BinaryDecodingError.self) { try Gzip.decompress(small, maxOutputBytes: 1 << 20) }
        do {
            _ = try Gzip.decompress(small, maxOutputBytes: 1 << 20)
        } catch {
            #expect(error.code == .checksumMismatch)
        }
        // Past the limit, inflating stops with a typed error, for traces too.
        let bomb = GzipBomb.spaces(matches: 10_000)
        do {
            _ = try EditingTrace(fileBytes: bomb, maxBytes: 1 << 20)
            Issue.record("expected an error")
        } catch {
            #expect(error.gzipError?.code == .outputTooLarge)
            #expect(error.message == "gzip data decompresses to more than the 1 MiB limit for a trace")
        }
        // A plain trace over the limit is refused as well; at the limit it is read.
        let plain = Array(#"{"endContent": "", "txns": []}"#.utf8)
        #expect(throws: TraceError.self) { try EditingTrace(fileBytes: plain + [0x20], maxBytes: plain.count) }
        _ = try EditingTrace(fileBytes: plain, maxBytes: plain.count)
    }

    @Test func duplicateKeysAndBadUTF8Refused() throws {
        // The streaming reader goes through the same object reader as records: duplicates
        // (at the top, in a transaction, in an unknown key's value) are errors with a position.
        let top = traceError(#"{"endContent": "a", "txns": [], "endContent": "b"}"#)
        #expect(top?.message == #"invalid trace JSON: JSON error at 1:33 (byte 32): duplicate key "endContent" in object"#)
        let inTxn = traceError(#"{"kind": "concurrent", "endContent": "", "numAgents": 2, "txns": [{"agent": 0, "agent": 1, "patches": []}]}"#)
        #expect(inTxn?.message.contains(#"duplicate key "agent" in object"#) == true)
        #expect(traceError(#"{"endContent": "", "txns": [], "x": {"y": 1, "y": 2}}"#)?.message.contains(#"duplicate key "y""#) == true)
        // Invalid UTF-8 before an escape in trace text is refused, not turned into U+FFFD.
        var bytes = Array(#"{"endContent": "a"#.utf8) + [0xFF] + Array(#"\n", "txns": []}"#.utf8)
        do {
            _ = try EditingTrace(jsonBytes: bytes)
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "invalid trace JSON: JSON error at 1:18 (byte 17): invalid UTF-8 in string")
        }
        bytes = Array(#"{"endContent": "a\n", "txns": []}"#.utf8)
        _ = try EditingTrace(jsonBytes: bytes)
    }

    @Test(.enabled(if: SharedTraces.isInstalled("automerge-paper.json.gz"), "needs ../shared/traces/automerge-paper.json.gz"))
    func automergePaper() throws {
        let bytes = try loadTrace("automerge-paper")
        let clock = ContinuousClock()
        let start = clock.now
        guard case .sequential(let trace) = try EditingTrace(jsonBytes: bytes) else {
            Issue.record("expected a sequential trace")
            return
        }
        print("automerge-paper parsed in \(clock.now - start) (debug build)")
        #expect(trace.transactions.count == 259_778)
        #expect(trace.endContent.unicodeScalars.count == 104_852)
        #expect(replay(trace) == trace.endContent)
    }

    @Test(.enabled(if: SharedTraces.isInstalled("seph-blog1.json.gz"), "needs ../shared/traces/seph-blog1.json.gz"))
    func sephBlog() throws {
        let bytes = try loadTrace("seph-blog1")
        guard case .sequential(let trace) = try EditingTrace(jsonBytes: bytes) else {
            Issue.record("expected a sequential trace")
            return
        }
        #expect(trace.transactions.count == 137_154)
        #expect(replay(trace) == trace.endContent)
    }

    @Test(.enabled(if: SharedTraces.isInstalled("clownschool.concurrent.json.gz"), "needs ../shared/traces/clownschool.concurrent.json.gz"))
    func clownschool() throws {
        let bytes = try loadTrace("clownschool.concurrent")
        guard case .concurrent(let trace) = try EditingTrace(jsonBytes: bytes) else {
            Issue.record("expected a concurrent trace")
            return
        }
        #expect(trace.transactions.count == 23_136)
        #expect(trace.numAgents == 3)
        #expect(trace.endContent.unicodeScalars.count == 21_148)
        #expect(Set(trace.transactions.map(\.agent)) == [0, 1, 2])
    }
}
