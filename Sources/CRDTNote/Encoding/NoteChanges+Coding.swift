extension NoteChanges {
    /// The minimum reader version of changes that carry formatting operations (Docs/FORMAT.md
    /// §5, "Formatting in changes"): readers before it stop at the header with `newerFormat`.
    static let formattingReader: UInt16 = 5

    /// These changes in crdtnote's binary format: format 1, or format 3 when they carry ids a
    /// compacted copy dropped, or format 5 when they carry formatting operations (Docs/FORMAT.md
    /// §5). Changes without formatting are written exactly as by releases before format 5.
    public func encoded() -> [UInt8] {
        guard !formatting.isEmpty else {
            return PayloadHeader.wrap(ChangeSetCoding.encode(changeSet), kind: .changes, version: ChangeSetCoding.readerVersion(of: changeSet))
        }
        var body = ByteWriter(reservingCapacity: 64)
        body.writeBytes(ChangeSetCoding.encode(changeSet, listingCompacted: true))
        body.writeBytes(formatting.encodedBody())
        let base = formattingBase.sorted { $0.key.rawValue < $1.key.rawValue }
        body.writeVarUInt(UInt64(base.count))
        for (author, stamp) in base {
            body.writeUInt64LE(author.rawValue)
            body.writeVarUInt(stamp.rawValue)
        }
        return PayloadHeader.wrap(body.bytes, kind: .changes, version: Self.formattingReader)
    }

    /// Decodes changes. Their consistency with a particular note is checked when they are applied.
    public init(encoded bytes: [UInt8], limits: NoteLimits = .default) throws(PayloadError) {
        var (header, reader) = try PayloadHeader.body(of: bytes, expecting: .changes)
        do throws(BinaryDecodingError) {
            let layout = header.minimumReaderVersion
            let set = try ChangeSetCoding.decode(&reader, layout: layout, limits: limits)
            guard layout >= Self.formattingReader else {
                self.init(changeSet: set)
                return
            }
            let formatting = try NoteFormatting.decodeBody(&reader, limits: limits)
            // Entries for replicas that author none of the operations say nothing: left out.
            let base = try Self.readFormattingBase(&reader).filter { formatting.latestStamp(of: $0.key) != nil }
            try reader.expectEnd("changes")
            self.init(changeSet: set, formatting: formatting, formattingBase: base)
        } catch {
            throw .corrupt(error)
        }
    }

    /// The formatting base (§5): a count, then per author its id (u64, strictly increasing as
    /// unsigned integers) and a stamp.
    private static func readFormattingBase(_ reader: inout ByteReader) throws(BinaryDecodingError) -> [ReplicaID: HLCTimestamp] {
        let count = try reader.readCount("formatting base entries", minimumBytesEach: 9)
        var base: [ReplicaID: HLCTimestamp] = [:]
        var previous: UInt64? = nil
        for _ in 0..<count {
            let offset = reader.offset
            let id = try reader.readUInt64LE()
            guard previous.map({ $0 < id }) ?? true else {
                throw BinaryDecodingError(.invalidValue, at: offset, "formatting base replica ids must be strictly increasing")
            }
            previous = id
            base[ReplicaID(rawValue: id)] = HLCTimestamp(rawValue: try reader.readVarUInt())
        }
        return base
    }
}
