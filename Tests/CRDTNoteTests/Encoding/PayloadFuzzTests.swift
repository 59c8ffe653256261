import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Deterministic mutation fuzzing of snapshot and changes payloads. Checksums are
/// re-sealed after mutating so the body decoders see the damage. Every case must end in
/// a value (with a consistent structure) or a typed error whose offset lies in the input.
@Suite struct PayloadFuzzTests {
    static let seeds: [UInt64] = [101, 202, 303, 404]

    func check(_ bytes: [UInt8], against base: NoteText) -> Bool {
        do {
            let loaded = try NoteText(snapshot: bytes, replica: .test(77))
            if !checkLoaded(loaded, bytes, against: base) { return false }
        } catch {
            if let offset = error.decodingError?.offset, offset < 0 || offset > bytes.count { return false }
        }
        do {
            var target = base
            let changes = try NoteChanges(encoded: bytes)
            do { try target.apply(changes) } catch {}
            if !target.invariantViolations.isEmpty { return false }
        } catch {
            if let offset = error.decodingError?.offset, offset < 0 || offset > bytes.count { return false }
        }
        return true
    }

    /// A snapshot that loaded (lazily): either its runs decode, and then the note is consistent
    /// and merges both ways, or they do not, and then its text still reads, every edit and merge
    /// throws `corruptSnapshot` with the decoder's error (offset inside the input), and nothing changes.
    func checkLoaded(_ loaded: NoteText, _ bytes: [UInt8], against base: NoteText) -> Bool {
        let text = loaded.string
        if text.unicodeScalars.count != loaded.scalarCount || text.utf16.count != loaded.utf16Count { return false }
        do {
            try loaded.checkLoadedSnapshot()
        } catch {
            if error.offset < 0 || error.offset > bytes.count { return false }
            var edited = loaded
            do { try edited.insert("x", atScalarOffset: 0); return false } catch {
                if error.code != .corruptSnapshot || error.decodingError?.offset == nil { return false }
            }
            var receiver = base
            do { try receiver.merge(loaded); return false } catch {
                if error.code != .corruptSnapshot || error.decodingError?.offset == nil { return false }
            }
            do { try edited.merge(base); return false } catch {
                if error.code != .corruptSnapshot { return false }
            }
            return edited.string == text && edited.encodedSnapshot() == loaded.encodedSnapshot()
                && receiver.encodedSnapshot() == base.encodedSnapshot()
        }
        if !loaded.invariantViolations.isEmpty { return false }
        // Whatever decodes must also merge into another note, unless the two give one id
        // different origins (a damaged copy of a note `base` also holds): then the merge is
        // refused as inconsistent, changing nothing.
        do { _ = try loaded.merging(base).string } catch {
            var receiver = loaded
            guard error.code == .inconsistent, Self.contradict(loaded, base), (try? receiver.merge(base)) == nil,
                  receiver.elementOrder == loaded.elementOrder else { return false }
        }
        var fresh = NoteText(replica: .test(78))
        do { try fresh.apply(loaded.changes(since: VersionVector())) } catch { return false }
        return true
    }

    /// Whether two notes hold an id with different origins.
    static func contradict(_ a: NoteText, _ b: NoteText) -> Bool {
        var origins: [String: String] = [:]
        for e in a.elementOrder { origins["\(e.replica):\(e.seq)"] = "\(String(describing: e.left)) \(String(describing: e.right))" }
        return b.elementOrder.contains { e in
            origins["\(e.replica):\(e.seq)"].map { $0 != "\(String(describing: e.left)) \(String(describing: e.right))" } ?? false
        }
    }

    @Test(arguments: seeds)
    func mutatedPayloadsNeverTrap(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let notes = FormatSamples.randomNotes(seed: seed, replicas: 3, edits: 40)
        let base = notes[0]
        let samples = [notes[1].encodedSnapshot(), notes[2].changes(since: base.version).encoded(), notes[1].changes(since: VersionVector()).encoded()]
        var cases = 0
        var failures = 0
        for sample in samples {
            // Truncation at every length.
            for n in 0..<sample.count {
                cases += 1
                if !check(FormatSamples.resealed(Array(sample[0..<n])), against: base) { failures += 1 }
            }
            // Bit flips, byte replacements, inflated varints, random splices.
            for _ in 0..<7_500 {
                var m = sample
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    let i = Int.random(in: NoteFormat.headerSize..<m.count, using: &rng)
                    m[i] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
                case 1:
                    for _ in 0..<Int.random(in: 1...4, using: &rng) {
                        m[Int.random(in: NoteFormat.headerSize..<m.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                    }
                case 2:
                    let i = Int.random(in: NoteFormat.headerSize..<m.count, using: &rng)
                    m.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF, 0x0F], at: i)
                default:
                    let i = Int.random(in: NoteFormat.headerSize..<m.count, using: &rng)
                    let j = Int.random(in: i...m.count, using: &rng)
                    m.removeSubrange(i..<j)
                }
                cases += 1
                if !check(FormatSamples.resealed(m), against: base) { failures += 1 }
            }
        }
        // Random bytes behind a valid header.
        for _ in 0..<2_000 {
            let body = (0..<Int.random(in: 0..<64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let kind: PayloadKind = Bool.random(using: &rng) ? .snapshot : .changes
            cases += 1
            if !check(PayloadHeader.wrap(body, kind: kind), against: base) { failures += 1 }
        }
        #expect(failures == 0)
        #expect(cases > 25_000)
    }
}
