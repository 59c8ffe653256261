import CRDTNoteSupport

/// Why a persisted `NoteSyncState` cannot be decoded.
public struct NoteSyncStateDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The layout version found.
    public var version: Int
    /// What is wrong, for people.
    public var message: String

    /// "message".
    public var description: String { message }
}

extension NoteSyncState: Codable {
    private enum Key: String, CodingKey { case version, token, notes, pendingDeletes, subscriptionID }

    /// Decodes a state; a `version` newer than ``currentVersion`` throws
    /// ``NoteSyncStateDecodingError`` (keep the data and update crdtnote; never start from an
    /// empty state instead, that would lose unsaved edits).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version <= Self.currentVersion, version >= 1 else {
            throw NoteSyncStateDecodingError(version: version,
                message: "sync state version \(version) is not supported by this crdtnote (it reads 1...\(Self.currentVersion)); update crdtnote")
        }
        self.init()
        self.version = version
        token = try container.decodeIfPresent(String.self, forKey: .token).map { text in
            guard let token = ChangeToken(base64String: text) else {
                throw DecodingError.dataCorruptedError(forKey: .token, in: container, debugDescription: "change token is not base64")
            }
            return token
        }
        notes = try container.decode([String: SavedNote].self, forKey: .notes)
        pendingDeletes = try container.decode([String: PendingDelete].self, forKey: .pendingDeletes)
        subscriptionID = try container.decodeIfPresent(String.self, forKey: .subscriptionID)
    }

    /// Encodes the state with its version.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(token?.base64String, forKey: .token)
        try container.encode(notes, forKey: .notes)
        try container.encode(pendingDeletes, forKey: .pendingDeletes)
        try container.encodeIfPresent(subscriptionID, forKey: .subscriptionID)
    }
}

extension NoteSyncState.PendingDelete: Codable {
    private enum Key: String, CodingKey { case changeTag }

    /// Decodes a pending delete.
    public init(from decoder: any Decoder) throws {
        changeTag = try decoder.container(keyedBy: Key.self).decodeIfPresent(String.self, forKey: .changeTag)
    }

    /// Encodes a pending delete (no `changeTag` key when the version had none).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(changeTag, forKey: .changeTag)
    }
}

extension NoteSyncState.SavedNote: Codable {
    private enum Key: String, CodingKey { case snapshot, base, hasUnsavedChanges }

    /// Decodes a persisted note.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        snapshot = try decodeBase64(container.decode(String.self, forKey: .snapshot))
        base = try container.decodeIfPresent(StoredRecord.self, forKey: .base)?.record()
        hasUnsavedChanges = try container.decode(Bool.self, forKey: .hasUnsavedChanges)
    }

    /// Encodes the note (snapshot as base64, base record with its fields and asset bytes).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(Base64.encode(snapshot), forKey: .snapshot)
        try container.encodeIfPresent(base.map(StoredRecord.init), forKey: .base)
        try container.encode(hasUnsavedChanges, forKey: .hasUnsavedChanges)
    }
}

private func decodeBase64(_ text: String) throws -> [UInt8] {
    do { return try Base64.decode(text) } catch {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "invalid base64: \(error.message)"))
    }
}

private func encodeJSON(_ object: JSONObject) -> String? {
    object.isEmpty ? nil : JSONValue.object(object).serializedString()
}

private func decodeJSON(_ text: String?) throws -> JSONObject {
    guard let text else { return JSONObject() }
    let parsed: JSONValue
    do {
        parsed = try JSONValue(parsing: text)
    } catch {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "invalid JSON in sync state: \(error)"))
    }
    guard case .object(let object) = parsed else {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "sync state holds JSON that is not an object"))
    }
    return object
}

/// A `CloudRecord` as stored in a `NoteSyncState`: every part, unknown keys as JSON text.
private struct StoredRecord: Codable {
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
        extra = encodeJSON(record.extra)
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
        record.extra = try decodeJSON(extra)
        record.systemFields = try systemFields.map(decodeBase64)
        return record
    }
}

private struct StoredZone: Codable {
    var zoneName: String
    var ownerName: String?
    var extra: String?

    init(_ zone: RecordZoneID) {
        zoneName = zone.zoneName
        ownerName = zone.ownerName
        extra = encodeJSON(zone.extra)
    }

    func zone() throws -> RecordZoneID { RecordZoneID(zoneName: zoneName, ownerName: ownerName, extra: try decodeJSON(extra)) }
}

private struct StoredTimestamp: Codable {
    var timestamp: Int64
    var userRecordName: String?
    var deviceID: String?
    var extra: String?

    init(_ info: RecordTimestampInfo) {
        timestamp = info.timestamp
        userRecordName = info.userRecordName
        deviceID = info.deviceID
        extra = encodeJSON(info.extra)
    }

    func info() throws -> RecordTimestampInfo {
        RecordTimestampInfo(timestamp: timestamp, userRecordName: userRecordName, deviceID: deviceID, extra: try decodeJSON(extra))
    }
}

private struct StoredField: Codable {
    var name: String
    var typeName: String?
    var value: StoredValue
    var extra: String?

    init(name: String, _ field: RecordField) {
        self.name = name
        typeName = field.typeName
        value = StoredValue(field.value)
        extra = encodeJSON(field.extra)
    }

    func field() throws -> RecordField { RecordField(try value.value(), typeName: typeName, extra: try decodeJSON(extra)) }
}

/// One field value: `kind` plus the member that kind uses.
private struct StoredValue: Codable {
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
        case "bytes": return .bytes(try decodeBase64(try need(string)))
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

private struct StoredAsset: Codable {
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
        extra = encodeJSON(ref.extra)
    }

    func reference() throws -> AssetReference {
        AssetReference(fileChecksum: fileChecksum, size: size, downloadURL: downloadURL,
                       bytes: try bytes.map(decodeBase64), extra: try decodeJSON(extra))
    }
}

private struct StoredReference: Codable {
    var recordName: String
    var action: String?
    var zoneID: StoredZone?
    var extra: String?

    init(_ ref: RecordReference) {
        recordName = ref.recordName
        action = ref.action
        zoneID = ref.zoneID.map(StoredZone.init)
        extra = encodeJSON(ref.extra)
    }

    func reference() throws -> RecordReference {
        RecordReference(recordName: recordName, action: action, zoneID: try zoneID?.zone(), extra: try decodeJSON(extra))
    }
}
