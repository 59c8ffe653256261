extension NoteRecord {
    /// Writes `note` into the note fields: `version` 2 (3 in the encrypted layout), the snapshot in `format` (format 1, which
    /// every release reads, unless asked; the sync engine picks what its fleet reads, see
    /// ``NoteSyncConfiguration/payloadFormat``) as `payload` (or as
    /// `payloadAsset` when over the inline limit), the `text` mirror in the one type `mirror`
    /// says (see ``NoteTextMirror``: an ASSET of the whole note by default; a STRING, or no
    /// `text` and `mirroredBytes` 0 when the note does not fit a STRING; or none), and
    /// `modified` from the latest edit's clock (see ``modifiedMilliseconds(for:)``). Every
    /// other field is kept. Every field is written with one type whatever the note's size, as
    /// CloudKit's schema requires.
    ///
    /// `layout` (``NoteRecordLayout``; nil: the record's own, plain for a new record) says where
    /// the inline snapshot goes: `payload` (`version` 2) or the encrypted `encryptedPayload`
    /// (`version` 3, where a STRING mirror is not written: `mirroredBytes` 0 instead). The
    /// other inline field is removed, so a record is in one layout.
    ///
    /// Refuses with `.limitExceeded`, changing nothing, a note beyond `limits` (elements,
    /// replicas, runs, text bytes) or whose payload would be larger than
    /// ``NoteLimits/maximumAssetBytes``: every record written reads back. A note loaded from a
    /// snapshot and never edited has that snapshot's runs checked first (`.corruptPayload`).
    ///
    /// A note with formatting writes the union of its operations and those the record holds
    /// (never a subset: Docs/RECORD-FORMAT.md, "Formatting").
    ///
    /// Never downgrades: throws `.newerVersion` (changing nothing) when the record, its
    /// payload or (for a note with formatting) its formatting is newer than this library, and
    /// `.assetUnavailable` when the existing `payloadAsset`'s bytes are missing, or, for a note
    /// with formatting, the `formattingAsset`'s, since they could not be checked or united.
    /// New ASSET fields get a reference with `size`, a local checksum and the bytes, but no
    /// `downloadURL` (see ``assetsToSave``).
    ///
    /// A history is written in version 1 (Docs/FORMAT.md §11.2), which every release that knows
    /// history reads; the sync engine writes version 2 once its fleet reads it.
    public mutating func write(_ note: NoteText, limits: NoteLimits = .default, mirror: NoteTextMirror = .asset,
                               format: SnapshotFormat = .version1, layout: NoteRecordLayout? = nil) throws(NoteRecordError) {
        try write(note, limits: limits, mirror: mirror, format: format, history: .version1, layout: layout)
    }

    /// ``write(_:limits:mirror:format:layout:)`` with the history in `historyFormat`.
    package mutating func write(_ note: NoteText, limits: NoteLimits, mirror: NoteTextMirror, format: SnapshotFormat,
                                history historyFormat: HistoryFormat, layout: NoteRecordLayout?) throws(NoteRecordError) {
        let layout = layout ?? self.layout
        try checkVersion()
        try checkPayloadVersions(requireAssetBytes: true)
        do {
            try note.checkLimits(limits)
        } catch {
            throw self.error(.limitExceeded, "", "note '\(recordName)' not written: \(error.message)")
        }
        // A note loaded lazily and never edited has its runs checked before its payload is kept.
        do {
            try note.checkLoadedSnapshot()
        } catch {
            throw self.error(.corruptPayload, NoteSchema.Field.payload,
                             "note '\(recordName)' not written: its loaded snapshot is corrupt: \(error)")
        }
        let payload = note.encodedSnapshot(format: format)
        guard payload.count <= limits.maximumAssetBytes else {
            throw self.error(.limitExceeded, NoteSchema.Field.payload,
                             "note '\(recordName)' not written: the payload would have \(payload.count) bytes, more than the \(limits.maximumAssetBytes) a reader accepts")
        }
        // Formatting is written only for a note that has some (a plain note writes what it always
        // did), never over formatting a newer release wrote, and never as a subset of what the
        // record holds: the union of the note's operations and the record's (Docs/FORMAT.md §10).
        var formatting: [UInt8]?
        if !note.formatting.isEmpty {
            try checkFormattingReplaceable()
            var all = note.formatting
            switch readFormatting() {
            case .success(let held):
                all.merge(held)
            case .failure(let error) where error.code == .assetUnavailable:
                throw error
            case .failure:
                break  // corrupt or mistyped: replaced by the note's
            }
            guard all.operationCount <= limits.maximumFormattingOperations else {
                throw self.error(.limitExceeded, NoteSchema.Field.formatting,
                                 "note '\(recordName)' not written: its formatting and the record's would have \(all.operationCount) operations, more than the \(limits.maximumFormattingOperations) a reader accepts")
            }
            formatting = all.encoded()
        }
        if let formatting {
            guard formatting.count <= limits.maximumAssetBytes else {
                throw self.error(.limitExceeded, NoteSchema.Field.formatting,
                                 "note '\(recordName)' not written: the formatting would have \(formatting.count) bytes, more than the \(limits.maximumAssetBytes) a reader accepts")
            }
        }
        let history = try historyToWrite(for: note, limits: limits, retention: note.historyRetention, format: historyFormat)
        let text = note.utf8
        // Deleted text is text: the encrypted layout keeps it out of plain BYTES, in the asset.
        var historyInline = layout == .plain && (history?.count ?? 0) <= limits.maxInlinePayload
        var payloadInline = payload.count <= limits.maxInlinePayload
        var formattingInline = (formatting?.count ?? 0) <= limits.maxInlinePayload
        // Only a STRING mirror counts toward the record's size; one that does not fit is left out,
        // and the encrypted layout has none (a plain `text` would show what it encrypts).
        var stringMirror = mirror == .string && layout == .plain && text.count <= limits.maxInlineText
        var rewritten = NoteSchema.Field.all
        if formatting != nil { rewritten.formUnion(NoteSchema.Field.formattingFields) }
        if history != nil { rewritten.formUnion(NoteSchema.Field.historyFields) }
        let others = otherFieldsSize(replacing: rewritten)
        func total() -> Int {
            others + (payloadInline ? payload.count : 0) + (stringMirror ? text.count : 0)
                + (formattingInline ? formatting?.count ?? 0 : 0) + (historyInline ? history?.count ?? 0 : 0)
        }
        // The history is what every sync needs least: it moves to an asset first.
        if total() > limits.recordBudget { historyInline = false }
        if total() > limits.recordBudget { stringMirror = false }
        if total() > limits.recordBudget { formattingInline = false }
        if total() > limits.recordBudget { payloadInline = false }

        record[field: NoteSchema.Field.version] = .int64(layout.schemaVersion)
        for field in [NoteSchema.Field.payload, NoteSchema.Field.encryptedPayload] where field != layout.inlinePayloadField {
            record[field: field] = nil
        }
        if payloadInline {
            record[field: layout.inlinePayloadField] = .bytes(payload)
            record.fields[layout.inlinePayloadField]?.isEncrypted = layout == .encrypted
            record[field: NoteSchema.Field.payloadAsset] = nil
        } else {
            record[field: layout.inlinePayloadField] = nil
            setAsset(NoteSchema.Field.payloadAsset, payload)
        }
        if mirror == .asset {
            setAsset(NoteSchema.Field.text, text)
            record[field: NoteSchema.Field.mirroredBytes] = nil
        } else if stringMirror {
            record[field: NoteSchema.Field.text] = .string(note.string)
            record[field: NoteSchema.Field.mirroredBytes] = nil
        } else {
            // No mirror: an old client is shown nothing, and the record says so, so that what it
            // writes into `text` is added to the note, never diffed against text it did not see.
            record[field: NoteSchema.Field.text] = nil
            record[field: NoteSchema.Field.mirroredBytes] = .int64(0)
        }
        if let formatting { setFormatting(formatting, inline: formattingInline) }
        if let history { setHistory(history, inline: historyInline) }
        if let modified = Self.modifiedMilliseconds(for: note) {
            record[field: NoteSchema.Field.modified] = .timestamp(modified)
        }
    }

    /// The `modified` value written for `note`: the latest edit's milliseconds, ignoring stamps
    /// more than the note clock's ``HybridLogicalClock/maximumForwardDrift`` ahead of the
    /// writer's physical time (the clock's drift rule). Those stamps stay in the payload as data;
    /// they only do not set the field, so one device with a clock years ahead cannot date every
    /// later record in its future. `nil` when the note has no edits at all.
    public static func modifiedMilliseconds(for note: NoteText) -> Int64? {
        guard let latest = note.lastModified else { return nil }
        let now = min(note.clock.physicalClock.now(), HLCTimestamp.maxMilliseconds)
        let (bound, overflow) = now.addingReportingOverflow(note.clock.maximumForwardDrift)
        if overflow || latest.milliseconds <= bound { return Int64(latest.milliseconds) }
        let trusted = note.latestStamps.filter { $0.milliseconds <= bound }.max()
        return Int64(trusted?.milliseconds ?? now)
    }

    /// A copy with `note` written (see ``write(_:limits:mirror:format:layout:)``).
    public func writing(_ note: NoteText, limits: NoteLimits = .default, mirror: NoteTextMirror = .asset,
                        format: SnapshotFormat = .version1, layout: NoteRecordLayout? = nil) throws(NoteRecordError) -> NoteRecord {
        var copy = self
        try copy.write(note, limits: limits, mirror: mirror, format: format, layout: layout)
        return copy
    }

    /// A new record named `recordName` holding `note` (see ``write(_:limits:mirror:format:layout:)``;
    /// a fresh record has no version or payload to refuse, but any error `write` reports is
    /// thrown, not hidden). The layout is plain unless `layout` says otherwise.
    public init(recordName: String, note: NoteText, zoneID: RecordZoneID? = nil, limits: NoteLimits = .default,
                mirror: NoteTextMirror = .asset, format: SnapshotFormat = .version1,
                layout: NoteRecordLayout = .plain) throws(NoteRecordError) {
        self.init(recordName: recordName, zoneID: zoneID)
        try write(note, limits: limits, mirror: mirror, format: format, layout: layout)
    }

    /// Asset note fields whose bytes still have to be stored: references without a `downloadURL`.
    public var assetsToSave: [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for name in NoteSchema.Field.written {
            if case .asset(let ref)? = record[field: name], ref.downloadURL == nil, let bytes = ref.bytes { out[name] = bytes }
        }
        return out
    }

    /// Sets an ASSET note field, keeping the existing reference when its bytes are unchanged
    /// (so nothing is uploaded again).
    private mutating func setAsset(_ name: String, _ bytes: [UInt8]) {
        if record.assetBytes(name) == bytes { return }
        record[field: name] = .asset(.new(bytes))
    }

    /// ``CloudRecord/size`` of every field but those `rewritten` (kept formatting and history
    /// fields count), plus room for the note fields' names and numbers and for system fields a
    /// server adds.
    private func otherFieldsSize(replacing rewritten: Set<String>) -> Int {
        var copy = record
        for name in rewritten { copy.fields[name] = nil }
        return copy.size + NoteLimits.reservedBytes
    }
}
