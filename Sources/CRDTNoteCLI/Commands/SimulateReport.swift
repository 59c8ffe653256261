import CRDTNoteSupport
import CRDTNoteTesting

extension NoteSyncSimulationReport {
    /// The report as a JSON object (the CLI's `--json` output).
    func jsonValue() -> JSONValue {
        let faults = JSONObject([
            ("networkFailure", .number(JSONNumber(faultCounts.networkFailure))),
            ("requestRateLimited", .number(JSONNumber(faultCounts.requestRateLimited))),
            ("serviceUnavailable", .number(JSONNumber(faultCounts.serviceUnavailable))),
            ("partialFailure", .number(JSONNumber(faultCounts.partialFailure))),
            ("limitExceeded", .number(JSONNumber(faultCounts.limitExceeded))),
            ("zoneNotFound", .number(JSONNumber(faultCounts.zoneNotFound))),
            ("userDeletedZone", .number(JSONNumber(faultCounts.userDeletedZone))),
        ])
        return .object(JSONObject([
            ("devices", .number(JSONNumber(devices))), ("notes", .number(JSONNumber(notes))), ("edits", .number(JSONNumber(edits))),
            ("conflictsMerged", .number(JSONNumber(conflictsMerged))), ("retries", .number(JSONNumber(retries))),
            ("faultsInjected", .number(JSONNumber(faultsInjected))), ("lostEdits", .number(JSONNumber(lostEdits))),
            ("converged", .bool(converged)), ("faults", .object(faults)),
            ("divergentNotes", .array(divergentNotes.map(JSONValue.string))), ("failedSyncs", .number(JSONNumber(failedSyncs))),
            ("quiescenceRounds", .number(JSONNumber(quiescenceRounds))), ("secondsWaited", .number(JSONNumber(secondsWaited))),
            ("notesResurrected", .number(JSONNumber(notesResurrected))), ("zoneRecoveries", .number(JSONNumber(zoneRecoveries))),
            ("resurrectedEdits", .number(JSONNumber(resurrectedEdits))), ("crashes", .number(JSONNumber(crashes))),
            ("notificationsDelivered", .number(JSONNumber(notificationsDelivered))),
            ("notificationsDropped", .number(JSONNumber(notificationsDropped))),
            ("notificationSyncs", .number(JSONNumber(notificationSyncs))),
            ("recordsByFormatBeforeUpdate", .object(Self.counts(recordsByFormatBeforeUpdate))),
            ("recordsByFormatAfterUpdate", .object(Self.counts(recordsByFormatAfterUpdate))),
            ("unreadableRecordsWritten", .number(JSONNumber(unreadableRecordsWritten))),
            ("notesCompacted", .number(JSONNumber(notesCompacted))),
            ("setupFailures", .array(setupFailures.map(JSONValue.string))),
        ]))
    }

    /// A count per key, keys sorted.
    static func counts(_ counts: [String: Int]) -> JSONObject {
        JSONObject(counts.keys.sorted().map { ($0, JSONValue.number(JSONNumber(counts[$0] ?? 0))) })
    }

    /// The text report: one `key: value` line per figure.
    var textLines: String {
        [
            "devices: \(devices)", "notes: \(notes)", "edits: \(edits)", "conflicts merged: \(conflictsMerged)",
            "retries: \(retries)", "faults injected: \(faultsInjected)", "lost edits: \(lostEdits)", "converged: \(converged)",
        ].joined(separator: "\n")
    }
}
