import CRDTNoteToolSupport
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Damaged format 3 payloads (a compacted note with a ledger): every truncation of the body and
/// thousands of seeded byte changes, each under a correct header and checksum so the body's own
/// checks are what is tested. Loading, the full decode and a merge either succeed or throw a
/// typed error; nothing traps, and what loads merges with a sound copy.
@Suite("Damaged format 3 payloads")
struct CompactedPayloadDamageTests {
    static func sample() throws -> (note: NoteText, body: [UInt8]) {
        var note = try NoteText("first line\nsecond line\nthird line\n", replica: .test(1))
        var other = note.forked(as: .test(2))
        try other.insert("typed elsewhere ", atScalarOffset: 11)
        try note.insert("more ", atScalarOffset: 0)
        try note.merge(other)
        try note.deleteScalars(in: 16..<32)
        try note.insert("x", atScalarOffset: 3)
        try note.deleteScalars(in: 3..<4)
        note.recordSeen(by: .test(1))
        try note.compact(settled: nil)
        try note.compactIfSettled(devices: [[.test(1)], [.test(2)]])
        let payload = note.encodedSnapshot(format: .version3)
        return (note, Array(payload[NoteFormat.headerSize...]))
    }

    /// Loads `body` as a format 3 snapshot, decodes it in full and merges a sound copy into it
    /// and it into that copy: returns whether it was accepted (throwing nothing but typed errors).
    static func exercise(_ body: [UInt8], with sound: NoteText) -> Bool {
        let payload = PayloadHeader.wrap(body, kind: .snapshot, version: 3)
        guard let loaded = try? NoteText(snapshot: payload, replica: .test(3)) else { return false }
        do {
            try loaded.checkLoadedSnapshot()
        } catch {
            return false
        }
        var a = loaded
        var b = sound
        do {
            try a.merge(sound)
            try b.merge(loaded)
        } catch {
            return false  // typed: a contradicting state (forged ids) is refused, nothing changed
        }
        return a.string == b.string
    }

    @Test func everyTruncationIsRefusedWithATypedError() throws {
        let (note, body) = try Self.sample()
        #expect(Self.exercise(body, with: note), "the intact body loads and merges")
        for end in 0..<body.count {
            #expect(!Self.exercise(Array(body[..<end]), with: note), "a body cut at \(end) of \(body.count) was accepted")
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func changedBytesNeverTrap(seed: UInt64) throws {
        let (note, body) = try Self.sample()
        var rng = SplitMix64(seed: seed)
        var accepted = 0
        for _ in 0..<1_000 {
            var damaged = body
            for _ in 0..<(1 + rng.below(3)) {
                damaged[rng.below(damaged.count)] = UInt8(truncatingIfNeeded: rng.below(256))
            }
            if Self.exercise(damaged, with: note) { accepted += 1 }
        }
        // Some changes leave a sound state (a different stamp, say); most are refused.
        #expect(accepted < 1_000)
    }
}
