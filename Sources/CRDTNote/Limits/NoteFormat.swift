/// Versions of crdtnote's binary payload format (see Docs/FORMAT.md).
public enum NoteFormat {
    /// The newest format version this library can write: 7, snapshots listing re-pointed right
    /// origins (``SnapshotFormat/version7``; format 6 has clock logs in coded columns, changes
    /// carrying formatting are 5, history payloads go up to 4). Which it writes is the writer's
    /// `format` (the sync engine: what its fleet reads).
    public static let version: UInt16 = 7
    /// The newest "minimum reader version" this library can decode (it reads versions 1 to 7;
    /// version 4 adds history payload version 2, Docs/FORMAT.md §11.2, version 5 formatting in
    /// changes, §5, version 6 snapshot format 6, §4.8, and version 7 snapshot format 7, §4.7).
    /// A payload that requires a newer reader is refused with a ``PayloadError`` whose code is
    /// ``PayloadError/Code/newerFormat``.
    public static let readerVersion: UInt16 = 7
    /// The four magic bytes every payload starts with: "CRNT".
    package static let magic: [UInt8] = [0x43, 0x52, 0x4E, 0x54]
    /// Size of the fixed header in bytes.
    package static let headerSize = 18
}
