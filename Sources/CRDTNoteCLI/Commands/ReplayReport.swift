import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import Foundation

/// The outcome of `crdtnote replay`, printed as text or JSON.
struct ReplayReport: Sendable {
    /// The trace as named in messages.
    var file: String
    /// `sequential` or `concurrent`.
    var kind: String
    /// Agents of a concurrent trace; nil for a sequential one.
    var agents: Int?
    /// Transactions in the trace.
    var transactions: Int
    /// Patches in all transactions.
    var patches: Int
    /// The trace's `endContent`.
    var expected: String
    /// The replayed text.
    var result: String
    /// Milliseconds per run, in run order.
    var timings: [Double]

    /// Summarizes a finished replay.
    init(file: String, trace: EditingTrace, result: NoteText, timings: [Double]) {
        self.file = file
        switch trace {
        case .sequential: (kind, agents) = ("sequential", nil)
        case .concurrent(let concurrent): (kind, agents) = ("concurrent", concurrent.numAgents)
        }
        transactions = trace.transactionCount
        patches = trace.patchCount
        expected = trace.endContent
        self.result = result.string
        self.timings = timings
    }

    /// Whether the replay produced exactly the expected text.
    var matches: Bool { result == expected }

    /// The median run time in milliseconds.
    var median: Double {
        let sorted = timings.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Where the texts first differ, for the error line.
    var mismatchDescription: String {
        var offset = 0
        for (a, b) in zip(result.unicodeScalars, expected.unicodeScalars) {
            if a != b { break }
            offset += 1
        }
        return "replayed text differs from endContent at scalar \(offset) "
            + "(\(result.unicodeScalars.count) scalars, expected \(expected.unicodeScalars.count))"
    }

    /// The human-readable report.
    var text: String {
        let rows: [(String, String)] = [
            ("trace", file),
            ("kind", kind + (agents.map { " (\($0) agents)" } ?? "")),
            ("transactions", String(transactions)),
            ("patches", String(patches)),
            ("final length", "\(result.unicodeScalars.count) scalars"),
            ("expected length", "\(expected.unicodeScalars.count) scalars"),
            ("match", matches ? "true" : "false"),
            ("runs", String(timings.count)),
            ("median", Self.milliseconds(median)),
            ("min", Self.milliseconds(timings.min() ?? 0)),
            ("max", Self.milliseconds(timings.max() ?? 0)),
        ]
        return rows.map { ($0.0 + ":").padding(toLength: 17, withPad: " ", startingAt: 0) + $0.1 }
            .joined(separator: "\n") + "\n"
    }

    /// The JSON report; keys and their order are stable (documented in Docs/CLI.md).
    func jsonValue() -> JSONValue {
        func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
        func ms(_ value: Double) -> JSONValue { .number(JSONNumber((value * 1000).rounded() / 1000)) }
        return .object(JSONObject([
            ("trace", .string(file)),
            ("kind", .string(kind)),
            ("agents", agents.map(number) ?? .null),
            ("transactions", number(transactions)),
            ("patches", number(patches)),
            ("finalLength", number(result.unicodeScalars.count)),
            ("expectedLength", number(expected.unicodeScalars.count)),
            ("match", .bool(matches)),
            ("runs", number(timings.count)),
            ("medianMilliseconds", ms(median)),
            ("minMilliseconds", ms(timings.min() ?? 0)),
            ("maxMilliseconds", ms(timings.max() ?? 0)),
        ]))
    }

    private static func milliseconds(_ value: Double) -> String {
        String(format: "%.3f ms", value)
    }
}
