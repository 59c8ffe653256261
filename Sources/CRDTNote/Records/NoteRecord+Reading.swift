import CRDTNoteSupport

/// Where a note's state came from when its record was read.
public enum NoteOrigin: Hashable, Sendable {
    /// Legacy plain text (a v1 record, or one without payload), upgraded to a CRDT note.
    case legacyText
    /// The CRDT payload; the text mirror matched it.
    case payload
    /// The CRDT payload, plus a change an older client made to the `text` mirror, folded in
    /// as edits.
    case payloadWithFoldedText
}

/// A note read from its record: the state to edit, and where it came from.
public struct NoteReading: Sendable {
    /// The note, edited from now on as the replica given to ``NoteRecord/read(as:clock:)``.
    public var note: NoteText
    /// How the record stored it.
    public var origin: NoteOrigin
    /// Why the record's formatting (its `formatting` or `formattingAsset` field) could not be
    /// read, or nil: corrupt bytes (`.corruptPayload`), a newer release's format
    /// (`.newerVersion`), a wrong type or missing asset bytes. The note then has its text
    /// without formatting, and writing it back leaves the field as it is (unless the note has
    /// formatting of its own to write: then a corrupt field is replaced, a newer one refused).
    public var formattingError: NoteRecordError?
}

/// A record's content after the version gate: plain text still to be placed, or a CRDT state.
enum NoteSource {
    case plain(String)
    case crdt(NoteText, NoteOrigin)
}

extension NoteRecord {
    /// Reads the note. Legacy text becomes edits of a replica derived from the record name and
    /// text (the same on every device); a mirror changed by an older client is folded in (when
    /// the record had no complete mirror, `mirroredBytes`, what the client wrote is added and
    /// nothing it was not shown is removed). `text` may be a STRING or an ASSET either way.
    /// Both layouts read (``NoteRecordLayout``): the snapshot is in `payload`, `encryptedPayload`
    /// or `payloadAsset`, and several of them are united.
    ///
    /// Throws `.newerVersion` (record `version` above 3, or a payload needing a newer reader)
    /// before decoding anything past the gate; `.corruptPayload`, `.invalidField`,
    /// `.invalidText` or `.assetUnavailable` for bad content.
    ///
    /// The payload is loaded lazily (see ``NoteText/init(snapshot:replica:clock:limits:)``): its
    /// header, checksum, text and clock table are checked here, its runs when the note is first
    /// edited or merged (or when a record is written from it, `.corruptPayload`). Two payload
    /// fields to unite, or a mirror to fold in, are checked here in full.
    ///
    /// The formatting fields are read too (the note's formatting); when they cannot be, the
    /// note is read without them and ``NoteReading/formattingError`` says why.
    public func read(as replica: ReplicaID, clock: HybridLogicalClock = HybridLogicalClock()) throws(NoteRecordError) -> NoteReading {
        let (source, formattingError) = try sourceAndFormattingError()
        switch source {
        case .plain(let text):
            let note = try PlainTextFolding.legacyNote(text: text, recordName: recordName, modified: modifiedMilliseconds, limits: .default)
            return NoteReading(note: note.forked(as: replica, clock: clock), origin: .legacyText, formattingError: formattingError)
        case .crdt(let state, let origin):
            return NoteReading(note: state.forked(as: replica, clock: clock), origin: origin, formattingError: formattingError)
        }
    }

    /// ``read(as:clock:)`` with the payload's runs decoded and checked now: for readers that
    /// must refuse a damaged record up front (the sync engine, `crdtnote verify` and the other
    /// commands). The note shares that decode, so its first edit does not repeat it.
    package func readVerified(as replica: ReplicaID, clock: HybridLogicalClock = HybridLogicalClock()) throws(NoteRecordError) -> NoteReading {
        let reading = try read(as: replica, clock: clock)
        do {
            try reading.note.checkLoadedSnapshot()
        } catch {
            let field = Self.payloadFields.first { record[field: $0] != nil } ?? NoteSchema.Field.payload
            throw self.error(.corruptPayload, field, "\(error)")
        }
        return reading
    }

