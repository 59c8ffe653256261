/// The value of an app field the note library keeps beside a note's text (a folder, a pinned
/// flag, tags), listed with the note without loading it.
public enum NoteFieldValue: Hashable, Sendable {
    /// Text, at most 1,024 UTF-8 bytes (a folder name).
    case string(String)
    /// A whole number.
    case int(Int64)
    /// A flag (pinned).
    case bool(Bool)
    /// A list of texts, at most 64 of at most 1,024 bytes each (tags).
    case strings([String])

    /// Most UTF-8 bytes of one text, and most texts in a list.
    static let maximumTextBytes = 1024
    static let maximumListCount = 64
    /// Most fields a note carries, and most UTF-8 bytes of a field's name.
    static let maximumFields = 32
    static let maximumKeyBytes = 64
    /// Record fields crdtnote writes itself, which app fields cannot be named: the note fields
    /// and the fields' stamps (Docs/RECORD-FORMAT.md, "App fields").
    static let reservedKeys: Set<String> = NoteSchema.Field.written.union([NoteSchema.Field.fieldStamps])

    /// Why the value cannot be kept, or nil.
    var problem: String? {
        switch self {
        case .string(let text):
            return text.utf8.count > Self.maximumTextBytes ? "a text of \(text.utf8.count) bytes (at most \(Self.maximumTextBytes))" : nil
        case .strings(let list):
            if list.count > Self.maximumListCount { return "a list of \(list.count) texts (at most \(Self.maximumListCount))" }
            return list.first { $0.utf8.count > Self.maximumTextBytes }.map { "a text of \($0.utf8.count) bytes in the list (at most \(Self.maximumTextBytes))" }
        case .int, .bool:
            return nil
        }
    }

    func write(into out: inout ByteWriter) {
        switch self {
        case .string(let text):
            out.writeByte(1)
            out.writeLengthPrefixed(Array(text.utf8))
        case .int(let value):
            out.writeByte(2)
            out.writeVarInt(value)
        case .bool(let value):
            out.writeByte(value ? 4 : 3)
        case .strings(let list):
            out.writeByte(5)
            out.writeVarUInt(UInt64(list.count))
            for text in list { out.writeLengthPrefixed(Array(text.utf8)) }
        }
    }

    static func read(_ reader: inout ByteReader) throws(BinaryDecodingError) -> NoteFieldValue {
        let offset = reader.offset
        guard let value = try readOptional(&reader) else {
            throw BinaryDecodingError(.invalidValue, at: offset, "a field value is missing (tag 0)")
        }
        return value
    }

    /// A value, or nil for tag 0 (a removed field).
    static func readOptional(_ reader: inout ByteReader) throws(BinaryDecodingError) -> NoteFieldValue? {
        let offset = reader.offset
        switch try reader.readByte() {
        case 0: return nil
        case 1: return .string(try JournalEntry.readString(&reader, max: maximumTextBytes, "field text"))
        case 2: return .int(try reader.readVarInt())
        case 3: return .bool(false)
        case 4: return .bool(true)
        case 5:
            let count = try reader.readCount("field list", minimumBytesEach: 1)
            guard count <= maximumListCount else {
                throw BinaryDecodingError(.lengthTooLarge, at: offset, "a field list of \(count) texts exceeds \(maximumListCount)")
            }
            var list: [String] = []
            for _ in 0..<count { list.append(try JournalEntry.readString(&reader, max: maximumTextBytes, "field text")) }
            return .strings(list)
        case let tag: throw BinaryDecodingError(.invalidValue, at: offset, "unknown field value tag \(tag)")
        }
    }
}

/// An app field's value and the hybrid-logical-clock stamp of its last change (the sync merges
/// fields one by one, the later change winning).
package struct StampedField: Sendable, Equatable {
    package var value: NoteFieldValue
    package var stamp: HLCTimestamp

    package init(value: NoteFieldValue, stamp: HLCTimestamp) {
        self.value = value
        self.stamp = stamp
    }
}
