/// How much of a note's past its writers keep (Docs/FORMAT.md §11.3): deletions younger than
/// ``window``, and, within that, at most ``cap(visibleBytes:)`` bytes of deleted text, the newest
/// kept. Both are measured on the writer's hybrid logical clock when it writes the note; copies
/// that kept different history merge to the union, which the next writer trims again.
///
/// The defaults keep a month (long enough to find last week's paragraph) and at least 64 KB of
/// deleted text, or twice the visible text for a longer note, so a note's record grows by a
/// bounded share of its size.
public struct HistoryRetention: Sendable, Hashable {
    /// How far back deletions are kept, in milliseconds (default 30 days).
    public var window: UInt64
    /// Deleted text always allowed, in UTF-8 bytes (default 65,536).
    public var minimumBytes: Int
    /// Deleted text allowed per byte of visible text, when that is more (default 2).
    public var visibleTextMultiple: Int

    /// A retention policy; every value defaults to the documented standard.
    public init(window: UInt64 = 30 * 24 * 3_600_000, minimumBytes: Int = 65_536, visibleTextMultiple: Int = 2) {
        self.window = window
        self.minimumBytes = minimumBytes
        self.visibleTextMultiple = visibleTextMultiple
    }

    /// The standard policy: 30 days, max(64 KB, 2 × the visible text).
    public static let `default` = HistoryRetention()

    /// Most bytes of deleted text kept for a note showing `visibleBytes` bytes.
    public func cap(visibleBytes: Int) -> Int {
        let (scaled, overflow) = visibleBytes.multipliedReportingOverflow(by: max(visibleTextMultiple, 0))
        return max(minimumBytes, overflow ? Int.max : scaled)
    }
}

extension NoteHistory {
    /// These events without those older than `retention`'s window before `now` and, past its
    /// cap, the oldest others, and the shadows the events kept need (pending payloads must have
    /// been decoded).
    func retained(now: HLCTimestamp, by retention: HistoryRetention, visibleBytes: Int) -> NoteHistory {
        let sorted = normalized.deletions
        let oldest = now.milliseconds >= retention.window ? now.milliseconds - retention.window : 0
        let cap = retention.cap(visibleBytes: visibleBytes)
        var kept: [DeletionEvent] = []
        var bytes = 0
        for event in sorted.reversed() where event.stamp.milliseconds >= oldest {
            bytes += event.text.count
            if bytes > cap { break }
            kept.append(event)
        }
        // Shadows (§11.6) stay for the ids of kept events, with the shadows they name.
        var needed: [ReplicaID: [Range<UInt32>]] = [:]
        for event in kept { needed[event.inserter, default: []].append(event.seqs) }
        let keptShadows = ShadowRun.closure(of: shadows, holding: needed)
        for shadow in keptShadows { needed[shadow.inserter, default: []].append(shadow.seqs) }
        // A dropped clock entry stays while an id it may stamp (up to the next one) is needed.
        var stamps: [ReplicaID: [ClockLogEntry]] = [:]
        for (replica, entries) in shadowStamps {
            guard let ranges = needed[replica] else { continue }
            stamps[replica] = entries.enumerated().filter { i, entry in
                let end = i + 1 < entries.count ? entries[i + 1].seq : UInt32.max
                return ranges.contains { $0.overlaps(entry.seq..<end) }
            }.map(\.element)
        }
        return NoteHistory(deletions: kept.reversed(), shadows: keptShadows, shadowStamps: stamps)
    }
}

extension NoteText {
    /// `history` trimmed by `retention` on this copy's clock (Docs/FORMAT.md §11.3): `now` is
    /// the later of its latest stamp and its physical clock.
    func retained(_ history: NoteHistory, by retention: HistoryRetention) -> NoteHistory {
        let now = max(clock.latest.milliseconds, min(clock.physicalClock.now(), HLCTimestamp.maxMilliseconds))
        return history.retained(now: HLCTimestamp(clampingMilliseconds: now, counter: 0), by: retention, visibleBytes: utf8.count)
    }
}

extension NoteText {
    /// Trims the history this copy holds by its retention policy (``historyRetention``, on its
    /// own clock), as a note library does when it compacts its files: what a device keeps of
    /// the past between syncs. Nothing changes without a policy or while payloads wait to be
    /// decoded.
    package mutating func trimHistory() {
        guard let historyRetention, history.pending.isEmpty else { return }
        history = retained(history, by: historyRetention)
    }
}
