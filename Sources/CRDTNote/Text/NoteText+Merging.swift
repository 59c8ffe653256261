extension NoteText {
    /// The operations a copy at `version` lacks: its characters and deletions, and the
    /// formatting operations made later than `version`'s formatting stamp of their author.
    /// Applying them there equals merging this copy.
    ///
    /// On a note loaded from a snapshot this builds the index (once, shared by its copies); when
    /// the snapshot's runs are corrupt the changes are empty (there is nothing sound to send),
    /// and the note's next edit or merge throws `corruptSnapshot`.
    public func changes(since version: VersionVector) -> NoteChanges {
        let sequence: TextSequence
        do {
            sequence = try loadedSequence()
        } catch {
            return NoteChanges(changeSet: ChangeSet())  // documented above
        }
        let known = sequence.replicas.map { UInt32(clamping: version[$0]) }
        let set = sequence.changes(since: known)
        guard !formatting.isEmpty else { return NoteChanges(changeSet: set) }
        let lacking = formatting.operations(after: version.formattingStamps)
        let base = version.formattingStamps.filter { lacking.latestStamp(of: $0.key) != nil }
        return NoteChanges(changeSet: set, formatting: lacking, formattingBase: base)
    }

    /// Applies changes from another copy and returns how the visible text and its attributes
    /// changed (for a text view: see ``TextPatch``). Idempotent; throws (changing nothing) when
    /// they build on operations this copy lacks (``ChangeSetError/Code/missingDependency``, also
    /// when they were made for a copy holding formatting operations this one lacks) or
    /// contradict themselves, and with ``ChangeSetError/Code/corruptSnapshot`` when this note
    /// was loaded from a snapshot whose runs prove corrupt.
    @discardableResult
    public mutating func apply(_ changes: NoteChanges) throws(ChangeSetError) -> TextPatch {
        for (author, base) in changes.formattingBase where (formatting.latestStamp(of: author) ?? .zero) < base {
            throw ChangeSetError(.missingDependency, "the changes carry formatting of replica \(author) made after \(base), "
                                 + "and this copy holds its formatting only up to \(formatting.latestStamp(of: author).map { "\($0)" } ?? "none")")
        }
        let limit = NoteLimits.default.maximumFormattingOperations
        if formatting.operationCount + changes.formatting.operationCount > limit,
           formatting.operationCount + changes.formatting.subtracting(formatting).operationCount > limit {
            throw ChangeSetError(.tooLarge, "the note would have more than \(limit) formatting operations")
        }
        if deferred != nil { try buildIndexForMerge() }
        let before = try attributesForMerge { () throws(NoteTextError) in try attributesBeforeChange(bringing: changes.formatting) }
        let replacements = try sequence.apply(changes.changeSet, recordingPatch: true)
        textChanged()
        observe(changes.changeSet.latestStamps)
        if let before, replacements.isEmpty, changes.changeSet.inserts.isEmpty, changes.changeSet.compacted.isEmpty, !changes.formatting.isEmpty {
            // Only formatting arrived: the index is updated where the new operations cover.
            let marks = changes.formatting.marks.filter { !formatting.marks.contains($0) }
            let keys = Set(changes.formatting.paragraphs.filter { !formatting.paragraphs.contains($0) }.map(\.key))
            mergeFormatting(changes.formatting)
            return try attributesForMerge { () throws(NoteTextError) in try formattingPatch(adding: marks, paragraphKeys: keys, attributesBefore: before) }
        }
        mergeFormatting(changes.formatting)
        return try attributesForMerge { () throws(NoteTextError) in try patch(replacing: replacements, attributesBefore: before) }
    }

    /// Merges everything `other` knows into this copy (commutative, associative, idempotent).
    ///
    /// Throws, changing nothing, when the two copies cannot be combined:
    /// - ``ChangeSetError/Code/tooLarge``: the merged note would exceed the format's limits
    ///   (4 GiB of text storage);
    /// - ``ChangeSetError/Code/inconsistent`` or ``ChangeSetError/Code/missingDependency``: the
    ///   copies contradict each other. Copies whose writers each used their own ``ReplicaID``
    ///   never do; two writers sharing an id, or a state rolled back and edited again under the
    ///   same id, can (see ``ReplicaID``);
    /// - ``ChangeSetError/Code/corruptSnapshot``: this note or `other` was loaded from a snapshot
    ///   whose runs are corrupt (found now, when its index is first built).
    ///
    /// Returns how the visible text changed (for a text view: see ``TextPatch``). The cost is
    /// that of what `other` adds, not the size of the note: O(k log n) for k new runs of
    /// characters, plus a lookup per deleted range `other` holds.
    @discardableResult
    public mutating func merge(_ other: NoteText) throws(ChangeSetError) -> TextPatch {
        try merge(other, recordingPatch: true)
    }

    /// ``merge(_:)``, building the patch only when asked: record merging and the sync engine
    /// have no view to update (and the benchmarks time the difference).
    @discardableResult
    package mutating func merge(_ other: NoteText, recordingPatch: Bool) throws(ChangeSetError) -> TextPatch {
        if deferred != nil { try buildIndexForMerge() }
        let before = !recordingPatch ? nil
            : try attributesForMerge { () throws(NoteTextError) in try attributesBeforeChange(bringing: other.formatting) }
        let theirs: TextSequence
        do {
            theirs = try other.loadedSequence()
        } catch {
            var failure = ChangeSetError(corruptSnapshot: error)
            failure.message = "the merged copy's snapshot is corrupt: \(error)"
            throw failure
        }
        let known = theirs.replicas.map { id in sequence.replicaIndex[id].map { sequence.nextSeq[Int($0)] } ?? 0 }
        // Elements their formatting names, which a compaction here may have dropped (§10.6).
        var needed = sequence.hasCompactedIDs && !other.formatting.isEmpty
            ? other.formatting.namedElements().compactMap { id in theirs.replicaIndex[id.replica].map { ItemRef(replica: $0, seq: id.seq) } }
            : []
        // Ids either copy re-pointed (§4.7): the earlier right origin is taken, revived if need be.
        var listed = ledger?.repointed ?? [:]
        for (id, ranges) in other.ledger?.repointed ?? [:] { listed[id] = IDRanges.union(listed[id] ?? [], ranges) }
        if !listed.isEmpty, sequence.hasCompactedIDs { needed += theirs.rightOriginsToRevive(for: sequence, listed: listed) }
        let set = theirs.changes(since: known, receiver: sequence, needed: needed)
        let saved = listed.isEmpty ? nil : sequence
        // With listed ids the rule's order is checked once right origins are reconciled (below):
        // revived elements may name the earlier right origin the reconciliation takes.
        var replacements = try sequence.apply(set, recordingPatch: recordingPatch, deferringOrderCheck: !listed.isEmpty)
        if !listed.isEmpty {
            // Right origins a compaction re-pointed (§4.7): both copies settle on the earlier one.
            // The text before is read only when right origins changed (a copy costs nothing until then).
            let unreconciled = sequence
            do throws(ChangeSetError) {
                let changed = try sequence.reconcileRightOrigins(with: theirs, listed: listed)
                // A reconciliation that changed right origins checked the order itself.
                if changed.isEmpty, let violation = sequence.ruleOrderViolation() {
                    throw ChangeSetError(.inconsistent, "the inserts' origins are ones no editor could have written: \(violation)")
                }
                if !changed.isEmpty, recordingPatch {
                    let after = sequence.utf8Bytes()
                    if after != unreconciled.utf8Bytes() {
                        replacements.append(TextReplacement(utf16Range: 0..<unreconciled.utf16Count, scalarRange: 0..<unreconciled.scalarCount,
                                                            text: String(decoding: after, as: UTF8.self)))
                    }
                }
            } catch {
                if let saved { sequence = saved }
                throw error
            }
        }
        textChanged()
        observe(set.latestStamps)
        if other.ledger != nil { mergeLedger(of: other) }
        // Histories unite whatever else arrived (a copy may bring only history, or shadows).
        history.formUnion(other.history)
        if let before, replacements.isEmpty, set.inserts.isEmpty, set.compacted.isEmpty {
            // Only formatting arrived: the index is updated where the new operations cover.
            let marks = other.formatting.marks.filter { !formatting.marks.contains($0) }
            let keys = Set(other.formatting.paragraphs.filter { !formatting.paragraphs.contains($0) }.map(\.key))
            mergeFormatting(other.formatting)
            return try attributesForMerge { () throws(NoteTextError) in try formattingPatch(adding: marks, paragraphKeys: keys, attributesBefore: before) }
        }
        mergeFormatting(other.formatting)
        return try attributesForMerge { () throws(NoteTextError) in try patch(replacing: replacements, attributesBefore: before) }
    }

    /// A copy of this note with `other` merged in; throws as ``merge(_:)`` does.
    public func merging(_ other: NoteText) throws(ChangeSetError) -> NoteText {
        var copy = self
        try copy.merge(other)
        return copy
    }

    /// ``buildIndex()`` for merges: a corrupt snapshot is ``ChangeSetError/Code/corruptSnapshot``.
    private mutating func buildIndexForMerge() throws(ChangeSetError) {
        do {
            try buildIndex()
        } catch {
            throw ChangeSetError(corruptSnapshot: error)
        }
    }

    /// Reads attributes for a merge's patch (the index is built by then, so only a snapshot
    /// proven corrupt can fail): a failure is the merge's ``ChangeSetError/Code/corruptSnapshot``.
    private func attributesForMerge<T>(_ read: () throws(NoteTextError) -> T) throws(ChangeSetError) -> T {
        do {
            return try read()
        } catch {
            throw ChangeSetError(.corruptSnapshot, error.message)
        }
    }

    /// Lets the local clock see remote stamps (the drift guard keeps far-future ones out).
    private mutating func observe(_ stamps: [HLCTimestamp]) {
        if let latest = stamps.max(), latest > .zero {
            clock.receive(latest)
        }
    }
}

extension NoteText {
    /// The union of several states. Throws when they contradict each other (only possible
    /// with damaged or forged payloads); nothing is changed then.
    static func union(_ states: [NoteText]) throws(ChangeSetError) -> NoteText? {
        guard var merged = states.first else { return nil }
        for other in states.dropFirst() {
            try merged.merge(other, recordingPatch: false)
        }
        return merged
    }
}

extension NoteText {
    /// What this note gained since `before`, an earlier copy of it: the operations `before`
    /// lacks, carrying only the new bytes, in time proportional to the change (the note library
    /// journals them). Throws `corruptSnapshot` when either copy's loaded snapshot proves corrupt.
    package func changes(after before: NoteText) throws(ChangeSetError) -> NoteChanges {
        let mine: TextSequence
        let theirs: TextSequence
        do {
            mine = try loadedSequence()
            theirs = try before.loadedSequence()
        } catch {
            throw ChangeSetError(corruptSnapshot: error)
        }
        return NoteChanges(changeSet: mine.changes(after: theirs))
    }
}
