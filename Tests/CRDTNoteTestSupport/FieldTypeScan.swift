import CRDTNote

/// Scans records as one CloudKit container's schema would see them: each field's type is fixed by
/// the first record (in the order given) that has the field, per record type.
package enum FieldTypeScan {
    /// Every field of a later record whose type differs from the type an earlier record fixed
    /// (empty: the records give every field one type).
    package static func mismatches(in records: [CloudRecord]) -> [FieldTypeMismatch] {
        var schema = RecordSchema()
        var found: [FieldTypeMismatch] = []
        for record in records {
            // Report every mismatching field of the record, not only the first a store would name.
            for name in record.orderedFieldNames {
                guard let field = record.fields[name] else { continue }
                var single = record
                single.fields = [name: field]
                single.fieldOrder = [name]
                if let mismatch = schema.check(single, in: "the scan")?.fieldTypeMismatch { found.append(mismatch) }
            }
            schema.learn(record)
        }
        return found
    }

    /// The type of each field over all `records` of `recordType` (field name → set of types seen).
    package static func types(in records: [CloudRecord], recordType: String = NoteSchema.recordType) -> [String: Set<String>] {
        var out: [String: Set<String>] = [:]
        for record in records where record.recordType == recordType {
            for (name, field) in record.fields {
                if let type = RecordSchema.schemaType(of: field) { out[name, default: []].insert(type) }
            }
        }
        return out
    }
}
