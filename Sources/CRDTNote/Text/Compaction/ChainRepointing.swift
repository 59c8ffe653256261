/// Whether a compaction re-points group chains (``GroupChains``; Docs/FORMAT.md §4.7,
/// "Re-pointed right origins"), asked of ``NoteText/compactIfSettled(devices:repointing:)`` by
/// the writer that knows every device it writes for reads format 7.
package struct ChainRepointing: Sendable {
    /// The history whose past the compaction leaves alone; nil: chains stay.
    private let history: NoteHistory?

    /// Chains stay (the fleet reads older formats).
    package static let off = ChainRepointing(history: nil)

    /// Chains of settled tombstones go, except members `history` reads the past of
    /// (``NoteHistory/namedIDs()``): the note's history as it will be kept, its payloads decoded.
    /// A history with payloads still to decode spares every chain.
    static func sparing(_ history: NoteHistory) -> ChainRepointing { ChainRepointing(history: history) }

    /// ``sparing(_:)`` the history `note` holds now.
    package static func sparingHistory(of note: NoteText) -> ChainRepointing { ChainRepointing(history: note.history) }

    /// Whether the history reads the past of none of the ids `seqs` of replica index `replica` in
    /// `sequence`: a kept tombstone a compaction may drop from a chain, or a stretch it drops
    /// whose shadow's origins need not stay. Nil: re-pointing is off.
    func repointable(in sequence: TextSequence) -> ((_ replica: UInt32, _ seqs: Range<UInt32>) -> Bool)? {
        guard let history, history.pending.isEmpty else { return nil }
        let named = history.namedIDs()
        guard !named.isEmpty else { return { _, _ in true } }
        let byIndex = Dictionary(uniqueKeysWithValues: named.compactMap { id, ranges in sequence.replicaIndex[id].map { ($0, ranges) } })
        return { replica, seqs in
            guard let ranges = byIndex[replica] else { return true }
            let i = ranges.partitioningIndex { $0.upperBound > seqs.lowerBound }
            return i == ranges.count || ranges[i].lowerBound >= seqs.upperBound
        }
    }
}
