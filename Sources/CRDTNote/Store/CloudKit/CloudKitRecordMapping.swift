import CRDTNoteSupport

// CKRecord <-> CloudRecord and CKError -> CloudKitFailure. Apple platforms only; no decisions.
#if canImport(CloudKit)
import CloudKit
import Foundation

/// Conversions between CloudKit's types and the portable record model.
enum CloudKitRecordMapping {
    static func zoneID(_ zone: RecordZoneID) -> CKRecordZone.ID {
        CKRecordZone.ID(zoneName: zone.zoneName, ownerName: zone.ownerName ?? CKCurrentUserDefaultName)
    }

    // MARK: CKRecord -> CloudRecord

    /// The record, its fields, system fields (``CloudRecord/systemFields``) and asset bytes.
    static func cloudRecord(_ ck: CKRecord) -> CloudRecord {
        var record = CloudRecord(recordName: ck.recordID.recordName, recordType: ck.recordType)
        record.recordChangeTag = ck.recordChangeTag
        record.zoneID = RecordZoneID(zoneName: ck.recordID.zoneID.zoneName, ownerName: ck.recordID.zoneID.ownerName)
        if let date = ck.creationDate { record.created = RecordTimestampInfo(timestamp: milliseconds(date)) }
        if let date = ck.modificationDate { record.modified = RecordTimestampInfo(timestamp: milliseconds(date)) }
        // Encrypted values (never assets: CloudKit keeps those out of `encryptedValues`) come
        // first and are marked; a key among them is not read again as a plain one.
        let encrypted = ck.encryptedValues
        let encryptedKeys = Set(encrypted.allKeys())
        for key in encryptedKeys.sorted() {
            guard let value = encrypted[key], let field = fieldValue(value) else { continue }
            record[field: key] = field
            record.fields[key]?.isEncrypted = true
        }
        for key in ck.allKeys().sorted() where !encryptedKeys.contains(key) {
            guard let value = ck.object(forKey: key) else { continue }
            if let asset = value as? CKAsset {
                // An unreadable file leaves the bytes nil: reading the note then reports the
                // asset as unavailable instead of seeing wrong content.
                let bytes = asset.fileURL.flatMap { try? Data(contentsOf: $0) }.map { [UInt8]($0) }
                // The checksum of the bytes read lets a conflict take bytes the server record
                // lacks from the record sent, when the two match.
                record[field: key] = .asset(AssetReference(fileChecksum: bytes.map(AssetChecksum.fnv1a64Hex), size: bytes.map { Int64($0.count) },
                                                           downloadURL: asset.fileURL?.absoluteString, bytes: bytes))
            } else if let field = fieldValue(value) {
                record[field: key] = field
            }
            // Other values (CLLocation...) are not mapped; they are never sent back either, so the
            // server keeps them.
        }
        record.systemFields = [UInt8](systemFields(of: ck))
        return record
    }

    static func fieldValue(_ value: Any) -> RecordFieldValue? {
        switch value {
        case let text as String: return .string(text)
        case let date as Date: return .timestamp(milliseconds(date))
        case let data as Data: return .bytes([UInt8](data))
        case let reference as CKRecord.Reference:
            return .reference(RecordReference(recordName: reference.recordID.recordName,
                                              action: reference.action == .deleteSelf ? "DELETE_SELF" : "NONE"))
        case let number as NSNumber:
            // `objCType` "d"/"f" is what `CFNumberIsFloatType` tests; unlike CoreFoundation it
            // also exists in Linux Foundation, where this file is type-checked.
            return ["d", "f"].contains(String(cString: number.objCType)) ? .double(number.doubleValue) : .int64(number.int64Value)
        case let list as [Any]:
            let elements = list.compactMap(fieldValue)
            return elements.count == list.count ? .list(elements) : nil
        default:
            return nil
        }
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    static func systemFields(of record: CKRecord) -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        record.encodeSystemFields(with: archiver)
        archiver.finishEncoding()
        return archiver.encodedData
    }

