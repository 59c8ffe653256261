extension NoteRecord {
    /// Writes `note` into the note fields: `version` 2, the snapshot as `payload` (or as
    /// `payloadAsset` when over the inline limit), the `text` mirror (STRING, or ASSET when
    /// large), and `modified` from the latest edit's clock. Every other field is kept.
    ///
    /// Never downgrades: throws `.newerVersion` (changing nothing) when the record or its
    /// payload is newer than this library, and `.assetUnavailable` when the existing
    /// `payloadAsset`'s bytes are missing, since its version could not be checked.
    /// New ASSET fields get a reference with `size`, a local checksum and the bytes, but no
    /// `downloadURL` (see ``assetsToSave``).
    public mutating func write(_ note: NoteText, limits: NoteRecordLimits = .standard) throws(NoteRecordError) {
        try checkVersion()
        try checkPayloadVersions(requireAssetBytes: true)
        let payload = note.encodedSnapshot()
        let text = note.utf8
        var payloadInline = payload.count <= limits.maxInlinePayload
        var textInline = text.count <= limits.maxInlineText
        let others = otherFieldsSize()
        func total() -> Int {
            others + (payloadInline ? payload.count : 0) + (textInline ? text.count : 0)
        }
        if total() > limits.recordBudget { textInline = false }
        if total() > limits.recordBudget { payloadInline = false }

        record[field: NoteSchema.Field.version] = .int64(NoteSchema.currentVersion)
        if payloadInline {
            record[field: NoteSchema.Field.payload] = .bytes(payload)
            record[field: NoteSchema.Field.payloadAsset] = nil
        } else {
            record[field: NoteSchema.Field.payload] = nil
            setAsset(NoteSchema.Field.payloadAsset, payload)
        }
        if textInline {
            record[field: NoteSchema.Field.text] = .string(note.string)
        } else {
            setAsset(NoteSchema.Field.text, text)
        }
        if let latest = note.lastModified {
            record[field: NoteSchema.Field.modified] = .timestamp(Int64(latest.milliseconds))
        }
    }

    /// A copy with `note` written (see ``write(_:limits:)``).
    public func writing(_ note: NoteText, limits: NoteRecordLimits = .standard) throws(NoteRecordError) -> NoteRecord {
        var copy = self
        try copy.write(note, limits: limits)
        return copy
    }

    /// A new record named `recordName` holding `note` (see ``write(_:limits:)``; a fresh record
    /// has no version or payload to refuse, but any error `write` reports is thrown, not hidden).
    public init(recordName: String, note: NoteText, zoneID: RecordZoneID? = nil, limits: NoteRecordLimits = .standard) throws(NoteRecordError) {
        self.init(recordName: recordName, zoneID: zoneID)
        try write(note, limits: limits)
    }

    /// Asset note fields whose bytes still have to be stored: references without a `downloadURL`.
    public var assetsToSave: [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for name in NoteSchema.Field.all {
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

    /// ``CloudRecord/size`` of everything but the note fields, plus room for the note fields'
    /// names and numbers and for system fields a server adds.
    private func otherFieldsSize() -> Int {
        var copy = record
        for name in NoteSchema.Field.all { copy.fields[name] = nil }
        return copy.size + NoteRecordLimits.reservedBytes
    }
}