    /// The content, version-gated, with its formatting when it can be read (see
    /// ``sourceAndFormattingError()``).
    func source() throws(NoteRecordError) -> NoteSource {
        try sourceAndFormattingError().source
    }

    /// The content with the record's formatting attached, and why the formatting could not
    /// be read (the content then has none). Records without formatting pay nothing more.
    func sourceAndFormattingError() throws(NoteRecordError) -> (source: NoteSource, formattingError: NoteRecordError?) {
        var source = try textSource()
        // The history travels with the note unparsed (Docs/FORMAT.md §11): nothing to decode here.
        if case .crdt(var state, let origin) = source {
            let history = heldHistoryPayloads()
            if !history.isEmpty {
                for bytes in history { state.history.addPending(bytes) }
                source = .crdt(state, origin)
            }
        }
        guard hasFormatting else { return (source, nil) }
        switch readFormatting() {
        case .failure(let error):
            return (source, error)
        case .success(let formatting):
            guard case .crdt(var state, let origin) = source else { return (source, nil) }
            state.formatting = formatting
            return (.crdt(state, origin), nil)
        }
    }

    /// The text content, version-gated. A record with a payload is a CRDT state (several payload
    /// fields are united; a differing mirror is folded); one without is plain text.
    private func textSource() throws(NoteRecordError) -> NoteSource {
        try checkVersion()
        try checkPayloadVersions(requireAssetBytes: false)
        var states: [NoteText] = []
        var fields: [String] = []
        for field in [NoteSchema.Field.payload, NoteSchema.Field.encryptedPayload] {
            guard let value = record[field: field] else { continue }
            guard case .bytes(let bytes) = value else {
                throw error(.invalidField, field, "expected BYTES, found \(value.defaultTypeName)")
            }
            states.append(try decodePayload(bytes, field: field))
            fields.append(field)
        }
        if let value = record[field: NoteSchema.Field.payloadAsset] {
            guard case .asset = value else {
                throw error(.invalidField, NoteSchema.Field.payloadAsset, "expected ASSET, found \(value.defaultTypeName)")
            }
            guard let bytes = record.assetBytes(NoteSchema.Field.payloadAsset) else {
                throw error(.assetUnavailable, NoteSchema.Field.payloadAsset, "the asset's bytes were not supplied (load them with NoteRecord(_:loadingAssetsFrom:))")
            }
            states.append(try decodePayload(bytes, field: NoteSchema.Field.payloadAsset))
            fields.append(NoteSchema.Field.payloadAsset)
        }
        if states.count > 1 {
            // Both payload fields: each one's runs are checked before they are united, so damage
            // is reported against its field rather than as a contradiction.
            for i in states.indices { states[i] = try states[i].built(forRecord: recordName, field: fields[i]) }
        }
        let text = try textField()
        let union: NoteText?
        do {
            union = try NoteText.union(states)
        } catch {
            throw self.error(.inconsistentStates, fields.last ?? NoteSchema.Field.payloadAsset,
                             "the payload fields \(fields.joined(separator: ", ")) contradict each other: \(error)")
        }
        guard let state = union else { return .plain(text ?? "") }
        if let shown = try mirroredBytes() {
            guard let text else { return .crdt(state, .payload) }
            return try foldMirror(text, showing: shown, of: state)
        }
        guard let text, text != state.string else { return .crdt(state, .payload) }
        let folded = try PlainTextFolding.fold(state, text: text, recordName: recordName, modified: modifiedMilliseconds, limits: .default)
        return .crdt(folded, .payloadWithFoldedText)
    }

    /// The `mirroredBytes` field: how many leading UTF-8 bytes of the payload's text the `text`
    /// mirror showed, or nil when the field is absent (the mirror showed the whole text).
    /// Throws `.invalidField` for a value that is not a non-negative INT64.
    func mirroredBytes() throws(NoteRecordError) -> Int? {
        let name = NoteSchema.Field.mirroredBytes
        switch record[field: name] {
        case nil:
            return nil
        case .int64(let n)? where n >= 0 && n <= Int64(Int.max):
            return Int(n)
        case .int64(let n)?:
            throw error(.invalidField, name, "\(n) is not a byte count")
        case let other?:
            throw error(.invalidField, name, "expected INT64, found \(other.defaultTypeName)")
        }
    }

