/// A record refused because one of its fields has another type than the one the database's
/// schema fixed for it. CloudKit fixes a field's type (per record type) the first time a record
/// with the field is saved, and refuses later records that give it another type with
/// `invalidArguments`; ``RecordStoreError/fieldTypeMismatch`` carries this when the in-memory
/// database or the folder store refuses a record so.
public struct FieldTypeMismatch: Hashable, Sendable, CustomStringConvertible {
    /// The record type whose schema has the field (e.g. `Note`).
    public var recordType: String
    /// The field's name (e.g. `text`).
    public var field: String
    /// The type the schema fixed when the field was first saved, as CloudKit names types
    /// (`ASSET`, `STRING`, `INT64_LIST`, ...).
    public var schemaType: String
    /// The type the refused record gave the field.
    public var recordFieldType: String

    /// A mismatch of `field` of `recordType`: `schemaType` in the schema, `recordFieldType` in the record.
    package init(recordType: String, field: String, schemaType: String, recordFieldType: String) {
        self.recordType = recordType
        self.field = field
        self.schemaType = schemaType
        self.recordFieldType = recordFieldType
    }

    /// "field 'text' of record type 'Note' is ASSET in the schema, the record has STRING".
    public var description: String {
        "field '\(field)' of record type '\(recordType)' is \(schemaType) in the schema, the record has \(recordFieldType)"
    }
}
