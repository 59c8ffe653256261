import CRDTNoteSupport

extension DeviceRecordSummary {
    /// The human-readable report, one `label: value` per line, then one line per replica.
    var text: String {
        var rows = identity.rows(nameLabel: "device record")
        rows.append(("release", announcement.release))
        rows.append(("reads", "format \(announcement.reads)"))
        rows.append(("capabilities", announcement.capabilities.isEmpty ? "(none)" : announcement.capabilities.joined(separator: ", ")))
        rows.append(("name", announcement.name ?? "(none)"))
        rows.append(("last sync", ReportDate.iso(milliseconds: announcement.lastSync)))
        rows.append(("replicas", String(announcement.replicas.count)))
        let lines = rows.map { ReportRow.line($0.0, $0.1) } + announcement.replicas.map { "  \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON report (`"kind": "device"`); keys and their order are stable (Docs/CLI.md).
    func jsonValue() -> JSONValue {
        .object(JSONObject([("kind", .string("device"))] + identity.jsonPairs + [
            ("release", .string(announcement.release)),
            ("reads", .number(JSONNumber(Int(announcement.reads)))),
            ("capabilities", .array(announcement.capabilities.map(JSONValue.string))),
            ("name", announcement.name.map(JSONValue.string) ?? .null),
            ("lastSync", .string(ReportDate.iso(milliseconds: announcement.lastSync))),
            // Strings: 64-bit ids do not fit a JSON number that every reader parses exactly.
            ("replicas", .array(announcement.replicas.map { .string(String($0)) })),
        ]))
    }
}
