import CRDTNoteSupport
import CRDTNote
/// Mapping between CloudKit Web Services field types and `RecordFieldValue`.
extension RecordFieldValue {
    /// Reads a field value. `type == nil` means the field dictionary had no `type` key.
    static func decode(type: String?, value: JSONValue, path: String) throws(RecordJSONError) -> RecordFieldValue {
        guard let type else {
            switch value {
            case .string(let s): return .string(s)
            case .number(let n): return n.int64Value.map(RecordFieldValue.int64) ?? .double(n.doubleValue ?? 0)
            default: return .opaque(OpaqueFieldValue(typeName: "", value: value))
            }
        }
        if let kind = ScalarKind(typeName: type) {
            return try decodeScalar(kind, type: type, value, path: path)
        }
        if type.hasSuffix("_LIST"), let kind = ScalarKind(typeName: String(type.dropLast(5))) {
            guard case .array(let elements) = value else {
                throw RecordJSONError(.wrongType, path: path, "expected an array for \(type), found \(value.typeDescription)")
            }
            var out: [RecordFieldValue] = []
            out.reserveCapacity(elements.count)
            for (i, element) in elements.enumerated() {
                out.append(try decodeScalar(kind, type: type, element, path: JSONPath.element(path, i)))
            }
            return .list(out)
        }
        return .opaque(OpaqueFieldValue(typeName: type, value: value))
    }

    private static func decodeScalar(
        _ kind: ScalarKind, type: String, _ value: JSONValue, path: String
    ) throws(RecordJSONError) -> RecordFieldValue {
        func wrong(_ expected: String) -> RecordJSONError {
            RecordJSONError(.wrongType, path: path, "expected \(expected) for \(type), found \(value.typeDescription)")
        }
        switch kind {
        case .string:
            guard case .string(let s) = value else { throw wrong("a string") }
            return .string(s)
        case .int64, .timestamp:
            guard case .number(let n) = value else { throw wrong("an integer") }
            guard let v = n.int64Value ?? integralInt64(n.doubleValue) else {
                throw RecordJSONError(.invalidValue, path: path, "\(n.text) is not a 64-bit integer")
            }
            return kind == .int64 ? .int64(v) : .timestamp(v)
        case .double:
            guard case .number(let n) = value, let d = n.doubleValue else { throw wrong("a number") }
            return .double(d)
        case .bytes:
            guard case .string(let s) = value else { throw wrong("a base64 string") }
            do {
                return .bytes(try Base64.decode(s))
            } catch {
                throw RecordJSONError(.invalidBase64, path: path, "\(error.message) at character \(error.offset)")
            }
        case .asset:
            return .asset(try AssetReference(json: value, path: path))
        case .reference:
            return .reference(try RecordReference(json: value, path: path))
        }
    }

    /// Accepts `1.7e12`-style integers that a JSON writer may have produced.
    private static func integralInt64(_ d: Double?) -> Int64? {
        d.flatMap { Int64(exactly: $0) }
    }

    /// The JSON `value` of this field value.
    package func jsonValue() -> JSONValue {
        switch self {
        case .string(let s): return .string(s)
        case .int64(let v), .timestamp(let v): return .number(JSONNumber(v))
        case .double(let d): return .number(JSONNumber(d))
        case .bytes(let b): return .string(Base64.encode(b))
        case .asset(let a): return a.jsonValue()
        case .reference(let r): return r.jsonValue()
        case .list(let elements): return .array(elements.map { $0.jsonValue() })
        case .opaque(let opaque): return opaque.value
        }
    }
}

extension RecordField {
    /// Reads a field dictionary `{"value": ..., "type": ..., ...}`.
    init(json: JSONValue, path: String) throws(RecordJSONError) {
        guard case .object(let object) = json else {
            throw RecordJSONError(.wrongType, path: path, "expected a field dictionary, found \(json.typeDescription)")
        }
        var type: String?
        if let t = object["type"] {
            guard case .string(let s) = t else {
                throw RecordJSONError(.wrongType, path: JSONPath.member(path, "type"), "expected a string, found \(t.typeDescription)")
            }
            type = s
        }
        guard let value = object["value"] else {
            throw RecordJSONError(.missingKey, path: path, "field has no \"value\"")
        }
        let decoded = try RecordFieldValue.decode(type: type, value: value, path: JSONPath.member(path, "value"))
        // `"isEncrypted": true` marks an encrypted field, as CloudKit Web Services writes it;
        // `false` is a plain field and stays an extra key, so the file writes back as read.
        var encrypted = false
        var known: Set<String> = ["value", "type"]
        if let flag = object[Self.encryptedKey] {
            guard case .bool(let isEncrypted) = flag else {
                throw RecordJSONError(.wrongType, path: JSONPath.member(path, Self.encryptedKey), "expected true or false, found \(flag.typeDescription)")
            }
            if isEncrypted {
                encrypted = true
                known.insert(Self.encryptedKey)
            }
        }
        self.init(decoded, typeName: type, extra: object.removing(known), isEncrypted: encrypted)
    }

    /// The field dictionary key marking an encrypted field.
    static let encryptedKey = "isEncrypted"

    /// The field dictionary: `value`, `type`, `"isEncrypted": true` for an encrypted field, then
    /// the extra keys. An encrypted field always has its `type` (CloudKit refuses an encrypted
    /// value whose type it would have to infer).
    func jsonValue() -> JSONValue {
        var object = JSONObject([("value", value.jsonValue())])
        if let type = writtenTypeName ?? (isEncrypted ? value.defaultTypeName : nil) { object.append(key: "type", value: .string(type)) }
        if isEncrypted { object.append(key: Self.encryptedKey, value: .bool(true)) }
        for member in extra.members where !(isEncrypted && member.key == Self.encryptedKey) {
            object.append(key: member.key, value: member.value)
        }
        return .object(object)
    }
}
