import CRDTNoteSupport

/// An ASSET / ASSETID field value: where an asset's bytes are, how to check them, and (like a
/// `CKAsset`'s file) the bytes themselves when they are at hand.
///
/// Records travel with their asset bytes: a store fills in ``bytes`` on fetch and stores them
/// on save; ``NoteRecord`` writes new assets with ``bytes`` set and no ``downloadURL`` yet. The
/// JSON form never holds bytes; an ``AssetStorage`` reads and writes them beside it.
///
/// Only the keys needed locally are typed; CloudKit's `receipt`, `wrappingKey`,
/// `referenceChecksum` and anything else are kept verbatim.
public struct AssetReference: Hashable, Sendable {
    /// The asset's checksum as CloudKit (or the ``AssetStorage`` that wrote it) gave it.
    public var fileChecksum: String?
    /// Size in bytes, if given.
    public var size: Int64?
    /// Where to download the bytes: for local exports, a path relative to the JSON file or a
    /// `file://` URL. `nil` for an asset not stored anywhere yet.
    public var downloadURL: String?
    /// The asset's content, when loaded or newly written; `nil` when only the reference is known.
    public var bytes: [UInt8]?
    /// Unknown keys, kept verbatim.
    package var extra: JSONObject

    /// An asset reference, optionally with the asset's bytes.
    public init(fileChecksum: String? = nil, size: Int64? = nil, downloadURL: String? = nil, bytes: [UInt8]? = nil) {
        self.init(fileChecksum: fileChecksum, size: size, downloadURL: downloadURL, bytes: bytes, extra: JSONObject())
    }

    /// The same, with keys of the exported form this model does not interpret.
    package init(fileChecksum: String? = nil, size: Int64? = nil, downloadURL: String? = nil, bytes: [UInt8]? = nil, extra: JSONObject) {
        self.fileChecksum = fileChecksum
        self.size = size
        self.downloadURL = downloadURL
        self.bytes = bytes
        self.extra = extra
    }

    /// A new asset holding `bytes`: size and a local checksum (64-bit FNV-1a as 16 lowercase
    /// hex digits), no `downloadURL` yet. `extra` keeps keys of the reference it replaces.
    package static func new(_ bytes: [UInt8], extra: JSONObject = JSONObject()) -> AssetReference {
        AssetReference(fileChecksum: AssetChecksum.fnv1a64Hex(bytes), size: Int64(bytes.count), bytes: bytes, extra: extra)
    }
}
