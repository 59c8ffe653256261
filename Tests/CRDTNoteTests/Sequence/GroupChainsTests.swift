import CRDTNoteToolSupport
import Testing
@testable import CRDTNote

/// Linear group chains (``GroupChains``, issue 31): found where lines are typed at the top of a
/// note and deleted, and re-pointing them keeps the order of everything that stays, checked
/// against the note without re-pointing: the same text, and the same text after the same new
/// edits are merged into both.
@Suite("Group chains")
struct GroupChainsTests {
    static let ids = (1...4).map { ReplicaID(rawValue: UInt64($0) &* 0x9E37_79B9_7F4A_7C15) }

    /// `note` with its runs re-pointed, and how many runs went; nil when nothing would change.
    static func repointed(_ note: NoteText) throws -> (note: NoteText, dropped: Int)? {
        let seq = note.sequence
        let runs = seq.runsInOrder()
        let result = try #require(GroupChains.repointed(runs, replicaCount: seq.replicas.count, replicaIDs: seq.replicas,
                                                       droppable: { runs[$0].isDeleted }),
                                  "re-pointing must keep the rule's order")
        guard result.dropped > 0 else { return nil }
        return (try note.holding(result.runs), result.dropped)
    }

    /// `count` lines ("line 0" first) typed at the top by three devices taking turns, each
    /// seeing the others' lines: the first device's copy.
    static func linesTypedAtTheTop(_ count: Int) throws -> NoteText {
        var devices = ids.prefix(3).map { NoteText(replica: $0) }
        for line in 0..<count {
            let d = line % 3
            try devices[d].insert("line \(line)\n", atScalarOffset: 0)
            for other in devices.indices where other != d { try devices[other].merge(devices[d]) }
        }
        return devices[0]
    }

    /// Every element `note` holds, tombstones included, in document order.
    static func elements(of note: NoteText) throws -> [String] {
        let sequence = try note.loadedSequence()
        return sequence.runsInOrder().flatMap { run in
            (run.seq..<run.seqEnd).map { "\(sequence.replicas[Int(run.replica)].rawValue):\($0)" }
        }
    }

    /// Lines typed at the top by devices taking turns, each seeing the others' lines, then all
    /// deleted but the newest: a chain of one element per deleted line, which re-pointing drops
    /// but for its last member.
    @Test func linesTypedAtTheTopMakeAChain() throws {
        var note = try Self.linesTypedAtTheTop(12)
        let newest = "line 11\n".unicodeScalars.count
        try note.deleteScalars(in: newest..<note.string.unicodeScalars.count)
        try note.compact(settled: nil)
        let before = note.sequence.runsInOrder().filter(\.isDeleted).count
        #expect(before == 11, "each deleted line stays as its first element")
        let (repointed, dropped) = try #require(try Self.repointed(note))
        #expect(dropped == 10)
        #expect(repointed.string == "line 11\n")
        #expect(repointed.sequence.runsInOrder().filter(\.isDeleted).count == 1)
    }

    /// Random notes on 2–4 devices, typed mostly at the top: whenever re-pointing finds chains,
    /// the re-pointed note reads the same, and new edits made on either copy (by a device that
    /// holds the note as it is, or as re-pointed) and merged into both leave them equal.
    @Test(arguments: Array(1...16) as [UInt64])
    func repointingKeepsEveryMergeUnchanged(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D)
        let count = 2 + rng.below(3)
        var devices = Self.ids.prefix(count).map { NoteText(replica: $0) }
        var checked = 0
        for step in 0..<400 {
            let d = rng.below(count)
            let length = devices[d].string.unicodeScalars.count
            switch rng.below(10) {
            case 0..<4:
                let at = rng.below(3) == 0 ? rng.below(length + 1) : 0
                try devices[d].insert("s\(step)\n", atScalarOffset: at)
            case 4..<7 where length > 0:
                let start = rng.below(length)
                try devices[d].deleteScalars(in: start..<min(length, start + 1 + rng.below(8)))
            case 7..<9:
                try devices[d].merge(devices[rng.below(count)])
            default:
                var note = devices[d]
                try note.compact(settled: nil)
                guard let (repointed, _) = try Self.repointed(note) else { continue }
                #expect(repointed.string == note.string, "seed \(seed) step \(step)")
                // New edits on each copy, merged into the other.
                let id = Self.ids[3]
                for (source, target) in [(note, repointed), (repointed, note)] {
                    var editor = source.forked(as: id)
                    for _ in 0..<3 {
                        let n = editor.string.unicodeScalars.count
                        if n > 0, rng.below(3) == 0 {
                            let start = rng.below(n)
                            try editor.deleteScalars(in: start..<min(n, start + 2))
                        } else {
                            try editor.insert("e\(step)", atScalarOffset: rng.below(2) == 0 ? 0 : rng.below(n + 1))
                        }
                    }
                    var a = source, b = target
                    try a.merge(editor)
                    try b.merge(editor)
                    #expect(a.string == b.string, "seed \(seed) step \(step)")
                    #expect(a.string == editor.string, "seed \(seed) step \(step)")
                }
                checked += 1
            }
        }
        #expect(checked > 0, "seed \(seed): some compaction must find a chain")
    }
}

extension NoteText {
    /// This note holding `runs` (document order; some of its runs gone, some origins changed)
    /// instead of its own. Checks that the result keeps the invariants and that the rule's order
    /// of what stays, built from nothing by merging it into an empty note (the merge's own
    /// integration, not the order check), is the order it is stored in.
    func holding(_ runs: [Run]) throws -> NoteText {
        let seq = sequence
        let byID = RunsByID(runs, replicaCount: seq.replicas.count)
        let index = IDIndex(runs, byID: byID, nextSeq: seq.nextSeq, slot: { Int32($0 / TextSequence.bulkLeafFill) })
        var copy = self
        copy.sequence = TextSequence(replicas: seq.replicas, nextSeq: seq.nextSeq, latest: seq.latestStamp,
                                     logs: seq.clockLog.map(\.entries), content: seq.content, runs: runs, index: index)
        copy.textChanged()
        #expect(copy.sequence.invariantViolations().isEmpty)
        var fresh = NoteText(replica: ReplicaID(rawValue: 7))
        try fresh.merge(copy)
        #expect(try GroupChainsTests.elements(of: fresh) == GroupChainsTests.elements(of: copy), "the rule orders the runs differently")
        return copy
    }
}
