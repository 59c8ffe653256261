import CRDTNoteSupport
import CRDTNote
/// The CloudKit Web Services JSON form of records (what the CLI reads and writes).
extension CloudRecord {
    private static let knownKeys: Set<String> = [
        "recordName", "recordType", "recordChangeTag", "zoneID", "created", "modified", "deleted", "fields",
    ]

    /// Reads every record in a JSON document: a bare record dictionary, `{"records": [...]}`
    /// (a Web Services response) or a top-level array of record dictionaries.
    public static func records(fromJSON bytes: [UInt8]) throws(RecordJSONError) -> [CloudRecord] {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw RecordJSONError(.invalidJSON, path: "", error.description)
        }
        return try records(fromJSON: json)
    }

    /// Reads every record in an already parsed document (see `records(fromJSON:)`).
    package static func records(fromJSON json: JSONValue) throws(RecordJSONError) -> [CloudRecord] {
        let list: [JSONValue]
        let base: String
        switch json {
        case .object(let object) where object["records"] != nil && object["recordName"] == nil:
            guard case .array(let array)? = object["records"] else {
                throw RecordJSONError(.wrongType, path: "records", "expected an array of records")
            }
            list = array
            base = "records"
        case .object:
            return [try CloudRecord(json: json)]
        case .array(let array):
            list = array
            base = ""
        default:
            throw RecordJSONError(.notARecord, path: "", "expected a record dictionary or {\"records\": [...]}, found \(json.typeDescription)")
        }
        var out: [CloudRecord] = []
        out.reserveCapacity(list.count)
        for (i, element) in list.enumerated() {
            out.append(try CloudRecord(json: element, path: JSONPath.element(base, i)))
        }
        return out
    }

    /// Reads a document that must hold exactly one record.
    public static func record(fromJSON bytes: [UInt8]) throws(RecordJSONError) -> CloudRecord {
        let all = try records(fromJSON: bytes)
        guard all.count == 1, let only = all.first else {
            throw RecordJSONError(all.isEmpty ? .notARecord : .multipleRecords, path: "",
                                  "expected exactly one record, found \(all.count)")
        }
        return only
    }

    /// Reads one record dictionary; `path` prefixes error paths (e.g. "records[2]").
    package init(json: JSONValue, path: String = "") throws(RecordJSONError) {
        let r = try RecordJSONReader(json, path: path, what: "a record dictionary")
        if let code = r.object["serverErrorCode"]?.stringValue {
            let reason = r.object["reason"]?.stringValue ?? "no reason given"
            throw RecordJSONError(.serverError, path: path, "CloudKit error \(code): \(reason)")
        }
        self.init(recordName: try r.string("recordName"), recordType: try r.string("recordType"))
        recordChangeTag = try r.optionalString("recordChangeTag")
        deleted = try r.optionalBool("deleted")
        if let z = r.object["zoneID"], !z.isNull { zoneID = try RecordZoneID(json: z, path: r.keyPath("zoneID")) }
        if let c = r.object["created"], !c.isNull { created = try RecordTimestampInfo(json: c, path: r.keyPath("created")) }
        if let m = r.object["modified"], !m.isNull { modified = try RecordTimestampInfo(json: m, path: r.keyPath("modified")) }
        if let f = r.object["fields"], !f.isNull {
            guard case .object(let fieldsObject) = f else {
                throw RecordJSONError(.wrongType, path: r.keyPath("fields"), "expected an object, found \(f.typeDescription)")
            }
            let fieldsPath = r.keyPath("fields")
            for member in fieldsObject.members {
                // Parsed JSON has no duplicate names (the parser refuses them); for an object
                // built in code, the last one wins, at its first position.
                let field = try RecordField(json: member.value, path: JSONPath.member(fieldsPath, member.key))
                if fields.updateValue(field, forKey: member.key) == nil { fieldOrder.append(member.key) }
            }
        }
        extra = r.extra(excluding: Self.knownKeys)
        // CloudKit system fields, archived by the CloudKit adapter, travel as base64 under their
        // own key; anything unreadable there stays an unknown key.
        if case .string(let text)? = extra[Self.systemFieldsKey], let bytes = try? Base64.decode(text) {
            systemFields = bytes
            extra = extra.removing([Self.systemFieldsKey])
        }
    }

    /// Top-level key of the JSON form holding ``CloudRecord/systemFields`` as base64.
    static let systemFieldsKey = "crdtnoteSystemFields"

    /// The record dictionary: known keys in CloudKit's usual order, `fields` in `orderedFieldNames`
    /// order, then unknown top-level keys in their original order.
    package func jsonValue() -> JSONValue {
        var o = JSONObject([("recordName", .string(recordName)), ("recordType", .string(recordType))])
        o.appendIfPresent("recordChangeTag", recordChangeTag.map(JSONValue.string))
        o.appendIfPresent("zoneID", zoneID?.jsonValue())
        o.appendIfPresent("created", created?.jsonValue())
        o.appendIfPresent("modified", modified?.jsonValue())
        o.appendIfPresent("deleted", deleted.map(JSONValue.bool))
        var f = JSONObject()
        for name in orderedFieldNames {
            if let field = fields[name] { f.append(key: name, value: field.jsonValue()) }
        }
        o.append(key: "fields", value: .object(f))
        o.append(contentsOf: extra)
        o.appendIfPresent(Self.systemFieldsKey, systemFields.map { .string(Base64.encode($0)) })
        return .object(o)
    }

    /// The serialized record dictionary; `pretty` output ends with a newline.
    public func jsonBytes(pretty: Bool = true) -> [UInt8] {
        var bytes = jsonValue().serialized(pretty: pretty)
        if pretty { bytes.append(0x0A) }
        return bytes
    }

    /// Serializes several records as `{"records": [...]}`.
    public static func jsonBytes(records: [CloudRecord], pretty: Bool = true) -> [UInt8] {
        var bytes = JSONValue.object(JSONObject([("records", .array(records.map { $0.jsonValue() }))])).serialized(pretty: pretty)
        if pretty { bytes.append(0x0A) }
        return bytes
    }
}
