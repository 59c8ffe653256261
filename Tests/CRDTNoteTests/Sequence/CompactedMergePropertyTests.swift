import CRDTNoteToolSupport
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Compaction and merging compacted copies (Docs/FORMAT.md §4.7), against two oracles that do
/// not use the compaction code:
/// - a **shadow** copy per device that never compacts: the same local edits (as the change set
///   the device's edit produced) and the same merges; the device's text must always equal its
///   shadow's (same characters, same order);
/// - a **token ledger** per device: the text is made of unique tokens, each typed or deleted
///   whole; a device knows the tokens typed and deleted by itself and by every copy it merged,
///   transitively, and its text must hold exactly the known tokens not known deleted, each once.
///
/// Devices compact at random moments, whatever the others have seen (the strongest case: a
/// device may be "offline across a compaction" at every step), round-trip through their format 3
/// payload, and merge in random orders, repeatedly.
///
/// With `repointing`, half the tokens are typed at the start (making group chains) and devices
/// compact as the sync engine does in a fleet reading format 7: each records what it has seen
/// and drops what the devices counted have seen, re-pointing chains (Docs/FORMAT.md §4.7,
/// "Re-pointed right origins"). Re-pointing changes right origins, so it is safe only for
/// tombstones every device has seen deleted; on odd seeds with three devices or more the last
/// one is not counted (a device past the activity window) and comes back with edits next to
/// what the others dropped.
@Suite("Compacted merges (property)")
struct CompactedMergePropertyTests {
    struct Device {
        var note: NoteText
        var shadow: NoteText
        var known: Set<String> = []
        var deleted: Set<String> = []
    }

