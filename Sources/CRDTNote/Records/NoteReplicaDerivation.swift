import CRDTNoteSupport

/// Deterministic replica ids for edits this library makes on someone's behalf: the legacy
/// text of a v1 record, and plain-text changes (a v1 side of a merge, a clobbered mirror)
/// folded into a CRDT state.
///
/// Why deterministic: two devices that upgrade the same v1 record, or fold the same plain-text
/// change into the same state, must produce the *same* operations, so that when their results
/// meet the union keeps one copy instead of two. Why the content is hashed too (not only the
/// record name): one replica id used for two *different* texts would give two different
/// characters the same id, which no merge could repair. So the id is a hash of everything the
/// operations depend on: the record name, the base state (ids, tombstones, latest stamp) and the
/// text. 64-bit FNV-1a, finalised with SplitMix64's mixer; not collision-resistant against an
/// adversary, but a collision needs the same record name as well.
enum NoteReplicaDerivation {
    /// The replica of a legacy (v1) text upgraded into a CRDT note.
    static func legacy(recordName: String, text: String) -> ReplicaID {
        var h = Hasher64()
        h.add(tag: "crdtnote.legacy")
        h.add(Array(recordName.utf8))
        h.add(Array(text.utf8))
        return h.replica()
    }

    /// How a fold's edits are found: the full diff (deletions too), or its insertions only.
    enum FoldMode: String {
        case diff
        case insertions
    }

    /// The derivation tag of a fold: `crdtnote.fold.<mode>.v<diff version>`, e.g.
    /// `crdtnote.fold.diff.v2`. The diff's version is part of it because the ids are only
    /// safe to share between devices that derive the *same* edits: a release with another
    /// diff folding the same text must get other ids (the change then appears twice after a
    /// merge, which the user can tidy up) rather than the same ids on different characters
    /// (which no merge could repair). Releases with diff version 1 used
    /// `crdtnote.fold.<mode>` (no version suffix), which `diffVersion: 1` reproduces.
    static func foldTag(_ mode: FoldMode, diffVersion: Int = TextDiff.version) -> String {
        diffVersion == 1 ? "crdtnote.fold.\(mode.rawValue)" : "crdtnote.fold.\(mode.rawValue).v\(diffVersion)"
    }

    /// The replica of plain `text` folded as edits into `base` by `mode`, with the edits of
    /// diff version `diffVersion` (the current one unless a test asks otherwise).
    static func fold(recordName: String, base: NoteText, text: String, mode: FoldMode,
                     diffVersion: Int = TextDiff.version) -> ReplicaID {
        var h = Hasher64()
        h.add(tag: foldTag(mode, diffVersion: diffVersion))
        h.add(Array(recordName.utf8))
        h.add(stateDigest: base)
        h.add(Array(text.utf8))
        return h.replica()
    }

    /// A 64-bit canonical digest of a state: the same for equal states on any device, whatever
    /// order their replicas were learned in or how their runs happen to be split.
    static func digest(_ note: NoteText) -> UInt64 {
        var h = Hasher64()
        h.add(stateDigest: note)
        return h.value
    }
}

/// FNV-1a over length-prefixed parts, so ("ab","c") and ("a","bc") differ.
struct Hasher64 {
    private var fnv = FNV1a64()
    var state: UInt64 { fnv.value }

    mutating func byte(_ b: UInt8) { fnv.add(byte: b) }

    mutating func word(_ w: UInt64) {
        for i in 0..<8 { byte(UInt8(truncatingIfNeeded: w >> (8 * UInt64(i)))) }
    }

    mutating func add(_ bytes: [UInt8]) {
        word(UInt64(bytes.count))
        for b in bytes { byte(b) }
    }

    mutating func add(tag: String) { add(Array(tag.utf8)) }

    /// Element order with ids and tombstones, maximal id-consecutive stretches (so run splits
    /// do not matter), the latest stamp, and the visible text.
    ///
    /// Callers pass notes whose index is built or buildable; a loaded snapshot whose runs are
    /// corrupt has no state to digest and hashes as the tag `corrupt` and its text, unequal to
    /// the digest of any sound state (stretch counts are never `UInt64.max`).
    mutating func add(stateDigest note: NoteText) {
        var stretches: UInt64 = 0
        do {
            try note.forEachStretch { s in
                word(s.replica.rawValue); word(UInt64(s.start)); word(UInt64(s.end)); byte(s.deleted ? 1 : 0)
                stretches += 1
            }
        } catch {
            add(tag: "corrupt")
            stretches = .max
        }
        word(stretches)
        word(note.lastModified?.rawValue ?? 0)
        add(note.utf8)
    }

    var value: UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A non-zero replica id from the digest.
    func replica() -> ReplicaID {
        let v = value
        return ReplicaID(rawValue: v == 0 ? 1 : v)
    }
}
