import CRDTNoteSupport
import CRDTNote

/// The folder's schema (`<root>/schema.json`): each field's type per record type, fixed when a
/// record with the field is first saved in the folder, as CloudKit fixes a container's schema.
/// A record that gives a field another type is refused with `invalidArguments`
/// (``RecordStoreError/fieldTypeMismatch``). The file belongs to the folder, not to a zone, so
/// deleting a zone keeps it; it is written before the records that fixed its new types.
///
/// ```json
/// {"format": "crdtnote-directory-schema", "formatVersion": 1,
///  "recordTypes": {"Note": {"modified": "TIMESTAMP", "payload": "BYTES", "text": "ASSET", "version": "INT64"}}}
/// ```
extension DirectoryRecordStore {
    /// The schema file's path.
    var schemaPath: String { root + "/schema.json" }

    /// The field types fixed so far for `recordType` in this folder (e.g. `["text": "ASSET"]`),
    /// as CloudKit names types; empty before any record of the type was saved.
    public func fieldTypes(of recordType: String) throws(RecordStoreError) -> [String: String] {
        try files.withLock(lockPath) { () throws(RecordStoreError) in
            try loadSchema().fieldTypes[recordType] ?? [:]
        }
    }

    /// The folder's schema; empty when no record was saved yet (no file). Call under the lock.
    func loadSchema() throws(RecordStoreError) -> RecordSchema {
        guard let bytes = try files.read(schemaPath) else { return RecordSchema() }
        return try Self.schema(fromJSON: bytes, path: schemaPath)
    }

    /// Replaces the schema file atomically. Call under the lock.
    func writeSchema(_ schema: RecordSchema) throws(RecordStoreError) {
        try files.writeAtomically(Self.json(of: schema), to: schemaPath)
    }

    /// Reads a schema file; `path` names it in errors (`.storageFailure`: the folder is damaged).
    static func schema(fromJSON bytes: [UInt8], path: String) throws(RecordStoreError) -> RecordSchema {
        func bad(_ what: String) -> RecordStoreError {
            RecordStoreError(.storageFailure, "schema file \(path) is damaged: \(what)")
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw bad("\(error)")
        }
        guard case .object(let object) = json else { throw bad("not a JSON object") }
        guard object["format"]?.stringValue == "crdtnote-directory-schema" else { throw bad("\"format\" is not \"crdtnote-directory-schema\"") }
        guard object["formatVersion"]?.numberValue?.int64Value == 1 else { throw bad("\"formatVersion\" is not 1") }
        guard case .object(let recordTypes)? = object["recordTypes"] else { throw bad("no \"recordTypes\" object") }
        var types: [String: [String: String]] = [:]
        for recordType in recordTypes {
            guard case .object(let fields) = recordType.value else {
                throw bad("record type \"\(recordType.key)\" is not an object of field types")
            }
            var fixed: [String: String] = [:]
            for field in fields {
                guard let type = field.value.stringValue, !type.isEmpty else {
                    throw bad("field \"\(field.key)\" of record type \"\(recordType.key)\" has no type name")
                }
                fixed[field.key] = type
            }
            types[recordType.key] = fixed
        }
        return RecordSchema(fieldTypes: types)
    }

    /// The schema file's bytes: record types and fields sorted by name, so equal schemas are equal files.
    static func json(of schema: RecordSchema) -> [UInt8] {
        var recordTypes = JSONObject()
        for (recordType, fields) in schema.fieldTypes.sorted(by: { $0.key < $1.key }) {
            var object = JSONObject()
            for (field, type) in fields.sorted(by: { $0.key < $1.key }) { object.append(key: field, value: .string(type)) }
            recordTypes.append(key: recordType, value: .object(object))
        }
        let object = JSONObject([
            ("format", .string("crdtnote-directory-schema")), ("formatVersion", .number(JSONNumber(1))),
            ("recordTypes", .object(recordTypes)),
        ])
        var out = JSONValue.object(object).serialized(pretty: true)
        out.append(0x0A)
        return out
    }
}
