/// The history fields of a note record (`history`, `historyAsset`; Docs/RECORD-FORMAT.md,
/// "History"): carried into the note unparsed when it is read, written only for a note that
/// has history, never removed by a copy that holds none.
extension NoteRecord {
    /// The bytes of the record's history fields that are held (inline bytes, loaded asset
    /// bytes), unparsed; fields of the wrong type or whose asset bytes are missing are left out
    /// (and left in the record).
    func heldHistoryPayloads() -> [[UInt8]] {
        var out: [[UInt8]] = []
        if case .bytes(let inline)? = record[field: NoteSchema.Field.history] { out.append(inline) }
        if case .asset? = record[field: NoteSchema.Field.historyAsset], let held = record.assetBytes(NoteSchema.Field.historyAsset) {
            out.append(held)
        }
        return out
    }

    /// The newest minimum reader version the held history payloads declare (nil: none held).
    var historyReaderVersion: UInt16? {
        heldHistoryPayloads().compactMap(PayloadHeader.requiredReaderVersion(of:)).max()
    }

    /// The history payload to write for `note` in `format` (nil: leave the fields as they are):
    /// the union of what the note logged, the payloads it carries and the one the record holds,
    /// trimmed by `retention` on the note's clock (by the default policy when the note keeps none
    /// of its own). A payload needing a newer reader leaves the fields alone (the rest of the
    /// record is written: history never holds back the text); a corrupt one is replaced.
    func historyToWrite(for note: NoteText, limits: NoteLimits, retention: HistoryRetention?,
                        format: HistoryFormat) throws(NoteRecordError) -> [UInt8]? {
        let held = heldHistoryPayloads()
        var history = note.history
        guard !history.deletions.isEmpty || history.pending.contains(where: { !held.contains($0) }) else { return nil }
        for bytes in held { history.addPending(bytes) }
        let readable = history.readable(limits: limits)
        guard readable.unreadable.allSatisfy({ $0.code != .newerFormat }) else { return nil }
        let encoded = note.retained(readable.history, by: retention ?? .default).encoded(format: format)
        guard encoded.count <= limits.maximumAssetBytes else {
            throw self.error(.limitExceeded, NoteSchema.Field.history,
                             "note '\(recordName)' not written: the history would have \(encoded.count) bytes, more than the \(limits.maximumAssetBytes) a reader accepts")
        }
        return encoded
    }

    /// Writes `encoded` history inline (`history`) or as `historyAsset`, removing the other.
    mutating func setHistory(_ encoded: [UInt8], inline: Bool) {
        if inline {
            record[field: NoteSchema.Field.history] = .bytes(encoded)
            record[field: NoteSchema.Field.historyAsset] = nil
        } else {
            record[field: NoteSchema.Field.history] = nil
            if record.assetBytes(NoteSchema.Field.historyAsset) != encoded {
                record[field: NoteSchema.Field.historyAsset] = .asset(.new(encoded))
            }
        }
    }
}
