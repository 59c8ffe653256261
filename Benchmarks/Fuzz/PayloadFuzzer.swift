// libFuzzer harness for crdtnote's untrusted-input decoders (see Docs/FUZZING.md).
//
// NOT a SwiftPM target (so it cannot break `swift build`): build it with Benchmarks/Fuzz/build.sh,
// which compiles CRDTNoteSupport, CRDTNote (with -enable-testing, so the harness can check internal
// invariants), CRDTNoteFiles and CRDTNoteTraces as libFuzzer/ASan-instrumented static libraries and
// links this file against them:
//
//   Benchmarks/Fuzz/build.sh /tmp/payload-fuzzer
//
// Input layout: the first byte picks the target, the rest is that target's input.
//   0  raw payload bytes (header included) -> NoteText(snapshot:) and NoteChanges(encoded:)
//   1  snapshot BODY; the harness adds a valid header + CRC-32C so mutations reach the body decoder
//   2  changes BODY, sealed the same way, then applied to small fixed notes
//   3  CloudKit record JSON -> CloudRecord.records(fromJSON:)
//   4  editing-trace JSON   -> EditingTrace(jsonBytes:)
//   5  gzip stream          -> Gzip.decompress (bounded output)
//   6  snapshot BODY, sealed, as the `payload` of a v2 note record -> NoteRecord.read; an accepted
//      record must be within NoteLimits, and its merge with a base record must read back
//   7  snapshot BODY sealed in a format 2 header (minimum reader 2): the version 2 run table
//   8  snapshot BODY sealed in a format 6 header (minimum reader 6): clock logs in columns
//   9  history BODY sealed in a version 2 header (kind 4, minimum reader 4): events in columns,
//      shadows; an accepted history must normalize once for all, keep no event another covers,
//      and read back from both versions
//  10  history BODY sealed in a version 1 header (kind 4, minimum reader 1)
//  11  snapshot BODY sealed in a format 7 header (minimum reader 7): the ledger's list of
//      re-pointed right origins (Docs/FORMAT.md §4.7)
//
// Errors thrown by the decoders are the expected outcome for bad input. The harness traps
// (on purpose: that is how libFuzzer records a finding) only when a decoder accepts input
// and the result then breaks a property that must hold for every accepted value.
//
// Set PAYLOAD_FUZZER_SEEDS=<dir> to have the harness write a seed corpus into <dir> at start-up.
// Set PAYLOAD_FUZZER_ALLOW_UNMERGEABLE=1 to skip (not report) decoded snapshots that other notes
// refuse to merge, e.g. to hunt for other bugs while that one is open (Docs/FUZZING.md, "Findings"),
// and PAYLOAD_FUZZER_ALLOW_CONTRADICTING=1 to skip merges that differ by order when the snapshot
// gives an id of the base note other origins (Finding 2, open).

@testable import CRDTNote
import CRDTNoteSupport
import CRDTNoteFiles
import CRDTNoteTraces
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fixed clock so seeds and base notes are reproducible.
private let fixedClock = HybridLogicalClock(physicalClock: .fixed(1_700_000_000_000))

/// Small notes that decoded changes are applied to and decoded snapshots are merged with.
private let baseNotes: [NoteText] = {
    var a = NoteText(replica: ReplicaID(rawValue: 1), clock: fixedClock)
    try? a.insert("hello world", atScalarOffset: 0)
    var b = a.forked(as: ReplicaID(rawValue: 2), clock: fixedClock)
    try? a.insert(", dear", atScalarOffset: 5)
    try? b.deleteScalars(in: 0..<1)
    try? b.insert("H", atScalarOffset: 0)
    try? b.insert("é😀", atScalarOffset: 11)
    var c = NoteText(replica: ReplicaID(rawValue: 3), clock: fixedClock)
    do { try c.merge(a) } catch { violation("the base notes do not merge: \(error)") }
    try? c.insert("!", atScalarOffset: c.scalarCount)
    return [NoteText(replica: ReplicaID(rawValue: 9), clock: fixedClock), a, b, c]
}()

