/// Writes one pack file (``PackFormat``) durably with a single flush: records go to a hidden
/// temporary file in the notes folder in large writes (so memory stays bounded however many
/// notes a compaction rewrites), then ``finish()`` flushes it once and renames it to
/// `notes/pack-<generation>`. The caller flushes the notes folder before the index that
/// refers to the pack is written. Nothing is written when no blob is added.
struct PackWriter {
    /// Bytes gathered before they are written.
    static let chunkBytes = 4 << 20

    let disk: LibraryDisk
    let generation: UInt64
    let name: String
    private var temporary: String?
    private var pending: [UInt8]
    /// The pack's size so far (written and pending).
    private(set) var size: Int
    /// Blobs added.
    private(set) var count = 0

    init(disk: LibraryDisk, generation: UInt64) {
        self.disk = disk
        self.generation = generation
        self.name = LibraryFormat.packFile(generation)
        self.pending = PackFormat.header(generation: generation)
        self.size = pending.count
    }

    /// Adds a record holding `blob`; returns where it is.
    mutating func add<C: Collection>(_ blob: C) throws(NoteLibraryError) -> BlobRef where C.Element == UInt8 {
        guard blob.count <= PackFormat.maximumBlob else {
            throw NoteLibraryError(.storage, "a blob of \(blob.count) bytes does not fit in a pack record", path: disk.path(name))
        }
        let ref = BlobRef(generation: generation, offset: size, length: blob.count)
        var prefix = ByteWriter(reservingCapacity: PackFormat.recordPrefixSize)
        prefix.writeUInt32LE(UInt32(blob.count))
        prefix.writeUInt32LE(CRC32C.checksum(blob))
        try put(prefix.bytes)
        try put(blob)
        count += 1
        return ref
    }

    /// Adds a record read whole from another pack (prefix, checksum and blob as they are, so
    /// damage stays detectable); returns where it is.
    mutating func addRecord(_ record: [UInt8], length: Int) throws(NoteLibraryError) -> BlobRef {
        let ref = BlobRef(generation: generation, offset: size, length: length)
        try put(record)
        count += 1
        return ref
    }

    private mutating func put<C: Collection>(_ bytes: C) throws(NoteLibraryError) where C.Element == UInt8 {
        pending.append(contentsOf: bytes)
        size += bytes.count
        if pending.count >= Self.chunkBytes { try write() }
    }

    private mutating func write() throws(NoteLibraryError) {
        if let temporary {
            try disk.append(pending, to: temporary)
        } else {
            let temporary = disk.temporaryName(beside: name)
            try disk.writeNew(pending, to: temporary)
            self.temporary = temporary
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes what is left, flushes the file and renames it into place (the folder is not
    /// flushed). Returns false, writing nothing, when no blob was added.
    mutating func finish() throws(NoteLibraryError) -> Bool {
        guard count > 0 else { return false }
        if !pending.isEmpty { try write() }
        guard let temporary else { return false }
        try disk.sync(temporary)
        try disk.rename(temporary, to: name)
        return true
    }
}
