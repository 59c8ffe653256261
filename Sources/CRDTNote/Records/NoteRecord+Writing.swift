extension NoteRecord {
    /// Writes `note` into the note fields: `version` 2, the snapshot as `payload` (or as
    /// `payloadAsset` when over the inline limit), the `text` mirror (STRING, or ASSET when
    /// large), and `modified` from the latest edit's clock. Every other field is kept.
    ///
    /// Never downgrades: throws `.newerVersion` (changing nothing) when the record or its
    /// payload is newer than this library, and `.assetUnavailable` when the existing
    /// `payloadAsset`'s bytes are missing, since its version could not be checked.
    /// New ASSET fields get a reference with `size` and a local checksum but no `downloadURL`;
    /// their bytes are in ``assets`` (see ``assetsToSave``).
    public mutating func write(_ note: NoteText, limits: NoteRecordLimits = .standard) throws(NoteRecordError) {
        try checkVersion()
        try checkPayloadVersions(requireAssetBytes: true)
        let payload = note.encodedSnapshot()
        let text = note.utf8
        var payloadInline = payload.count <= limits.maxInlinePayload
        var textInline = Self.jsonStringCost(text) <= limits.maxInlineText
        let others = otherFieldsCost()
        func total() -> Int {
            others + (payloadInline ? 4 * ((payload.count + 2) / 3) + 64 : 256) + (textInline ? Self.jsonStringCost(text) + 64 : 256) + 256
        }
        if total() > limits.recordBudget { textInline = false }
        if total() > limits.recordBudget { payloadInline = false }

        record[field: NoteSchema.Field.version] = .int64(NoteSchema.currentVersion)
        if payloadInline {
            record[field: NoteSchema.Field.payload] = .bytes(payload)
            record[field: NoteSchema.Field.payloadAsset] = nil
            assets[field: NoteSchema.Field.payloadAsset] = nil
        } else {
            record[field: NoteSchema.Field.payload] = nil
            setAsset(NoteSchema.Field.payloadAsset, payload)
        }
        if textInline {
            record[field: NoteSchema.Field.text] = .string(note.string)
            assets[field: NoteSchema.Field.text] = nil
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

    /// A new record named `recordName` holding `note`.
    public init(recordName: String, note: NoteText, zoneID: RecordZoneID? = nil, limits: NoteRecordLimits = .standard) {
        self.init(recordName: recordName, zoneID: zoneID)
        // A fresh record has no version or payload to refuse.
        try? write(note, limits: limits)
    }

    /// Asset note fields whose bytes still have to be stored: references without a `downloadURL`.
    public var assetsToSave: [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for (name, bytes) in assets.bytesByField {
            if case .asset(let ref)? = record[field: name], ref.downloadURL == nil { out[name] = bytes }
        }
        return out
    }

    /// Writes asset bytes as files in `directory` (named `<field>-<checksum>.bin`, via
    /// ``AssetLocator/writeAsset(_:named:in:)``) and points each reference's `downloadURL` at
    /// its file. Writes the ``assetsToSave``, or with `all`, every note asset whose bytes are
    /// held (for output written somewhere other than the inputs).
    public func savingAssets(in directory: String, all: Bool = false) throws(NoteRecordError) -> NoteRecord {
        var copy = self
        let names = all ? Array(assets.bytesByField.keys) : Array(assetsToSave.keys)
        for name in names.sorted() {
            guard let bytes = assets[field: name], case .asset(var ref)? = record[field: name] else { continue }
            let written: AssetReference
            do {
                written = try AssetLocator.writeAsset(bytes, named: "\(name)-\(AssetChecksum.fnv1a64Hex(bytes)).bin", in: directory)
            } catch {
                throw self.error(.assetUnavailable, name, "cannot save the asset: \(error)")
            }
            ref.downloadURL = written.downloadURL
            ref.size = written.size
            if ref.fileChecksum == nil || AssetChecksum.isLocalChecksum(ref.fileChecksum ?? "") { ref.fileChecksum = written.fileChecksum }
            copy.record[field: name] = .asset(ref)
        }
        return copy
    }

    /// Sets an ASSET note field, keeping the existing reference when its bytes are unchanged
    /// (so nothing is uploaded again).
    private mutating func setAsset(_ name: String, _ bytes: [UInt8]) {
        if case .asset? = record[field: name], assets[field: name] == bytes { return }
        record[field: name] = .asset(AssetReference(fileChecksum: AssetChecksum.fnv1a64Hex(bytes), size: Int64(bytes.count)))
        assets[field: name] = bytes
    }

    /// JSON size of the fields this library does not write, plus room for system fields.
    private func otherFieldsCost() -> Int {
        var cost = 2048 + recordName.utf8.count
        for (name, field) in record.fields where !NoteSchema.Field.all.contains(name) {
            cost += name.utf8.count + 4 + field.jsonValue().serialized().count
        }
        return cost
    }

    /// Bytes `utf8` takes as a JSON string: quotes, two-byte and six-byte escapes included.
    static func jsonStringCost(_ utf8: [UInt8]) -> Int {
        var cost = 2
        for b in utf8 {
            switch b {
            case 0x22, 0x5C, 0x08, 0x09, 0x0A, 0x0C, 0x0D: cost += 2
            case 0..<0x20: cost += 6
            default: cost += 1
            }
        }
        return cost
    }
}
