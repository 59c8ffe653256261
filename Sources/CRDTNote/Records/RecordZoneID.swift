import CRDTNoteSupport

/// A CloudKit record zone identifier (`zoneID` in the JSON form: `zoneName`, `ownerRecordName`).
public struct RecordZoneID: Hashable, Sendable {
    /// The zone's name, e.g. `_defaultZone`.
    public var zoneName: String
    /// The zone owner's user record name (`ownerRecordName` in JSON), if given.
    public var ownerName: String?
    /// Keys this model does not know (e.g. `zoneType`), kept verbatim.
    package var extra: JSONObject

    /// A zone id.
    public init(zoneName: String, ownerName: String? = nil) {
        self.init(zoneName: zoneName, ownerName: ownerName, extra: JSONObject())
    }

    /// The same, with keys of the exported form this model does not interpret.
    package init(zoneName: String, ownerName: String? = nil, extra: JSONObject) {
        self.zoneName = zoneName
        self.ownerName = ownerName
        self.extra = extra
    }

    /// The default zone every container has.
    public static let defaultZone = RecordZoneID(zoneName: "_defaultZone")
}

/// Who changed a record and when (`created` / `modified` in the JSON form).
public struct RecordTimestampInfo: Hashable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var timestamp: Int64
    /// The user record name of the author, if given.
    public var userRecordName: String?
    /// The device id, if given.
    public var deviceID: String?
    /// Unknown keys, kept verbatim.
    package var extra: JSONObject

    /// A timestamp record.
    public init(timestamp: Int64, userRecordName: String? = nil, deviceID: String? = nil) {
        self.init(timestamp: timestamp, userRecordName: userRecordName, deviceID: deviceID, extra: JSONObject())
    }

    /// The same, with keys of the exported form this model does not interpret.
    package init(timestamp: Int64, userRecordName: String? = nil, deviceID: String? = nil, extra: JSONObject) {
        self.timestamp = timestamp
        self.userRecordName = userRecordName
        self.deviceID = deviceID
        self.extra = extra
    }
}

/// A REFERENCE field value: a pointer to another record.
public struct RecordReference: Hashable, Sendable {
    /// The target record's name.
    public var recordName: String
    /// `NONE`, `DELETE_SELF` or `VALIDATE`, if given.
    public var action: String?
    /// The target's zone, if given.
    public var zoneID: RecordZoneID?
    /// Unknown keys, kept verbatim.
    package var extra: JSONObject

    /// A reference to `recordName`.
    public init(recordName: String, action: String? = nil, zoneID: RecordZoneID? = nil) {
        self.init(recordName: recordName, action: action, zoneID: zoneID, extra: JSONObject())
    }

    /// The same, with keys of the exported form this model does not interpret.
    package init(recordName: String, action: String? = nil, zoneID: RecordZoneID? = nil, extra: JSONObject) {
        self.recordName = recordName
        self.action = action
        self.zoneID = zoneID
        self.extra = extra
    }
}
