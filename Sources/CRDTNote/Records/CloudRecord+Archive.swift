import CRDTNoteSupport

// The Codable form of a `CloudRecord`: every part, unknown keys as JSON text (used by the
// sync state's JSON and by the server metadata a note library keeps per note).

func archiveDecodeBase64(_ text: String) throws -> [UInt8] {
    do { return try Base64.decode(text) } catch {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "invalid base64: \(error.message)"))
    }
}

func archiveEncodeJSON(_ object: JSONObject) -> String? {
    object.isEmpty ? nil : JSONValue.object(object).serializedString()
}

func archiveDecodeJSON(_ text: String?) throws -> JSONObject {
    guard let text else { return JSONObject() }
    let parsed: JSONValue
    do {
        parsed = try JSONValue(parsing: text)
    } catch {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "invalid JSON in an archived record: \(error)"))
    }
    guard case .object(let object) = parsed else {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "an archived record holds JSON that is not an object"))
    }
    return object
}

/// A `CloudRecord` as stored in a `NoteSyncState`: every part, unknown keys as JSON text.
struct StoredRecord: Codable {
    var recordName: String
    var recordType: String
    var recordChangeTag: String?
    var zoneID: StoredZone?
    var created: StoredTimestamp?
    var modified: StoredTimestamp?
    var deleted: Bool?
    var fields: [StoredField]
    var fieldOrder: [String]
    var extra: String?
    var systemFields: String?

    init(_ record: CloudRecord) {
        recordName = record.recordName
        recordType = record.recordType
        recordChangeTag = record.recordChangeTag
        zoneID = record.zoneID.map(StoredZone.init)
        created = record.created.map(StoredTimestamp.init)
        modified = record.modified.map(StoredTimestamp.init)
        deleted = record.deleted
        fields = record.fields.keys.sorted().compactMap { name in record.fields[name].map { StoredField(name: name, $0) } }
        fieldOrder = record.fieldOrder
        extra = archiveEncodeJSON(record.extra)
        systemFields = record.systemFields.map(Base64.encode)
    }

    func record() throws -> CloudRecord {
        var record = CloudRecord(recordName: recordName, recordType: recordType)
        record.recordChangeTag = recordChangeTag
        record.zoneID = try zoneID?.zone()
        record.created = try created?.info()
        record.modified = try modified?.info()
        record.deleted = deleted
        for field in fields { record.fields[field.name] = try field.field() }
        record.fieldOrder = fieldOrder
        record.extra = try archiveDecodeJSON(extra)
        record.systemFields = try systemFields.map(archiveDecodeBase64)
        return record
    }
}

struct StoredZone: Codable {
    var zoneName: String
    var ownerName: String?
    var extra: String?

    init(_ zone: RecordZoneID) {
        zoneName = zone.zoneName
        ownerName = zone.ownerName
        extra = archiveEncodeJSON(zone.extra)
    }

    func zone() throws -> RecordZoneID { RecordZoneID(zoneName: zoneName, ownerName: ownerName, extra: try archiveDecodeJSON(extra)) }
}

struct StoredTimestamp: Codable {
    var timestamp: Int64
    var userRecordName: String?
    var deviceID: String?
    var extra: String?

    init(_ info: RecordTimestampInfo) {
        timestamp = info.timestamp
        userRecordName = info.userRecordName
        deviceID = info.deviceID
        extra = archiveEncodeJSON(info.extra)
    }

    func info() throws -> RecordTimestampInfo {
        RecordTimestampInfo(timestamp: timestamp, userRecordName: userRecordName, deviceID: deviceID, extra: try archiveDecodeJSON(extra))
    }
}

struct StoredField: Codable {
    var name: String
    var typeName: String?
    var value: StoredValue
    var extra: String?
    /// `true` for an encrypted field; absent otherwise (and in archives written before it).
    var isEncrypted: Bool?

    init(name: String, _ field: RecordField) {
        self.name = name
        typeName = field.typeName
        value = StoredValue(field.value)
        extra = archiveEncodeJSON(field.extra)
        isEncrypted = field.isEncrypted ? true : nil
    }

    func field() throws -> RecordField {
        RecordField(try value.value(), typeName: typeName, extra: try archiveDecodeJSON(extra), isEncrypted: isEncrypted ?? false)
    }
}

/// One field value: `kind` plus the member that kind uses.
struct StoredValue: Codable {
    var kind: String
    var string: String?
    var int: Int64?
    var double: Double?
    var list: [StoredValue]?
    var asset: StoredAsset?
    var reference: StoredReference?
    var json: String?

    init(kind: String) { self.kind = kind }

    init(_ value: RecordFieldValue) {
        switch value {
        case .string(let text): kind = "string"; string = text
        case .int64(let number): kind = "int64"; int = number
        case .double(let number): kind = "double"; double = number
        case .timestamp(let ms): kind = "timestamp"; int = ms
        case .bytes(let bytes): kind = "bytes"; string = Base64.encode(bytes)
        case .asset(let ref): kind = "asset"; asset = StoredAsset(ref)
        case .reference(let ref): kind = "reference"; reference = StoredReference(ref)
        case .list(let elements): kind = "list"; list = elements.map(StoredValue.init)
        case .opaque(let opaque): kind = "opaque"; string = opaque.typeName; json = opaque.value.serializedString()
        }
    }

    func value() throws -> RecordFieldValue {
        func need<T>(_ value: T?) throws -> T {
            guard let value else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "field value of kind '\(kind)' is incomplete"))
            }
            return value
        }
        switch kind {
        case "string": return .string(try need(string))
        case "int64": return .int64(try need(int))
        case "double": return .double(try need(double))
        case "timestamp": return .timestamp(try need(int))
        case "bytes": return .bytes(try archiveDecodeBase64(try need(string)))
        case "asset": return .asset(try need(asset).reference())
        case "reference": return .reference(try need(reference).reference())
        case "list": return .list(try need(list).map { try $0.value() })
        case "opaque":
            let parsed: JSONValue
            do {
                parsed = try JSONValue(parsing: try need(json))
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "invalid opaque field value: \(error)"))
            }
            return .opaque(OpaqueFieldValue(typeName: try need(string), value: parsed))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown field value kind '\(kind)'"))
        }
    }
}

struct StoredAsset: Codable {
    var fileChecksum: String?
    var size: Int64?
    var downloadURL: String?
    var bytes: String?
    var extra: String?

    init(_ ref: AssetReference) {
        fileChecksum = ref.fileChecksum
        size = ref.size
        downloadURL = ref.downloadURL
        bytes = ref.bytes.map(Base64.encode)
        extra = archiveEncodeJSON(ref.extra)
    }

    func reference() throws -> AssetReference {
        AssetReference(fileChecksum: fileChecksum, size: size, downloadURL: downloadURL,
                       bytes: try bytes.map(archiveDecodeBase64), extra: try archiveDecodeJSON(extra))
    }
}

struct StoredReference: Codable {
    var recordName: String
    var action: String?
    var zoneID: StoredZone?
    var extra: String?

    init(_ ref: RecordReference) {
        recordName = ref.recordName
        action = ref.action
        zoneID = ref.zoneID.map(StoredZone.init)
        extra = archiveEncodeJSON(ref.extra)
    }

    func reference() throws -> RecordReference {
        RecordReference(recordName: recordName, action: action, zoneID: try zoneID?.zone(), extra: try archiveDecodeJSON(extra))
    }
}