    /// A record whose mirror showed only the first `shown` bytes of `state`'s text (0: no
    /// mirror at all). A `text` that differs from them was written by an older client, which
    /// edited what it was shown: the new text is `text` followed by the part it was not shown,
    /// folded in as a diff against the payload's text. So the hidden part is never deleted.
    private func foldMirror(_ text: String, showing shown: Int, of state: NoteText) throws(NoteRecordError) -> NoteSource {
        let all = state.utf8
        // The cut must be inside the text and on a scalar boundary (not a UTF-8 continuation byte).
        guard shown <= all.count, shown == all.count || all[shown] & 0xC0 != 0x80 else {
            throw error(.invalidField, NoteSchema.Field.mirroredBytes,
                        "the mirror cannot have shown \(shown) bytes of a \(all.count)-byte text (not a character boundary inside it)")
        }
        if text.utf8.elementsEqual(all[..<shown]) { return .crdt(state, .payload) }
        let edited = text + String(decoding: all[shown...], as: UTF8.self)
        let folded = try PlainTextFolding.fold(state, text: edited, recordName: recordName, modified: modifiedMilliseconds, limits: .default)
        return .crdt(folded, .payloadWithFoldedText)
    }

    /// The `text` field as a string: STRING, or ASSET bytes as UTF-8. `nil` when absent.
    func textField() throws(NoteRecordError) -> String? {
        let name = NoteSchema.Field.text
        switch record[field: name] {
        case nil:
            return nil
        case .string(let s)?:
            try checkTextSize(s.utf8.count, name, "text")
            return s
        case .asset?:
            guard let bytes = record.assetBytes(name) else {
                throw error(.assetUnavailable, name, "the asset's bytes were not supplied (load them with NoteRecord(_:loadingAssetsFrom:))")
            }
            try checkTextSize(bytes.count, name, "text asset")
            if let bad = UTF8Validation.firstInvalidByte(bytes[...]) {
                throw error(.invalidText, name, "text asset is not valid UTF-8 at byte \(bad)")
            }
            return String(decoding: bytes, as: UTF8.self)
        case let other?:
            throw error(.invalidField, name, "expected STRING or ASSET, found \(other.defaultTypeName)")
        }
    }

    /// Refuses text beyond ``NoteLimits/maximumTextBytes`` (`.limitExceeded`).
    private func checkTextSize(_ count: Int, _ field: String, _ what: String) throws(NoteRecordError) {
        let limit = NoteLimits.default.maximumTextBytes
        guard count <= limit else {
            throw error(.limitExceeded, field, "\(what) has \(count) UTF-8 bytes, more than the \(limit) a reader accepts")
        }
    }

    /// Decodes a snapshot payload, mapping the format's errors to record errors. The reading
    /// replica never edits (callers fork before editing), so it adds nothing to the state.
    /// Payloads beyond ``NoteLimits/default`` are refused (`.limitExceeded` for their size,
    /// `.corruptPayload` for what they declare) before anything is allocated for them.
    func decodePayload(_ bytes: [UInt8], field: String) throws(NoteRecordError) -> NoteText {
        let limits = NoteLimits.default
        guard bytes.count <= limits.maximumAssetBytes else {
            throw error(.limitExceeded, field, "the payload has \(bytes.count) bytes, more than the \(limits.maximumAssetBytes) a reader accepts")
        }
        do throws(PayloadError) {
            return try NoteText(snapshot: bytes, replica: ReplicaID(rawValue: 0), clock: HybridLogicalClock(physicalClock: .fixed(0)),
                                limits: limits)
        } catch {
            if error.code == .newerFormat, let required = error.requiredReader {
                let supported = error.supportedReader ?? NoteFormat.readerVersion
                throw NoteRecordError(
                    .newerVersion, recordName: recordName, field: field,
                    "newer version available: the payload needs reader version \(required), this crdtnote reads up to \(supported)",
                    newerVersion: .init(recordVersion: nil, supportedRecordVersion: NoteSchema.newestVersion,
                                        payloadRequiredReader: required, supportedReader: supported))
            }
            throw self.error(.corruptPayload, field, error.decodingError.map { "\($0)" } ?? error.message)
        }
    }
}
