extension NoteText {
    /// Elements (ids ever inserted, tombstones included) this note holds, over all replicas.
    package var elementCount: Int { idCounts.reduce(0) { $0 + Int($1) } }

    /// Throws ``NoteTextError/Code/tooLarge`` when this note is beyond `limits`: its snapshot
    /// would be refused by a reader with those limits (elements, replicas, runs, text bytes,
    /// formatting operations).
    /// A note within them encodes to a snapshot that reads back; see ``NoteLimits``.
    public func checkLimits(_ limits: NoteLimits = .default) throws(NoteTextError) {
        let elements = elementCount
        if elements > limits.maximumElements {
            throw NoteTextError(.tooLarge, "the note has \(elements) elements, more than the \(limits.maximumElements) a reader accepts")
        }
        let replicaCount = replicaTable.count
        if replicaCount > limits.maximumReplicas {
            throw NoteTextError(.tooLarge, "the note has \(replicaCount) replicas, more than the \(limits.maximumReplicas) a reader accepts")
        }
        if runCount > limits.maximumRuns {
            throw NoteTextError(.tooLarge, "the note has \(runCount) runs, more than the \(limits.maximumRuns) a reader accepts")
        }
        let bytes = visibleUTF8Count
        if bytes > limits.maximumTextBytes {
            throw NoteTextError(.tooLarge, "the note's text has \(bytes) UTF-8 bytes, more than the \(limits.maximumTextBytes) a reader accepts")
        }
        let operations = formatting.operationCount
        if operations > limits.maximumFormattingOperations {
            throw NoteTextError(.tooLarge, "the note has \(operations) formatting operations, more than the \(limits.maximumFormattingOperations) a reader accepts")
        }
    }

    /// UTF-8 bytes of the visible text, counted from the runs (no copy).
    var visibleUTF8Count: Int {
        if let deferred { return deferred.text.count }
        return sequence.visibleUTF8Count
    }
}

extension NoteText {
    /// What is wrong with this note's state, or nil: its loaded snapshot's runs do not decode,
    /// or the structure breaks one of its invariants. A full check, for `verify` commands.
    package func stateProblem() -> String? {
        do {
            return try loadedSequence().invariantViolations().first
        } catch {
            return "\(error)"
        }
    }
}
