import Foundation

/// What a note library keeps of a note's server record: the record without the fields crdtnote
/// writes from the note (payload, encrypted payload, payload asset, text mirror, `mirroredBytes`, `modified`,
/// `version`, `fieldStamps`, and the formatting fields when this release reads them), so there is
/// no second copy of the note. It holds the change tag, CloudKit's
/// system fields (as `encodeSystemFields` archives them), the record type and zone, and every
/// other field (the app's). The next save writes the note onto it.
///
/// One exception (Docs/LIBRARY.md, "Sync metadata"): a record that is plain text (a legacy
/// record, no payload) keeps its `text` and `version`, the ancestor a three-way merge needs when
/// a legacy device edits the note again.
///
/// Bytes: a version byte (1), the change tag (length-prefixed UTF-8, empty when none), then the
/// record as JSON (the archive form of `NoteSyncState`'s base records).
struct ServerMetadata: Sendable, Equatable {
    /// The record, note fields stripped.
    var record: CloudRecord

    /// The metadata of `full`: its note fields stripped (unless it is plain text), asset bytes
    /// dropped.
    init(of full: CloudRecord) {
        var record = full
        let plain = !NoteRecord(full).hasPayload
        for name in NoteSchema.Field.all where !(plain && (name == NoteSchema.Field.text || name == NoteSchema.Field.version)) {
            record.fields[name] = nil
        }
        record.fields[NoteSchema.Field.fieldStamps] = nil  // the library keeps the stamps
        // Formatting this release reads is in the note (the library unites it into the note with
        // the record: ``LibrarySyncAccess/recordSynced(_:merged:fields:confirms:server:)``) and
        // written from it; formatting it cannot read (a newer release's, corrupt) stays, asset
        // bytes included, so a write can tell it must not be replaced.
        let formatting = NoteRecord(full).hasFormatting ? NoteRecord(full).readFormatting() : nil
        if case .success? = formatting {
            for name in NoteSchema.Field.formattingFields { record.fields[name] = nil }
        }
        for (name, field) in record.fields {
            if case .asset(var ref) = field.value {
                // A legacy ASSET text mirror keeps its bytes: it is the ancestor's text.
                if plain && name == NoteSchema.Field.text { continue }
                if name == NoteSchema.Field.formattingAsset { continue }
                ref.bytes = nil
                record.fields[name]?.value = .asset(ref)
            }
        }
        self.record = record
    }

    init(record: CloudRecord) { self.record = record }

    /// Whether the record is a legacy plain-text record (its text kept as an ancestor).
    var isPlainText: Bool { record.fields[NoteSchema.Field.text] != nil }

    /// The stored bytes; throws `.editRefused` for a record JSON cannot hold (a DOUBLE field
    /// that is not a number).
    func encoded() throws(NoteLibraryError) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: 256)
        out.writeByte(1)
        out.writeLengthPrefixed(Array((record.recordChangeTag ?? "").utf8))
        do {
            out.writeBytes(Array(try JSONEncoder().encode(StoredRecord(record))))
        } catch {
            throw NoteLibraryError(.editRefused, "the server record of note \"\(record.recordName)\" cannot be kept: \(error)", note: record.recordName)
        }
        return out.bytes
    }

    static func decode(_ bytes: ArraySlice<UInt8>) throws(BinaryDecodingError) -> ServerMetadata {
        var reader = ByteReader(Array(bytes))
        let version = try reader.readByte()
        guard version == 1 else { throw BinaryDecodingError(.invalidValue, at: 0, "server metadata version \(version)") }
        _ = try reader.readLengthPrefixed("change tag")
        let json = try reader.readBytes(reader.remaining)
        do {
            return ServerMetadata(record: try JSONDecoder().decode(StoredRecord.self, from: Data(json)).record())
        } catch {
            throw BinaryDecodingError(.invalidValue, at: reader.offset, "server metadata: \(error)")
        }
    }

    /// The change tag at the start of `bytes` without decoding the rest (nil: none or unreadable).
    static func changeTag(in bytes: ArraySlice<UInt8>) -> String? {
        var reader = ByteReader(Array(bytes))
        guard (try? reader.readByte()) == 1, let tag = try? reader.readLengthPrefixed("change tag"), !tag.isEmpty else { return nil }
        return String(decoding: tag, as: UTF8.self)
    }
}
