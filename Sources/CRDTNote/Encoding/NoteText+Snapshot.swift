extension NoteText {
    /// The note's full state in crdtnote's binary format: visible text, ids, origins and
    /// tombstones, clock stamps. Deleted text is not included. Written in the default
    /// ``NoteLimits/snapshotFormat`` (format 1, which every release reads).
    public func encodedSnapshot() -> [UInt8] {
        encodedSnapshot(format: NoteLimits.default.snapshotFormat)
    }

    /// The note's full state written in snapshot format `format` (see ``SnapshotFormat``).
    public func encodedSnapshot(format: SnapshotFormat) -> [UInt8] {
        PayloadHeader.wrap(SnapshotEncoder.encode(sequence, format: format), kind: .snapshot, version: format.rawValue)
    }

    /// Loads a snapshot; edits made from now on are attributed to `replica`.
    /// Throws ``PayloadError/newerFormat(requiredReader:supportedReader:)`` before
    /// decoding anything when the payload needs a newer crdtnote.
    public init(snapshot: [UInt8], replica: ReplicaID, clock: HybridLogicalClock = HybridLogicalClock(),
                limits: NoteLimits = .default) throws(PayloadError) {
        var (header, reader) = try PayloadHeader.body(of: snapshot, expecting: .snapshot)
        do {
            let sequence = try SnapshotDecoder.decode(&reader, layout: max(header.minimumReaderVersion, 1), limits: limits)
            self.init(sequence: sequence, replica: replica, clock: clock)
        } catch {
            throw .corrupt(error)
        }
    }
}

extension NoteChanges {
    /// These changes in crdtnote's binary format.
    public func encoded() -> [UInt8] {
        PayloadHeader.wrap(ChangeSetCoding.encode(changeSet), kind: .changes)
    }

    /// Decodes changes. Their consistency with a particular note is checked when they are applied.
    public init(encoded bytes: [UInt8], limits: NoteLimits = .default) throws(PayloadError) {
        var (_, reader) = try PayloadHeader.body(of: bytes, expecting: .changes)
        do {
            self.init(changeSet: try ChangeSetCoding.decode(&reader, limits: limits))
        } catch {
            throw .corrupt(error)
        }
    }
}
