/// The formatting fields of a note record (`formatting`, `formattingAsset`; Docs/RECORD-FORMAT.md,
/// "Formatting"): read beside the payload, written only for a note that has formatting, never
/// removed by a copy that holds none.
extension NoteRecord {
    /// Whether the record has a `formatting` or `formattingAsset` field.
    package var hasFormatting: Bool {
        NoteSchema.Field.formattingFields.contains { record[field: $0] != nil }
    }

    /// The formatting operations of the record (both fields united), or why they cannot be
    /// read: a wrong type, missing asset bytes, a payload needing a newer reader
    /// (`.newerVersion`) or corrupt bytes (`.corruptPayload` naming the field and the offset).
    /// Empty when the record has no formatting field.
    func readFormatting() -> Result<NoteFormatting, NoteRecordError> {
        var formatting = NoteFormatting()
        for field in [NoteSchema.Field.formatting, NoteSchema.Field.formattingAsset] {
            guard let value = record[field: field] else { continue }
            let bytes: [UInt8]
            switch (field, value) {
            case (NoteSchema.Field.formatting, .bytes(let inline)):
                bytes = inline
            case (NoteSchema.Field.formattingAsset, .asset):
                guard let held = record.assetBytes(field) else {
                    return .failure(error(.assetUnavailable, field, "the asset's bytes were not supplied (load them with NoteRecord(_:loadingAssetsFrom:))"))
                }
                bytes = held
            default:
                return .failure(error(.invalidField, field, "expected \(field == NoteSchema.Field.formatting ? "BYTES" : "ASSET"), found \(value.defaultTypeName)"))
            }
            do throws(PayloadError) {
                formatting.merge(try NoteFormatting(encoded: bytes))
            } catch {
                return .failure(formattingError(error, field: field))
            }
        }
        return .success(formatting)
    }

    /// `error` of decoding field `field` as a record error.
    private func formattingError(_ error: PayloadError, field: String) -> NoteRecordError {
        if error.code == .newerFormat, let required = error.requiredReader {
            return NoteRecordError(
                .newerVersion, recordName: recordName, field: field,
                "newer version available: the formatting needs reader version \(required), this crdtnote reads up to \(NoteFormat.readerVersion)",
                newerVersion: .init(recordVersion: nil, supportedRecordVersion: NoteSchema.newestVersion,
                                    payloadRequiredReader: required, supportedReader: NoteFormat.readerVersion))
        }
        return self.error(.corruptPayload, field, "the formatting is corrupt: \(error.decodingError.map { "\($0)" } ?? error.message)")
    }

    /// Refuses (`.newerVersion`) to replace formatting a newer release wrote: what it holds
    /// cannot be united with this note's, so the record is left alone.
    func checkFormattingReplaceable() throws(NoteRecordError) {
        for field in [NoteSchema.Field.formatting, NoteSchema.Field.formattingAsset] {
            let bytes: [UInt8]?
            switch record[field: field] {
            case .bytes(let inline)?: bytes = inline
            case .asset?: bytes = record.assetBytes(field)
            default: bytes = nil
            }
            if let bytes, let required = PayloadHeader.requiredReaderVersion(of: bytes), required > NoteFormat.readerVersion {
                throw formattingError(.newerFormat(requiredReader: required, supportedReader: NoteFormat.readerVersion), field: field)
            }
        }
    }

    /// Writes `encoded` formatting inline (`formatting`) or as `formattingAsset`, removing the other.
    mutating func setFormatting(_ encoded: [UInt8], inline: Bool) {
        if inline {
            record[field: NoteSchema.Field.formatting] = .bytes(encoded)
            record[field: NoteSchema.Field.formattingAsset] = nil
        } else {
            record[field: NoteSchema.Field.formatting] = nil
            if record.assetBytes(NoteSchema.Field.formattingAsset) != encoded {
                record[field: NoteSchema.Field.formattingAsset] = .asset(.new(encoded))
            }
        }
    }

    /// `note` as a write onto this record can take it: without its formatting when the record
    /// holds formatting that cannot be united with it (a newer release's, or an asset whose
    /// bytes are not held), which is then left as it is; else `note` itself. So formatting never
    /// blocks writing the text, and is never replaced by a subset.
    func withWritableFormatting(_ note: NoteText) -> NoteText {
        guard !note.formatting.isEmpty, hasFormatting, case .failure(let error) = readFormatting(),
              error.code == .newerVersion || error.code == .assetUnavailable else { return note }
        var text = note
        text.formatting = NoteFormatting()
        return text
    }
}