/// Lines typed at the top by two replicas taking turns, all but the newest deleted, compacted
/// with its group chains re-pointed: a format 7 seed.
private func repointedNote() -> NoteText {
    var notes = [NoteText(replica: ReplicaID(rawValue: 21), clock: fixedClock), NoteText(replica: ReplicaID(rawValue: 22), clock: fixedClock)]
    for line in 0..<8 {
        try? notes[line % 2].insert("line \(line)\n", atScalarOffset: 0)
        do { try notes[1 - line % 2].merge(notes[line % 2]) } catch { violation("the seed notes do not merge: \(error)") }
    }
    var note = notes[1]
    try? note.deleteScalars(in: "line 7\n".unicodeScalars.count..<note.scalarCount)
    do { try note.compact(settled: nil, repointing: .sparingHistory(of: note)) } catch { violation("the seed note does not compact: \(error)") }
    if note.ledger?.repointed.isEmpty != false { violation("the seed note re-pointed nothing") }
    return note
}

/// Whether to skip accepted-but-unmergeable snapshots instead of reporting them.
private let allowUnmergeable = getenv("PAYLOAD_FUZZER_ALLOW_UNMERGEABLE") != nil
/// Whether to skip, instead of reporting, merges that differ by order when the snapshot gives an
/// id of the base note other origins (Docs/FUZZING.md, "Finding 2", open).
private let allowContradicting = getenv("PAYLOAD_FUZZER_ALLOW_CONTRADICTING") != nil

/// Whether `note` decodes to `sequence`'s state (replicas, id counts, latest stamps, clock logs,
/// text, runs) with `ledger`.
private func sameState(_ note: NoteText, _ sequence: TextSequence, ledger: CompactionLedger?) -> Bool {
    guard let other = try? note.loadedSequence() else { return false }
    return other.replicas == sequence.replicas && other.nextSeq == sequence.nextSeq && other.latestStamp == sequence.latestStamp
        && other.clockLog.map(\.entries) == sequence.clockLog.map(\.entries) && other.utf8Bytes() == sequence.utf8Bytes()
        && other.runsInOrder() == sequence.runsInOrder() && note.ledger == ledger
}

/// Stops the run with a message libFuzzer prints next to the crashing input.
private func violation(_ what: String) -> Never {
    fatalError("PayloadFuzzer property violated: \(what)")
}

private func checkInvariants(_ note: NoteText, _ context: String) {
    let problems: [String]
    do {
        problems = try note.loadedSequence().invariantViolations()
    } catch {
        problems = ["index cannot be built: \(error)"]
    }
    if !problems.isEmpty { violation("\(context): \(problems.prefix(3))") }
}

/// An accepted snapshot must be structurally sound, re-encode stably and merge both ways.
private func exerciseSnapshot(_ bytes: [UInt8]) {
    let loaded: NoteText
    do {
        loaded = try NoteText(snapshot: bytes, replica: ReplicaID(rawValue: 77), clock: fixedClock)
        // Loading is lazy: decode the runs now, as an edit or merge would.
        try loaded.checkLoadedSnapshot()
    } catch let error as PayloadError where error.decodingError != nil {
        let offset = error.decodingError?.offset ?? 0
        if offset < 0 || offset > bytes.count { violation("error offset \(offset) outside \(bytes.count) bytes") }
        return
    } catch let error as BinaryDecodingError {
        if error.offset < 0 || error.offset > bytes.count { violation("error offset \(error.offset) outside \(bytes.count) bytes") }
        return
    } catch {
        return
    }
    checkInvariants(loaded, "decoded snapshot")
    let first = loaded.encodedSnapshot()
    guard let again = try? NoteText(snapshot: first, replica: ReplicaID(rawValue: 77), clock: fixedClock) else {
        violation("re-encoded snapshot does not decode")
    }
    if again.string != loaded.string { violation("snapshot round trip changed the text") }
    if again.encodedSnapshot() != first { violation("snapshot encoding is not stable") }
    // Formats 2 and 6 (written whether or not its columns pay) must hold the same state. States
    // are compared decoded: an accepted body need not be the one this library would write (the
    // first run's left origin may say "none" or "previous element", both none), and a note
    // loaded and left alone hands its own bytes back.
    guard let sequence = try? loaded.loadedSequence() else { violation("a checked snapshot does not decode") }
    guard let viaTwo = try? NoteText(snapshot: loaded.encodedSnapshot(format: .version2), replica: ReplicaID(rawValue: 77), clock: fixedClock),
          sameState(viaTwo, sequence, ledger: loaded.ledger) else {
        violation("format 2 round trip changed the state")
    }
    // Format 6's columns; format 7 (the same with the list) when the ledger lists re-pointed ids.
    let columns: SnapshotFormat = loaded.ledger?.repointed.isEmpty == false ? .version7 : .version6
    guard let viaSix = try? NoteText(snapshot: PayloadHeader.wrap(SnapshotEncoder.encode(sequence, format: columns, ledger: loaded.ledger),
                                                                  kind: .snapshot, version: columns.rawValue),
                                     replica: ReplicaID(rawValue: 77), clock: fixedClock),
          sameState(viaSix, sequence, ledger: loaded.ledger) else {
        violation("format 6 round trip changed the state")
    }
    var edited = loaded
    try? edited.insert("x", atScalarOffset: edited.scalarCount / 2)
    if edited.scalarCount > 0 { try? edited.deleteScalars(in: 0..<1) }
    checkInvariants(edited, "edited snapshot")
    for base in baseNotes.prefix(2) {
        let forward: NoteText, backward: NoteText
        do {
            forward = try loaded.merging(base)
            backward = try base.merging(loaded)
        } catch {
            // A damaged copy of a note the base also holds can give an id other origins: such
            // copies contradict each other and the merge is refused (FORMAT.md §5, §6).
            if error.code == .inconsistent && contradict(loaded, base) { continue }
            if allowUnmergeable { return }
            violation("decoder accepted a snapshot that cannot be merged into another note: \(error)")
        }
        checkInvariants(forward, "snapshot merged with base")
        checkInvariants(backward, "base merged with snapshot")
        // Every accepted state is in the rule's order (FORMAT.md §4.4), so merges commute: the
        // same elements, or, when a side is compacted (format 3 or 6), the same visible elements
        // (which tombstones a merge keeps then depends on who dropped them, FORMAT.md §4.7).
        let compacted = [loaded, base, forward, backward].contains { $0.isCompacted }
        func compared(_ note: NoteText) -> [Element] { compacted ? elements(note).filter { !$0.deleted } : elements(note) }
        if compared(forward) != compared(backward) {
            if allowContradicting && contradict(loaded, base) { continue }
            violation("merges in the two orders differ")
        }
    }
}