    /// The tokens of `text` ("[...]", no brackets inside) and their scalar ranges.
    static func tokens(_ text: String) -> [(name: String, scalars: Range<Int>)] {
        var out: [(String, Range<Int>)] = []
        var start: Int? = nil
        var name = ""
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if scalar == "[" { start = offset; name = "" }
            name.unicodeScalars.append(scalar)
            if scalar == "]", let first = start {
                out.append((name, first..<offset + 1))
                start = nil
            }
        }
        return out
    }

    static func check(_ device: Device, _ comment: Comment) {
        #expect(device.note.string == device.shadow.string, comment)
        let present = tokens(device.note.string).map(\.name)
        #expect(present.count == Set(present).count, "a token appears twice: \(comment)")
        #expect(Set(present) == device.known.subtracting(device.deleted), comment)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as [UInt64], [false, true])
    func compactedCopiesMergeLikeFullOnes(seed: UInt64, repointing: Bool) throws {
        var rng = SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D)
        let count = 2 + rng.below(4)
        var devices = (0..<count).map { i in
            let id = ReplicaID(rawValue: UInt64(i + 1) &* 0x9E37_79B9_7F4A_7C15)
            return Device(note: NoteText(replica: id), shadow: NoteText(replica: id))
        }
        var typed = 0
        var compactions = 0
        var revivals = 0
        var repointings = 0
        // The devices a settled compaction counts (see above).
        let counted = devices.indices.filter { !(repointing && seed % 2 == 1 && count >= 3 && $0 == count - 1) }
            .map { Set([devices[$0].note.replica]) }
        for step in 0..<(repointing ? 1_200 : 300) {
            let i = rng.below(count)
            let comment: Comment = "seed \(seed) step \(step) device \(i)"
            switch rng.below(12) {
            case 0..<4:
                // Type a new token (sometimes a few) at a token boundary.
                let present = Self.tokens(devices[i].note.string)
                let k = repointing && rng.below(2) == 0 ? 0 : rng.below(present.count + 1)
                let at = k == 0 ? 0 : present[k - 1].scalars.upperBound
                var text = ""
                for _ in 0..<(1 + rng.below(2)) {
                    typed += 1
                    let name = "[d\(i)t\(typed)]"
                    text += name
                    devices[i].known.insert(name)
                }
                let before = devices[i].note
                try devices[i].note.insert(text, atScalarOffset: at)
                try devices[i].shadow.apply(try devices[i].note.changes(after: before))
            case 4..<7:
                // Delete a token or two next to each other.
                let present = Self.tokens(devices[i].note.string)
                guard !present.isEmpty else { continue }
                let k = rng.below(present.count)
                let last = min(present.count - 1, k + rng.below(2))
                for t in present[k...last] { devices[i].deleted.insert(t.name) }
                let before = devices[i].note
                try devices[i].note.deleteScalars(in: present[k].scalars.lowerBound..<present[last].scalars.upperBound)
                try devices[i].shadow.apply(try devices[i].note.changes(after: before))
            case 7..<10:
                // Merge another device's whole state (a record fetched from the server).
                let j = rng.below(count)
                let other = devices[j]
                if devices[i].note.isCompacted || other.note.isCompacted { revivals += needsRevival(devices[i].note, other.note) ? 1 : 0 }
                try devices[i].note.merge(other.note)
                try devices[i].shadow.merge(other.shadow)
                devices[i].known.formUnion(other.known)
                devices[i].deleted.formUnion(other.deleted)
            case 10 where repointing, 11 where repointing:
                let listed = devices[i].note.ledger?.repointed ?? [:]
                devices[i].note.recordSeen(by: devices[i].note.replica)
                if try devices[i].note.compactIfSettled(devices: counted, repointing: .sparingHistory(of: devices[i].note)) {
                    compactions += 1
                }
                if let now = devices[i].note.ledger?.repointed, now != listed, !now.isEmpty { repointings += 1 }
                #expect(devices[i].note.invariantViolations.isEmpty, comment)
            case 10:
                try devices[i].note.compact(settled: nil)
                compactions += 1
                #expect(devices[i].note.invariantViolations.isEmpty, comment)
            default:
                // Through the payload: a compacted note is written in format 3 and reads back.
                let payload = devices[i].note.encodedSnapshot(format: .version2)
                let reader = PayloadHeader.requiredReaderVersion(of: payload)
                let listing = devices[i].note.ledger?.repointed.isEmpty == false
                #expect(reader == (listing ? 7 : devices[i].note.isCompacted || devices[i].note.ledger != nil ? 3 : 2), comment)
                devices[i].note = try NoteText(snapshot: payload, replica: devices[i].note.replica)
                try devices[i].note.checkLoadedSnapshot()
            }
            Self.check(devices[i], comment)
        }
        // Everyone syncs twice around: all copies agree, compacted or not.
        for _ in 0..<2 {
            for i in 0..<count {
                for j in 0..<count where j != i {
                    try devices[i].note.merge(devices[j].note)
                    try devices[i].shadow.merge(devices[j].shadow)
                    devices[i].known.formUnion(devices[j].known)
                    devices[i].deleted.formUnion(devices[j].deleted)
                }
            }
        }
        for device in devices {
            Self.check(device, "seed \(seed), after syncing")
            #expect(device.note.string == devices[0].note.string, "seed \(seed)")
            #expect(device.note.invariantViolations.isEmpty, "seed \(seed)")
        }
        #expect(compactions > (repointing ? 0 : 5), "seed \(seed): the run must compact")
        #expect(repointing || revivals > 0, "seed \(seed): some merge must bring back compacted elements")
        #expect(!repointing || repointings > 0, "seed \(seed): some compaction must re-point a chain")
    }

    /// Whether merging `other` into `note` brings back elements `note` compacted.
    func needsRevival(_ note: NoteText, _ other: NoteText) -> Bool {
        let mine = note.index
        let theirs = other.index
        let known = theirs.replicas.map { id in mine.replicaIndex[id].map { mine.nextSeq[Int($0)] } ?? 0 }
        let set = theirs.changes(since: known, receiver: mine)
        return mine.needsRebuilding(set)
    }
}
