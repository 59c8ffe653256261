import CRDTNote
import CRDTNoteTraces
import CRDTNoteSupport
import CRDTNoteToolSupport
import Foundation

/// `views`: what live text views cost. Resolving 100 anchors after a 10-character remote edit is
/// merged into notes of 100 KB, 1 MB and 4 MB (required under 0.5 ms at 4 MB), and the
/// automerge-paper replay with `undoLimit = 100` against the same replay without history
/// (required within 1.3×).
enum ViewsBench {
    static let anchorLimitMs = 0.5
    static let undoRatioLimit = 1.3

    struct AnchorCase {
        var label: String
        var bytes: Int
        var runs: Int
        /// Merging the remote edit, patch included (median).
        var mergeMs: Double
        /// The same merge into an identical copy, without building the patch (median).
        var mergeWithoutPatchMs: Double
        /// What building the patch adds (difference of the two medians, at least 0).
        var patchMs: Double { max(0, mergeMs - mergeWithoutPatchMs) }
        /// Resolving the 100 anchors afterwards (median).
        var resolveMs: Double
        var correct: Bool
        var withinLimit: Bool { resolveMs < ViewsBench.anchorLimitMs && patchMs < ViewsBench.anchorLimitMs }
    }

    struct Result {
        var anchors: [AnchorCase]
        var replayPath: String
        var replayFound: Bool
        var plain: Timing
        var withUndo: Timing
        var replayCorrect: Bool
        var ratio: Double { plain.median > 0 ? withUndo.median / plain.median : 0 }
        var passed: Bool {
            anchors.allSatisfy { $0.correct } && anchors.last.map(\.withinLimit) != false
                && (!replayFound || (replayCorrect && ratio <= ViewsBench.undoRatioLimit))
        }

        var json: JSONValue {
            .object([
                "anchors": .array(anchors.map { c in
                    .object(["note": .string(c.label), "bytes": .int(c.bytes), "runs": .int(c.runs),
                             "merge_10_chars_with_patch_ms": .double(c.mergeMs),
                             "merge_10_chars_without_patch_ms": .double(c.mergeWithoutPatchMs), "patch_ms": .double(c.patchMs), "resolve_100_anchors_ms": .double(c.resolveMs),
                             "correct": .bool(c.correct)])
                }),
                "undo_replay": .object([
                    "trace": .string(replayPath), "found": .bool(replayFound),
                    "plain_ms": .double(plain.median), "undo_limit_100_ms": .double(withUndo.median),
                    "ratio": .double(ratio), "runs": .int(plain.samples.count), "correct": .bool(replayCorrect),
                ]),
            ])
        }

        var lines: [String] {
            var rows = [["views", "median", "notes"]]
            for c in anchors {
                rows.append(["patch of a 10-char merge, \(c.label)", Format.ms(c.patchMs),
                             "merge \(Format.ms(c.mergeMs)) with it, \(Format.ms(c.mergeWithoutPatchMs)) without"])
                rows.append(["100 anchors after a merge, \(c.label)", Format.ms(c.resolveMs),
                             (c.correct ? "offsets checked" : "WRONG OFFSETS")
                                 + (c.bytes >= 4 << 20 && !c.withinLimit ? ", over \(Format.ms(ViewsBench.anchorLimitMs))" : "")])
            }
            if replayFound {
                rows.append(["replay automerge-paper", Format.ms(plain.median), "no undo history"])
                rows.append(["replay, undoLimit = 100", Format.ms(withUndo.median),
                             "\(Format.fixed(ratio, 2))× (limit \(Format.fixed(ViewsBench.undoRatioLimit, 1))×)"
                                 + (replayCorrect ? "" : ", WRONG TEXT")])
            } else {
                rows.append(["replay automerge-paper", "skipped", "\(replayPath) not found"])
            }
            return Table.render(rows)
        }
    }

    static func run(tracePath: String?, runs: Int) throws -> Result {
        var anchors: [AnchorCase] = []
        for (label, bytes) in [("100 KB", 100 << 10), ("1 MB", 1 << 20), ("4 MB", 4 << 20)] {
            anchors.append(try anchorCase(label: label, bytes: bytes, runs: max(runs, 5)))
        }
        let m1Path = tracePath ?? M1Bench.defaultTrace
        let dir = m1Path.contains("/") ? String(m1Path[..<(m1Path.lastIndex(of: "/") ?? m1Path.endIndex)]) : "."
        let path = dir + "/automerge-paper.json.gz"
        guard FileManager.default.fileExists(atPath: path) else {
            return Result(anchors: anchors, replayPath: path, replayFound: false, plain: Timing(samples: []),
                          withUndo: Timing(samples: []), replayCorrect: true)
        }
        guard case .sequential(let trace) = try EditingTrace.load(contentsOf: path) else {
            throw UsageError("\(path) is not a sequential trace")
        }
        var plain: [Double] = []
        var withUndo: [Double] = []
        var correct = true
        // Alternating, so both see the same machine load.
        for _ in 0..<runs {
            let (a, noteA) = try Measure.time { () throws -> NoteText in try TraceReplay.replay(trace) }
            let (b, noteB) = try Measure.time { () throws -> NoteText in try TraceReplay.replay(trace, undoLimit: 100) }
            plain.append(a)
            withUndo.append(b)
            if noteA.string != trace.endContent || noteB.string != trace.endContent || !noteB.canUndo { correct = false }
        }
        return Result(anchors: anchors, replayPath: path, replayFound: true, plain: Timing(samples: plain),
                      withUndo: Timing(samples: withUndo), replayCorrect: correct)
    }