/// One element of a note: its id, whether it is deleted, its origins (ids as "replica:seq").
private struct Element: Equatable {
    var id: String
    var deleted: Bool
    var origins: String
}

/// Every element of a note in document order.
private func elements(_ note: NoteText) -> [Element] {
    guard let sequence = try? note.loadedSequence() else { return [] }
    var out: [Element] = []
    func id(_ ref: ItemRef) -> String { ref.isNone ? "-" : "\(sequence.replicas[Int(ref.replica)].rawValue):\(ref.seq)" }
    for slot in sequence.order {
        for run in sequence.leaves[Int(slot)] {
            for k in 0..<run.length {
                let element = ItemRef(replica: run.replica, seq: run.seq + k)
                let left = k == 0 ? run.left : ItemRef(replica: run.replica, seq: run.seq + k - 1)
                out.append(Element(id: id(element), deleted: run.isDeleted, origins: id(left) + " " + id(run.right)))
            }
        }
    }
    return out
}

/// Whether two notes give one id different origins.
private func contradict(_ a: NoteText, _ b: NoteText) -> Bool {
    var origins: [String: String] = [:]
    for e in elements(a) { origins[e.id] = e.origins }
    return elements(b).contains { e in origins[e.id].map { $0 != e.origins } ?? false }
}

/// Accepted changes must re-encode to equal changes and apply atomically and idempotently.
private func exerciseChanges(_ bytes: [UInt8]) {
    let changes: NoteChanges
    do {
        changes = try NoteChanges(encoded: bytes)
    } catch let error as PayloadError where error.decodingError != nil {
        let offset = error.decodingError?.offset ?? 0
        if offset < 0 || offset > bytes.count { violation("error offset \(offset) outside \(bytes.count) bytes") }
        return
    } catch {
        return
    }
    guard let again = try? NoteChanges(encoded: changes.encoded()), again == changes else {
        violation("changes round trip differs")
    }
    for base in baseNotes {
        var target = base
        do {
            try target.apply(changes)
        } catch {
            // Refused changes must leave the note untouched.
            if target.encodedSnapshot() != base.encodedSnapshot() { violation("refused changes modified the note") }
            continue
        }
        checkInvariants(target, "changes applied")
        let once = target.string
        do { try target.apply(changes) } catch { violation("re-applying accepted changes failed: \(error)") }
        if target.string != once { violation("applying changes twice differs from once") }
        guard let reloaded = try? NoteText(snapshot: target.encodedSnapshot(), replica: ReplicaID(rawValue: 77), clock: fixedClock),
              reloaded.string == once else {
            violation("note with applied changes does not survive a snapshot round trip")
        }
    }
}

