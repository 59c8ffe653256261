import CRDTNote
import CRDTNoteTesting
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport

/// Runs `crdtnote simulate`: the library's seeded sync simulation, reported as text or JSON;
/// fails with status 1 when the devices diverged or an edit was lost.
func runSimulate(_ options: SimulateOptions) async throws(CLIError) {
    let simulation = NoteSyncSimulation(
        devices: options.devices, notes: options.notes, edits: options.edits,
        faultRate: options.faultRate, seed: options.seed, crashRate: options.crashRate,
        dropPushRate: options.dropPushRate, readerFormats: options.readerFormats, updateAt: options.updateAt)
    let line = SimulationProgressLine()
    var progress: (@Sendable (NoteSyncSimulationProgress) -> Void)?
    if let line { progress = { line.show($0) } }
    let report = await simulation.run(progress: progress)
    line?.finish()
    let output: [UInt8]
    if options.json {
        output = report.jsonValue().serialized(pretty: true) + [0x0A]
    } else {
        var text = report.textLines + "\n"
        if !report.divergentNotes.isEmpty {
            text += "divergent notes: \(report.divergentNotes.joined(separator: ", "))\n"
        }
        for failure in report.setupFailures { text += "failed: \(failure)\n" }
        output = Array(text.utf8)
    }
    try OutputWriter.writeToStandardOutput(output)
    guard report.succeeded else {
        var problems: [String] = []
        if !report.converged {
            problems.append("devices did not converge (\(report.divergentNotes.count) divergent note\(report.divergentNotes.count == 1 ? "" : "s"))")
        }
        if report.lostEdits > 0 { problems.append("\(report.lostEdits) edit\(report.lostEdits == 1 ? "" : "s") lost") }
        if report.resurrectedEdits > 0 {
            problems.append("\(report.resurrectedEdits) deletion\(report.resurrectedEdits == 1 ? "" : "s") undone")
        }
        if report.unreadableRecordsWritten > 0 {
            problems.append("\(report.unreadableRecordsWritten) note record\(report.unreadableRecordsWritten == 1 ? "" : "s") saved in a format a device could not read yet")
        }
        if !report.setupFailures.isEmpty {
            problems.append("\(report.setupFailures.count) step\(report.setupFailures.count == 1 ? "" : "s") of the run failed")
        }
        throw CLIError(code: .operationFailed, message: "simulation failed: " + problems.joined(separator: "; "))
    }
}
