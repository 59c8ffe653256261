import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport

/// Runs `crdtnote show`: a description of the record as aligned text or one JSON object.
/// A device record is shown for what it is (``DeviceRecordSummary``).
func runShow(_ options: ShowOptions) throws(CLIError) {
    let output: [UInt8]
    switch try LoadedRecord.load(options.recordPath, assets: options.assets) {
    case .note(let file):
        let summary = try RecordSummary(file)
        output = options.json ? summary.jsonValue().serialized(pretty: true) + [0x0A] : Array(summary.text.utf8)
    case .device(let record, let file):
        let summary = try DeviceRecordSummary(record, file: file)
        output = options.json ? summary.jsonValue().serialized(pretty: true) + [0x0A] : Array(summary.text.utf8)
    }
    try OutputWriter.writeToStandardOutput(output)
}

extension RecordSummary {
    /// How the note was read, in words.
    var originDescription: String {
        switch origin {
        case .legacyText: "legacy plain text (upgraded on read)"
        case .payload: "CRDT payload"
        case .payloadWithFoldedText: "CRDT payload plus a text change by an older app (folded in on read)"
        }
    }

    /// How the note was read, as a stable JSON word.
    var originKey: String {
        switch origin {
        case .legacyText: "legacyText"
        case .payload: "payload"
        case .payloadWithFoldedText: "payloadWithFoldedText"
        }
    }

    /// The human-readable report, one `label: value` per line.
    var text: String {
        var rows = identity.rows(nameLabel: "record")
        rows.append(("schema version", String(schemaVersion)))
        rows.append(("read from", originDescription))
        if payloads.isEmpty { rows.append(("payload", "none")) }
        for payload in payloads {
            rows.append(("payload", "\(payload.inline ? "inline" : "asset") (field \(payload.field)), "
                + "\(payload.encodedBytes) bytes, format \(payload.formatVersion), "
                + "minimum reader \(payload.minimumReaderVersion)"))
        }
        rows.append(("text", "\(scalars) scalars, \(utf16) UTF-16 units, \(utf8) UTF-8 bytes (field text: \(textStorage))"))
        rows.append(("runs", String(runs)))
        rows.append(("replicas", String(replicas.count)))
        var lines = rows.map { ReportRow.line($0.0, $0.1) }
        for history in replicas {
            var line = "  " + ReportRow.pad(history.replica.description, to: 22) + "\(history.insertedCount) inserted"
            if let range = Self.range(history.firstInsertion, history.latestEdit) { line += ", " + range }
            lines.append(line)
        }
        var tail: [(String, String)] = []
        if let range = Self.range(earliest, latest) { tail.append(("edits", range)) }
        if let modifiedField { tail.append(("modified field", ReportDate.iso(milliseconds: modifiedField))) }
        lines += tail.map { ReportRow.line($0.0, $0.1) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON report; keys and their order are stable (documented in Docs/CLI.md).
    func jsonValue() -> JSONValue {
        func date(_ stamp: HLCTimestamp?) -> JSONValue { stamp.map { .string(ReportDate.iso($0)) } ?? .null }
        func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
        let payloadValues: [JSONValue] = payloads.map { payload in
            .object(JSONObject([
                ("field", .string(payload.field)),
                ("storage", .string(payload.inline ? "inline" : "asset")),
                ("encodedBytes", number(payload.encodedBytes)),
                ("formatVersion", number(Int(payload.formatVersion))),
                ("minimumReaderVersion", number(Int(payload.minimumReaderVersion))),
            ]))
        }
        let replicaValues: [JSONValue] = replicas.map { history in
            .object(JSONObject([
                // A string: 64-bit ids do not fit a JSON number that every reader parses exactly.
                ("replica", .string(history.replica.description)),
                ("inserted", .number(JSONNumber(Int64(clamping: history.insertedCount)))),
                ("firstInsertion", date(history.firstInsertion)),
                ("latestEdit", date(history.latestEdit)),
            ]))
        }
        return .object(JSONObject(identity.jsonPairs + [
            ("schemaVersion", .number(JSONNumber(schemaVersion))),
            ("origin", .string(originKey)),
            ("payloads", .array(payloadValues)),
            ("text", .object(JSONObject([
                ("storage", .string(textStorage)),
                ("scalars", number(scalars)),
                ("utf16", number(utf16)),
                ("utf8", number(utf8)),
            ]))),
            ("runs", number(runs)),
            ("replicas", .array(replicaValues)),
            ("clock", .object(JSONObject([("earliest", date(earliest)), ("latest", date(latest))]))),
            ("modifiedField", modifiedField.map { .string(ReportDate.iso(milliseconds: $0)) } ?? .null),
        ]))
    }

    private static func range(_ first: HLCTimestamp?, _ last: HLCTimestamp?) -> String? {
        switch (first, last) {
        case let (first?, last?): "\(ReportDate.iso(first)) to \(ReportDate.iso(last))"
        case let (nil, last?): "latest \(ReportDate.iso(last))"
        case let (first?, nil): "from \(ReportDate.iso(first))"
        case (nil, nil): nil
        }
    }
}
