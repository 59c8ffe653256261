/// The layout a snapshot is written in (Docs/FORMAT.md, "Runs, version 1" and "Runs, version 2").
/// Both are read by this library. Writers take the format as a parameter (format 1 unless
/// asked); the sync engine writes the newest every active device reads
/// (``NoteSyncConfiguration/payloadFormat``, Docs/FORMAT.md, "Mixed fleets").
///
/// - ``version1`` is read by every crdtnote release.
/// - ``version2`` stores the run table in predicted, entropy-coded columns: 25–40% smaller
///   snapshots of long-edited notes, but releases before format 2 refuse it (``PayloadError/Code/newerFormat``).
///
/// Only versions this library can write exist: `SnapshotFormat(rawValue: 4)` is nil.
public struct SnapshotFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The format version written in the payload header; also its minimum reader version.
    public let rawValue: UInt16

    /// The format numbered `rawValue`, or nil when this library cannot write it (1 to 3, 6 and 7).
    public init?(rawValue: UInt16) {
        guard (1...3).contains(rawValue) || (6...7).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(known: UInt16) { rawValue = known }

    /// Format 1: plain run columns; every crdtnote release reads it.
    public static let version1 = SnapshotFormat(known: 1)
    /// Format 2: predicted, rANS-coded run columns; needs a reader of version 2 or newer.
    public static let version2 = SnapshotFormat(known: 2)
    /// Format 3: format 2's run columns in a state that may no longer hold every id it has seen
    /// (compacted tombstones, Docs/FORMAT.md §4.7); needs a reader of version 3 or newer. Asking
    /// for it allows it: a note that holds every id is still written in format 2.
    public static let version3 = SnapshotFormat(known: 3)
    /// Format 6: format 3 with the clock logs as coded columns (Docs/FORMAT.md §4.8), about a
    /// third of their size in format 3; needs a reader of version 6 or newer. Asking for it
    /// allows it: a note whose logs are smaller inline (one pasted at once) is written as format
    /// 3 would write it.
    public static let version6 = SnapshotFormat(known: 6)
    /// Format 7: format 6 whose ledger lists the ids whose right origins a compaction re-pointed
    /// (Docs/FORMAT.md §4.7, "Re-pointed right origins"), which merges reconcile; needs a reader
    /// of version 7 or newer. Only a note holding such a list is written in it, whatever is asked;
    /// asking for it allows compactions to re-point (a note without a list is written as format
    /// 6 would write it).
    public static let version7 = SnapshotFormat(known: 7)
    /// The newest snapshot format a reader of version `reader` reads (payload versions 4 and 5
    /// add no snapshot format: their readers get format 3). Format 7 for readers of 7 and newer:
    /// asking for it lets compactions re-point right origins (Docs/FORMAT.md §4.7).
    package static func newest(readableBy reader: UInt16) -> SnapshotFormat {
        switch reader {
        case ..<2: .version1
        case 2: .version2
        case 3..<SnapshotFormat.version6.rawValue: .version3
        case SnapshotFormat.version6.rawValue: .version6
        default: .version7
        }
    }

    /// Whether a note written when `self` is asked for may have its right origins re-pointed by
    /// a compaction (Docs/FORMAT.md §4.7, "Re-pointed right origins"): format 7 is asked, so
    /// every device the note is written for reads the ledger's list of re-pointed ids.
    package var allowsRepointing: Bool { rawValue >= SnapshotFormat.version7.rawValue }

    /// "1", "2", "3", "6" or "7".
    public var description: String { String(rawValue) }
}

extension SnapshotFormat {
    /// Most runs a version 2 run table may declare per byte that follows its run count
    /// (Docs/FORMAT.md §4.5 and §7, "What decoding allocates"). A version 1 table holds at most
    /// one run per two bytes (its flag and length bytes); coded columns can hold many more, so
    /// without a bound a few bytes could declare 2^21 runs and make every reader allocate for
    /// them. The densest real note measured (`crdtnote-bench density`) holds 0.59 runs per byte;
    /// the writer stores the length column raw (a byte or more per run) whenever its coded table
    /// would pass the bound, so whatever crdtnote writes, it reads.
    static let maximumRunsPerRunTableByte = 4
}

extension SnapshotFormat {
    /// The format a note is written in when `self` is asked for: format 6 when asked and its
    /// clock logs take fewer bytes that way (`logColumnsPay`, ``ClockLogColumns/pay(_:)``);
    /// otherwise a compacted note always needs format 3 (no older format can say that ids are
    /// missing), and a note that holds every id never needs it (format 2 says the same to more
    /// readers).
    /// `logColumnsPay` is asked only when format 6 is. A note whose ledger lists re-pointed ids
    /// (`repointed`) is written in format 7 whatever is asked: no older format can list them.
    func written(compacted: Bool, repointed: Bool, logColumnsPay: () -> Bool) -> SnapshotFormat {
        if repointed { return .version7 }
        if rawValue >= SnapshotFormat.version6.rawValue && logColumnsPay() { return .version6 }
        return compacted ? .version3 : (rawValue >= 3 ? .version2 : self)
    }
}
