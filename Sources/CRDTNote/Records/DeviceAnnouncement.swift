/// What a device record says (``DeviceSchema``): the release a device runs, what it reads,
/// when it last announced itself, its name and the replicas writing through it.
package struct DeviceAnnouncement: Codable, Hashable, Sendable {
    package var release: String
    /// The newest payload minimum reader version the device reads.
    package var reads: UInt16
    package var capabilities: [String]
    /// Milliseconds since 1970 on the device's clock.
    package var lastSync: Int64
    package var name: String?
    /// Replica ids, newest last.
    package var replicas: [UInt64]

    package init(release: String, reads: UInt16, capabilities: [String], lastSync: Int64, name: String?, replicas: [UInt64]) {
        self.release = release
        self.reads = reads
        self.capabilities = capabilities
        self.lastSync = lastSync
        self.name = name
        self.replicas = replicas
    }

    /// Whether two announcements say the same apart from their time.
    package func sameContent(as other: DeviceAnnouncement) -> Bool {
        var copy = other
        copy.lastSync = lastSync
        return copy == self
    }

    /// Reads a device record; refuses (`.invalidField`, naming the field) one that is not a
    /// device record or breaks ``DeviceSchema``'s bounds.
    package init(record: CloudRecord) throws(NoteRecordError) {
        func fail(_ field: String, _ message: String) -> NoteRecordError {
            NoteRecordError(.invalidField, recordName: record.recordName, field: field, "device record: \(message)")
        }
        guard record.recordType == DeviceSchema.recordType else {
            throw fail("", "record type \(record.recordType), expected \(DeviceSchema.recordType)")
        }
        guard case .int64(DeviceSchema.version)? = record[field: DeviceSchema.Field.version] else {
            throw fail(DeviceSchema.Field.version, "expected INT64 \(DeviceSchema.version)")
        }
        guard case .string(let release)? = record[field: DeviceSchema.Field.release],
              Self.isToken(release) else {
            throw fail(DeviceSchema.Field.release, "expected a STRING of 1 to \(DeviceSchema.maximumTokenBytes) bytes")
        }
        guard case .int64(let reads)? = record[field: DeviceSchema.Field.reads], reads >= 1, reads <= Int64(UInt16.max) else {
            throw fail(DeviceSchema.Field.reads, "expected an INT64 from 1 to \(UInt16.max)")
        }
        guard case .timestamp(let lastSync)? = record[field: DeviceSchema.Field.lastSync] else {
            throw fail(DeviceSchema.Field.lastSync, "expected a TIMESTAMP")
        }
        let capabilities = try Self.strings(record, DeviceSchema.Field.capabilities, max: DeviceSchema.maximumCapabilities, fail)
        guard capabilities.allSatisfy(Self.isToken) else {
            throw fail(DeviceSchema.Field.capabilities, "each capability is 1 to \(DeviceSchema.maximumTokenBytes) bytes")
        }
        var name: String?
        switch record[field: DeviceSchema.Field.name] {
        case nil: break
        case .string(let value)? where value.utf8.count <= DeviceSchema.maximumNameBytes: name = value
        case _?: throw fail(DeviceSchema.Field.name, "expected a STRING of at most \(DeviceSchema.maximumNameBytes) bytes")
        }
        var replicas: [UInt64] = []
        for text in try Self.strings(record, DeviceSchema.Field.replicas, max: DeviceSchema.maximumReplicas, fail) {
            guard let id = UInt64(text) else { throw fail(DeviceSchema.Field.replicas, "\"\(text)\" is not a decimal replica id") }
            replicas.append(id)
        }
        self.init(release: release, reads: UInt16(reads), capabilities: capabilities, lastSync: lastSync, name: name, replicas: replicas)
    }

    /// Writes the announcement into `record` (a device record: type and fields; every other
    /// field and the system fields are kept). The name is cut to ``DeviceSchema/maximumNameBytes``,
    /// the lists to their bounds (newest replicas kept), so whatever is written reads back.
    package func write(into record: inout CloudRecord) {
        record.recordType = DeviceSchema.recordType
        record[field: DeviceSchema.Field.version] = .int64(DeviceSchema.version)
        record[field: DeviceSchema.Field.release] = .string(Self.isToken(release) ? release : "unknown")
        record[field: DeviceSchema.Field.reads] = .int64(Int64(reads))
        let kept = capabilities.filter(Self.isToken).prefix(DeviceSchema.maximumCapabilities)
        record[field: DeviceSchema.Field.capabilities] = kept.isEmpty ? nil : .list(kept.map { .string($0) })
        record[field: DeviceSchema.Field.lastSync] = .timestamp(lastSync)
        record[field: DeviceSchema.Field.name] = name.map { .string(Self.cut($0, toBytes: DeviceSchema.maximumNameBytes)) }
        record[field: DeviceSchema.Field.replicas] = replicas.isEmpty ? nil
            : .list(replicas.suffix(DeviceSchema.maximumReplicas).map { .string(String($0)) })
    }

    /// `text` cut to at most `limit` UTF-8 bytes at a character boundary.
    static func cut(_ text: String, toBytes limit: Int) -> String {
        var out = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            guard bytes + size <= limit else { break }
            out.append(character)
            bytes += size
        }
        return out
    }

    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= DeviceSchema.maximumTokenBytes
    }

    /// A LIST of STRING field (absent: empty) of at most `max` items.
    private static func strings(_ record: CloudRecord, _ field: String, max: Int,
                                _ fail: (String, String) -> NoteRecordError) throws(NoteRecordError) -> [String] {
        guard let value = record[field: field] else { return [] }
        guard case .list(let items) = value, items.count <= max else {
            throw fail(field, "expected a LIST of at most \(max) STRINGs")
        }
        var out: [String] = []
        for item in items {
            guard case .string(let text) = item else { throw fail(field, "expected a LIST of STRINGs") }
            out.append(text)
        }
        return out
    }
}
