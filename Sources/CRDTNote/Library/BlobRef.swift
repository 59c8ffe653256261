/// Where one blob (a note's snapshot, or its server metadata) is kept: the pack file that
/// compaction `generation` wrote (`notes/pack-<generation>`), and the record in it at `offset`
/// (its 8-byte length and checksum prefix) holding `length` bytes of blob.
struct BlobRef: Sendable, Hashable {
    var generation: UInt64
    /// Where the record starts in the pack file (its length prefix, not the blob).
    var offset: Int
    /// The blob's bytes, without the record's prefix.
    var length: Int

    /// The bytes the record takes in its pack.
    var recordBytes: Int { PackFormat.recordPrefixSize + length }
}

/// Where a note's snapshot is.
enum SnapshotLocation: Sendable, Hashable {
    /// A whole file of its own, `notes/<number>-<generation>.snapshot` (format 1 libraries;
    /// the next compaction moves it into a pack).
    case file(generation: UInt64)
    /// A blob in a pack file.
    case blob(BlobRef)

    /// The blob reference, when the snapshot is in a pack.
    var blob: BlobRef? {
        if case .blob(let ref) = self { return ref }
        return nil
    }
}