    // MARK: CloudRecord -> CKRecord

    /// A CKRecord to save: rebuilt from the archived system fields when present (so CloudKit sees
    /// the change tag the record was based on), else a new record. Mapped fields are set; asset
    /// bytes are staged as files (their URLs appended to `staged` for removal after the request).
    static func ckRecord(from record: CloudRecord, zoneID: CKRecordZone.ID, assetDirectory: URL, staged: inout [URL]) throws(CloudKitFailure) -> CKRecord {
        let restored = restoredRecord(record)
        let ck = restored ?? CKRecord(recordType: record.recordType, recordID: CKRecord.ID(recordName: record.recordName, zoneID: zoneID))
        for name in record.orderedFieldNames {
            // An asset the server already has (its reference has a download URL) is not sent
            // again on an existing record; new ones, and all of a new record's, are uploaded.
            if case .asset(let ref)? = record[field: name], let bytes = ref.bytes, restored == nil || ref.downloadURL == nil {
                let url = assetDirectory.appendingPathComponent("crdtnote-asset-\(UUID().uuidString)")
                do {
                    try Data(bytes).write(to: url, options: .atomic)
                } catch {
                    throw CloudKitFailure(.invalidArguments, "cannot stage asset '\(name)' of '\(record.recordName)': \(error)")
                }
                staged.append(url)
                ck[name] = CKAsset(fileURL: url)
            } else if let field = record.fields[name] {
                set(field.value, key: name, on: field.isEncrypted ? ck.encryptedValues : ck, zoneID: zoneID)
            }
        }
        // Note fields the record no longer has (e.g. `payloadAsset` after the payload moved
        // back inline, `encryptedPayload` after a write in the plain layout) are removed on the
        // server too, each where it is kept.
        for name in NoteSchema.Field.all where record[field: name] == nil && restored != nil {
            if name == NoteSchema.Field.encryptedPayload {
                ck.encryptedValues[name] = nil
            } else {
                ck.setObject(nil, forKey: name)
            }
        }
        return ck
    }

    static func restoredRecord(_ record: CloudRecord) -> CKRecord? {
        guard let bytes = record.systemFields, let coder = try? NSKeyedUnarchiver(forReadingFrom: Data(bytes)) else { return nil }
        coder.requiresSecureCoding = true
        defer { coder.finishDecoding() }
        guard let ck = CKRecord(coder: coder), ck.recordID.recordName == record.recordName else { return nil }
        return ck
    }

    /// Sets one mapped value on a record's plain values (the `CKRecord`) or its `encryptedValues`.
    /// ASSET fields without bytes and opaque values are not sent, so the server keeps what it has.
    static func set(_ value: RecordFieldValue, key: String, on ck: any CKRecordKeyValueSetting, zoneID: CKRecordZone.ID) {
        switch value {
        case .string(let text): ck[key] = text
        case .int64(let number): ck[key] = number
        case .double(let number): ck[key] = number
        case .timestamp(let ms): ck[key] = Date(timeIntervalSince1970: Double(ms) / 1000)
        case .bytes(let bytes): ck[key] = Data(bytes)
        case .reference(let reference): ck[key] = ckReference(reference, zoneID: zoneID)
        case .list(let elements): setList(elements, key: key, on: ck, zoneID: zoneID)
        case .asset, .opaque: break
        }
    }

    static func ckReference(_ reference: RecordReference, zoneID: CKRecordZone.ID) -> CKRecord.Reference {
        CKRecord.Reference(recordID: CKRecord.ID(recordName: reference.recordName, zoneID: zoneID),
                           action: reference.action == "DELETE_SELF" ? .deleteSelf : .none)
    }

