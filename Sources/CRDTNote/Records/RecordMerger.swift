/// Merges the versions of a note record that CloudKit reports in a conflict
/// (`CKError.serverRecordChanged`: ancestor, client, server) into one record, automatically
/// and without losing anyone's edits — never by last-writer-wins.
///
/// - client and server both crdtnote (v2 or v3, either layout): the merged state is the union of both states.
///   The ancestor only passes the version gate; it is not decoded.
/// - a plain-text side (a v1 record without payload): its text is diffed against the
///   ancestor's text and applied to the ancestor's state as edits of a replica derived from
///   (record, ancestor state, text), then united. A v2 record whose `text` mirror an older
///   client changed is read as its payload plus that change (diffed against the payload's text).
/// - no usable ancestor (nil, or one the CRDT sides do not descend from): two-way merge. A
///   plain-text side is diffed against the other side's text and only its *insertions* are
///   applied: nothing either side has is lost, but a deletion that only one side made cannot
///   be told from an insertion by the other, so it is undone (the text reappears).
///
/// The result is built on the server record: its change tag, system fields and unknown fields;
/// app fields only the client has are added, and app fields only the client changed (compared
/// with the ancestor) take the client's value. Any record newer than this library
/// (`.newerVersion`) makes the merge refuse, changing nothing.
///
/// ```swift
/// let merger = RecordMerger()
/// let result = try merger.merge(ancestor: ancestor, client: mine, server: theirs)
/// if !result.serverUnchanged { save(result.record) }   // may conflict again: loop, bounded
/// ```
public struct RecordMerger: Sendable {
    /// Inline limits used when writing the merged record.
    public var limits: NoteLimits
    /// The type of the `text` mirror of a merged record the merger writes: the container's
    /// (``NoteTextMirror``; the sync engine passes ``NoteSyncConfiguration/textMirror``).
    public var mirror: NoteTextMirror

    /// The snapshot format of the merged record's payload (format 1 unless asked: the sync
    /// engine passes the format its fleet reads, `crdtnote merge` the newest among its inputs).
    public var format: SnapshotFormat

    /// The layout of the merged record (``NoteRecordLayout``); nil (the default): the newest
    /// among the records merged (encrypted when any of them is), so a merge never takes a
    /// note out of the encrypted layout on its own. The sync engine passes what its fleet reads.
    public var layout: NoteRecordLayout?

    /// The layout of the merged record's history (Docs/FORMAT.md §11.2): version 1, which every
    /// release that knows history reads, unless the sync engine's fleet reads version 2.
    var history: HistoryFormat = .version1

    /// A merger writing records with `limits`, `mirror`, `format` and `layout`.
    public init(limits: NoteLimits = .default, mirror: NoteTextMirror = .asset, format: SnapshotFormat = .version1,
                layout: NoteRecordLayout? = nil) {
        self.limits = limits
        self.mirror = mirror
        self.format = format
        self.layout = layout
    }

    /// Three-way merge of a conflict. `ancestor` is what the client started from, if CloudKit
    /// gave it.
    public func merge(ancestor: NoteRecord?, client: NoteRecord, server: NoteRecord) throws(NoteRecordError) -> RecordMergeResult {
        let inputs = [ancestor, client, server].compactMap { $0 }
        try validate(inputs, names: ["ancestor", "client", "server"].filter { $0 != "ancestor" || ancestor != nil })
        // Every record passes the version gate before anything is merged or written.
        try ancestor?.checkVersion()
        try ancestor?.checkPayloadVersions(requireAssetBytes: false)
        let sides = [("client", client, try client.source()), ("server", server, try server.source())]
        var log: [String] = []

        var crdtSides: [(role: String, state: NoteText)] = []
        var plainSides: [(role: String, text: String, modified: Int64?)] = []
        for (role, record, source) in sides {
            switch source {
            case .crdt(let state, let origin):
                crdtSides.append((role, state))
                if origin == .payloadWithFoldedText { log.append("\(role): text changed by an older client folded in as edits") }
            case .plain(let text):
                plainSides.append((role, text, record.modifiedMilliseconds))
            }
        }
        let crdtStates = crdtSides.map(\.state)

        // The ancestor is only decoded when a plain-text side needs it; two CRDT states unite without it.
        var ancestorState: NoteText?
        if let ancestor, !plainSides.isEmpty {
            do {
                switch try ancestor.source() {
                case .crdt(let state, _): ancestorState = try state.built(forRecord: ancestor.recordName)
                case .plain(let text):
                    ancestorState = try PlainTextFolding.legacyNote(text: text, recordName: server.recordName, modified: ancestor.modifiedMilliseconds, limits: limits)
                }
            } catch where error.code != .newerVersion {
                // A damaged ancestor only costs precision: fall back to the two-way merge.
                log.append("ancestor not used: \(error)")
            }
        }
        if let a = ancestorState, let unrelated = crdtSides.first(where: { !$0.state.version.includesCharacters(of: a.version) }) {
            ancestorState = nil
            log.append("ancestor not used: the \(unrelated.role) state does not descend from it")
        }
        if ancestorState == nil, !plainSides.isEmpty {
            log.append("no usable ancestor: two-way merge; deletions of text both sides had are not applied")
        }

        var states = crdtStates
        if let base = ancestorState {
            for side in plainSides {
                states.append(try PlainTextFolding.fold(base, text: side.text, recordName: server.recordName, modified: side.modified, limits: limits))
                log.append("\(side.role): legacy text diffed against the ancestor and folded in as edits")
            }
        } else {
            states += try twoWayFolds(crdtStates: crdtStates, plain: plainSides, recordName: server.recordName, log: &log)
        }
        let merged = try unite(states, recordName: server.recordName)
        return try finish(merged: merged, base: server, baseSource: sides[1].2, others: [client], ancestor: ancestor, log: log)
    }

