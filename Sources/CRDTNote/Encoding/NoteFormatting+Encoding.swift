/// The formatting payload (Docs/FORMAT.md §10.7): the 18-byte header with kind 3, then the
/// replica table, the string table, the mark operations and the paragraph operations. Equal
/// sets of operations encode to equal bytes (tables and operations sorted).
extension NoteFormatting {
    /// The minimum reader version formatting payloads declare: every reader that knows kind 3.
    static let payloadVersion: UInt16 = 1

    /// The formatting payload of these operations.
    func encoded() -> [UInt8] {
        PayloadHeader.wrap(encodedBody(), kind: .formatting, version: Self.payloadVersion)
    }

    /// The body of the formatting payload (§10.7), also what a changes payload carries (§5).
    func encodedBody() -> [UInt8] {
        var replicas = Set<ReplicaID>(), strings = Set<String>()
        for mark in marks {
            replicas.formUnion([mark.first.replica, mark.last.replica, mark.replica] + mark.coreVersion.keys)
            for boundary in [mark.start, mark.end] { if let id = boundary.element { replicas.insert(id.replica) } }
            strings.insert(mark.name)
            if let value = mark.value { strings.insert(value) }
        }
        for paragraph in paragraphs {
            replicas.insert(paragraph.replica)
            if case .newline(let id) = paragraph.key { replicas.insert(id.replica) }
            strings.formUnion([paragraph.attribute.name, paragraph.attribute.value])
        }
        let table = FormattingTables(replicas: replicas.sorted { $0.rawValue < $1.rawValue },
                                     strings: strings.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        var body = ByteWriter(reservingCapacity: 64 + 24 * operationCount)
        body.writeVarUInt(UInt64(table.replicas.count))
        for replica in table.replicas { body.writeUInt64LE(replica.rawValue) }
        body.writeVarUInt(UInt64(table.strings.count))
        for string in table.strings { body.writeLengthPrefixed(Array(string.utf8)) }
        for operations in [marks.map { table.encode($0) }, paragraphs.map { table.encode($0) }] {
            body.writeVarUInt(UInt64(operations.count))
            for bytes in operations.sorted(by: { $0.lexicographicallyPrecedes($1) }) { body.writeBytes(bytes) }
        }
        return body.bytes
    }
}

/// The replica and string tables of one formatting payload: operations name both by index.
struct FormattingTables {
    var replicas: [ReplicaID]
    var strings: [String]
    private var replicaIndex: [ReplicaID: Int] = [:]
    private var stringIndex: [String: Int] = [:]

    init(replicas: [ReplicaID], strings: [String]) {
        self.replicas = replicas
        self.strings = strings
        for (i, replica) in replicas.enumerated() { replicaIndex[replica] = i }
        for (i, string) in strings.enumerated() { stringIndex[string] = i }
    }

    func encode(_ mark: MarkOperation) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: 24)
        out.writeByte(mark.start.code | mark.end.code << 2 | (mark.value == nil ? 0 : 0x10))
        out.writeVarUInt(UInt64(stringIndex[mark.name] ?? 0))
        if let value = mark.value { out.writeVarUInt(UInt64(stringIndex[value] ?? 0)) }
        for id in [mark.start.element, mark.end.element, mark.first, mark.last].compactMap({ $0 }) { write(id, into: &out) }
        let version = mark.coreVersion.map { (index: replicaIndex[$0.key] ?? 0, count: $0.value) }.sorted { $0.index < $1.index }
        out.writeVarUInt(UInt64(version.count))
        for entry in version {
            out.writeVarUInt(UInt64(entry.index))
            out.writeVarUInt(UInt64(entry.count))
        }
        out.writeVarUInt(mark.stamp.rawValue)
        out.writeVarUInt(UInt64(replicaIndex[mark.replica] ?? 0))
        return out.bytes
    }

    func encode(_ paragraph: ParagraphOperation) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: 16)
        switch paragraph.key {
        case .documentStart:
            out.writeByte(0)
        case .newline(let id):
            out.writeByte(1)
            write(id, into: &out)
        }
        out.writeVarUInt(UInt64(stringIndex[paragraph.attribute.name] ?? 0))
        out.writeVarUInt(UInt64(stringIndex[paragraph.attribute.value] ?? 0))
        out.writeVarUInt(paragraph.stamp.rawValue)
        out.writeVarUInt(UInt64(replicaIndex[paragraph.replica] ?? 0))
        return out.bytes
    }

    private func write(_ id: ElementID, into out: inout ByteWriter) {
        out.writeVarUInt(UInt64(replicaIndex[id.replica] ?? 0))
        out.writeVarUInt(UInt64(id.seq))
    }
}

extension MarkBoundary {
    /// The element the boundary names (nil for the document's ends).
    var element: ElementID? {
        switch self {
        case .documentStart, .documentEnd: return nil
        case .before(let id), .after(let id): return id
        }
    }

    /// Its two bits in a mark's flags: 0 a document end, 1 before, 2 after.
    var code: UInt8 {
        switch self {
        case .documentStart, .documentEnd: return 0
        case .before: return 1
        case .after: return 2
        }
    }
}
