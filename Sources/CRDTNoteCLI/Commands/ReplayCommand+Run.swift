import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import Foundation

/// Runs `crdtnote replay`: loads the trace (gzipped or plain JSON), replays it `runs` times,
/// reports the outcome, and fails with status 1 when the text differs from `endContent`.
func runReplay(_ options: ReplayOptions) throws(CLIError) {
    let name = RecordFile.displayName(options.tracePath)
    let trace = try loadTrace(options.tracePath, name: name)
    var timings: [Double] = []
    var final = NoteText(replica: ReplicaID(rawValue: 1))
    for _ in 0..<options.runs {
        let start = ContinuousClock.now
        do {
            switch trace {
            case .sequential(let sequential): final = try TraceReplay.replay(sequential)
            case .concurrent(let concurrent): final = try TraceReplay.replay(concurrent)
            }
        } catch {
            throw .trace(error, file: name)
        }
        let elapsed = ContinuousClock.now - start
        timings.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    let report = ReplayReport(file: name, trace: trace, result: final, timings: timings)
    let output = options.json ? report.jsonValue().serialized(pretty: true) + [0x0A] : Array(report.text.utf8)
    try OutputWriter.writeToStandardOutput(output)
    if !report.matches {
        throw CLIError(code: .operationFailed, message: report.mismatchDescription, file: name)
    }
}

/// Reads a trace with the input size limit (so standard input works like a file), plain or gzipped.
private func loadTrace(_ path: String, name: String) throws(CLIError) -> EditingTrace {
    let bytes = [UInt8](try InputReader.read(path))
    do {
        return try EditingTrace(fileBytes: bytes)
    } catch {
        throw .trace(error, file: name)
    }
}
