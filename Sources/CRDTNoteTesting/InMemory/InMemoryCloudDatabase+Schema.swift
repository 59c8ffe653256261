import CRDTNote

/// The database's schema: CloudKit fixes each field's type, per record type, when a record with
/// the field is first saved, and refuses a record that gives it another type with
/// `invalidArguments` (``RecordStoreError/fieldTypeMismatch`` names the field and both types).
/// The schema belongs to the database, not to a zone: deleting and recreating zones keeps it.
extension InMemoryCloudDatabase {
    /// The field types fixed so far for `recordType` (e.g. `["text": "ASSET", "version": "INT64"]`),
    /// as CloudKit names types; empty before any record of the type was saved.
    public func fieldTypes(of recordType: String) -> [String: String] {
        schema.fieldTypes[recordType] ?? [:]
    }
}
