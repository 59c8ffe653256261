extension RecordMerger {
    /// Builds the merged record on `base` (the server record): its note fields are rewritten
    /// unless it already holds exactly the merged state, then app fields are merged in.
    func finish(merged: NoteText?, base: NoteRecord, baseSource: NoteSource, others: [NoteRecord],
                ancestor: NoteRecord?, log: [String]) throws(NoteRecordError) -> RecordMergeResult {
        guard let unchecked = merged else { throw NoteRecordError(.noRecords, recordName: base.recordName, "nothing to merge") }
        // A lone loaded state merged with nothing still has its runs checked before it is kept.
        let merged = try unchecked.built(forRecord: base.recordName)
        let layout = self.layout ?? (([base] + others).contains { $0.layout == .encrypted } ? .encrypted : .plain)
        var out = base
        if !Self.holdsExactly(merged, record: base, source: baseSource, layout: layout) {
            // Written by this device now: `modified` follows the drift rule against the system clock
            // (the decoded states' clocks are not this device's).
            // Formatting the server holds and this release cannot unite with (a newer one's) is left
            // as it is: the text is written all the same.
            try out.write(base.withWritableFormatting(merged).forked(as: merged.replica, clock: HybridLogicalClock()), limits: limits,
                          mirror: mirror, format: format, history: history, layout: layout)
        }
        Self.mergeAppFields(into: &out.record, from: others, base: base.record, ancestor: ancestor?.record)
        return RecordMergeResult(record: out, note: merged, serverUnchanged: out.record == base.record, notes: log)
    }

    /// Whether `record` is a clean record of `layout` (its `version`, one payload field of that
    /// layout, a matching mirror or none by `mirroredBytes`) of exactly `state`, so that
    /// rewriting it would change nothing but the payload's byte layout. Its mirror's type is left
    /// as it is: the server's record shows the type its container has.
    static func holdsExactly(_ state: NoteText, record: NoteRecord, source: NoteSource, layout: NoteRecordLayout) -> Bool {
        let fields = record.record
        let payloads = NoteRecord.payloadFields.filter { fields[field: $0] != nil }
        guard case .crdt(let stored, .payload) = source,
              fields[field: NoteSchema.Field.version] == .int64(layout.schemaVersion),
              fields[field: NoteSchema.Field.text] != nil || fields[field: NoteSchema.Field.mirroredBytes] != nil,
              payloads == [layout.inlinePayloadField] || payloads == [NoteSchema.Field.payloadAsset],
              layout == .plain || (fields.fields[NoteSchema.Field.encryptedPayload].map(\.isEncrypted) ?? true
                                   && fields[field: NoteSchema.Field.text]?.scalarKind != .string)
        else { return false }
        return stored.version == state.version && stored.scalarCount == state.scalarCount && stored.formatting == state.formatting
            && NoteReplicaDerivation.digest(stored) == NoteReplicaDerivation.digest(state)
    }

    /// App fields (everything but the note fields): fields only `others` have are added (the
    /// first of `others` wins); with an ancestor, a field only the other side changed takes
    /// its value. Fields are never removed, so nothing an app stored is lost.
    static func mergeAppFields(into out: inout CloudRecord, from others: [NoteRecord], base: CloudRecord, ancestor: CloudRecord?) {
        for other in others {
            for name in other.record.orderedFieldNames where !NoteSchema.Field.written.contains(name) {
                guard let theirs = other.record.fields[name] else { continue }
                if out.fields[name] == nil {
                    out.fields[name] = theirs
                    if !out.fieldOrder.contains(name) { out.fieldOrder.append(name) }
                } else if let ancestor, let mine = base.fields[name], ancestor.fields[name]?.value == mine.value,
                          theirs.value != mine.value {
                    out.fields[name] = theirs
                }
            }
        }
    }
}
