import Foundation
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// Shared fixtures for the record store tests.
enum StoreFixtures {
    static let zone = RecordZoneID(zoneName: "Notes")

    /// A Note record with a text field (no change tag).
    static func note(_ name: String, text: String = "hello") -> CloudRecord {
        var record = CloudRecord(recordName: name, recordType: "Note")
        record[field: "version"] = .int64(2)
        record[field: "text"] = .string(text)
        return record
    }

    /// `stored` with its text field replaced.
    static func edited(_ stored: CloudRecord, text: String) -> CloudRecord {
        var copy = stored
        copy[field: "text"] = .string(text)
        return copy
    }

    /// `record` with every asset's bytes dropped: what its JSON form holds.
    static func withoutAssetBytes(_ record: CloudRecord) -> CloudRecord {
        var copy = record
        for (name, field) in record.fields {
            if case .asset(var ref) = field.value { ref.bytes = nil; copy[field: name] = .asset(ref) }
        }
        return copy
    }

    /// The bytes of ASSET field `name`, if held.
    static func assetBytes(_ record: CloudRecord?, _ name: String) -> [UInt8]? {
        if case .asset(let ref)? = record?[field: name] { return ref.bytes }
        return nil
    }

    /// The text field of a record: a STRING, or an ASSET's bytes as UTF-8.
    static func text(_ stored: CloudRecord?) -> String? {
        switch stored?[field: "text"] {
        case .string(let s)?: return s
        case .asset(let ref)?: return ref.bytes.map { String(decoding: $0, as: UTF8.self) }
        default: return nil
        }
    }

    /// A fresh empty temporary folder.
    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "crdtnote-store-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs `body` and returns the store error it throws (nil if it succeeded).
    static func storeError<T>(_ body: () async throws -> T) async -> RecordStoreError? {
        do {
            _ = try await body()
            return nil
        } catch let error as RecordStoreError {
            return error
        } catch {
            return RecordStoreError(.invalidArguments, "unexpected error type: \(error)")
        }
    }

    /// The failure of one item of a CloudKit-shaped answer (nil: it succeeded, or is absent).
    static func failure<T>(_ result: Result<T, CloudKitFailure>?) -> CloudKitFailure? {
        if case .failure(let failure)? = result { return failure }
        return nil
    }

    /// Runs a CloudKit-shaped request and returns the failure it throws (nil if it succeeded).
    static func cloudKitFailure<T>(_ body: () async throws -> T) async -> CloudKitFailure? {
        do {
            _ = try await body()
            return nil
        } catch let failure as CloudKitFailure {
            return failure
        } catch {
            return CloudKitFailure(CloudKitFailure.Code(rawValue: "unexpectedErrorType"), "\(error)")
        }
    }
}

extension Array where Element == CloudRecord {
    /// The note records among these (device records left out: every syncing device keeps one).
    var notes: [CloudRecord] { filter { $0.recordType != DeviceSchema.recordType } }
}

extension InMemoryCloudDatabase {
    /// The texts of the note records of `zone`, by record name, read as a device reads them.
    func noteTexts(in zone: RecordZoneID) throws -> [String: String] {
        var texts: [String: String] = [:]
        for record in allRecords(in: zone).notes {
            texts[record.recordName] = try NoteSyncCore.text(from: record, replica: .test(99)).string
        }
        return texts
    }
}
