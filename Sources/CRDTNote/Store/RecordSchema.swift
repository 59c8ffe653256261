/// CloudKit's schema rule, in one place for the stores that stand in for CloudKit (the
/// in-memory database and the folder store), so both refuse what CloudKit refuses: per record
/// type, a field's type is fixed the first time a record with that field is saved, and a later
/// record that gives the field another type is refused with `invalidArguments` (carrying a
/// ``FieldTypeMismatch``). Fields can still be added, left out or removed; only their types
/// are fixed. The schema is per database (a container's, in CloudKit), so it outlives zones.
///
/// A store checks each record of a request in order with ``check(_:in:)`` and, once it saves
/// one, fixes its new fields with ``learn(_:)``, so a request whose first record fixes a field
/// refuses a later record that types it otherwise, as CloudKit does.
package struct RecordSchema: Hashable, Sendable {
    /// Field types by record type, then by field name, as CloudKit names them (`STRING`,
    /// `ASSET`, `INT64_LIST`, `LOCATION`, ...).
    package private(set) var fieldTypes: [String: [String: String]]

    /// A schema with these fixed types (empty: a new container).
    package init(fieldTypes: [String: [String: String]] = [:]) {
        self.fieldTypes = fieldTypes
    }

    /// The type `field` is saved as: its value's kind (`ASSETID` and `ASSET` are one type), a
    /// list's `<element>_LIST`, an opaque value's type name, each prefixed with `ENCRYPTED_` for
    /// an encrypted field (as CloudKit names them, e.g. `ENCRYPTED_BYTES`: a field's encryption
    /// is fixed with its type, so an encrypted and a plain field of one name conflict). nil when
    /// the value does not tell (an empty list without a `*_LIST` spelling, an opaque value
    /// without a type name): such a field is neither checked nor fixed.
    package static func schemaType(of field: RecordField) -> String? {
        guard let type = plainSchemaType(of: field) else { return nil }
        return field.isEncrypted ? "ENCRYPTED_" + type : type
    }

    private static func plainSchemaType(of field: RecordField) -> String? {
        switch field.value {
        case .list(let elements):
            if let first = elements.first { return first.defaultTypeName + "_LIST" }
            if let spelled = field.typeName, spelled.hasSuffix("_LIST"),
               let kind = RecordFieldValue.ScalarKind(typeName: String(spelled.dropLast(5))) {
                return kind.rawValue + "_LIST"
            }
            return nil
        case .opaque(let opaque):
            return opaque.typeName.isEmpty ? nil : opaque.typeName
        default:
            return field.value.scalarKind?.rawValue
        }
    }

    /// The item error for saving `record` into a database with this schema (nil: every field
    /// has its fixed type or is new): `.invalidArguments` naming the first field (in the
    /// record's field order) whose type differs, with both types. `store` names the database
    /// in the message (e.g. "the in-memory database").
    package func check(_ record: CloudRecord, in store: String) -> RecordStoreError? {
        guard let fixed = fieldTypes[record.recordType] else { return nil }
        for name in record.orderedFieldNames {
            guard let field = record.fields[name], let type = Self.schemaType(of: field),
                  let expected = fixed[name], expected != type else { continue }
            let mismatch = FieldTypeMismatch(recordType: record.recordType, field: name, schemaType: expected, recordFieldType: type)
            var error = RecordStoreError(.invalidArguments, recordName: record.recordName,
                "record '\(record.recordName)' refused: \(mismatch) (the schema of \(store) fixed it when the field was first saved)")
            error.fieldTypeMismatch = mismatch
            return error
        }
        return nil
    }

    /// Fixes the types of `record`'s fields that its record type does not have yet; returns
    /// whether the schema changed. Call it for each record saved.
    @discardableResult
    package mutating func learn(_ record: CloudRecord) -> Bool {
        var changed = false
        for name in record.orderedFieldNames {
            guard let field = record.fields[name], let type = Self.schemaType(of: field),
                  fieldTypes[record.recordType]?[name] == nil else { continue }
            fieldTypes[record.recordType, default: [:]][name] = type
            changed = true
        }
        return changed
    }
}
