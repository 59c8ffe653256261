import Testing
@testable import CRDTNote
@testable import CRDTNoteToolSupport

/// Change sets that send ids a note holds already, with origins other than the note's: one id's
/// origins never change once typed, so such a set contradicts the note (damaged or forged) and
/// is refused as inconsistent, changing nothing; a set that agrees with the note applies. The
/// oracle compares the forged set's per-element origins with the note's elements, written apart
/// from the merge's check.
@Suite struct HeldOriginsTests {
    /// A note holding every id of three random replicas (they edited and merged at random).
    static func fullNote(seed: UInt64) throws -> NoteText {
        let notes = FormatSamples.randomNotes(seed: seed, replicas: 3, edits: 40)
        var note = notes[0]
        try note.merge(notes[1])
        try note.merge(notes[2])
        return note
    }

    /// Each element's origins as the set states them: the first of an insert has the insert's,
    /// the next ones the element before them and the insert's right origin.
    static func origins(of set: ChangeSet) -> [String: String] {
        func name(_ ref: ItemRef) -> String { ref.isNone ? "none" : "\(set.replicas[Int(ref.replica)].rawValue):\(ref.seq)" }
        var out: [String: String] = [:]
        for ins in set.inserts {
            let replica = set.replicas[Int(ins.replica)].rawValue
            for k in 0..<ins.length {
                let left = k == 0 ? name(ins.left) : "\(replica):\(ins.seq + k - 1)"
                out["\(replica):\(ins.seq + k)"] = left + " " + name(ins.right)
            }
        }
        return out
    }

    /// The note's elements' origins in the same form.
    static func origins(of note: NoteText) -> [String: String] {
        func name(_ id: (UInt64, UInt32)?) -> String { id.map { "\($0.0):\($0.1)" } ?? "none" }
        var out: [String: String] = [:]
        for e in note.elementOrder { out["\(e.replica):\(e.seq)"] = name(e.left) + " " + name(e.right) }
        return out
    }

    /// A random id of the set (as an origin), or none.
    static func randomOrigin(_ set: ChangeSet, _ rng: inout SplitMix64) -> ItemRef {
        guard Int.random(in: 0..<5, using: &rng) != 0, let ins = set.inserts.randomElement(using: &rng) else { return .none }
        return ItemRef(replica: ins.replica, seq: ins.seq + UInt32.random(in: 0..<ins.length, using: &rng))
    }

    /// Splits insert `j` after `k` of its elements (0 < k < length), keeping its text.
    static func split(_ set: inout ChangeSet, _ j: Int, after k: UInt32) {
        var first = set.inserts[j]
        var second = first
        first.length = k
        second.seq += k
        second.length -= k
        second.left = ItemRef(replica: first.replica, seq: first.seq + k - 1)
        if first.byteCount > 0 {
            var bytes = Int(first.byteStart)
            var units = 0
            for _ in 0..<k {
                let lead = set.content[bytes]
                let size = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                units += size == 4 ? 2 : 1
                bytes += size
            }
            first.byteCount = UInt32(bytes) - first.byteStart
            first.utf16 = UInt32(units)
            second.byteStart = UInt32(bytes)
            second.byteCount -= first.byteCount
            second.utf16 -= first.utf16
        }
        set.inserts[j] = first
        set.inserts.insert(second, at: j + 1)
    }

    @Test(arguments: Array(1...60) as [UInt64])
    func aSetContradictingHeldOriginsIsRefusedAndOneAgreeingApplies(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let note = try Self.fullNote(seed: seed)
        var set = note.changes(since: VersionVector()).changeSet
        try #require(!set.inserts.isEmpty, "seed \(seed): the random note has text")
        // Forge one insert: another left or right origin, or a split whose second part starts
        // after another element (one seed in four keeps the set as it is).
        let j = Int.random(in: 0..<set.inserts.count, using: &rng)
        switch seed % 4 {
        case 0: set.inserts[j].left = Self.randomOrigin(set, &rng)
        case 1: set.inserts[j].right = Self.randomOrigin(set, &rng)
        case 2 where set.inserts[j].length > 1:
            Self.split(&set, j, after: UInt32.random(in: 1..<set.inserts[j].length, using: &rng))
            set.inserts[j + 1].left = Self.randomOrigin(set, &rng)
        default: break
        }
        let forged = Self.origins(of: set)
        let held = Self.origins(of: note)
        let contradicts = forged.contains { id, origins in held[id].map { $0 != origins } ?? false }
        var receiver = note
        do {
            _ = try receiver.apply(NoteChanges(changeSet: set))
            #expect(!contradicts, "seed \(seed): a set contradicting the note was applied")
            #expect(receiver.string == note.string && receiver.elementOrder == note.elementOrder, "seed \(seed)")
        } catch {
            #expect(contradicts, "seed \(seed): a set agreeing with the note was refused: \(error)")
            #expect(error.code == .inconsistent, "seed \(seed): \(error)")
            #expect(receiver.string == note.string && receiver.elementOrder == note.elementOrder, "seed \(seed): a refused set changed the note")
        }
    }
}
