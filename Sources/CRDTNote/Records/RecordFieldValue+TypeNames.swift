import CRDTNoteSupport

/// CloudKit's names for field types (`STRING`, `INT64_LIST`, `ASSETID`, ...) and which values
/// they fit, shared by every mapping of records (JSON, CloudKit).
extension RecordFieldValue {
    /// The scalar kinds a `*_LIST` can hold.
    package enum ScalarKind: String {
        case string = "STRING", int64 = "INT64", double = "DOUBLE", timestamp = "TIMESTAMP"
        case bytes = "BYTES", asset = "ASSET", reference = "REFERENCE"

        package init?(typeName: String) {
            if typeName == "ASSETID" { self = .asset } else { self.init(rawValue: typeName) }
        }
    }

    /// The scalar kind of this value, nil for lists and opaque values.
    package var scalarKind: ScalarKind? {
        switch self {
        case .string: return .string
        case .int64: return .int64
        case .double: return .double
        case .timestamp: return .timestamp
        case .bytes: return .bytes
        case .asset: return .asset
        case .reference: return .reference
        case .list, .opaque: return nil
        }
    }

    /// The type written for this value when the field has no fitting spelling of its own.
    /// An empty list is a STRING_LIST.
    package var defaultTypeName: String {
        switch self {
        case .list(let elements):
            return (elements.first?.defaultTypeName ?? "STRING") + "_LIST"
        case .opaque(let opaque):
            return opaque.typeName
        default:
            return scalarKind?.rawValue ?? ""
        }
    }

    /// Whether reading this value back under `typeName` gives the same kind of value.
    package func fits(typeName: String) -> Bool {
        if let kind = ScalarKind(typeName: typeName) { return scalarKind == kind }
        if typeName.hasSuffix("_LIST"), let kind = ScalarKind(typeName: String(typeName.dropLast(5))) {
            guard case .list(let elements) = self else { return false }
            return elements.allSatisfy { $0.scalarKind == kind }
        }
        if case .opaque(let opaque) = self { return opaque.typeName == typeName }
        return false
    }

    /// Whether a field holding this value can be written without a `type` key and be read
    /// back equal (the inference rule: string -> STRING, integer -> INT64, other number ->
    /// DOUBLE, anything else -> opaque with type "").
    package var isInferable: Bool {
        switch self {
        case .string, .int64, .double: return true
        case .opaque(let opaque):
            switch opaque.value {
            case .string, .number: return false
            default: return opaque.typeName.isEmpty
            }
        default: return false
        }
    }
}

extension RecordField {
    /// The type spelling to write, or nil for none (see `typeName`).
    package var writtenTypeName: String? {
        if let typeName {
            return value.fits(typeName: typeName) ? typeName : value.defaultTypeName
        }
        return value.isInferable ? nil : value.defaultTypeName
    }
}
