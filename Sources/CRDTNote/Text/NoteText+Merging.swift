extension NoteText {
    /// The operations a copy at `version` lacks. Applying them there equals merging this copy.
    public func changes(since version: VersionVector) -> NoteChanges {
        let known = sequence.replicas.map { UInt32(clamping: version[$0]) }
        return NoteChanges(changeSet: sequence.changes(since: known))
    }

    /// Applies changes from another copy. Idempotent; throws (changing nothing) when they
    /// build on operations this copy lacks or contradict themselves.
    public mutating func apply(_ changes: NoteChanges) throws(ChangeSetError) {
        try sequence.apply(changes.changeSet)
        observe(changes.changeSet.latestStamps)
    }

    /// Merges everything `other` knows into this copy (commutative, associative, idempotent).
    public mutating func merge(_ other: NoteText) {
        let known = other.sequence.replicas.map { id in sequence.replicaIndex[id].map { sequence.nextSeq[Int($0)] } ?? 0 }
        let set = other.sequence.changes(since: known)
        do {
            try sequence.apply(set)
        } catch {
            // Two well-formed copies always merge; reaching this is a bug in this library.
            assertionFailure("merging two valid notes failed: \(error)")
            return
        }
        observe(set.latestStamps)
    }

    /// A copy of this note with `other` merged in.
    public func merging(_ other: NoteText) -> NoteText {
        var copy = self
        copy.merge(other)
        return copy
    }

    /// Lets the local clock see remote stamps (the drift guard keeps far-future ones out).
    private mutating func observe(_ stamps: [HLCTimestamp]) {
        if let latest = stamps.max(), latest > .zero {
            clock.receive(latest)
        }
    }
}
