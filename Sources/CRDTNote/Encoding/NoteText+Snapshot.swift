extension NoteText {
    /// The note's full state in crdtnote's binary format: visible text, ids, origins and
    /// tombstones, clock stamps. Deleted text is not included. Written in format 1, which every
    /// release reads (``encodedSnapshot(format:)`` writes another).
    public func encodedSnapshot() -> [UInt8] {
        encodedSnapshot(format: .version1)
    }

    /// The note's full state written in snapshot format `format` (see ``SnapshotFormat``), or in
    /// format 3 whatever `format` says when the note is compacted (it then holds fewer ids than it
    /// has seen, which only format 3 can say), and in format 2 when format 3 is asked for and the
    /// note holds every id.
    ///
    /// A note loaded from a snapshot whose index has not been built yet (never edited, merged
    /// or asked for a position) returns the bytes it was loaded from when they are exactly what
    /// `format` writes (``SnapshotDecoder/writesUnchanged(_:in:)``): the same state, read back
    /// identically. Otherwise the state is encoded again; should the loaded snapshot's runs
    /// prove corrupt then, its bytes are returned unchanged (so the damage is reported wherever
    /// they are read and edited next, never replaced by a different state).
    public func encodedSnapshot(format: SnapshotFormat) -> [UInt8] {
        guard let deferred else { return wrap(sequence, format: format) }
        // A loaded payload that needs reader 3 may hold a compacted state: it is written in format 3.
        let compacted = (PayloadHeader.requiredReaderVersion(of: deferred.payload) ?? 1) >= 3 || ledger != nil
        let written = format.written(compacted: compacted, repointed: ledger?.repointed.isEmpty == false) { ClockLogColumns.pay(deferred.clockLog.map(\.entries)) }
        if ledger == deferred.ledger, SnapshotDecoder.writesUnchanged(deferred.payload, in: written) {
            return deferred.payload
        }
        do {
            return wrap(try deferred.sequence(), format: format)
        } catch {
            return deferred.payload
        }
    }

    /// Whether this note no longer holds some of the ids it has seen (a compaction dropped them):
    /// it is then written in snapshot format 3 or 6. A note loaded from a payload of format 3 or
    /// 6 is decoded to tell; one whose runs prove corrupt counts as compacted.
    package var isCompacted: Bool {
        if let deferred, (PayloadHeader.requiredReaderVersion(of: deferred.payload) ?? 1) < 3 { return false }
        do {
            return try loadedSequence().hasCompactedIDs
        } catch {
            return true
        }
    }

    /// `sequence` with this note's ledger, in the format `format` asks for (format 3 when
    /// compacted or keeping a ledger, see ``SnapshotFormat``).
    private func wrap(_ sequence: TextSequence, format asked: SnapshotFormat) -> [UInt8] {
        let compacted = sequence.hasCompactedIDs || ledger != nil
        let format = asked.written(compacted: compacted, repointed: ledger?.repointed.isEmpty == false) { ClockLogColumns.pay(sequence.clockLog.map(\.entries)) }
        return PayloadHeader.wrap(SnapshotEncoder.encode(sequence, format: format, ledger: ledger), kind: .snapshot, version: format.rawValue)
    }

    /// Loads a snapshot; edits made from now on are attributed to `replica`.
    ///
    /// Loading is lazy. Checked here, before anything is kept: the header (magic, version gate,
    /// kind, length) and the CRC-32C of the body, then the clock table, the visible text (within
    /// `limits`, valid UTF-8) and the framing of the run columns. Errors here are
    /// ``PayloadError``s: ``PayloadError/newerFormat(requiredReader:supportedReader:)`` before
    /// decoding anything when the payload needs a newer crdtnote, ``PayloadError/Code/corrupt``
    /// otherwise. ``string``, ``utf8``, the counts, ``version`` and ``lastModified`` are then
    /// read straight from the payload. Local edits of the note (and of its forks) are held to
    /// `limits` too: one that would give it more than ``NoteLimits/maximumElements`` elements
    /// throws ``NoteTextError/Code/tooLarge``.
    ///
    /// The runs (ids, origins, tombstones) are decoded, with every check a full decode makes,
    /// when the note is first edited, merged (on either side of the merge), asked for changes,
    /// or asked to resolve a position (anchors, selections, UTF-16/scalar conversions); copies
    /// made with ``forked(as:clock:)`` or by assignment share that one decode. Runs found
    /// corrupt then make the edit throw ``NoteTextError/Code/corruptSnapshot`` and the merge
    /// ``ChangeSetError/Code/corruptSnapshot`` (with the ``BinaryDecodingError``), changing
    /// nothing; reads that cannot throw document what they return instead.
    public init(snapshot: [UInt8], replica: ReplicaID, clock: HybridLogicalClock = HybridLogicalClock(),
                limits: NoteLimits = .default) throws(PayloadError) {
        let (header, body) = try PayloadHeader.body(of: snapshot, expecting: .snapshot)
        var reader = body
        let prologue: SnapshotPrologue
        do {
            prologue = try SnapshotDecoder.prologue(&reader, layout: max(header.minimumReaderVersion, 1), limits: limits)
        } catch {
            throw .corrupt(error)
        }
        let deferred = DeferredSequence(
            text: prologue.text, scalarCount: prologue.scalarCount, utf16Count: prologue.utf16Count,
            runCount: prologue.runCount, replicas: prologue.table.replicas, nextSeq: prologue.table.nextSeq,
            latestStamp: prologue.table.latest, clockLog: prologue.table.logs.map(ClockLog.init), payload: snapshot,
            ledger: prologue.ledger, build: { () throws(BinaryDecodingError) -> TextSequence in try SnapshotDecoder.runs(prologue, limits: limits) })
        self.init(deferred: deferred, replica: replica, clock: clock)
        ledger = prologue.ledger
        maximumElements = limits.maximumElements
    }

    /// Decodes the rest of a loaded snapshot now (the runs, with every check; a no-op for any
    /// other note) and throws what an edit or merge would, without changing the note: for
    /// tools that verify payloads (`crdtnote verify`) and readers that must refuse a damaged
    /// one up front.
    package func checkLoadedSnapshot() throws(BinaryDecodingError) {
        _ = try loadedSequence()
    }
}