    /// A note of about `bytes` (lines of words, then 2,000 scattered one-character edits so it has
    /// many runs), 100 anchors at seeded offsets, a 10-character edit made on another copy: times
    /// the merge and then the resolution of all anchors, and checks the offsets.
    static func anchorCase(label: String, bytes: Int, runs: Int) throws -> AnchorCase {
        var rng = SplitMix64(seed: 13)
        let text = SetTextBench.note(bytes: bytes, seed: 5).joined(separator: "\n")
        var base = try NoteText(text, replica: ReplicaID(rawValue: 1))
        for i in 0..<2_000 {
            let at = rng.below(base.scalarCount)
            if i % 3 == 0 { try base.deleteScalars(in: at..<at + 1) } else { try base.insert("é", atScalarOffset: at) }
        }
        var merges: [Double] = []
        var plainMerges: [Double] = []
        var resolves: [Double] = []
        var correct = true
        for run in 0..<runs {
            var local = base.forked(as: ReplicaID(rawValue: 2))
            var remote = base.forked(as: ReplicaID(rawValue: 3))
            let editAt = rng.below(remote.scalarCount)
            try remote.insert("0123456789", atScalarOffset: editAt)
            let editUTF16 = try remote.utf16Offset(forScalar: editAt)
            // An edit and its reversal, so the copy owns its storage before the merge is timed
            // (the first change to a forked copy copies the note).
            try local.insert("x", atScalarOffset: 0)
            try local.deleteScalars(in: 0..<1)
            // Two more copies made the same way: one merges first, untimed (the first merge of a run
            // pays for bringing the remote copy's data in), the other is timed without the patch.
            var warm = base.forked(as: ReplicaID(rawValue: 2))
            var plain = base.forked(as: ReplicaID(rawValue: 2))
            try warm.insert("x", atScalarOffset: 0)
            try warm.deleteScalars(in: 0..<1)
            try plain.insert("x", atScalarOffset: 0)
            try plain.deleteScalars(in: 0..<1)
            var offsets: [Int] = []
            var anchors: [TextAnchor] = []
            for _ in 0..<100 {
                let k = rng.below(local.scalarCount + 1)
                let offset = try local.utf16Offset(forScalar: k)
                offsets.append(offset)
                anchors.append(try local.anchor(atUTF16: offset, bias: run % 2 == 0 ? .before : .after))
            }
            try warm.merge(remote, recordingPatch: false)
            // Alternating which of the two timed merges goes first.
            var plainMs = 0.0
            if run % 2 == 1 { plainMs = try Measure.time { () throws -> TextPatch in try plain.merge(remote, recordingPatch: false) }.0 }
            let (mergeMs, patch) = try Measure.time { () throws -> TextPatch in try local.merge(remote) }
            if run % 2 == 0 { plainMs = try Measure.time { () throws -> TextPatch in try plain.merge(remote, recordingPatch: false) }.0 }
            plainMerges.append(plainMs)
            if plain.string != local.string { correct = false }
            if patch.replacements != [TextReplacement(utf16Range: editUTF16..<editUTF16, scalarRange: editAt..<editAt, text: "0123456789")] {
                correct = false
            }
            var resolved: [Int?] = []
            resolved.reserveCapacity(100)
            let (resolveMs, _) = Measure.time { for a in anchors { resolved.append(local.utf16Offset(of: a)) } }
            merges.append(mergeMs)
            resolves.append(resolveMs)
            let after = run % 2 != 0
            for (offset, r) in zip(offsets, resolved) {
                // Offsets after the insertion point move by 10; at the point itself, the bias decides.
                let moved = offset > editUTF16 || (offset == editUTF16 && !after)
                if r != offset + (moved ? 10 : 0) { correct = false }
            }
        }
        return AnchorCase(label: label, bytes: text.utf8.count, runs: runs, mergeMs: Timing(samples: merges).median,
                          mergeWithoutPatchMs: Timing(samples: plainMerges).median,
                          resolveMs: Timing(samples: resolves).median, correct: correct)
    }
}
