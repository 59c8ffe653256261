import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Deterministic mutation fuzzing of the record reader (issue 12): mutated payload bytes with the
/// header's length and CRC-32C recomputed (so mutations reach the decoder), mutated record JSON,
/// and mutated field types and asset references. Every case must end in a typed error or a valid
/// note; memory stays bounded (inputs are capped at a few KB, and an accepted note's id index may
/// hold no more entries than its runs); and for every accepted record, merging it with a valid
/// version of the same note either is refused with a typed error or gives a record that reads back
/// to the merged text. `RecordReaderFuzzTests.casesPerSeed` × 4 seeds ≥ 100,000 cases per run.
@Suite struct RecordReaderFuzzTests {
    static let seeds: [UInt64] = [12_001, 12_002, 12_003, 12_004]
    static let casesPerSeed = 25_000
    static let name = "fuzz-note"
    static let clock = HybridLogicalClock(physicalClock: .fixed(1_700_000_000_000))
    /// Largest mutated input, so the run's memory stays bounded whatever the mutation declares.
    static let maximumInput = 16_384

    struct Outcome {
        var cases = 0
        var accepted = 0
        var merged = 0
        var failures: [String] = []
    }

    /// Seed records: v2 inline, v2 with assets, v1 text, v1 text asset, v2 with a changed mirror.
    static func seedRecords(_ rng: inout SplitMix64) throws -> [NoteRecord] {
        let notes = FormatSamples.randomNotes(seed: rng.next(), replicas: 3, edits: 30)
        var out: [NoteRecord] = []
        out.append(try NoteRecord(recordName: name, note: notes[0]))
        out.append(try NoteRecord(recordName: name, note: notes[1], limits: NoteLimits(maxInlinePayload: 0, maxInlineText: 0)))
        var v1 = CloudRecord(recordName: name, recordType: NoteSchema.recordType)
        v1[field: NoteSchema.Field.version] = .int64(1)
        v1[field: NoteSchema.Field.text] = .string(notes[2].string)
        v1[field: NoteSchema.Field.modified] = .timestamp(1_700_000_000_000)
        out.append(NoteRecord(v1))
        var v1Asset = v1
        v1Asset[field: NoteSchema.Field.text] = .asset(.new(Array(notes[1].string.utf8)))
        out.append(NoteRecord(v1Asset))
        var mirror = out[0]
        mirror.record[field: NoteSchema.Field.text] = .string(notes[0].string + " (edited by an old app)")
        out.append(mirror)
        return out
    }

