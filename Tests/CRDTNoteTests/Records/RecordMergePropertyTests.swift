import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// THE property, for every combination of record kinds: with seeded random edits on both
/// sides of an ancestor, every character inserted by either side and not deleted by either is
/// in the merged text, every character deleted by either side is gone, no character appears
/// twice, and merging in either direction gives the same text.
///
/// Every inserted character is a fresh unique scalar, so a plain-text (v1) side's characters
/// are identified exactly by the diff.
@Suite("RecordMerger property")
struct RecordMergePropertyTests {
    enum AncestorKind: CaseIterable { case v1, v2, v2Asset }
    enum SideKind: CaseIterable { case v2, v2Asset, v1, clobbered }

    struct Combination: CustomStringConvertible, Sendable {
        var ancestor: AncestorKind
        var passAncestor: Bool
        var client: SideKind
        var server: SideKind
        var description: String { "\(ancestor)\(passAncestor ? "" : "(not passed)") client \(client) server \(server)" }
    }

    static let combinations: [Combination] = {
        var out: [Combination] = []
        for a in AncestorKind.allCases {
            for pass in [true, false] {
                for c in SideKind.allCases {
                    for s in SideKind.allCases where a != .v1 || (c != .clobbered && s != .clobbered) {
                        out.append(Combination(ancestor: a, passAncestor: pass, client: c, server: s))
                    }
                }
            }
        }
        return out
    }()

    /// Fresh unique scalars: CJK and (for UTF-16 surrogate coverage) supplementary-plane ideographs.
    struct Alphabet {
        var next = 0
        mutating func fresh() -> Character {
            defer { next += 1 }
            let value = next % 3 == 2 ? 0x20000 + next : 0x4E00 + next
            return Character(Unicode.Scalar(UInt32(value)) ?? "?")
        }
    }

    /// One side's edits: the text it ends with, what it inserted and deleted.
    struct SideEdits {
        var chars: [Character]
        var inserted: Set<Character> = []
        var deleted: Set<Character> = []
        var ops: [(at: Int, delete: Int, insert: [Character])] = []
    }

    static func randomEdits(from start: [Character], alphabet: inout Alphabet, rng: inout SplitMix64) -> SideEdits {
        var side = SideEdits(chars: start)
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            if Bool.random(using: &rng) || side.chars.isEmpty {
                let at = Int.random(in: 0...side.chars.count, using: &rng)
                let new = (0..<Int.random(in: 1...4, using: &rng)).map { _ in alphabet.fresh() }
                side.chars.insert(contentsOf: new, at: at)
                side.inserted.formUnion(new)
                side.ops.append((at, 0, new))
            } else {
                let at = Int.random(in: 0..<side.chars.count, using: &rng)
                let n = min(side.chars.count - at, Int.random(in: 1...3, using: &rng))
                side.deleted.formUnion(side.chars[at..<at + n])
                side.chars.removeSubrange(at..<at + n)
                side.ops.append((at, n, []))
            }
        }
        return side
    }

    static func record(for kind: SideKind, edits: SideEdits, ancestor: NoteRecord, replica: ReplicaID, time: Int64) throws -> NoteRecord {
        let text = String(edits.chars)
        switch kind {
        case .v1:
            return NoteFixtures.v1(text, modified: time)
        case .clobbered:
            return NoteFixtures.clobbered(ancestor, text: text, modified: time)
        case .v2, .v2Asset:
            var note = try ancestor.read(as: replica, clock: NoteFixtures.clock(UInt64(time))).note
            for op in edits.ops {
                if op.delete > 0 { try note.deleteScalars(in: op.at..<op.at + op.delete) }
                if !op.insert.isEmpty { try note.insert(String(op.insert), atScalarOffset: op.at) }
            }
            #expect(note.string == text)
            return try ancestor.writing(note, limits: kind == .v2Asset ? NoteFixtures.assetLimits : .default)
        }
    }

    @Test(arguments: combinations)
    func mergeKeepsEveryLiveCharacterAndDropsEveryDeletedOne(_ combo: Combination) throws {
        for seed in 1...6 as ClosedRange<UInt64> {
            var rng = SplitMix64(seed: seed &* 0x9E37 &+ UInt64(combo.description.utf8.count))
            var alphabet = Alphabet()
            let base = (0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.fresh() }
            let ancestorTime: Int64 = 1_700_000_000_000
            let ancestor: NoteRecord
            switch combo.ancestor {
            case .v1: ancestor = NoteFixtures.v1(String(base), modified: ancestorTime)
            case .v2, .v2Asset:
                ancestor = try NoteFixtures.v2(NoteText(String(base), replica: .test(77), clock: NoteFixtures.clock(UInt64(ancestorTime))),
                                           asset: combo.ancestor == .v2Asset)
            }
            let a = Self.randomEdits(from: base, alphabet: &alphabet, rng: &rng)
            let b = Self.randomEdits(from: base, alphabet: &alphabet, rng: &rng)
            let client = try Self.record(for: combo.client, edits: a, ancestor: ancestor, replica: .test(1001), time: ancestorTime + 10)
            let server = try Self.record(for: combo.server, edits: b, ancestor: ancestor, replica: .test(2002), time: ancestorTime + 20)

            let merger = RecordMerger()
            let passed = combo.passAncestor ? ancestor : nil
            let forward = try merger.merge(ancestor: passed, client: client, server: server)
            let backward = try merger.merge(ancestor: passed, client: server, server: client)
            let text = forward.note.string
            let context = "\(combo) seed \(seed): base \(String(base)) a \(String(a.chars)) b \(String(b.chars)) merged \(text)"
            #expect(text == backward.note.string, "direction matters: \(context)")
            #expect(Set(text).count == text.count, "duplicated characters: \(context)")
            #expect(try forward.record.read(as: .test(5)).note.string == text, "record does not hold the merge: \(context)")
            #expect(forward.record.record[field: "version"] == .int64(2))
            #expect(forward.record.record.recordChangeTag == server.record.recordChangeTag)

            let live = base.filter { !a.deleted.contains($0) && !b.deleted.contains($0) }
            let expected = Set(live).union(a.inserted.subtracting(a.deleted)).union(b.inserted.subtracting(b.deleted))
            let present = Set(text)
            #expect(expected.isSubset(of: present), "lost \(String(expected.subtracting(present))): \(context)")
            // Without an ancestor, a plain-text side's deletions (and deletions of text it still has)
            // cannot be told from insertions: only text deleted by both sides must be gone.
            let plainTwoWay = !combo.passAncestor && (combo.client == .v1 || combo.server == .v1)
            let mustBeGone = plainTwoWay ? a.deleted.intersection(b.deleted) : a.deleted.union(b.deleted)
            #expect(mustBeGone.isDisjoint(with: present), "resurrected \(String(mustBeGone.intersection(present))): \(context)")
            if plainTwoWay { #expect(present.isSubset(of: Set(base).union(a.inserted).union(b.inserted))) }
            else { #expect(present == expected, "unexpected characters: \(context)") }
        }
    }
}
