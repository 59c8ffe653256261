import CRDTNoteSupport

extension NoteFormatting {
    /// Decodes a formatting payload (Docs/FORMAT.md §10.7), refusing anything beyond `limits`
    /// (operations, replicas, bytes) before allocating for it.
    ///
    /// Throws ``PayloadError`` `.newerFormat` for a payload needing a newer reader (leave it
    /// alone), `.corrupt` with the offset of the bad field otherwise.
    init(encoded bytes: [UInt8], limits: NoteLimits = .default) throws(PayloadError) {
        var (_, reader) = try PayloadHeader.body(of: bytes, expecting: .formatting, limits: limits)
        do throws(BinaryDecodingError) {
            self = try Self.decodeBody(&reader, limits: limits)
            try reader.expectEnd("the formatting")
        } catch {
            throw .corrupt(error)
        }
    }

    /// Reads the body of a formatting payload (§10.7) from `reader`, leaving it just after the
    /// body (a changes payload's formatting, §5, is followed by more).
    static func decodeBody(_ reader: inout ByteReader, limits: NoteLimits) throws(BinaryDecodingError) -> NoteFormatting {
        var decoder = FormattingDecoder(limits: limits)
        try decoder.readTables(&reader)
        var formatting = NoteFormatting()
        let markCount = try decoder.readOperationCount(&reader, "mark operations", minimumBytesEach: 9)
        for _ in 0..<markCount { formatting.add(try decoder.readMark(&reader)) }
        let paragraphCount = try decoder.readOperationCount(&reader, "paragraph operations", minimumBytesEach: 5)
        var paragraphs: [ParagraphOperation] = []
        for _ in 0..<paragraphCount { paragraphs.append(try decoder.readParagraph(&reader)) }
        formatting.add(paragraphs)
        return formatting
    }
}

/// Reads the body of a formatting payload: tables first, then operations naming them by index.
struct FormattingDecoder {
    let limits: NoteLimits
    var replicas: [ReplicaID] = []
    var strings: [String] = []
    var operations = 0

    init(limits: NoteLimits) { self.limits = limits }

    /// The replica table (ids strictly increasing, unsigned) and the string table (strictly
    /// increasing by UTF-8 bytes).
    mutating func readTables(_ reader: inout ByteReader) throws(BinaryDecodingError) {
        let start = reader.offset
        let replicaCount = try reader.readCount("replicas", minimumBytesEach: 8)
        guard replicaCount <= limits.maximumReplicas else {
            throw BinaryDecodingError(.lengthTooLarge, at: start, "\(replicaCount) replicas exceed the limit of \(limits.maximumReplicas)")
        }
        for _ in 0..<replicaCount {
            let offset = reader.offset
            let id = try reader.readUInt64LE()
            guard replicas.last.map({ $0.rawValue < id }) ?? true else {
                throw BinaryDecodingError(.invalidValue, at: offset, "replica ids must be strictly increasing")
            }
            replicas.append(ReplicaID(rawValue: id))
        }
        let stringCount = try reader.readCount("strings", minimumBytesEach: 1)
        for _ in 0..<stringCount {
            let offset = reader.offset
            let bytes = try reader.readLengthPrefixed("string")
            guard bytes.count <= NoteFormatting.maximumStringBytes else {
                throw BinaryDecodingError(.lengthTooLarge, at: offset,
                                          "a string of \(bytes.count) bytes exceeds \(NoteFormatting.maximumStringBytes)")
            }
            if let bad = UTF8Validation.firstInvalidByte(bytes) {
                throw BinaryDecodingError(.invalidValue, at: bad, "a string is not valid UTF-8")
            }
            let string = String(decoding: bytes, as: UTF8.self)
            guard strings.last.map({ $0.utf8.lexicographicallyPrecedes(string.utf8) }) ?? true else {
                throw BinaryDecodingError(.invalidValue, at: offset, "strings must be strictly increasing")
            }
            strings.append(string)
        }
    }

    /// A count of operations, bounded by the bytes left and, with those read so far, by
    /// ``NoteLimits/maximumFormattingOperations``.
    mutating func readOperationCount(_ reader: inout ByteReader, _ what: String, minimumBytesEach: Int) throws(BinaryDecodingError) -> Int {
        let start = reader.offset
        let count = try reader.readCount(what, minimumBytesEach: minimumBytesEach)
        operations += count
        guard operations <= limits.maximumFormattingOperations else {
            throw BinaryDecodingError(.lengthTooLarge, at: start,
                                      "\(operations) formatting operations exceed the limit of \(limits.maximumFormattingOperations)")
        }
        return count
    }