    /// Merges several versions of one note (e.g. from `crdtnote merge R1 R2 R3`) without an
    /// ancestor: CRDT states are united, plain-text versions are folded two-way (insertions
    /// only). The result is built on the last record; app fields only earlier ones have are added.
    public func merge(records: [NoteRecord]) throws(NoteRecordError) -> RecordMergeResult {
        guard let base = records.last else {
            throw NoteRecordError(.noRecords, "no records to merge")
        }
        try validate(records, names: records.indices.map { "record \($0 + 1)" })
        var log: [String] = []
        var crdtStates: [NoteText] = []
        var plain: [(role: String, text: String, modified: Int64?)] = []
        var sources: [NoteSource] = []
        for record in records { sources.append(try record.source()) }
        for (i, record) in records.enumerated() {
            switch sources[i] {
            case .crdt(let state, let origin):
                crdtStates.append(state)
                if origin == .payloadWithFoldedText { log.append("record \(i + 1): text changed by an older client folded in as edits") }
            case .plain(let text):
                plain.append(("record \(i + 1)", text, record.modifiedMilliseconds))
            }
        }
        let states = try crdtStates + twoWayFolds(crdtStates: crdtStates, plain: plain, recordName: base.recordName, log: &log)
        let merged = try unite(states, recordName: base.recordName)
        return try finish(merged: merged, base: base, baseSource: sources[sources.count - 1], others: Array(records.dropLast().reversed()), ancestor: nil, log: log)
    }

    /// Plain texts folded without an ancestor, insertions only, against one common base: the
    /// union of the CRDT states, or else the legacy upgrade of the smallest text (so the base,
    /// and the result, do not depend on which side is which).
    private func twoWayFolds(crdtStates: [NoteText], plain: [(role: String, text: String, modified: Int64?)],
                             recordName: String, log: inout [String]) throws(NoteRecordError) -> [NoteText] {
        guard !plain.isEmpty else { return [] }
        var out: [NoteText] = []
        let base: NoteText
        if let union = try unite(crdtStates, recordName: recordName) {
            base = union
        } else {
            let first = plain.min { $0.text.utf8.lexicographicallyPrecedes($1.text.utf8) }
            guard let first else { return [] }
            base = try PlainTextFolding.legacyNote(text: first.text, recordName: recordName, modified: first.modified, limits: limits)
            out.append(base)
        }
        for side in plain where side.text != base.string {
            out.append(try PlainTextFolding.foldInsertions(base, text: side.text, recordName: recordName, modified: side.modified, limits: limits))
            log.append("\(side.role): legacy text folded in two-way (insertions only)")
        }
        return out
    }

    private func unite(_ states: [NoteText], recordName: String) throws(NoteRecordError) -> NoteText? {
        do {
            return try NoteText.union(states)
        } catch where error.code == .corruptSnapshot {
            throw NoteRecordError(.corruptPayload, recordName: recordName, field: NoteSchema.Field.payload,
                                  error.decodingError.map { "\($0)" } ?? error.message)
        } catch {
            throw NoteRecordError(.inconsistentStates, recordName: recordName, "the records' states contradict each other: \(error)")
        }
    }

    /// All records must be live versions of one note.
    private func validate(_ records: [NoteRecord], names: [String]) throws(NoteRecordError) {
        guard let first = records.first else { throw NoteRecordError(.noRecords, "no records to merge") }
        for (record, name) in zip(records, names) {
            if record.record.deleted == true {
                throw NoteRecordError(.deletedRecord, recordName: record.recordName, "the \(name) record is deleted; there is no note to merge")
            }
            if record.recordName != first.recordName {
                throw NoteRecordError(.mismatchedRecords, recordName: record.recordName,
                                      "the \(name) record is '\(record.recordName)' but the \(names[0]) record is '\(first.recordName)'")
            }
        }
    }
}
