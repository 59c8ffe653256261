/// How the app fields a note library keeps (``NoteFieldValue``) travel in a note's record, so a
/// conflict keeps, per field, the later change (Docs/RECORD-FORMAT.md, "App fields").
///
/// Each field is a record field of the same name: a text as STRING, a number as INT64, a flag
/// as INT64 (0 or 1), a list of texts as STRING_LIST. The record field `fieldStamps` (BYTES)
/// lists every field the library manages, removed ones included: a version byte (1), a count,
/// then per field its name (length-prefixed UTF-8), the hybrid-logical-clock stamp of its last
/// change (varuint) and its kind (0 removed, 1 text, 2 number, 3 flag, 4 list). Fields the
/// stamps do not list (written by apps that do not stamp them) are merged as before: the
/// server's value wins where both sides changed it.
enum NoteFieldStamps {
    /// The stamps field's name.
    static let field = NoteSchema.Field.fieldStamps

    /// Writes `state`'s fields and their stamps into `record`.
    static func write(_ state: SyncNoteState, into record: inout CloudRecord) {
        guard !state.fields.isEmpty || !state.removedFields.isEmpty else { return }
        var out = ByteWriter(reservingCapacity: 64)
        out.writeByte(1)
        out.writeVarUInt(UInt64(state.fields.count + state.removedFields.count))
        for key in Set(state.fields.keys).union(state.removedFields.keys).sorted() {
            out.writeLengthPrefixed(Array(key.utf8))
            if let field = state.fields[key] {
                out.writeVarUInt(field.stamp.rawValue)
                out.writeByte(kind(of: field.value))
                record[field: key] = recordValue(field.value)
            } else {
                out.writeVarUInt(state.removedFields[key]?.rawValue ?? 0)
                out.writeByte(0)
                record[field: key] = nil
            }
        }
        record[field: field] = .bytes(out.bytes)
    }

    /// The fields of `record` whose stamps are later than `local`'s (every stamped field when
    /// there is no local note). Stamps that cannot be read, and values of the wrong type, are
    /// passed over (the local value stays).
    static func updates(from record: CloudRecord, over local: SyncNoteState?) -> [SyncFieldUpdate] {
        guard case .bytes(let bytes)? = record[field: field] else { return [] }
        var reader = ByteReader(bytes)
        guard (try? reader.readByte()) == 1, let count = try? reader.readCount("field stamps", minimumBytesEach: 3) else { return [] }
        var out: [SyncFieldUpdate] = []
        for _ in 0..<min(count, NoteFieldValue.maximumFields * 2) {
            guard let key = try? JournalEntry.readString(&reader, max: NoteFieldValue.maximumKeyBytes, "field name"),
                  let raw = try? reader.readVarUInt(), let kind = try? reader.readByte() else { break }
            let stamp = HLCTimestamp(rawValue: raw)
            let value: NoteFieldValue?
            if kind == 0 {
                value = nil
            } else {
                guard let read = fieldValue(record[field: key], kind: kind) else { continue }
                value = read
            }
            let localStamp = local?.fields[key]?.stamp ?? local?.removedFields[key]
            if let localStamp {
                guard stamp.rawValue >= localStamp.rawValue else { continue }
                if stamp.rawValue == localStamp.rawValue {
                    // The same stamp on two devices: the larger value wins everywhere.
                    let mine = local?.fields[key].map { order($0.value) } ?? []
                    guard order(value).lexicographicallyPrecedes(mine) == false, order(value) != mine else { continue }
                }
            }
            out.append(SyncFieldUpdate(key: key, value: value, stamp: stamp))
        }
        return out
    }

    private static func kind(of value: NoteFieldValue) -> UInt8 {
        switch value {
        case .string: 1
        case .int: 2
        case .bool: 3
        case .strings: 4
        }
    }

    private static func recordValue(_ value: NoteFieldValue) -> RecordFieldValue {
        switch value {
        case .string(let text): .string(text)
        case .int(let number): .int64(number)
        case .bool(let flag): .int64(flag ? 1 : 0)
        case .strings(let list): .list(list.map { .string($0) })
        }
    }

    private static func fieldValue(_ value: RecordFieldValue?, kind: UInt8) -> NoteFieldValue? {
        let read: NoteFieldValue?
        switch (kind, value) {
        case (1, .string(let text)?): read = .string(text)
        case (2, .int64(let number)?): read = .int(number)
        case (3, .int64(let number)?): read = .bool(number != 0)
        case (4, .list(let list)?):
            var texts: [String] = []
            for element in list {
                guard case .string(let text) = element else { return nil }
                texts.append(text)
            }
            read = .strings(texts)
        default: read = nil
        }
        return read?.problem == nil ? read : nil
    }

    /// Bytes that order two values the same way on every device.
    private static func order(_ value: NoteFieldValue?) -> [UInt8] {
        guard let value else { return [] }
        var out = ByteWriter(reservingCapacity: 16)
        value.write(into: &out)
        return out.bytes
    }
}