private func exerciseRecords(_ bytes: [UInt8]) {
    guard let records = try? CloudRecord.records(fromJSON: bytes) else { return }
    for record in records {
        guard let back = try? CloudRecord.records(fromJSON: record.jsonBytes(pretty: false)), back.count == 1 else {
            violation("serialized record does not parse back")
        }
    }
}

/// The record reader (issue 12): a sealed snapshot as a record's payload. Accepted records are
/// within the limits, and whatever RecordMerger writes from them reads back to the same text.
private func exerciseRecordReader(_ payload: [UInt8]) {
    var record = NoteRecord(recordName: "fuzz")
    record.record[field: NoteSchema.Field.version] = .int64(2)
    record.record[field: NoteSchema.Field.payload] = .bytes(payload)
    guard let note = try? record.read(as: ReplicaID(rawValue: 77), clock: fixedClock).note else { return }
    if (try? note.checkLimits()) == nil { violation("record reader accepted a note beyond NoteLimits") }
    let indexEntries = note.sequence.leafOf.reduce(0) { $0 + $1.segmentCount }
    if indexEntries > note.sequence.runCount + note.sequence.replicas.count {
        violation("id index holds \(indexEntries) entries for \(note.sequence.runCount) runs")
    }
    guard let base = try? NoteRecord(recordName: "fuzz", note: baseNotes[1]),
          let merged = try? RecordMerger().merge(records: [base, record]) else { return }
    guard let back = try? merged.record.read(as: ReplicaID(rawValue: 78), clock: fixedClock).note, back.string == merged.note.string else {
        violation("a merged record does not read back")
    }
}

private func exerciseTrace(_ bytes: [UInt8]) {
    _ = try? EditingTrace(jsonBytes: bytes)
}

/// An accepted history must normalize to a fixed point with no event covering another (joined
/// deletions, FORMAT.md §11.1) and read back from what this library writes in both versions.
private func exerciseHistory(_ bytes: [UInt8]) {
    let decoded: NoteHistory
    do { decoded = try NoteHistory(encoded: bytes) } catch { return }
    let normalized = decoded.normalized
    if normalized.normalized.deletions != normalized.deletions { violation("history: normalizing twice changes the events") }
    for (a, b) in zip(normalized.deletions, normalized.deletions.dropFirst()) where a.holds(b) || b.holds(a) {
        violation("history: an event another covers survives normalizing (\(a.seqs), \(b.seqs))")
    }
    for format in [HistoryFormat.version1, .version2] {
        let again: NoteHistory
        do {
            again = try NoteHistory(encoded: normalized.encoded(format: format))
        } catch {
            violation("history: an accepted history written in \(format) does not read back: \(error)")
        }
        if again.normalized.deletions != normalized.deletions { violation("history: the events change through \(format)") }
        if format == .version2, again.shadows != normalized.shadows || again.shadowStamps != normalized.shadowStamps {
            violation("history: the shadows change through version 2")
        }
    }
}

private func exerciseGzip(_ bytes: [UInt8]) {
    _ = try? Gzip.decompress(bytes, maxOutputBytes: 1 << 20)
}

/// libFuzzer entry point: one input, first byte selects the target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let rest = Array(input[1...])
    switch input[0] % 12 {
    case 0:
        exerciseSnapshot(rest)
        exerciseChanges(rest)
    case 1: exerciseSnapshot(PayloadHeader.wrap(rest, kind: .snapshot))
    case 2: exerciseChanges(PayloadHeader.wrap(rest, kind: .changes))
    case 3: exerciseRecords(rest)
    case 4: exerciseTrace(rest)
    case 5: exerciseGzip(rest)
    case 6: exerciseRecordReader(PayloadHeader.wrap(rest, kind: .snapshot))
    case 7: exerciseSnapshot(PayloadHeader.wrap(rest, kind: .snapshot, version: 2))
    case 8: exerciseSnapshot(PayloadHeader.wrap(rest, kind: .snapshot, version: 6))
    case 9: exerciseHistory(PayloadHeader.wrap(rest, kind: .history, version: HistoryFormat.version2.minimumReader))
    case 10: exerciseHistory(PayloadHeader.wrap(rest, kind: .history, version: HistoryFormat.version1.minimumReader))
    default: exerciseSnapshot(PayloadHeader.wrap(rest, kind: .snapshot, version: SnapshotFormat.version7.rawValue))
    }
    return 0
}