    /// Lists of one scalar kind; mixed or unsupported lists are not sent.
    static func setList(_ elements: [RecordFieldValue], key: String, on ck: any CKRecordKeyValueSetting, zoneID: CKRecordZone.ID) {
        func all<T>(_ pick: (RecordFieldValue) -> T?) -> [T]? {
            let values = elements.compactMap(pick)
            return values.count == elements.count ? values : nil
        }
        if let v = all({ (e: RecordFieldValue) -> String? in if case .string(let x) = e { return x }; return nil }) {
            ck[key] = v
        } else if let v = all({ (e: RecordFieldValue) -> Int64? in if case .int64(let x) = e { return x }; return nil }) {
            ck[key] = v
        } else if let v = all({ (e: RecordFieldValue) -> Double? in if case .double(let x) = e { return x }; return nil }) {
            ck[key] = v
        } else if let v = all({ (e: RecordFieldValue) -> Date? in
            if case .timestamp(let x) = e { return Date(timeIntervalSince1970: Double(x) / 1000) }; return nil }) {
            ck[key] = v
        } else if let v = all({ (e: RecordFieldValue) -> Data? in if case .bytes(let x) = e { return Data(x) }; return nil }) {
            ck[key] = v
        } else if let v = all({ (e: RecordFieldValue) -> CKRecord.Reference? in
            if case .reference(let x) = e { return ckReference(x, zoneID: zoneID) }; return nil }) {
            ck[key] = v
        }
    }

    // MARK: CKError -> CloudKitFailure

    /// The portable form of any error CloudKit throws, its code mapped by ``code(_:)``.
    static func failure(_ error: any Error) -> CloudKitFailure {
        if error is CancellationError {
            return CloudKitFailure(.operationCancelled, "the task was cancelled")
        }
        guard let ck = error as? CKError else {
            return CloudKitFailure(.unhandledCloudKitError, "not a CKError: \(error)")
        }
        var partial: [String: CloudKitFailure] = [:]
        var zones: [String: CloudKitFailure] = [:]
        for (key, value) in ck.partialErrorsByItemID ?? [:] {
            if let id = key as? CKRecord.ID { partial[id.recordName] = failure(value) }
            else if let zone = key as? CKRecordZone.ID { zones[zone.zoneName] = failure(value) }
        }
        let mapped = code(ck.code)
        let message = mapped == .unhandledCloudKitError
            ? "CKError.Code(rawValue: \(ck.code.rawValue)): \(ck.localizedDescription)" : ck.localizedDescription
        return CloudKitFailure(
            mapped, message, retryAfterSeconds: ck.retryAfterSeconds,
            ancestor: ck.ancestorRecord.map(cloudRecord), client: ck.clientRecord.map(cloudRecord),
            server: ck.serverRecord.map(cloudRecord), partialErrors: partial, zoneErrors: zones)
    }

    /// The one mapping of CloudKit's codes to the store's (Docs/CloudKit.md, "Errors, and what
    /// the engine does with each"): codes CloudKit retries the same way share one store code;
    /// a code without one is `unhandledCloudKitError`.
    static func code(_ code: CKError.Code) -> RecordStoreError.Code {
        switch code {
        case .serverRecordChanged: return .serverRecordChanged
        case .partialFailure: return .partialFailure
        case .networkFailure, .networkUnavailable: return .networkFailure
        case .serverResponseLost: return .serverResponseLost
        case .operationCancelled: return .operationCancelled
        case .requestRateLimited: return .requestRateLimited
        case .serviceUnavailable, .zoneBusy, .batchRequestFailed: return .serviceUnavailable
        case .limitExceeded: return .limitExceeded
        case .zoneNotFound: return .zoneNotFound
        case .userDeletedZone: return .userDeletedZone
        case .unknownItem: return .unknownItem
        case .quotaExceeded: return .quotaExceeded
        case .changeTokenExpired: return .changeTokenExpired
        case .invalidArguments: return .invalidArguments
        default: return .unhandledCloudKitError
        }
    }
}
#endif