    func readMark(_ reader: inout ByteReader) throws(BinaryDecodingError) -> MarkOperation {
        let flagsOffset = reader.offset
        let flags = try reader.readByte()
        guard flags & 0xE0 == 0, flags & 0x03 != 0x03, flags & 0x0C != 0x0C else {
            throw BinaryDecodingError(.invalidValue, at: flagsOffset, "invalid mark flags 0x\(String(flags, radix: 16))")
        }
        let name = try string(&reader, "mark name")
        let value = flags & 0x10 == 0 ? nil : try string(&reader, "mark value")
        let start = try boundary(flags & 0x03, &reader, atEnd: false)
        let end = try boundary(flags >> 2 & 0x03, &reader, atEnd: true)
        let first = try element(&reader), last = try element(&reader)
        let versionOffset = reader.offset
        let entries = try reader.readCount("core version entries", minimumBytesEach: 2)
        guard entries <= replicas.count else {
            throw BinaryDecodingError(.invalidValue, at: versionOffset, "\(entries) core version entries but \(replicas.count) replicas")
        }
        var coreVersion: [ReplicaID: UInt32] = [:]
        var previous = -1
        for _ in 0..<entries {
            let offset = reader.offset
            let index = try replicaIndex(&reader)
            guard index > previous else {
                throw BinaryDecodingError(.invalidValue, at: offset, "core version replicas must be strictly increasing")
            }
            previous = index
            coreVersion[replicas[index]] = UInt32(try reader.readVarUInt(max: UInt64(UInt32.max), "core version count"))
        }
        let stamp = HLCTimestamp(rawValue: try reader.readVarUInt())
        let author = replicas[try replicaIndex(&reader)]
        return MarkOperation(name: name, value: value, start: start, end: end, first: first, last: last,
                             coreVersion: coreVersion, stamp: stamp, replica: author)
    }

    func readParagraph(_ reader: inout ByteReader) throws(BinaryDecodingError) -> ParagraphOperation {
        let keyOffset = reader.offset
        let key: ParagraphKey
        switch try reader.readByte() {
        case 0: key = .documentStart
        case 1: key = .newline(try element(&reader))
        case let other: throw BinaryDecodingError(.invalidValue, at: keyOffset, "invalid paragraph key kind \(other)")
        }
        let nameOffset = reader.offset
        let name = try string(&reader, "attribute name"), value = try string(&reader, "attribute value")
        guard let attribute = ParagraphAttribute(name: name, value: value) else {
            throw BinaryDecodingError(.invalidValue, at: nameOffset, "\"\(value)\" is not a value of paragraph attribute \"\(name)\"")
        }
        let stamp = HLCTimestamp(rawValue: try reader.readVarUInt())
        return ParagraphOperation(key: key, attribute: attribute, stamp: stamp, replica: replicas[try replicaIndex(&reader)])
    }

    private func boundary(_ code: UInt8, _ reader: inout ByteReader, atEnd: Bool) throws(BinaryDecodingError) -> MarkBoundary {
        switch code {
        case 0: return atEnd ? .documentEnd : .documentStart
        case 1: return .before(try element(&reader))
        default: return .after(try element(&reader))
        }
    }

    private func element(_ reader: inout ByteReader) throws(BinaryDecodingError) -> ElementID {
        let replica = replicas[try replicaIndex(&reader)]
        return ElementID(replica: replica, seq: UInt32(try reader.readVarUInt(max: UInt64(UInt32.max), "element seq")))
    }

    private func replicaIndex(_ reader: inout ByteReader) throws(BinaryDecodingError) -> Int {
        let offset = reader.offset
        guard !replicas.isEmpty else {
            throw BinaryDecodingError(.invalidValue, at: offset, "a replica index but the replica table is empty")
        }
        return try reader.readVarUInt(max: UInt64(replicas.count - 1), "replica index")
    }

    private func string(_ reader: inout ByteReader, _ what: String) throws(BinaryDecodingError) -> String {
        let offset = reader.offset
        guard !strings.isEmpty else {
            throw BinaryDecodingError(.invalidValue, at: offset, "a \(what) but the string table is empty")
        }
        return strings[try reader.readVarUInt(max: UInt64(strings.count - 1), what)]
    }
}
