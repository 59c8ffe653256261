/// Mapping between CloudKit Web Services field types and `RecordFieldValue`.
extension RecordFieldValue {
    /// The scalar kinds a `*_LIST` can hold.
    enum ScalarKind: String {
        case string = "STRING", int64 = "INT64", double = "DOUBLE", timestamp = "TIMESTAMP"
        case bytes = "BYTES", asset = "ASSET", reference = "REFERENCE"

        init?(typeName: String) {
            if typeName == "ASSETID" { self = .asset } else { self.init(rawValue: typeName) }
        }
    }

    /// The scalar kind of this value, nil for lists and opaque values.
    var scalarKind: ScalarKind? {
        switch self {
        case .string: return .string
        case .int64: return .int64
        case .double: return .double
        case .timestamp: return .timestamp
        case .bytes: return .bytes
        case .asset: return .asset
        case .reference: return .reference
        case .list, .opaque: return nil
        }
    }

    /// The type written for this value when the field has no fitting spelling of its own.
    /// An empty list is a STRING_LIST.
    public var defaultTypeName: String {
        switch self {
        case .list(let elements):
            return (elements.first?.defaultTypeName ?? "STRING") + "_LIST"
        case .opaque(let type, _):
            return type
        default:
            return scalarKind?.rawValue ?? ""
        }
    }

    /// Whether reading this value back under `typeName` gives the same kind of value.
    func fits(typeName: String) -> Bool {
        if let kind = ScalarKind(typeName: typeName) { return scalarKind == kind }
        if typeName.hasSuffix("_LIST"), let kind = ScalarKind(typeName: String(typeName.dropLast(5))) {
            guard case .list(let elements) = self else { return false }
            return elements.allSatisfy { $0.scalarKind == kind }
        }
        if case .opaque(let type, _) = self { return type == typeName }
        return false
    }

    /// Whether a field holding this value can be written without a `type` key and be read
    /// back equal (the inference rule: string -> STRING, integer -> INT64, other number ->
    /// DOUBLE, anything else -> opaque with type "").
    var isInferable: Bool {
        switch self {
        case .string, .int64, .double: return true
        case .opaque(let type, let value):
            switch value {
            case .string, .number: return false
            default: return type.isEmpty
            }
        default: return false
        }
    }

    /// Reads a field value. `type == nil` means the field dictionary had no `type` key.
    static func decode(type: String?, value: JSONValue, path: String) throws(RecordJSONError) -> RecordFieldValue {
        guard let type else {
            switch value {
            case .string(let s): return .string(s)
            case .number(let n): return n.int64Value.map(RecordFieldValue.int64) ?? .double(n.doubleValue ?? 0)
            default: return .opaque(type: "", value: value)
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
        return .opaque(type: type, value: value)
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
    public func jsonValue() -> JSONValue {
        switch self {
        case .string(let s): return .string(s)
        case .int64(let v), .timestamp(let v): return .number(JSONNumber(v))
        case .double(let d): return .number(JSONNumber(d))
        case .bytes(let b): return .string(Base64.encode(b))
        case .asset(let a): return a.jsonValue()
        case .reference(let r): return r.jsonValue()
        case .list(let elements): return .array(elements.map { $0.jsonValue() })
        case .opaque(_, let value): return value
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
        self.init(decoded, typeName: type, extra: object.removing(["value", "type"]))
    }

    /// The type spelling to write, or nil for none (see `typeName`).
    var writtenTypeName: String? {
        if let typeName {
            return value.fits(typeName: typeName) ? typeName : value.defaultTypeName
        }
        return value.isInferable ? nil : value.defaultTypeName
    }

    /// The field dictionary: `value`, `type`, then the extra keys.
    func jsonValue() -> JSONValue {
        var object = JSONObject([("value", value.jsonValue())])
        if let type = writtenTypeName { object.append(key: "type", value: .string(type)) }
        for member in extra.members { object.append(key: member.key, value: member.value) }
        return .object(object)
    }
}