/// Optional libFuzzer hook: writes the seed corpus when PAYLOAD_FUZZER_SEEDS names a directory.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    guard let raw = getenv("PAYLOAD_FUZZER_SEEDS") else { return 0 }
    let dir = String(cString: raw)
    var seeds: [[UInt8]] = []
    let empty = VersionVector()
    for note in baseNotes {
        let snapshot = note.encodedSnapshot()
        seeds.append([0] + snapshot)
        seeds.append([1] + snapshot[NoteFormat.headerSize...])
        seeds.append([6] + snapshot[NoteFormat.headerSize...])
        seeds.append([7] + note.encodedSnapshot(format: .version2)[NoteFormat.headerSize...])
        if let sequence = try? note.loadedSequence() {
            seeds.append([8] + SnapshotEncoder.encode(sequence, format: .version6, ledger: note.ledger))
        }
        let all = note.changes(since: empty).encoded()
        seeds.append([0] + all)
        seeds.append([2] + all[NoteFormat.headerSize...])
        for other in baseNotes {
            let delta = note.changes(since: other.version).encoded()
            seeds.append([2] + delta[NoteFormat.headerSize...])
        }
    }
    // A note whose compaction re-pointed group chains (format 7, its ledger listing the ids).
    seeds.append([11] + repointedNote().encodedSnapshot(format: .version7)[NoteFormat.headerSize...])
    // Histories: one note's backspace run (one joined event), deletions elsewhere, a compaction's
    // shadows; each in both versions.
    var history = NoteText(replica: ReplicaID(rawValue: 5), clock: fixedClock)
    history.historyRetention = .default
    try? history.insert("hello wörld, dear", atScalarOffset: 0)
    for k in 0..<4 { try? history.deleteScalars(in: (10 - k)..<(11 - k)) }
    try? history.deleteScalars(in: 0..<2)
    var histories = [history.history]
    var shadowed = history.history
    shadowed.keep(shadows: [ShadowRun(inserter: ReplicaID(rawValue: 5), seqs: 7..<11, left: ShadowRun.Origin(replica: ReplicaID(rawValue: 5), seq: 6), right: nil)],
                  stamps: [ReplicaID(rawValue: 5): [ClockLogEntry(seq: 0, stamp: HLCTimestamp(rawValue: 1_700_000_000_000 << 16))]])
    histories.append(shadowed)
    for h in histories {
        seeds.append([9] + h.encoded(format: .version2)[NoteFormat.headerSize...])
        seeds.append([10] + h.encoded(format: .version1)[NoteFormat.headerSize...])
    }
    seeds.append([3] + Array(#"{"records":[{"recordName":"n1","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"title":{"value":"Hi ✓","type":"STRING"},"n":{"value":2,"type":"INT64"},"payload":{"value":"AAECAwT/","type":"BYTES"},"tags":{"value":["a"],"type":"STRING_LIST"},"asset":{"value":{"fileChecksum":"Ab","size":3},"type":"ASSETID"},"where":{"value":{"latitude":48.85,"longitude":2.35},"type":"LOCATION"}}}]}"#.utf8))
    seeds.append([3] + Array(#"[{"recordName":"a","recordType":"Note","deleted":true,"created":{"timestamp":1700000000000},"fields":{}}]"#.utf8))
    seeds.append([4] + Array(#"{"startContent":"ab","endContent":"a😀c","txns":[{"patches":[[1,1,"😀c"]]}]}"#.utf8))
    seeds.append([4] + Array(#"{"kind":"concurrent","endContent":"ab","numAgents":2,"txns":[{"parents":[],"agent":0,"patches":[[0,0,"a"]]},{"parents":[0],"agent":1,"patches":[[1,0,"b"]]}]}"#.utf8))
    // gzip of "hi\n" (stored by `printf 'hi\n' | gzip -n`).
    seeds.append([5, 0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0xc8, 0xe4, 0x02, 0x00,
                  0x7a, 0x7a, 0x6f, 0xed, 0x03, 0x00, 0x00, 0x00])
    for (i, seed) in seeds.enumerated() {
        let path = dir + "/seed-\(i)"
        guard let file = fopen(path, "wb") else { continue }
        _ = seed.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }
    return 0
}
