import CRDTNoteDurableFiles
import CRDTNoteToolSupport
import Testing
@testable import CRDTNote

/// Merging copies whose right origins differ because one re-pointed group chains (format 7,
/// Docs/FORMAT.md §4.7, "Re-pointed right origins"): a copy that re-pointed, one that holds the
/// chain as it was, and one offline since before the chain's lines were deleted, which types
/// next to them, merged in random orders. Oracle: every line typed and not deleted is in every
/// copy once, and the copies end with the same text.
@Suite("Re-pointed merges")
struct RepointedMergeTests {
    static let ids = (1...4).map { ReplicaID(rawValue: UInt64($0) &* 0x9E37_79B9_7F4A_7C15) }

    /// `note` compacted with its group chains re-pointed and listed in its ledger (what a
    /// compaction does once the fleet reads format 7), or nil when it has none.
    static func repointed(_ note: NoteText) throws -> NoteText? {
        var note = note
        try note.compact(settled: nil, repointing: .sparingHistory(of: note))
        return note.ledger?.repointed.isEmpty == false ? note : nil
    }

    struct Device {
        var note: NoteText
        var typed: Set<String> = []
        var deleted: Set<String> = []
    }

    static func lines(_ note: NoteText) -> [Substring] {
        note.string.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 }
    }

    static func edit(_ device: inout Device, step: Int, rng: inout SplitMix64, topOnly: Bool) throws {
        let lines = Self.lines(device.note)
        if !lines.isEmpty, rng.below(3) == 0 {
            let k = rng.below(lines.count)
            let start = lines[..<k].reduce(0) { $0 + $1.unicodeScalars.count + 1 }
            try device.note.deleteScalars(in: start..<start + lines[k].unicodeScalars.count + 1)
            device.deleted.insert(String(lines[k]))
        } else {
            let k = topOnly || rng.below(2) == 0 ? 0 : rng.below(lines.count + 1)
            let start = lines[..<k].reduce(0) { $0 + $1.unicodeScalars.count + 1 }
            let line = "line \(step) \(device.note.replica.rawValue % 1000)"
            try device.note.insert(line + "\n", atScalarOffset: start)
            device.typed.insert(line)
        }
    }

    static func merge(_ i: Int, _ j: Int, _ devices: inout [Device]) throws {
        var text = Array(devices[i].note.string.unicodeScalars)
        let patch = try devices[i].note.merge(devices[j].note)
        // The patch a text view gets turns the old text into the new one, order changes included.
        for r in patch.replacements { text.replaceSubrange(r.scalarRange, with: r.text.unicodeScalars) }
        #expect(String(String.UnicodeScalarView(text)) == devices[i].note.string, "the merge's patch")
        devices[i].typed.formUnion(devices[j].typed)
        devices[i].deleted.formUnion(devices[j].deleted)
    }

    static func check(_ device: Device, _ comment: Comment) {
        let present = lines(device.note).map(String.init)
        #expect(present.count == Set(present).count, "a line appears twice: \(comment)")
        #expect(Set(present) == device.typed.subtracting(device.deleted), comment)
        #expect(device.note.sequence.invariantViolations().isEmpty, comment)
    }

    @Test(arguments: Array(1...16) as [UInt64])
    func copiesSettleOnOneRightOrigin(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D)
        var devices = Self.ids.prefix(3).map { Device(note: NoteText(replica: $0)) }
        // Three devices type lines, mostly at the top, and merge; the third goes offline.
        for step in 0..<60 {
            let d = rng.below(3)
            try Self.edit(&devices[d], step: step, rng: &rng, topOnly: rng.below(4) != 0)
            if rng.below(3) == 0 { try Self.merge(d, rng.below(3), &devices) }
        }
        for i in 0..<3 { for j in 0..<3 where i != j { try Self.merge(i, j, &devices) } }
        var offline = devices[2]
        // The two others go on: lines typed at the top and deleted make chains.
        for step in 60..<160 {
            let d = rng.below(2)
            try Self.edit(&devices[d], step: step, rng: &rng, topOnly: rng.below(3) != 0)
            if rng.below(3) == 0 { try Self.merge(d, 1 - d, &devices) }
        }
        try Self.merge(0, 1, &devices)
        try Self.merge(1, 0, &devices)
        // Device 0 re-points its chains; device 1 keeps them as they are.
        guard let re = try Self.repointed(devices[0].note) else {
            Issue.record("seed \(seed): no chain to re-point")
            return
        }
        #expect(re.string == devices[0].note.string)
        devices[0].note = re
        // Through its payload: format 7, and it reads back the same.
        let payload = devices[0].note.encodedSnapshot(format: .version2)
        #expect(PayloadHeader.requiredReaderVersion(of: payload) == 7, "seed \(seed)")
        let read = try NoteText(snapshot: payload, replica: devices[0].note.replica)
        #expect(read.string == devices[0].note.string)
        #expect(read.ledger?.repointed == devices[0].note.ledger?.repointed)
        devices[0].note = read
        // The offline device types next to the lines the chains held, deletes, then everyone
        // merges in random orders.
        devices[2] = offline
        for step in 160..<170 { try Self.edit(&devices[2], step: step, rng: &rng, topOnly: true) }
        offline = devices[2]
        for step in 170..<260 {
            let d = rng.below(3)
            if rng.below(2) == 0 {
                try Self.edit(&devices[d], step: step, rng: &rng, topOnly: rng.below(2) == 0)
            } else {
                let other = rng.below(3)
                if other != d { try Self.merge(d, other, &devices) }
            }
            Self.check(devices[d], "seed \(seed) step \(step)")
        }
        for _ in 0..<2 { for i in 0..<3 { for j in 0..<3 where i != j { try Self.merge(i, j, &devices) } } }
        for device in devices {
            Self.check(device, "seed \(seed), at the end")
            #expect(device.note.string == devices[0].note.string, "seed \(seed)")
        }
        #expect(devices[1].note.ledger?.repointed.isEmpty == false, "seed \(seed): the list travels with the merges")
    }

    /// A note library that saves a re-pointed copy into the note as it was, and the other way
    /// round: the merge may change right origins of elements the note held, so the library keeps
    /// the note whole, and reopened it holds what the merge gave (the same elements in the same
    /// order, the same list).
    @Test func aLibraryKeepsWhatAMergeOfRepointedCopiesGives() throws {
        let original = try SecondReaderRepointedTests.chainedNote()
        let repointed = try #require(try Self.repointed(original))
        for (held, saved) in [(original, repointed), (repointed, original)] {
            let files = FaultInjectingFileSystem()
            let library = try NoteLibrary.create(folder: "/library", replica: .test(8), fileSystem: files)
            try library.save(held, as: "n")
            try library.save(saved, as: "n")
            let merged = try library.note("n")
            var expected = held
            try expected.merge(saved)
            #expect(merged.string == expected.string)
            #expect(merged.ledger?.repointed == expected.ledger?.repointed)
            #expect(merged.ledger?.repointed.isEmpty == false)
            let reopened = try NoteLibrary(folder: "/library", replica: .test(8), fileSystem: files).note("n")
            #expect(try GroupChainsTests.elements(of: reopened) == GroupChainsTests.elements(of: expected))
            #expect(reopened.ledger?.repointed == expected.ledger?.repointed)
        }
    }
}
