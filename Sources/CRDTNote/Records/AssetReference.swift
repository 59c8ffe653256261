import CRDTNoteSupport

/// An ASSET / ASSETID field value: where an asset's bytes are and how to check them.
///
/// Only the keys needed locally are typed; CloudKit's `receipt`, `wrappingKey`,
/// `referenceChecksum` and anything else stay in `extra`, verbatim.
public struct AssetReference: Hashable, Sendable {
    /// The asset's checksum as CloudKit (or `AssetLocator.writeAsset`) gave it.
    public var fileChecksum: String?
    /// Size in bytes, if given.
    public var size: Int64?
    /// Where to download the bytes: for local exports, a path relative to the JSON file or a `file://` URL.
    public var downloadURL: String?
    /// Unknown keys, kept verbatim.
    package var extra: JSONObject

    /// An asset reference.
    public init(fileChecksum: String? = nil, size: Int64? = nil, downloadURL: String? = nil) {
        self.init(fileChecksum: fileChecksum, size: size, downloadURL: downloadURL, extra: JSONObject())
    }

    /// The same, with keys of the exported form this model does not interpret.
    package init(fileChecksum: String? = nil, size: Int64? = nil, downloadURL: String? = nil, extra: JSONObject) {
        self.fileChecksum = fileChecksum
        self.size = size
        self.downloadURL = downloadURL
        self.extra = extra
    }
}