    /// Damages payload bytes, then reseals the header so the body decoder sees the damage.
    static func mutatePayload(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var m = bytes
        let body = NoteFormat.headerSize
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            guard m.count > body else { break }
            let i = Int.random(in: body..<m.count, using: &rng)
            switch Int.random(in: 0..<7, using: &rng) {
            case 0: m[i] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
            case 1: m[i] = UInt8.random(in: 0...255, using: &rng)
            case 2: m.remove(at: i)
            case 3: m.insert(UInt8.random(in: 0...255, using: &rng), at: i)
            case 4: m.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0x1F], at: i)  // an inflated varint
            case 5: m.removeLast(Int.random(in: 0...(m.count - i), using: &rng))
            default:
                let j = Int.random(in: body..<m.count, using: &rng)
                let span = m[min(i, j)..<min(max(i, j), min(i, j) + 32)]
                m.insert(contentsOf: span, at: Int.random(in: body...m.count, using: &rng))
            }
        }
        if Int.random(in: 0..<16, using: &rng) == 0, m.count > 8 { m[6] = UInt8.random(in: 0...3, using: &rng) }  // reader version
        return FormatSamples.resealed(Array(m.prefix(maximumInput)))
    }

    /// Damages record JSON: bytes, structural characters, type names, duplicated spans.
    static func mutateJSON(_ json: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var m = json
        let tokens: [String] = ["{", "}", "[", "]", ",", ":", "\"", "\\u00e9", "\\ud800", "null", "true", "-1", "1e999",
                                "\"BYTES\"", "\"STRING\"", "\"ASSET\"", "\"INT64\"", "\"TIMESTAMP\"", "\"payload\"",
                                "\"text\"", "\"version\"", "\"payloadAsset\"", "\"downloadURL\"", "\"size\"", "\u{FF}"]
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            guard !m.isEmpty else { break }
            let i = Int.random(in: 0..<m.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: m.remove(at: i)
            case 1: m[i] = UInt8.random(in: 0...255, using: &rng)
            case 2: m.insert(contentsOf: Array(tokens[Int.random(in: 0..<tokens.count, using: &rng)].utf8), at: i)
            case 3:
                let j = min(m.count, i + Int.random(in: 1...40, using: &rng))
                m.insert(contentsOf: m[i..<j], at: Int.random(in: 0...m.count, using: &rng))
            default:
                // Swap one type name for another.
                let text = String(decoding: m, as: UTF8.self)
                let names = ["BYTES", "STRING", "ASSET", "INT64", "TIMESTAMP"]
                let from = names[Int.random(in: 0..<names.count, using: &rng)]
                let to = names[Int.random(in: 0..<names.count, using: &rng)]
                if let r = text.range(of: from) { m = Array(text.replacingCharacters(in: r, with: to).utf8) }
            }
        }
        return Array(m.prefix(maximumInput))
    }

    /// Changes note fields' types and asset references in memory (bytes dropped, replaced, damaged).
    static func mutateFields(_ record: NoteRecord, _ rng: inout SplitMix64) -> NoteRecord {
        var r = record
        let fields = [NoteSchema.Field.payload, NoteSchema.Field.payloadAsset, NoteSchema.Field.text,
                      NoteSchema.Field.version, NoteSchema.Field.modified]
        let field = fields[Int.random(in: 0..<fields.count, using: &rng)]
        let existing = r.record[field: field]
        let payloadOf: [UInt8] = {
            if case .bytes(let b)? = r.record[field: NoteSchema.Field.payload] { return b }
            return r.record.assetBytes(NoteSchema.Field.payloadAsset) ?? NoteFormat.magic
        }()
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: r.record[field: field] = nil
        case 1: r.record[field: field] = .asset(AssetReference(size: Int64(payloadOf.count), downloadURL: "../../etc/passwd"))
        case 2: r.record[field: field] = .asset(.new(mutatePayload(payloadOf, &rng)))
        case 3: r.record[field: field] = .bytes(mutatePayload(payloadOf, &rng))
        case 4: r.record[field: field] = .string(String(decoding: payloadOf, as: UTF8.self))
        case 5: r.record[field: field] = .int64(Int64.random(in: -3...4, using: &rng))
        case 6: r.record[field: field] = .timestamp(Int64.random(in: Int64.min...Int64.max, using: &rng))
        default:
            if case .asset(var ref)? = existing {
                ref.size = Int64.random(in: -1...(1 << 40), using: &rng)
                ref.fileChecksum = ["", "x", "../y", nil][Int.random(in: 0..<4, using: &rng)]
                if Bool.random(using: &rng) { ref.bytes = mutatePayload(ref.bytes ?? payloadOf, &rng) }
                r.record[field: field] = .asset(ref)
            } else {
                r.record[field: field] = .asset(AssetReference(bytes: Array(payloadOf.prefix(Int.random(in: 0...payloadOf.count, using: &rng)))))
            }
        }
        return r
    }

    /// Reads `record`; for an accepted one, checks the note and that a merge result reads back.
    static func check(_ record: NoteRecord, partner: NoteRecord, _ outcome: inout Outcome) {
        outcome.cases += 1
        let note: NoteText
        do {
            note = try record.read(as: .test(4242), clock: clock).note
        } catch {
            if error.message.isEmpty { outcome.failures.append("untyped refusal \(error)") }
            return
        }
        outcome.accepted += 1
        let limits = NoteLimits.default
        if note.elementCount > limits.maximumElements || note.index.runCount > limits.maximumRuns {
            outcome.failures.append("accepted a note beyond the limits")
        }
        let indexEntries = note.index.leafOf.reduce(0) { $0 + $1.segmentCount }
        if indexEntries > note.index.runCount + note.index.replicas.count {
            outcome.failures.append("id index has \(indexEntries) entries for \(note.index.runCount) runs")
        }
        if !String(decoding: note.utf8, as: UTF8.self).unicodeScalars.elementsEqual(note.string.unicodeScalars) {
            outcome.failures.append("text is not valid")
        }
        do {
            let result = try RecordMerger().merge(records: [partner, record])
            outcome.merged += 1
            let back = try result.record.read(as: .test(4343), clock: clock).note
            if back.string != result.note.string {
                outcome.failures.append("merged record reads back as other text")
            }
        } catch {
            // A typed refusal (e.g. two payloads using one replica id for different text) is fine.
        }
    }

    @Test(arguments: seeds)
    func mutatedRecordsEndInANoteOrATypedError(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let records = try Self.seedRecords(&rng)
        let partner = records[0]
        let jsons = records.map { $0.record.jsonBytes(pretty: false) }
        var outcome = Outcome()
        let start = ContinuousClock.now
        for _ in 0..<Self.casesPerSeed {
            let k = Int.random(in: 0..<records.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0, 1:
                // Payload bytes, resealed, inline or in the payload asset.
                var r = records[k]
                if case .bytes(let b)? = r.record[field: NoteSchema.Field.payload] {
                    r.record[field: NoteSchema.Field.payload] = .bytes(Self.mutatePayload(b, &rng))
                } else if let b = r.record.assetBytes(NoteSchema.Field.payloadAsset) {
                    r.record[field: NoteSchema.Field.payloadAsset] = .asset(.new(Self.mutatePayload(b, &rng)))
                } else {
                    r.record[field: NoteSchema.Field.payload] = .bytes(Self.mutatePayload(NoteFixtures.payload(of: records[0]) ?? [], &rng))
                }
                Self.check(r, partner: partner, &outcome)
            case 2:
                // Record JSON structure.
                let json = Self.mutateJSON(jsons[k], &rng)
                do {
                    let record = try CloudRecord.record(fromJSON: json)
                    Self.check(NoteRecord(record), partner: partner, &outcome)
                } catch {
                    outcome.cases += 1
                    if error.message.isEmpty { outcome.failures.append("untyped JSON refusal") }
                }
            default:
                // Field types and asset references.
                Self.check(Self.mutateFields(records[k], &rng), partner: partner, &outcome)
            }
        }
        let seconds = Double((ContinuousClock.now - start).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - start).components.seconds)
        print("RecordReaderFuzzTests seed \(seed): \(outcome.cases) cases, \(outcome.accepted) accepted, \(outcome.merged) merged, "
              + "\(Int(Double(outcome.cases) / max(seconds, 0.001))) cases/s")
        #expect(outcome.cases == Self.casesPerSeed)
        #expect(outcome.accepted > 0)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.prefix(5))")
    }
}
