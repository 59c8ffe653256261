/// Keeping what the sync engine's compaction step (Docs/FORMAT.md §4.7, "When tombstones
/// settle") does to a note: a compacted note is written whole, a ledger that changed alone is
/// written alone (Docs/LIBRARY.md, "Layout on disk"), so a send costs a few bytes of journal
/// unless it drops tombstones.
extension LibrarySyncAccess {
    /// Keeps note `name` as the compaction step left it: `note` is the library's note after
    /// `NoteText.recordSeen(by:)` and `NoteText.compactIfSettled(devices:repointing:)`, same text, and
    /// `compacted` says whether tombstones were dropped. One frame: a `.compacted` entry (the
    /// whole state, ledger included) when they were, else a `.ledger` entry when the ledger
    /// changed, else nothing. Neither marks the note unsaved (the record being built carries
    /// it). Returns false, keeping nothing, when the compacted state is too large for one
    /// journal frame: the caller goes on with the note as it was.
    @discardableResult
    package func recordCompaction(_ name: String, note: NoteText, compacted: Bool) throws(NoteLibraryError) -> Bool {
        let number = try library.number(of: name)
        let before = try library.load(number)
        if note.ledger?.repointed.isEmpty == false { try library.upgradeFormatIfOlder() }
        if compacted {
            let snapshot = note.encodedSnapshot(format: .version3)
            guard snapshot.count + 16 <= JournalFraming.maximumBody else { return false }
            // The shadows of what went (a note keeping history), before the frame they belong to.
            try library.journalHistory(of: note, after: before, number: number)
            try library.append(.compacted(note: number, snapshot: 0..<0), blob: snapshot)
        } else {
            guard note.ledger != before.ledger else { return true }
            try library.append(.ledger(note: number, ledger: 0..<0), blob: JournalLedger.encode(note.ledger))
        }
        library.remember(note, as: number)
        return true
    }
}

extension NoteLibrary {
    /// Appends a `.ledger` entry for note `number` when `note`'s ledger differs from
    /// `before`'s (a merge took in another copy's ledger): change sets do not carry ledgers.
    /// When the merge took in re-pointed ids (Docs/FORMAT.md §4.7, "Re-pointed right origins"),
    /// it may have changed the right origins of elements `before` held, which change sets do not
    /// carry either: the note is then kept whole (a `.compacted` entry, ledger included).
    func appendLedger(of note: NoteText, after before: NoteText, number: UInt32) throws(NoteLibraryError) {
        if try appendRepointed(note, number: number) { return }
        guard note.ledger != before.ledger else { return }
        try append(.ledger(note: number, ledger: 0..<0), blob: JournalLedger.encode(note.ledger))
    }

    /// After a merge into note `number` that left `note` when either copy listed re-pointed ids:
    /// appends the whole note (a `.compacted` entry, ledger included) and returns true. Such a
    /// merge may change the right origins of elements the note held, and revive elements it had
    /// dropped, which change sets do not carry.
    @discardableResult
    func appendRepointed(_ note: NoteText, number: UInt32) throws(NoteLibraryError) -> Bool {
        guard note.ledger?.repointed.isEmpty == false else { return false }
        try upgradeFormatIfOlder()
        try append(.compacted(note: number, snapshot: 0..<0), blob: note.encodedSnapshot(format: .version3))
        return true
    }
}
