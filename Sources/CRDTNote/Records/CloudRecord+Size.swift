import CRDTNoteSupport

extension CloudRecord {
    /// The bytes this record counts for against CloudKit's per-record limit (1 MB, assets
    /// excluded), computed from the typed fields: names, record name and type, and each
    /// value's own bytes (strings as UTF-8, numbers and timestamps 8, BYTES their length,
    /// assets 0). The same on every device and independent of any export format.
    public var size: Int {
        var total = recordName.utf8.count + recordType.utf8.count + (recordChangeTag?.utf8.count ?? 0)
        for (name, field) in fields { total += name.utf8.count + field.value.size }
        return total
    }
}

extension RecordFieldValue {
    /// This value's share of ``CloudRecord/size``.
    var size: Int {
        switch self {
        case .string(let s): return s.utf8.count
        case .int64, .double, .timestamp: return 8
        case .bytes(let b): return b.count
        case .asset: return 0
        case .reference(let r): return r.recordName.utf8.count + 8
        case .list(let elements): return elements.reduce(0) { $0 + $1.size }
        case .opaque(let opaque): return opaque.value.serialized().count
        }
    }
}
