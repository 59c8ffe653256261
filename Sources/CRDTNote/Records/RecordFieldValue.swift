import CRDTNoteSupport

/// The typed value of one CloudKit record field, following CloudKit Web Services types.
public indirect enum RecordFieldValue: Hashable, Sendable {
    /// STRING.
    case string(String)
    /// INT64.
    case int64(Int64)
    /// DOUBLE.
    case double(Double)
    /// TIMESTAMP: milliseconds since 1970.
    case timestamp(Int64)
    /// BYTES (base64 in JSON).
    case bytes([UInt8])
    /// ASSET or ASSETID.
    case asset(AssetReference)
    /// REFERENCE.
    case reference(RecordReference)
    /// Any `*_LIST` type of the scalar types above.
    case list([RecordFieldValue])
    /// LOCATION and any type this model does not know, kept verbatim. A field read without a
    /// `type` key whose value is not a string or number has `type` "".
    case opaque(OpaqueFieldValue)
}

/// A field value of a type this model does not interpret (LOCATION, or a type newer than this
/// library), carried verbatim so it survives every merge and rewrite.
public struct OpaqueFieldValue: Hashable, Sendable {
    /// The CloudKit type name as read (`""` when the exported form had no `type` key).
    public var typeName: String
    /// The value in the exported form, untouched.
    package var value: JSONValue

    /// An opaque value of type `typeName`.
    package init(typeName: String, value: JSONValue) {
        self.typeName = typeName
        self.value = value
    }
}

/// A field: its value plus whatever else its JSON dictionary held.
public struct RecordField: Hashable, Sendable {
    /// The value.
    public var value: RecordFieldValue
    /// The `type` spelling read from JSON, kept so that ASSETID stays ASSETID and an empty
    /// INT64_LIST stays INT64_LIST. `nil` means the JSON had no `type` key (the kind was
    /// inferred) and none is written back while the value still infers the same way.
    /// A spelling that no longer fits the value is replaced by the value's own type on write.
    public var typeName: String?
    /// Whether the field is encrypted: in CloudKit a key of `CKRecord.encryptedValues`, in the
    /// Web Services JSON a field dictionary with `"isEncrypted": true`. CloudKit fixes a field's
    /// encryption with its type (Docs/RECORD-FORMAT.md, "Schema"); keep it as read.
    public var isEncrypted = false
    /// Unknown keys in the field dictionary, kept verbatim.
    package var extra: JSONObject

    /// A field whose type is the value's default type.
    public init(_ value: RecordFieldValue) {
        self.init(value, extra: JSONObject())
    }

    /// The same, with keys of the exported form this model does not interpret.
    package init(_ value: RecordFieldValue, extra: JSONObject) {
        self.value = value
        self.typeName = value.defaultTypeName
        self.extra = extra
    }

    /// A field with an explicit `type` spelling (`nil`: no `type` key).
    public init(_ value: RecordFieldValue, typeName: String?) {
        self.init(value, typeName: typeName, extra: JSONObject())
    }

    /// The same, with keys of the exported form this model does not interpret.
    package init(_ value: RecordFieldValue, typeName: String?, extra: JSONObject, isEncrypted: Bool = false) {
        self.value = value
        self.typeName = typeName
        self.extra = extra
        self.isEncrypted = isEncrypted
    }
}
