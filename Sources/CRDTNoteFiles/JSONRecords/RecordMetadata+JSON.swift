import CRDTNoteSupport
import CRDTNote
/// JSON forms of the small record dictionaries: zone ids, timestamps, references, assets.
/// Known keys are written first, then unknown keys in their original order.
extension RecordZoneID {
    /// Reads `{"zoneName": ..., "ownerRecordName": ..., ...}`.
    package init(json: JSONValue, path: String) throws(RecordJSONError) {
        let r = try RecordJSONReader(json, path: path, what: "a zone id dictionary")
        self.init(
            zoneName: try r.string("zoneName"), ownerName: try r.optionalString("ownerRecordName"),
            extra: r.extra(excluding: ["zoneName", "ownerRecordName"]))
    }

    /// The JSON dictionary.
    package func jsonValue() -> JSONValue {
        var o = JSONObject([("zoneName", .string(zoneName))])
        o.appendIfPresent("ownerRecordName", ownerName.map(JSONValue.string))
        o.append(contentsOf: extra)
        return .object(o)
    }
}

extension RecordTimestampInfo {
    /// Reads `{"timestamp": ms, "userRecordName": ..., "deviceID": ..., ...}`.
    package init(json: JSONValue, path: String) throws(RecordJSONError) {
        let r = try RecordJSONReader(json, path: path, what: "a timestamp dictionary")
        guard let timestamp = try r.optionalInt64("timestamp") else {
            throw RecordJSONError(.missingKey, path: path, "missing \"timestamp\"")
        }
        self.init(
            timestamp: timestamp, userRecordName: try r.optionalString("userRecordName"),
            deviceID: try r.optionalString("deviceID"),
            extra: r.extra(excluding: ["timestamp", "userRecordName", "deviceID"]))
    }

    /// The JSON dictionary.
    package func jsonValue() -> JSONValue {
        var o = JSONObject([("timestamp", .number(JSONNumber(timestamp)))])
        o.appendIfPresent("userRecordName", userRecordName.map(JSONValue.string))
        o.appendIfPresent("deviceID", deviceID.map(JSONValue.string))
        o.append(contentsOf: extra)
        return .object(o)
    }
}

extension RecordReference {
    /// Reads `{"recordName": ..., "action": ..., "zoneID": {...}, ...}`.
    package init(json: JSONValue, path: String) throws(RecordJSONError) {
        let r = try RecordJSONReader(json, path: path, what: "a reference dictionary")
        var zone: RecordZoneID?
        if let z = r.object["zoneID"], !z.isNull { zone = try RecordZoneID(json: z, path: r.keyPath("zoneID")) }
        self.init(
            recordName: try r.string("recordName"), action: try r.optionalString("action"), zoneID: zone,
            extra: r.extra(excluding: ["recordName", "action", "zoneID"]))
    }

    /// The JSON dictionary.
    package func jsonValue() -> JSONValue {
        var o = JSONObject([("recordName", .string(recordName))])
        o.appendIfPresent("action", action.map(JSONValue.string))
        o.appendIfPresent("zoneID", zoneID?.jsonValue())
        o.append(contentsOf: extra)
        return .object(o)
    }
}

extension AssetReference {
    /// Reads `{"fileChecksum": ..., "size": ..., "downloadURL": ..., ...}`; every key is optional.
    package init(json: JSONValue, path: String) throws(RecordJSONError) {
        let r = try RecordJSONReader(json, path: path, what: "an asset dictionary")
        let size = try r.optionalInt64("size")
        if let size, size < 0 {
            throw RecordJSONError(.invalidValue, path: r.keyPath("size"), "asset size \(size) is negative")
        }
        self.init(
            fileChecksum: try r.optionalString("fileChecksum"), size: size,
            downloadURL: try r.optionalString("downloadURL"),
            extra: r.extra(excluding: ["fileChecksum", "size", "downloadURL"]))
    }

    /// The JSON dictionary.
    package func jsonValue() -> JSONValue {
        var o = JSONObject()
        o.appendIfPresent("fileChecksum", fileChecksum.map(JSONValue.string))
        o.appendIfPresent("size", size.map { .number(JSONNumber($0)) })
        o.appendIfPresent("downloadURL", downloadURL.map(JSONValue.string))
        o.append(contentsOf: extra)
        return .object(o)
    }
}
